//! The supplied grading-protocol server driven over a `Playable` that is not the reference
//! (`support/tiny_game.rs`): what a student's game gets from it for free (framing, parsing,
//! refusals, comments, `quit`), whatever their engine does.

use connect_four_supplied::protocol::serve;
use connect_four_supplied::Player;

use crate::support::tiny_game::TinyGame;
use crate::Test;

/// This module's tests, in the order they run.
pub fn tests() -> Vec<Test> {
    tests![
        moves_questions_and_the_board_are_answered_from_the_game,
        refusals_are_named_as_the_protocol_says,
        a_finished_game_refuses_moves_and_says_who_won,
        comments_and_blank_lines_get_no_answer_and_quit_ends_the_session,
        a_line_too_long_is_refused_and_the_session_goes_on,
        undo_takes_back_moves_and_redo_plays_them_again_though_neither_is_graded,
        undo_reopens_a_won_game_and_a_new_game_forgets_the_moves,
    ]
}

/// Serves `input` to a fresh 4 x 4 game with red first and returns every response.
fn session(input: &str) -> Vec<String> {
    let mut game = TinyGame::new(4, 4, Player::Red);
    let mut output = Vec::new();
    serve(&mut game, input.as_bytes(), &mut output).expect("in-memory I/O cannot fail");
    let text = String::from_utf8(output).expect("responses are UTF-8");
    assert!(
        text.is_empty() || text.ends_with("\n\n"),
        "every response ends with an empty line: {text:?}"
    );
    text.split_terminator("\n\n").map(str::to_string).collect()
}

fn moves_questions_and_the_board_are_answered_from_the_game() {
    let responses =
        session("new red\nturn\nplay 1\nplay 1\nheuristic 2\nscores 3\ngenmove\nboard\nwinner\n");
    assert_eq!(
        responses,
        [
            "= red",
            "= red",
            "= 3",
            "= 2",
            "= 2",
            "= 3 3 3 3",
            "= 0",
            "=\n....\n....\n.B..\nRR..",
            "= none",
        ]
    );
}

fn refusals_are_named_as_the_protocol_says() {
    let responses = session(
        "new black\nplay 4\nplay x\nplay\nscores 65\nnew blue\nboard 1\ndance\n\
         play 0\nplay 0\nplay 0\nplay 0\nplay 0\n",
    );
    assert_eq!(
        responses,
        [
            "= black",
            "? illegal column",
            "? illegal column",
            "? illegal column",
            "? illegal depth",
            "? illegal player",
            "? unknown command",
            "? unknown command",
            "= 3",
            "= 2",
            "= 1",
            "= 0",
            "? column full",
        ]
    );
}

fn a_finished_game_refuses_moves_and_says_who_won() {
    let responses = session("new red\nplay 0\nplay 1\nplay 0\nplay 1\nplay 0\nplay 1\nplay 0\nwinner\nturn\nplay 2\ngenmove\nscores\n");
    assert_eq!(responses[7], "= 0", "red's fourth checker lands on top");
    assert_eq!(
        &responses[8..],
        [
            "= red",
            "= none",
            "? game over",
            "? game over",
            "? game over"
        ]
    );
}

fn comments_and_blank_lines_get_no_answer_and_quit_ends_the_session() {
    let responses = session("# a comment\n\n   \nTURN\nquit\nturn\n");
    assert_eq!(responses, ["= red", "="]);
}

fn a_line_too_long_is_refused_and_the_session_goes_on() {
    let long = "x".repeat(connect_four_supplied::protocol::MAX_LINE + 1);
    let responses = session(&format!("{long}\nturn\n"));
    assert_eq!(responses, ["? line too long", "= red"]);
}

fn undo_takes_back_moves_and_redo_plays_them_again_though_neither_is_graded() {
    let responses = session(
        "new black\nundo\nplay 1\ngenmove\nundo\nboard\nredo\nboard\nredo\nundo\nundo\nturn\nundo\n\
         redo\nplay 2\nredo\n",
    );
    assert_eq!(
        responses,
        [
            "= black",
            "? nothing to undo",
            "= 3",
            "= 0",
            "= 0",
            "=\n....\n....\n....\n.B..",
            "= 0",
            "=\n....\n....\n....\nRB..",
            "? nothing to redo",
            "= 0",
            "= 1",
            "= black",
            "? nothing to undo",
            "= 1",
            "= 3",
            "? nothing to redo",
        ]
    );
}

fn undo_reopens_a_won_game_and_a_new_game_forgets_the_moves() {
    let responses = session(
        "new red\nplay 0\nplay 1\nplay 0\nplay 1\nplay 0\nplay 1\nplay 0\nwinner\nundo\nwinner\n\
         turn\nnew red\nundo\nredo\n",
    );
    assert_eq!(
        &responses[8..],
        [
            "= red",
            "= 0",
            "= none",
            "= red",
            "= red",
            "? nothing to undo",
            "? nothing to redo"
        ]
    );
}
