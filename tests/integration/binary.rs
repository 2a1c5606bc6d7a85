//! Running the real `connect_four` binary built for these tests, and reading its protocol
//! responses.

use std::process::Output;

use crate::process::run_program;

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
