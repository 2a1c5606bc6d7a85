//! Whether the JDK is here, for the tests of the benchmark's Java baseline (benches/java).
//! Without it a test says what it leaves out and passes on the rest, except under CI (`CI`
//! set), where a test that quietly tested less would hide a broken setup, so it fails instead.

use std::env;
use std::io::Write;
use std::process::Command;

/// Whether `javac` and `java` can be started from PATH.
pub fn found() -> bool {
    ["javac", "java"].iter().all(|tool| {
        Command::new(tool)
            .arg("-version")
            .output()
            .is_ok_and(|out| out.status.success())
    })
}

/// For `test`, which found no JDK: fails under CI, otherwise says on stderr what it does
/// `instead`.
pub fn missing(test: &str, instead: &str) {
    let why = "javac or java is not on PATH";
    assert!(
        env::var_os("CI").is_none(),
        "{test}: {why}, and CI is set: source scripts/setup.sh jdk"
    );
    // Straight to stderr: the test harness would hold back `eprintln!` from a test that passes.
    let note = format!("note: {test}: {why} (source scripts/setup.sh jdk): {instead}\n");
    std::io::stderr().write_all(note.as_bytes()).ok();
}
