//! The terminal front end through the real binary: whole games piped into
//! `connect_four ... --text`, checked by what a person at the terminal would read.

use assert_cmd::Command;
use predicates::prelude::*;

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
        "Red to move, column 0 to 6 or quit: ",
    ))
    .stdout(predicate::str::contains("  R  B  .  .  .  .  .\n"))
    .stdout(predicate::str::contains("Red wins!\nPlay again? (y/n) "))
    .stdout(predicate::str::ends_with("Goodbye.\n"));
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
            "Play against a (h)uman or the (c)omputer? ",
        ))
        .stdout(predicate::str::contains(
            "Please type h for a human or c for the computer",
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
