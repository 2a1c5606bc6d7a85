//! The terminal front end (`--text`): the same game as the window, for a machine without a
//! display. The board is drawn with its column numbers over it, moves are typed as column
//! numbers, and the computer (if chosen) plays black, or both sides while people watch. At the
//! prompt `u` takes moves back, `r` plays them again and `hint` shows each column's minimax
//! value; `u` also works once a game has ended, as the window's Undo does; with `--adaptive`
//! the computer looks one ply deeper after each game the person wins (the [`Level`]) (optional
//! extras for students: not graded).
//!
//! Lines are read on a thread of their own (`typed`), so that a line typed while the computer
//! plays itself is seen at once: it stops the watching, and interrupts a search of a game that
//! offers a [`StopSignal`](crate::StopSignal). [`run`] here is the session (the opponent asked
//! for, then game after game); `table` plays one game, `command` reads what was typed at the
//! move prompt, `computer` plays the computer's turn, `undo` and `hint` answer those commands,
//! `board` draws the board and `words` names columns in sentences.

mod board;
mod command;
mod computer;
mod hint;
mod table;
#[cfg(test)]
mod testing;
mod typed;
mod undo;
mod words;

use std::io::{self, BufRead, Write};
use std::time::Duration;

use crate::checker::{Checker, Player};
use crate::history::History;
use crate::level::{self, Level, Step};
use crate::opponent::Opponent;
use crate::playable::Analyze;

use table::{Again, Table};
use typed::{ask, Typed};

/// Plays games on `input` and `output` until the player quits, declines a new game or input
/// ends; a game taken back after its end goes on. `opponent` is asked for first if it is
/// `None`; `first` moves first in each new game (random if `None`); `pause` is the wait between
/// moves when the computer plays itself; `adaptive` raises the computer's depth by one after
/// each game the person wins (see [`Level`]). Fails only if reading or writing fails, or if the
/// computer cannot move.
pub fn run(
    game: &mut impl Analyze,
    opponent: Option<Opponent>,
    first: Option<Player>,
    pause: Duration,
    adaptive: bool,
    input: impl BufRead + Send + 'static,
    mut output: impl Write,
) -> io::Result<()> {
    let typed = Typed::spawn(input);
    let name = match game.connect() {
        crate::limits::CONNECT => "Connect Four".to_string(),
        m => format!("Connect {m} ({m} in a row win)"),
    };
    writeln!(
        output,
        "{name} on a {} x {} board. Red plays {}, black plays {}.",
        game.rows(),
        game.cols(),
        Checker::Red.letter(),
        Checker::Black.letter()
    )?;
    let opponent = match opponent {
        Some(opponent) => Some(opponent),
        None => ask_opponent(&typed, &mut output)?,
    };
    if let Some(opponent) = opponent {
        let mut level = Level::new(game, adaptive);
        if let Some(words) = level.words(opponent, None) {
            writeln!(
                output,
                "The level rises: after each game you win, the computer looks one ply deeper \
                 (up to depth {}). {words}",
                level::CAP
            )?;
        }
        let mut history = History::new();
        let table = Table {
            opponent,
            pause,
            typed: &typed,
        };
        while table.play_game(game, &mut history, &mut output)? {
            match table.ask_again(game, &mut history, &mut output)? {
                Again::NewGame => {
                    match level.next_game(game.outcome(), opponent, game) {
                        Step::Changed => {
                            if let Some(words) = level.words(opponent, None) {
                                writeln!(output, "{words}")?;
                            }
                        }
                        Step::Refused => writeln!(output, "{}", level::REFUSED)?,
                        Step::Stayed => {}
                    }
                    history.new_game(game, first)
                }
                Again::GoOn => {}
                Again::Stop => break,
            }
        }
    }
    writeln!(output, "Goodbye.")
}

/// Asks who plays until the answer makes sense; `None` to quit.
fn ask_opponent(typed: &Typed, output: &mut impl Write) -> io::Result<Option<Opponent>> {
    loop {
        let Some(line) = ask(
            typed,
            output,
            "Play against a (h)uman or the (c)omputer, or (w)atch the computer play itself? ",
        )?
        else {
            return Ok(None);
        };
        match line.trim().to_ascii_lowercase().as_str() {
            "h" | "human" => return Ok(Some(Opponent::Human)),
            "c" | "computer" => {
                writeln!(output, "You play red; the computer plays black.")?;
                return Ok(Some(Opponent::Computer));
            }
            "w" | "watch" => return Ok(Some(Opponent::ComputerVsComputer)),
            "q" | "quit" | "exit" => return Ok(None),
            _ => writeln!(
                output,
                "Please type h for a human, c for the computer or w to watch (or quit)."
            )?,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::testing::{game, session};
    use super::*;

    use crate::playable::Playable;

    #[test]
    fn a_whole_game_between_two_people() {
        let mut game = game(6, 7);
        let out = session(&mut game, Some(Opponent::Human), "0\n1\n0\n1\n0\n1\n0\nn\n");
        assert!(out.contains("Red wins!"), "{out}");
        assert!(out.contains("Play again? (y/n, u: undo) "), "{out}");
        assert!(out.ends_with("Goodbye.\n"), "{out}");
    }

    #[test]
    fn the_opponent_is_asked_for_until_the_answer_makes_sense() {
        let mut game = game(4, 4);
        let out = session(&mut game, None, "maybe\nc\n");
        assert!(
            out.contains("Please type h for a human, c for the computer or w to watch"),
            "{out}"
        );
        assert!(
            out.contains("You play red; the computer plays black."),
            "{out}"
        );
        assert!(out.ends_with("Goodbye.\n"), "{out}");
    }

    #[test]
    fn new_games_start_with_the_player_asked_for() {
        for first in [Player::Red, Player::Black] {
            let mut game = game(1, 2);
            let mut output = Vec::new();
            let typed = "0\n1\ny\nquit\n".as_bytes();
            run(
                &mut game,
                Some(Opponent::Human),
                Some(first),
                Duration::ZERO,
                false,
                typed,
                &mut output,
            )
            .unwrap();
            assert_eq!(game.turn(), first.checker());
        }
    }

    #[test]
    fn the_adaptive_level_rises_after_a_won_game_and_stays_after_a_loss() {
        // The tiny computer plays the leftmost open column: red wins in column 3, then loses
        // (black's fourth checker in column 0 comes before red's in column 1).
        let mut game = game(6, 7);
        let typed = "3\n3\n3\n3\ny\n1\n1\n1\n2\ny\nquit\n".as_bytes();
        let mut output = Vec::new();
        let adaptive = true;
        run(
            &mut game,
            Some(Opponent::Computer),
            Some(Player::Red),
            Duration::ZERO,
            adaptive,
            typed,
            &mut output,
        )
        .unwrap();
        let out = String::from_utf8(output).unwrap();
        assert!(
            out.contains("(up to depth 8). Level 1 (depth 1).\n"),
            "{out}"
        );
        assert!(out.contains("You win!\nPlay again?"), "{out}");
        assert!(out.contains("The computer wins."), "{out}");
        assert_eq!(out.matches("Level 2 (depth 2).\n").count(), 1, "{out}");
        assert!(!out.contains("Level 3"), "{out}");
        assert_eq!(game.depth(), 2);
    }

    #[test]
    fn a_new_game_starts_on_an_empty_board() {
        let mut game = game(1, 4);
        let out = session(&mut game, Some(Opponent::Human), "0\n1\n2\n3\ny\nquit\n");
        assert!(out.contains("It's a tie: the board is full."), "{out}");
        assert!((0..4).all(|col| game.checker(0, col) == Checker::Empty));
    }
}
