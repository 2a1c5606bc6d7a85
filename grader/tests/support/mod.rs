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

/// The course's copy of the supplied crate, inside the starter project.
pub fn starter_supplied() -> PathBuf {
    repository().join("starter/supplied")
}

/// Copies the directory `from` into `to` (created if needed), leaving out any `target`
/// directory: a copy of sources, as a student makes one, never someone's build output.
pub fn copy_dir(from: &Path, to: &Path) {
    fn fail<T>(path: &Path, e: std::io::Error) -> T {
        panic!("{}: {e}", path.display())
    }
    std::fs::create_dir_all(to).unwrap_or_else(|e| fail(to, e));
    for entry in std::fs::read_dir(from).unwrap_or_else(|e| fail(from, e)) {
        let entry = entry.expect("a directory entry");
        let (path, target) = (entry.path(), to.join(entry.file_name()));
        if entry.file_type().expect("a file type").is_dir() {
            if entry.file_name() != "target" {
                copy_dir(&path, &target);
            }
        } else {
            std::fs::copy(&path, &target).unwrap_or_else(|e| fail(&path, e));
        }
    }
}

/// Makes `dir` a submission that runs the fixture student `name` (a Python file of
/// [`fixtures`]) when started with `sh {dir}/run`.
pub fn python_submission(dir: &Path, name: &str) {
    std::fs::create_dir_all(dir).unwrap();
    let script = fixtures().join(format!("{name}.py"));
    std::fs::write(
        dir.join("run"),
        format!("exec python3 '{}' \"$@\"\n", script.display()),
    )
    .unwrap();
}

/// Makes `dir` a kit of only `cases` (names under the repository kit's `cases/`, copied with
/// their solutions) and a rubric whose categories are exactly those cases' points: a kit that a
/// test can grade a class with in seconds.
pub fn small_kit(dir: &Path, cases: &[&str]) {
    let mut categories: Vec<(String, f64)> = Vec::new();
    for name in cases {
        let from = kit().join("cases").join(name);
        let to = dir.join("cases").join(name);
        std::fs::create_dir_all(to.parent().expect("a case's folder")).unwrap();
        for extension in ["toml", "solution"] {
            std::fs::copy(from.with_extension(extension), to.with_extension(extension)).unwrap();
        }
        let text = std::fs::read_to_string(from.with_extension("toml")).unwrap();
        let case: toml::Table = toml::from_str(&text).unwrap();
        let category = case["category"].as_str().expect("a category").to_string();
        let points = &case["points"];
        let points = points
            .as_float()
            .or(points.as_integer().map(|p| p as f64))
            .expect("points");
        match categories.iter_mut().find(|(c, _)| *c == category) {
            Some((_, sum)) => *sum += points,
            None => categories.push((category, points)),
        }
    }
    let mut rubric = String::from("title = \"A small kit\"\nspeedup = []\n");
    for (name, points) in categories {
        rubric.push_str(&format!(
            "\n[[category]]\nname = \"{name}\"\npoints = {points:?}\n"
        ));
    }
    std::fs::write(dir.join("rubric.toml"), rubric).unwrap();
}
