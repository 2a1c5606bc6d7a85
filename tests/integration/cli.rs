//! The command line, through the real binary: bad arguments name the argument and its range and
//! exit with code 2; help and version work; the results never depend on THREADS.

use crate::binary::{protocol, run};

#[test]
fn bad_arguments_are_explained_with_exit_code_2() {
    for (args, expected) in [
        (
            vec!["0", "7", "5", "2"],
            "invalid value '0' for '<ROWS>': must be a whole number from 1 to 32",
        ),
        (
            vec!["6", "33", "5", "2"],
            "invalid value '33' for '<COLS>': must be a whole number from 1 to 32",
        ),
        (
            vec!["6", "7", "-1", "2"],
            "invalid value '-1' for '<DEPTH>': must be a whole number from 0 to 64",
        ),
        (
            vec!["6", "7", "five", "2"],
            "invalid value 'five' for '<DEPTH>': must be a whole number from 0 to 64",
        ),
        (
            vec!["6", "7", "5", "0"],
            "invalid value '0' for '<THREADS>': must be a whole number from 1 to 256",
        ),
        (
            vec!["6", "7", "5"],
            "the following required arguments were not provided",
        ),
        (
            vec!["6", "7", "5", "2", "--first", "green"],
            "invalid value 'green' for '--first <PLAYER>'",
        ),
        (
            vec!["6", "7", "5", "2", "--connect", "1"],
            "invalid value '1' for '--connect <M>': must be a whole number from 2 to 32",
        ),
        (
            vec!["6", "7", "5", "2", "--connect", "8", "--protocol"],
            "invalid value '8' for '--connect <M>': must be a whole number from 2 to 7, \
             the longer side of the 6 x 7 board",
        ),
    ] {
        let output = run(&args, "");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(output.stdout.is_empty());
    }
}

#[test]
fn help_lists_the_arguments_and_front_ends() {
    let output = run(&["--help"], "");
    let help = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success());
    for word in [
        "<ROWS>",
        "<COLS>",
        "<DEPTH>",
        "<THREADS>",
        "--protocol",
        "--text",
        "--prune",
        "--seed",
        "--adaptive",
        "--mute",
        "--connect <M>",
    ] {
        assert!(help.contains(word), "help lacks {word}");
    }
}

#[test]
fn values_do_not_depend_on_the_thread_count() {
    let commands = "new red\nplay 3\nplay 3\nplay 2\nscores\nscores 0\n";
    let expected = protocol(&["6", "7", "5", "1"], commands);
    for threads in ["2", "3", "8", "16"] {
        assert_eq!(
            protocol(&["6", "7", "5", threads], commands),
            expected,
            "{threads} threads"
        );
        assert_eq!(
            protocol(&["6", "7", "5", threads, "--prune"], commands),
            expected,
            "{threads} threads, pruned"
        );
    }
}

#[test]
fn a_seed_makes_games_reproducible() {
    let commands = "new\ngenmove\ngenmove\ngenmove\nnew\ngenmove\n";
    let first = protocol(&["5", "5", "1", "2", "--seed", "42"], commands);
    assert_eq!(
        protocol(&["5", "5", "1", "2", "--seed", "42"], commands),
        first
    );
}

#[test]
fn first_sets_who_moves_first() {
    assert_eq!(
        protocol(&["6", "7", "1", "1", "--first", "black"], "turn\n"),
        ["= black"]
    );
    assert_eq!(
        protocol(&["6", "7", "1", "1", "--first", "red"], "turn\n"),
        ["= red"]
    );
}

#[test]
fn threads_the_system_refuses_are_a_clear_error_not_a_hang() {
    // 256 MiB of data (thread stacks count) is too little for 256 threads' stacks.
    let script = format!(
        "ulimit -d 262144 && exec timeout 30 '{}' 6 7 2 256 --protocol",
        env!("CARGO_BIN_EXE_connect_four")
    );
    let output = std::process::Command::new("sh")
        .args(["-c", &script])
        .stdin(std::process::Stdio::null())
        .output()
        .expect("sh runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.starts_with("connect_four: cannot start the computer player: the operating system refused to start worker thread"),
        "{stderr}"
    );
    assert!(output.stdout.is_empty());
}
