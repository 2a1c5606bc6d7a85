//! Helpers shared by the integration tests that drive the real `connect_four` binary.

#![allow(dead_code)]

mod process;

pub use process::run_program;
use std::process::{Command, Output};

/// Whether the JDK's `javac` and `java` can be started from PATH, for the tests of the Java
/// baseline of the benchmark (benches/java), which are skipped without them.
pub fn has_jdk() -> bool {
    ["javac", "java"].iter().all(|tool| {
        Command::new(tool)
            .arg("-version")
            .output()
            .is_ok_and(|out| out.status.success())
    })
}

/// The `connect_four` binary built for these tests.
pub fn binary() -> Command {
    Command::new(env!("CARGO_BIN_EXE_connect_four"))
}

/// Runs `connect_four ARGS` with `input` on standard input and returns what it did.
pub fn run(args: &[&str], input: &str) -> Output {
    run_program(env!("CARGO_BIN_EXE_connect_four"), args, input)
}

/// Sends protocol `commands` (one per line) to `connect_four ARGS --protocol` and returns the
/// responses, each without its closing empty line.
pub fn protocol(args: &[&str], commands: &str) -> Vec<String> {
    let mut all = args.to_vec();
    all.push("--protocol");
    replies(run(&all, commands))
}

/// The protocol responses in what a program did, each without its closing empty line; fails
/// unless it exited with success and ended every response with an empty line.
pub fn replies(output: Output) -> Vec<String> {
    assert!(
        output.status.success(),
        "exit {:?}: {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8(output.stdout).expect("responses are UTF-8");
    assert!(
        text.is_empty() || text.ends_with("\n\n"),
        "every response ends with an empty line: {text:?}"
    );
    text.split_terminator("\n\n").map(str::to_string).collect()
}
