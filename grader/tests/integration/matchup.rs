//! `grade match` run for real: two seeded reference engines whose result is known exactly and
//! does not depend on the threads; the reference binary and a plain Python student as protocol
//! programs; programs that misbehave (a wrong row, a column off the board, garbage, a crash, a
//! hang), each of which loses its games with its reason while the match completes; a player
//! that cannot start (exit 1); and bad arguments (exit 2).

use std::process::Output;

use assert_cmd::prelude::*;
use connect_four_grader::report::inert;

use crate::support::{grade, python, reference_command};

/// Runs `grade match ARGS`.
fn play(args: &[&str]) -> Output {
    grade().arg("match").args(args).output().unwrap()
}

/// The numbers of the summary's row `name`: games, A wins, B wins, ties.
fn row(output: &Output, name: &str) -> [u32; 4] {
    let stdout = String::from_utf8_lossy(&output.stdout);
    let rest = stdout
        .lines()
        .find_map(|line| line.strip_prefix(name).filter(|rest| rest.starts_with(' ')))
        .unwrap_or_else(|| panic!("no row {name:?} in:\n{stdout}"));
    let words: Vec<u32> = rest
        .split_whitespace()
        .take(4)
        .map(|w| w.parse().unwrap())
        .collect();
    words.try_into().unwrap()
}

/// Standard output and error, for messages.
fn text(output: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// A Python fixture student as a `cmd:` player searching `depth` plies.
fn python_player(name: &str, depth: u32) -> String {
    format!("cmd:{depth}:{}", python(name))
}

#[test]
fn two_seeded_engines_always_end_the_same_way_and_the_deeper_wins_most() {
    let args = ["reference:2", "reference:5", "--games", "10", "--seed", "1"];
    let first = play(&args);
    assert!(first.status.success(), "{:?}", text(&first));
    assert_eq!(row(&first, "all"), [10, 0, 7, 3], "{}", text(&first).0);
    assert_eq!(row(&first, "A first"), [5, 0, 2, 3]);
    assert_eq!(row(&first, "B first"), [5, 0, 5, 0]);
    let (stdout, stderr) = text(&first);
    assert!(
        stdout.contains("all            10       0       7     3      0.150  0.035 to 0.459"),
        "{stdout}"
    );
    assert!(stdout.contains("95% Wilson score interval, a tie counted as half a win"));
    assert!(!stdout.contains("lost by failing"), "{stdout}");
    // Standard error is not a terminal here: one line per game, no bar.
    assert_eq!(stderr.lines().count(), 10, "{stderr}");
    assert!(stderr.starts_with("game 1/10, A first: "), "{stderr}");
    assert!(!stderr.contains('\r'), "{stderr}");
    // The same seed, another thread count: the same games.
    let again = play(&[&args[..], &["--threads", "2"]].concat());
    assert_eq!(text(&again).1, stderr);
    assert_eq!(row(&again, "all"), [10, 0, 7, 3]);
}

#[test]
fn protocol_programs_play_whole_games() {
    let reference = format!("cmd:3:{}", reference_command());
    let output = play(&[
        &reference,
        "reference:3:prune",
        "--games",
        "4",
        "--seed",
        "7",
    ]);
    let (stdout, stderr) = text(&output);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    assert_eq!(row(&output, "all")[0], 4, "{stdout}");
    assert!(!stdout.contains("lost by failing"), "{stdout}\n{stderr}");
    assert!(
        stdout.contains(&format!("A (red):   {reference}")),
        "{stdout}"
    );
    // A plain Python student on a small board, against the reference binary.
    let student = python_player("connect_four", 2);
    let output = play(&[
        &student, &reference, "--games", "2", "--rows", "5", "--cols", "6",
    ]);
    let (stdout, stderr) = text(&output);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("2 games on 5 x 6"), "{stdout}");
    assert!(!stdout.contains("lost by failing"), "{stdout}\n{stderr}");
}

