//! Running a program with some input and collecting what it did: a helper of the reference's
//! integration tests (tests/integration), here because the grading kit's tests include this file
//! by path too.

use std::ffi::OsStr;
use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `program ARGS` with `input` on standard input and returns what it did. The input is
/// written on its own thread, so a large answer cannot block it, and a program that quits
/// before reading all of it (a broken pipe) is within its rights.
pub fn run_program(program: impl AsRef<OsStr>, args: &[&str], input: &str) -> Output {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the program starts");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let input = input.to_string();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let output = child.wait_with_output().expect("the program finishes");
    writer.join().expect("the writer does not panic");
    output
}
