//! Undo and redo at the terminal: the turn taken back or played again through the
//! [`History`], and the sentence that says which moves that was, or why there were none.

use std::io::{self, Write};

use super::words::moves_in;
use crate::error::MoveError;
use crate::history::History;
use crate::opponent::Opponent;
use crate::playable::Playable;

/// Takes back the last turn ([`History::undo_turn`]: against the computer, its reply and the
/// person's move together) and says what was taken back, or why nothing was; `true` if the
/// board changed.
pub(super) fn undo(
    game: &mut impl Playable,
    history: &mut History,
    opponent: Opponent,
    output: &mut impl Write,
) -> io::Result<bool> {
    let taken = history
        .undo_turn(game, opponent)
        .map_err(|error| failed("taking the move back", error))?;
    if taken.is_empty() {
        writeln!(output, "{}", nothing_to_undo(history))?;
        return Ok(false);
    }
    writeln!(output, "Took back {}.", moves_in(&taken))?;
    Ok(true)
}

/// Plays the last turn taken back again ([`History::redo_turn`]) and says which moves, or that
/// there were none; `true` if the board changed.
pub(super) fn redo(
    game: &mut impl Playable,
    history: &mut History,
    opponent: Opponent,
    output: &mut impl Write,
) -> io::Result<bool> {
    let redone = history
        .redo_turn(game, opponent)
        .map_err(|error| failed("playing the move again", error))?;
    if redone.is_empty() {
        writeln!(output, "Nothing to redo.")?;
        return Ok(false);
    }
    writeln!(output, "Played {} again.", moves_in(&redone))?;
    Ok(true)
}

/// The error that ends the session when taking moves back or playing them again (`what`)
/// fails: the game did not replay the moves it had accepted, so its board is unknown.
fn failed(what: &str, error: MoveError) -> io::Error {
    io::Error::other(format!("{what} failed: {error}"))
}

/// Why undo took nothing back: no move yet, or (against the computer) only its opening move.
fn nothing_to_undo(history: &History) -> &'static str {
    if history.can_undo() {
        "Nothing to undo: you have not moved yet."
    } else {
        "Nothing to undo: no move has been played."
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::super::testing::{game, session, session_with};
    use super::*;

    use crate::checker::{Checker, Player};
    use crate::protocol::board_rows;
    use crate::tiny_game::TinyGame;

    #[test]
    fn undo_after_a_win_takes_the_winning_move_back_and_the_game_goes_on() {
        let mut game = game(6, 7);
        let out = session(
            &mut game,
            Some(Opponent::Human),
            "0\n1\n0\n1\n0\n1\n0\nmaybe\nu\n2\nquit\n",
        );
        assert!(
            out.contains(
                "Red wins!\nPlay again? (y/n, u: undo) \
                 Please answer y or n, or u to take back the last move.\n\
                 Play again? (y/n, u: undo) Took back the move in column 0.\n"
            ),
            "{out}"
        );
        // The board is drawn again with red's winning checker gone, and play goes on.
        let after = out.split("Took back").nth(1).unwrap();
        let board = format!(
            "  .  .  .  .  .  .  .\n{}Red to move",
            "  R  B  .  .  .  .  .\n".repeat(3)
        );
        assert!(after.contains(&board), "{after}");
        assert!(after.contains("Black to move"), "{after}");
        assert_eq!(game.outcome(), None);
        assert_eq!(game.checker(2, 0), Checker::Empty);
        assert_eq!(game.checker(5, 2), Checker::Red);
        assert_eq!(game.turn(), Checker::Black);
    }

    #[test]
    fn undo_after_the_computer_wins_takes_back_its_move_and_yours() {
        // The tiny computer drops in the leftmost open column: black fills column 0 and wins.
        let mut game = game(4, 4);
        let out = session(&mut game, Some(Opponent::Computer), "3\n3\n3\n2\nu\nquit\n");
        assert!(
            out.contains(
                "The computer wins.\nPlay again? (y/n, u: undo) \
                 Took back the moves in columns 0 and 2.\n"
            ),
            "{out}"
        );
        assert!(
            out.ends_with(
                "Your move (red), column 0 to 3 (u: undo, r: redo, hint, quit): Goodbye.\n"
            ),
            "{out}"
        );
        assert_eq!(game.outcome(), None);
        assert_eq!(
            board_rows(&game).collect::<Vec<_>>(),
            ["....", "B..R", "B..R", "B..R"]
        );
        assert_eq!(game.turn(), Checker::Red);
    }

    #[test]
    fn undo_and_redo_between_two_people_go_one_move_at_a_time() {
        let mut game = game(4, 4);
        let out = session(
            &mut game,
            Some(Opponent::Human),
            "0\n1\nu\nr\nu\nundo\nu\nquit\n",
        );
        for said in [
            "Took back the move in column 1.\n",
            "Played the move in column 1 again.\n",
            "Took back the move in column 0.\n",
            "Nothing to undo: no move has been played.\n",
        ] {
            assert!(out.contains(said), "{said}\n{out}");
        }
        assert!(board_rows(&game).all(|row| row == "...."));
        assert_eq!(game.turn(), Checker::Red);
    }

    #[test]
    fn against_the_computer_undo_takes_back_its_reply_too() {
        let mut game = game(4, 4);
        let out = session(&mut game, Some(Opponent::Computer), "1\nu\nr\nu\nquit\n");
        assert!(
            out.contains("Took back the moves in columns 0 and 1.\n"),
            "{out}"
        );
        assert!(
            out.contains("Played the moves in columns 1 and 0 again.\n"),
            "{out}"
        );
        assert!(board_rows(&game).all(|row| row == "...."));
        assert_eq!(game.turn(), Checker::Red);
    }

    #[test]
    fn the_computer_s_opening_move_is_not_taken_back_alone() {
        let mut game = TinyGame::new(4, 4, Player::Black);
        let typed = std::io::Cursor::new(b"u\nr\nquit\n".to_vec());
        let out = session_with(
            &mut game,
            Some(Opponent::Computer),
            Player::Black,
            Duration::ZERO,
            typed,
        );
        assert!(
            out.contains("Nothing to undo: you have not moved yet.\nYour move (red)"),
            "{out}"
        );
        assert!(out.contains("Nothing to redo.\n"), "{out}");
        assert_eq!(game.checker(3, 0), Checker::Black);
    }
}
