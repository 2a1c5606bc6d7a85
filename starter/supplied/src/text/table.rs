//! One game in the terminal, from the first board drawn to its end: whose turn it is (a
//! person's, the computer's, or the computer's against itself while people watch), what a line
//! typed at the move prompt does, and the question asked once the game has ended.

use std::io::{self, Write};
use std::time::Duration;

use super::board::draw_board;
use super::command::{parse_input, Input};
use super::computer::computer_turn;
use super::hint::hint;
use super::typed::{ask, Typed};
use super::undo::{redo, undo};
use crate::checker::Player;
use crate::history::History;
use crate::input::Line;
use crate::opponent::{sentence, Opponent};
use crate::playable::{Analyze, Playable};

/// What one session plays with: who plays whom, how fast the computer plays itself, and the
/// lines typed.
pub(super) struct Table<'a> {
    pub(super) opponent: Opponent,
    pub(super) pause: Duration,
    pub(super) typed: &'a Typed,
}

/// What the player chose at the end of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Again {
    /// Play a new game.
    NewGame,
    /// Moves were taken back: the same game goes on.
    GoOn,
    /// Stop playing.
    Stop,
}

/// What the game loop does after a line typed was handled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Next {
    /// The board changed: draw it and go on.
    Board,
    /// Nothing changed: ask again.
    Ask,
    /// Stop playing.
    Quit,
}

impl Table<'_> {
    /// Plays one game to its end (or until watching is stopped); `false` if the player quit or
    /// input ended first.
    pub(super) fn play_game(
        &self,
        game: &mut impl Analyze,
        history: &mut History,
        output: &mut impl Write,
    ) -> io::Result<bool> {
        let watching = self.opponent == Opponent::ComputerVsComputer;
        if watching {
            writeln!(
                output,
                "The computer plays both sides, {} s between moves: press Enter to stop watching.",
                self.pause.as_secs_f64()
            )?;
        }
        loop {
            write!(output, "\n{}", draw_board(game))?;
            if let Some(outcome) = game.outcome() {
                writeln!(output, "{}", self.opponent.announce(outcome))?;
                return Ok(true);
            }
            let Some(player) = game.turn().player() else {
                return Err(io::Error::other(
                    "the game has no player to move but has not ended",
                ));
            };
            if watching {
                let stopped = if self.typed.typed_within(self.pause)? {
                    true
                } else if computer_turn(self.typed, game, history, player, output)? {
                    self.typed.next_line()?;
                    true
                } else {
                    false
                };
                if stopped {
                    writeln!(output, "Stopped watching.")?;
                    return Ok(true);
                }
            } else if self.opponent.computer_plays(player) {
                if computer_turn(self.typed, game, history, player, output)? {
                    // A line typed stopped the search: it is handled as at the prompt.
                    match self.typed.next_line()? {
                        None => return Ok(false),
                        Some(Line::TooLong) => writeln!(output, "That line is too long.")?,
                        Some(Line::Text(line)) => {
                            if self.handle(game, history, &line, true, output)? == Next::Quit {
                                return Ok(false);
                            }
                        }
                    }
                }
            } else if !self.person_turn(game, history, player, output)? {
                return Ok(false);
            }
        }
    }

    /// Asks `player` (a person) for a move until the board changes; `false` to stop playing.
    fn person_turn(
        &self,
        game: &mut impl Analyze,
        history: &mut History,
        player: Player,
        output: &mut impl Write,
    ) -> io::Result<bool> {
        let who = match self.opponent {
            Opponent::Computer => format!("Your move ({player})"),
            Opponent::Human | Opponent::ComputerVsComputer => {
                format!("{} to move", sentence(player.name()))
            }
        };
        let prompt = format!(
            "{who}, column 0 to {} (u: undo, r: redo, hint, quit): ",
            game.cols() - 1
        );
        loop {
            let Some(line) = ask(self.typed, output, &prompt)? else {
                return Ok(false);
            };
            match self.handle(game, history, &line, false, output)? {
                Next::Board => return Ok(true),
                Next::Ask => {}
                Next::Quit => return Ok(false),
            }
        }
    }

    /// Does what `line` asks; `computers_turn` if the computer is to move (a column is then
    /// refused).
    fn handle(
        &self,
        game: &mut impl Analyze,
        history: &mut History,
        line: &str,
        computers_turn: bool,
        output: &mut impl Write,
    ) -> io::Result<Next> {
        match parse_input(line) {
            Err(why) => writeln!(output, "{why}")?,
            Ok(Input::Quit) => return Ok(Next::Quit),
            Ok(Input::Column(_)) if computers_turn => {
                writeln!(output, "It is the computer's move: wait for it.")?;
                return Ok(Next::Board);
            }
            Ok(Input::Column(col)) => match history.play(game, col) {
                Ok(_) => return Ok(Next::Board),
                Err(error) => writeln!(
                    output,
                    "{}: choose another column.",
                    sentence(&error.to_string())
                )?,
            },
            Ok(Input::Undo) => {
                if undo(game, history, self.opponent, output)? {
                    return Ok(Next::Board);
                }
            }
            Ok(Input::Redo) => {
                if redo(game, history, self.opponent, output)? {
                    return Ok(Next::Board);
                }
            }
            Ok(Input::Hint) => writeln!(output, "{}", hint(game))?,
        }
        Ok(if computers_turn {
            Next::Board
        } else {
            Next::Ask
        })
    }

    /// Offers a new game at the end of one and, when a person plays, undo too: the game then
    /// goes on from the moves kept, as after the window's Undo. [`Again::Stop`] for no, quit or
    /// the end of input.
    pub(super) fn ask_again(
        &self,
        game: &mut impl Playable,
        history: &mut History,
        output: &mut impl Write,
    ) -> io::Result<Again> {
        let undoes = self.opponent != Opponent::ComputerVsComputer;
        let (prompt, answers) = if undoes {
            (
                "Play again? (y/n, u: undo) ",
                "y or n, or u to take back the last move",
            )
        } else {
            ("Play again? (y/n) ", "y or n")
        };
        loop {
            let Some(line) = ask(self.typed, output, prompt)? else {
                return Ok(Again::Stop);
            };
            match line.trim().to_ascii_lowercase().as_str() {
                "y" | "yes" => return Ok(Again::NewGame),
                "n" | "no" | "q" | "quit" | "exit" => return Ok(Again::Stop),
                "u" | "undo" if undoes => {
                    if undo(game, history, self.opponent, output)? {
                        return Ok(Again::GoOn);
                    }
                }
                _ => writeln!(output, "Please answer {answers}.")?,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{game, session};
    use super::*;

    use crate::checker::Checker;

    #[test]
    fn bad_moves_are_explained_and_the_turn_stays() {
        let mut game = game(1, 2);
        let out = session(&mut game, Some(Opponent::Human), "x\n5\n0\n0\nquit\n");
        assert!(out.contains("'x' is not a column number"), "{out}");
        assert!(
            out.contains("There is no column 5: columns are 0 to 1: choose another column."),
            "{out}"
        );
        assert!(
            out.contains("Column 0 is full: choose another column."),
            "{out}"
        );
        assert_eq!(game.checker(0, 0), Checker::Red);
        assert_eq!(game.turn(), Checker::Black);
    }

    #[test]
    fn the_prompt_shows_the_commands() {
        let mut game = game(2, 3);
        let out = session(&mut game, Some(Opponent::Human), "quit\n");
        assert!(
            out.contains("Red to move, column 0 to 2 (u: undo, r: redo, hint, quit): "),
            "{out}"
        );
    }
}
