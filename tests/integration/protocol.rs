//! The grading protocol, driven through the real binary: every command, every refusal, the
//! framing, and input that must not crash it.

use crate::binary::{protocol, run};

#[test]
fn a_whole_game_through_every_command() {
    let replies = protocol(
        &["4", "4", "2", "2", "--seed", "7"],
        "new red\nturn\nplay 0\nplay 1\nplay 0\nplay 1\nplay 0\nplay 1\nwinner\nheuristic 0\nplay 0\nturn\nwinner\nboard\nquit\n",
    );
    assert_eq!(
        replies,
        [
            "= red",
            "= red",
            "= 3",
            "= 3",
            "= 2",
            "= 2",
            "= 1",
            "= 1",
            "= none",
            "= inf",
            "= 0",
            "= none",
            "= red",
            "=\nR...\nRB..\nRB..\nRB..",
            "=",
        ]
    );
}

#[test]
fn refusals_name_the_problem() {
    let replies = protocol(
        &["2", "3", "1", "1"],
        "new black\nplay 3\nplay -1\nplay\nplay 0\nplay 0\nplay 0\nheuristic 0\nheuristic 7\nscores 65\nnew green\ndance\nboard extra\n",
    );
    assert_eq!(
        replies,
        [
            "= black",
            "? illegal column",
            "? illegal column",
            "? illegal column",
            "= 1",
            "= 0",
            "? column full",
            "? column full",
            "? illegal column",
            "? illegal depth",
            "? illegal player",
            "? unknown command",
            "? unknown command",
        ]
    );
}

#[test]
fn nothing_is_accepted_once_the_game_is_over() {
    let replies = protocol(&["1", "4", "1", "1"], "new red\nplay 0\nplay 1\nplay 2\nplay 3\nwinner\nturn\nplay 0\nheuristic 0\nscores\ngenmove\n");
    assert_eq!(replies[5], "= tie");
    assert_eq!(replies[6], "= none");
    assert!(
        replies[7..].iter().all(|r| r == "? game over"),
        "{replies:?}"
    );
}

#[test]
fn the_worked_example_scores_nineteen() {
    // Red (5,3), Black (5,4), Red (4,4), Black (5,2); Red to move in column 3 lands at (4,3).
    let replies = protocol(
        &["6", "7", "2", "1"],
        "new red\nplay 3\nplay 4\nplay 4\nplay 2\nturn\nheuristic 3\n",
    );
    assert_eq!(replies[1..], ["= 5", "= 5", "= 4", "= 5", "= red", "= 19"]);
}

#[test]
fn scores_list_every_column_with_dashes_for_full_ones() {
    // Column 1 is full; red's drops score 1 + 4 (row with red's bottom checker), the same, and
    // 1 + 4 + 4 (the down-right diagonal through red's (1,1) too), worked out by hand.
    let replies = protocol(
        &["4", "4", "0", "1"],
        "new red\nplay 1\nplay 1\nplay 1\nplay 1\nscores\nscores 0\n",
    );
    assert_eq!(replies[5], "= 5 - 5 9");
    assert_eq!(
        replies[5], replies[6],
        "scores without a depth uses the command line's"
    );
}

#[test]
fn genmove_plays_a_best_column() {
    let replies = protocol(
        &["6", "7", "3", "2", "--seed", "1"],
        "new red\nplay 0\nplay 6\nplay 1\nplay 6\nplay 2\ngenmove\nboard\n",
    );
    assert_eq!(
        replies[6], "= 3",
        "black must block red's three in the bottom row"
    );
    assert!(replies[7].ends_with("RRRB..B"), "{}", replies[7]);
}

#[test]
fn random_first_players_include_both_colours() {
    let commands = "new\n".repeat(40);
    let replies = protocol(&["6", "7", "1", "1"], &commands);
    assert!(replies.contains(&"= red".to_string()) && replies.contains(&"= black".to_string()));
}

#[test]
fn comments_blank_lines_and_odd_bytes_are_handled() {
    let replies = protocol(
        &["3", "3", "0", "1"],
        "# a comment\n\n   \nNEW Red\n\u{fffd}\u{1}\nturn",
    );
    assert_eq!(replies, ["= red", "? unknown command", "= red"]);
    let long = format!("{}\nturn\n", "x".repeat(10_000));
    assert_eq!(protocol(&["3", "3", "0", "1"], &long)[0], "? line too long");
    let output = run(&["3", "3", "0", "1", "--protocol"], "");
    assert!(
        output.status.success() && output.stdout.is_empty(),
        "end of input exits cleanly"
    );
}

#[test]
fn undo_and_redo_restore_the_reference_s_game_exactly() {
    let replies = protocol(
        &["5", "6", "3", "2", "--seed", "3"],
        "new red\nplay 2\nscores\nboard\ngenmove\nplay 4\nboard\nundo\nundo\nscores\nboard\nredo\n\
         redo\nboard\nredo\nundo 1\nnew black\nundo\n",
    );
    let [_, _, scores, board, genmove, _, after, undo4, undo_reply, scores_again, board_again, redo_reply, redo4, after_again, rest @ ..] =
        &replies[..]
    else {
        panic!("{replies:?}");
    };
    assert_eq!(undo4, "= 4");
    assert_eq!(undo_reply, genmove, "the computer's reply is taken back");
    assert_eq!((scores_again, board_again), (scores, board));
    assert_eq!((redo_reply, redo4), (genmove, &"= 4".to_string()));
    assert_eq!(after_again, after);
    assert_eq!(
        rest,
        [
            "? nothing to redo",
            "? unknown command",
            "= black",
            "? nothing to undo"
        ]
    );
}

#[test]
fn connect_m_wins_with_m_in_a_row_and_values_windows_of_m() {
    // Connect 3: red's third checker on the bottom row wins; four would not have been needed.
    let replies = protocol(
        &["4", "5", "1", "1", "--connect", "3"],
        "new red\nheuristic 2\nplay 0\nplay 0\nplay 1\nplay 1\nheuristic 2\nplay 2\nwinner\n",
    );
    // The bottom row's centre: three row windows, one on each diagonal and the column's run,
    // each missing two of three: six times 4.
    assert_eq!(replies[1], "= 24");
    assert_eq!(replies[6], "= inf");
    assert_eq!(replies[8], "= red");
}
