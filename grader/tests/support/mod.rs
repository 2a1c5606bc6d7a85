//! Helpers shared by the grading kit's integration tests: where the kit, its fixtures and the
//! two binaries are.

#![allow(dead_code, reason = "each test crate uses only some of the helpers")]

use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "../../../tests/common/process.rs"]
mod process;
#[allow(unused_imports, reason = "not every test crate runs programs itself")]
pub use process::run_program;

/// The `grade` binary built for these tests.
pub fn grade() -> Command {
    Command::new(env!("CARGO_BIN_EXE_grade"))
}

/// The reference's `connect_four` binary, built beside `grade` by the same `cargo test
/// --workspace` (the reference package's own tests need it, so cargo builds it before any test
/// runs). A clear message if it is missing, rather than a confusing failure later.
pub fn reference() -> PathBuf {
    let grade = Path::new(env!("CARGO_BIN_EXE_grade"));
    let binary = grade.with_file_name(format!("connect_four{}", std::env::consts::EXE_SUFFIX));
    assert!(
        binary.is_file(),
        "{} is missing: run the tests with `cargo test --workspace` (scripts/test does)",
        binary.display()
    );
    binary
}

/// The reference's binary as a `--student` command.
pub fn reference_command() -> String {
    reference().display().to_string()
}

/// The repository's grading kit: rubric and cases.
pub fn kit() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../grading")
}

/// The repository's root.
pub fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The fixture students (Python programs with one mistake each).
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/students")
}
