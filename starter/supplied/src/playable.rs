//! The `Playable` trait: the contract between a game and whatever drives it (the window, the
//! terminal, the grading protocol), and `Analyze`, the extra questions the protocol asks.
//!
//! A front end sees a game only through these traits, so a student's own type that implements
//! them is driven by the supplied front ends unchanged, exactly as the reference's game is.

use std::fmt;

use crate::checker::{Checker, Player};
use crate::error::MoveError;
use crate::score::Score;
use crate::stop::StopSignal;

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// This player made four in a row.
    Win(Player),
    /// The board filled up with no four in a row.
    Tie,
}

impl fmt::Display for Outcome {
    /// `red`, `black` or `tie`, as the protocol's `winner` prints it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win(player) => write!(f, "{player}"),
            Outcome::Tie => f.write_str("tie"),
        }
    }
}

/// A game of Connect Four that a front end can show and play. Row 0 is the top row, column 0
/// the leftmost.
pub trait Playable {
    /// The number of rows.
    fn rows(&self) -> usize;

    /// The number of columns.
    fn cols(&self) -> usize;

    /// The checker at (`row`, `col`). Callers stay on the board.
    fn checker(&self, row: usize, col: usize) -> Checker;

    /// The player to move, or [`Checker::Empty`] once the game is over.
    fn turn(&self) -> Checker;

    /// Drops the current player's checker in `col` and returns the row it landed in. A full or
    /// nonexistent column, or a finished game, is refused and nothing changes.
    fn play(&mut self, col: usize) -> Result<usize, MoveError>;

    /// How the game ended, or `None` while it goes on.
    fn outcome(&self) -> Option<Outcome>;

    /// Whether the game has ended.
    fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// The column the computer chooses for the player to move (it does not play it).
    fn computer_move(&mut self) -> Result<usize, MoveError>;

    /// Clears the board for a new game; `first` moves first, or a random player if `None`.
    fn new_game(&mut self, first: Option<Player>);

    /// Optional, not graded: a signal that stops a running search, for a front end that takes
    /// a move back or starts a new game while the computer is thinking. A game that returns one
    /// promises that [`computer_move`](Self::computer_move) and [`Analyze::scores`] return soon
    /// after it is raised; what they return then is ignored. The front end clears it before
    /// each search. The default, `None`, means a search always runs to its end.
    fn stop_signal(&self) -> Option<StopSignal> {
        None
    }

    /// How many in a row win: the assignment's four, unless the game plays the Connect-M
    /// extension (`--connect M`, optional for students and graded only when the course turns
    /// it on).
    fn connect(&self) -> usize {
        crate::limits::CONNECT
    }

    /// The [`connect`](Self::connect) cells of a winning line, if the game was won: for
    /// highlighting. The default looks for them in a row through [`checker`](Self::checker).
    fn winning_line(&self) -> Option<Vec<(usize, usize)>> {
        let Some(Outcome::Win(player)) = self.outcome() else {
            return None;
        };
        let (rows, cols) = (self.rows() as isize, self.cols() as isize);
        let length = self.connect() as isize;
        for row in 0..rows {
            for col in 0..cols {
                for (dr, dc) in [(0, 1), (1, 0), (1, 1), (-1, 1)] {
                    let cells: Vec<_> = (0..length).map(|k| (row + k * dr, col + k * dc)).collect();
                    let on_board = |&(r, c): &(isize, isize)| r >= 0 && r < rows && c < cols;
                    if cells.iter().all(|cell| {
                        on_board(cell)
                            && self.checker(cell.0 as usize, cell.1 as usize) == player.checker()
                    }) {
                        return Some(
                            cells
                                .iter()
                                .map(|&(r, c)| (r as usize, c as usize))
                                .collect(),
                        );
                    }
                }
            }
        }
        None
    }
}

/// What the grading protocol asks of a game beyond play: the AI's numbers.
pub trait Analyze: Playable {
    /// The heuristic value, for the player to move, of dropping in `col`; the board is unchanged.
    fn heuristic(&self, col: usize) -> Result<Score, MoveError>;

    /// The minimax value at `depth` of each column for the player to move; `None` for a full
    /// column.
    fn scores(&mut self, depth: u32) -> Result<Vec<Option<Score>>, MoveError>;

    /// The search depth the game was started with, or the one
    /// [`set_depth`](Self::set_depth) set last.
    fn depth(&self) -> u32;

    /// Optional, not graded: makes the computer look `depth` plies ahead from now on (its
    /// moves, and [`depth`](Self::depth)), for the rising level (`--adaptive`). Returns whether
    /// the game can; the default cannot, and the front ends then say once that the level stays.
    fn set_depth(&mut self, depth: u32) -> bool {
        let _ = depth;
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A won position drawn as rows of `R`, `B` and `.`, red the winner, for `connect` in a row.
    struct Drawn {
        rows: Vec<&'static str>,
        connect: usize,
    }

    impl Playable for Drawn {
        fn rows(&self) -> usize {
            self.rows.len()
        }

        fn cols(&self) -> usize {
            self.rows[0].len()
        }

        fn checker(&self, row: usize, col: usize) -> Checker {
            match self.rows[row].as_bytes()[col] {
                b'R' => Checker::Red,
                b'B' => Checker::Black,
                _ => Checker::Empty,
            }
        }

        fn turn(&self) -> Checker {
            Checker::Empty
        }

        fn play(&mut self, _col: usize) -> Result<usize, MoveError> {
            Err(MoveError::GameOver)
        }

        fn outcome(&self) -> Option<Outcome> {
            Some(Outcome::Win(Player::Red))
        }

        fn computer_move(&mut self) -> Result<usize, MoveError> {
            Err(MoveError::GameOver)
        }

        fn new_game(&mut self, _first: Option<Player>) {}

        fn connect(&self) -> usize {
            self.connect
        }
    }

    #[test]
    fn the_winning_line_holds_connect_cells() {
        let rows = vec![".....", "....R", "...RB", "..RBB", ".RBRB", "RBBRB"];
        let five = Drawn {
            rows: rows.clone(),
            connect: 5,
        };
        assert_eq!(
            five.winning_line(),
            Some(vec![(5, 0), (4, 1), (3, 2), (2, 3), (1, 4)])
        );
        // Six are not there; four are, the first four found.
        assert_eq!(
            Drawn {
                rows: rows.clone(),
                connect: 6
            }
            .winning_line(),
            None
        );
        assert_eq!(
            Drawn { rows, connect: 4 }.winning_line().map(|l| l.len()),
            Some(4)
        );
    }
}