#[test]
fn a_misbehaving_program_loses_its_games_with_its_reason() {
    /// Answers `new` as it should and everything else with `REPLY`.
    fn shell(reply: &str) -> String {
        format!(
            "cmd:1:while read word arg; do case $word in new) printf '= %s\\n\\n' $arg;; \
             *) {reply};; esac; done #"
        )
    }
    let cases = [
        (
            python_player("row_off_by_one", 1),
            "answered `= 6` to `play ",
        ),
        (
            shell("printf '= 7\\n\\n'"),
            "chose column 7: there is no column 7: columns are 0 to 6",
        ),
        (
            shell("echo thinking..."),
            "not a protocol response (a line must start with `= ` or `? `): \"thinking...\"",
        ),
        (
            shell("echo Segmentation fault >&2; exit 139"),
            "the program exited: exit status: 139; standard error ends: Segmentation fault",
        ),
        (
            python_player("hang", 1),
            "`genmove`: no answer within the time limit of 1.00 s",
        ),
    ];
    for (program, why) in cases {
        let output = play(&[&program, "reference:1", "--games", "2", "--time-limit", "1"]);
        let (stdout, stderr) = text(&output);
        assert!(output.status.success(), "{program}: {stdout}\n{stderr}");
        assert_eq!(row(&output, "all"), [2, 0, 2, 0], "{program}: {stdout}");
        assert!(
            stdout.contains(
                "Games lost by failing (a move that cannot be played, a crash, a \
                 timeout, garbage): A 2, B 0."
            ),
            "{program}: {stdout}"
        );
        // Game 1 fails for the reason; game 2, with a new copy of the program, is played too.
        for (game, reason) in [
            ("game 1/2, A first: B won: A", why),
            ("game 2/2, B first: B won: A", ""),
        ] {
            let line = stderr
                .lines()
                .find(|line| line.starts_with(game))
                .unwrap_or_else(|| panic!("{program}: no {game:?} in {stderr}"));
            assert!(
                // Progress lines show a command as every report does: inert, its backslashes
                // doubled where they would read as an escape.
                line.contains(&format!("({}) failed after ", inert::line(&program)))
                    && line.contains(reason),
                "{program}: {line}"
            );
        }
    }
}

#[test]
fn a_player_that_cannot_start_stops_the_match_with_exit_1() {
    let output = play(&["reference:1", "cmd:2:/nowhere/connect_four"]);
    let (stdout, stderr) = text(&output);
    assert_eq!(output.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(stdout.is_empty(), "{stdout}");
    assert!(
        stderr.starts_with(
            "grade match: player B (cmd:2:/nowhere/connect_four) cannot start: `new red`: the \
             program exited: exit status: 127"
        ),
        "{stderr}"
    );
    assert!(!stderr.contains("game 1/"), "no game was played: {stderr}");
}

#[test]
fn bad_arguments_exit_2_with_a_clear_message() {
    for (args, message) in [
        (
            &["reference:65", "reference:1"][..],
            "invalid value 'reference:65' for '<A>': depth \"65\" must be a whole number from 0 \
             to 64 (a player is reference:DEPTH, reference:DEPTH:prune or cmd:DEPTH:COMMAND)",
        ),
        (
            &["reference:1", "python3 x.py"],
            "invalid value 'python3 x.py' for '<B>': unknown kind of player \"python3 x.py\"",
        ),
        (&["reference:1", "cmd:4"], "no command after the depth"),
        (
            &["reference:1"],
            "the following required arguments were not provided:\n  <B>",
        ),
        (
            &["reference:1", "reference:2", "--games", "0"],
            "invalid value '0' for '--games <GAMES>'",
        ),
        (
            &["reference:1", "reference:2", "--cols", "33"],
            "must be a whole number from 1 to 32",
        ),
        (
            &["reference:1", "reference:2", "--threads", "0"],
            "must be a whole number from 1 to 256",
        ),
    ] {
        let output = play(args);
        let (stdout, stderr) = text(&output);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stdout.is_empty() && stderr.contains(message),
            "{args:?}: {stderr}"
        );
    }
    // One subcommand at a time: `match` after `student` is an argument too many.
    grade()
        .args(["student", "x", "match", "reference:1", "reference:2"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("unexpected argument 'match'"));
}
