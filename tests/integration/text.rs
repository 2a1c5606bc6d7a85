//! The terminal front end through the real binary: whole games piped into
//! `connect_four ... --text`, checked by what a person at the terminal would read.

use assert_cmd::Command;
use predicates::prelude::*;

use crate::binary::protocol;

/// `connect_four ROWS COLS 2 1 --text --seed 5 --first red` plus `extra`, fed `typed`.
fn text_game(size: [&str; 2], extra: &[&str], typed: &str) -> assert_cmd::assert::Assert {
    Command::new(env!("CARGO_BIN_EXE_connect_four"))
        .args([
            size[0], size[1], "2", "1", "--text", "--seed", "5", "--first", "red",
        ])
        .args(extra)
        .write_stdin(typed)
        .assert()
}

#[test]
fn two_people_play_to_a_win() {
    text_game(
        ["6", "7"],
        &["--opponent", "human"],
        "0\n1\n0\n1\n0\n1\n0\nn\n",
    )
    .success()
    .stdout(predicate::str::contains("  0  1  2  3  4  5  6\n"))
    .stdout(predicate::str::contains(
        "Red to move, column 0 to 6 (u: undo, r: redo, hint, quit): ",
    ))
    .stdout(predicate::str::contains("  R  B  .  .  .  .  .\n"))
    .stdout(predicate::str::contains(
        "Red wins!\nPlay again? (y/n, u: undo) ",
    ))
    .stdout(predicate::str::ends_with("Goodbye.\n"));
}

#[test]
fn connect_three_is_named_and_won_with_three() {
    text_game(
        ["4", "5"],
        &["--opponent", "human", "--connect", "3"],
        "0\n1\n0\n1\n0\nn\n",
    )
    .success()
    .stdout(predicate::str::starts_with(
        "Connect 3 (3 in a row win) on a 4 x 5 board.",
    ))
    .stdout(predicate::str::contains("Red wins!"));
}

#[test]
fn undo_after_a_win_takes_the_winning_move_back_and_play_goes_on() {
    text_game(
        ["6", "7"],
        &["--opponent", "human"],
        "0\n1\n0\n1\n0\n1\n0\nu\n6\nquit\n",
    )
    .success()
    .stdout(predicate::str::contains(
        "Red wins!\nPlay again? (y/n, u: undo) Took back the move in column 0.\n\n\
         \x20 0  1  2  3  4  5  6\n  .  .  .  .  .  .  .\n  .  .  .  .  .  .  .\n\
         \x20 .  .  .  .  .  .  .\n  R  B  .  .  .  .  .\n  R  B  .  .  .  .  .\n\
         \x20 R  B  .  .  .  .  .\nRed to move",
    ))
    .stdout(predicate::str::contains("  R  B  .  .  .  .  R\n"))
    .stdout(predicate::str::ends_with(
        "Black to move, column 0 to 6 (u: undo, r: redo, hint, quit): Goodbye.\n",
    ));
}

#[test]
fn bad_input_is_explained() {
    text_game(
        ["2", "3"],
        &["--opponent", "human"],
        "seven\n9\n0\n0\n0\nquit\n",
    )
    .success()
    .stdout(predicate::str::contains("'seven' is not a column number"))
    .stdout(predicate::str::contains(
        "There is no column 9: columns are 0 to 2",
    ))
    .stdout(predicate::str::contains(
        "Column 0 is full: choose another column.",
    ))
    .stdout(predicate::str::ends_with("Goodbye.\n"));
}

#[test]
fn a_game_against_the_computer_ends_in_a_result() {
    // Red tries each column in turn; a full column is refused and the next is tried.
    let moves = "0\n1\n2\n3\n".repeat(10);
    text_game(
        ["4", "4"],
        &["--opponent", "computer"],
        &format!("{moves}n\n"),
    )
    .success()
    .stdout(predicate::str::contains(
        "The computer (black) drops a checker in column",
    ))
    .stdout(
        predicate::str::contains("You win!")
            .or(predicate::str::contains("The computer wins."))
            .or(predicate::str::contains("It's a tie")),
    );
}

#[test]
fn the_opponent_is_asked_when_not_given() {
    text_game(["4", "4"], &[], "x\nh\n0\nquit\n")
        .success()
        .stdout(predicate::str::contains(
            "Play against a (h)uman or the (c)omputer, or (w)atch the computer play itself? ",
        ))
        .stdout(predicate::str::contains(
            "Please type h for a human, c for the computer or w to watch",
        ))
        .stdout(predicate::str::contains("Black to move"));
}

#[test]
fn the_end_of_input_ends_the_program_quietly() {
    for typed in ["", "3\n", "x"] {
        text_game(["6", "7"], &["--opponent", "human"], typed)
            .success()
            .stdout(predicate::str::ends_with("Goodbye.\n"))
            .stderr("");
    }
}

#[test]
fn a_new_game_can_follow() {
    text_game(["1", "2"], &["--opponent", "human"], "0\n1\ny\n0\n1\nno\n")
        .success()
        .stdout(predicate::str::contains("It's a tie").count(2));
}

#[test]
fn an_over_long_line_is_refused_and_play_goes_on() {
    let typed = format!("{}\n3\nquit\n", "3".repeat(10_000));
    text_game(["6", "7"], &["--opponent", "human"], &typed)
        .success()
        .stdout(predicate::str::contains("That line is too long.\n"))
        .stdout(predicate::str::contains("  .  .  .  R  .  .  .\n"))
        .stdout(predicate::str::ends_with("Goodbye.\n"));
}

/// Plays `first` into the terminal front end, waits until its output holds `reply` (so that
/// nothing is typed while the computer thinks: a line typed then stops the search), then types
/// `then`; returns everything it printed.
fn typed_after_reply(args: &[&str], first: &str, reply: &str, then: &str) -> String {
    use std::io::{Read, Write};
    use std::process::{Command, Stdio};
    use std::sync::mpsc;
    use std::time::Duration;

    let mut child = Command::new(env!("CARGO_BIN_EXE_connect_four"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut stdin = child.stdin.take().expect("piped");
    let mut stdout = child.stdout.take().expect("piped");
    let (sender, received) = mpsc::channel();
    std::thread::spawn(move || {
        let mut chunk = [0; 4096];
        while let Ok(n @ 1..) = stdout.read(&mut chunk) {
            if sender.send(chunk[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    let mut printed = Vec::new();
    stdin.write_all(first.as_bytes()).unwrap();
    while !String::from_utf8_lossy(&printed).contains(reply) {
        match received.recv_timeout(Duration::from_secs(60)) {
            Ok(bytes) => printed.extend(bytes),
            Err(_) => panic!(
                "no {reply:?} within 60 s: {}",
                String::from_utf8_lossy(&printed)
            ),
        }
    }
    stdin.write_all(then.as_bytes()).unwrap();
    drop(stdin);
    assert!(child.wait().unwrap().success());
    printed.extend(received.iter().flatten());
    String::from_utf8(printed).expect("UTF-8 output")
}

#[test]
fn undo_against_the_computer_takes_back_both_moves_and_redo_replays_them() {
    let args = [
        "4",
        "5",
        "2",
        "1",
        "--text",
        "--seed",
        "5",
        "--first",
        "red",
        "--opponent",
        "computer",
    ];
    let out = typed_after_reply(&args, "u\n2\n", "drops a checker in column", "u\nr\nquit\n");
    assert!(
        out.contains("Nothing to undo: no move has been played.\n"),
        "{out}"
    );
    let took_back = regex_match(
        "Took back the moves in columns [0-4] and 2\\.\n\n  0  1  2  3  4\n(  \\.  \\.  \\.  \\.  \\.\n){4}Your move",
        &out,
    );
    assert!(took_back, "{out}");
    assert!(
        regex_match("Played the moves in columns 2 and [0-4] again\\.\n", &out),
        "{out}"
    );
    assert!(out.ends_with("Goodbye.\n"), "{out}");
}

/// Whether `text` matches the regular expression `pattern`.
fn regex_match(pattern: &str, text: &str) -> bool {
    predicate::str::is_match(pattern).unwrap().eval(text)
}

#[test]
fn a_hint_shows_the_reference_s_values_under_the_columns() {
    // At depth 2 on an empty 4 x 4 board the reference's values for red (checked with the
    // protocol's `scores`): the hint must show the same numbers.
    let replies = protocol(&["4", "4", "2", "1"], "new red\nscores\n");
    let values: Vec<&str> = replies[1].trim_start_matches("= ").split(' ').collect();
    let width = values.iter().map(|v| v.len()).max().unwrap().max(2) + 1;
    let numbers: String = (0..4).map(|col| format!("{col:>width$}")).collect();
    let values: String = values.iter().map(|v| format!("{v:>width$}")).collect();
    text_game(["4", "4"], &["--opponent", "human"], "hint\nquit\n")
        .success()
        .stdout(predicate::str::contains(format!(
            "Each column's minimax value for red at depth 2 (higher is better, - is full):\n{numbers}\n{values}\nBest: column"
        )));
}

#[test]
fn the_computer_plays_itself_to_the_end_with_no_pause() {
    text_game(
        ["3", "4"],
        &["--opponent", "computer-vs-computer", "--pause", "0"],
        "",
    )
    .success()
    .stdout(predicate::str::contains(
        "The computer plays both sides, 0 s between moves: press Enter to stop watching.\n",
    ))
    .stdout(predicate::str::contains(
        "The computer (red) drops a checker in column",
    ))
    .stdout(predicate::str::contains(
        "The computer (black) drops a checker in column",
    ))
    .stdout(
        predicate::str::contains("Red wins!")
            .or(predicate::str::contains("Black wins!"))
            .or(predicate::str::contains("It's a tie")),
    )
    .stdout(predicate::str::contains("Your move").not())
    .stdout(predicate::str::ends_with("Play again? (y/n) \nGoodbye.\n"));
}

#[test]
fn pressing_enter_stops_the_watching() {
    // The pause is long, but the line typed ends it at once.
    text_game(
        ["6", "7"],
        &["--opponent", "computer-vs-computer", "--pause", "60"],
        "\nn\n",
    )
    .success()
    .stdout(predicate::str::contains(
        "Stopped watching.\nPlay again? (y/n) Goodbye.\n",
    ))
    .stdout(predicate::str::contains("drops a checker").not());
}
