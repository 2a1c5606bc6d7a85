//! The game: the board and its rules, whose turn it is, how the game ended, the heuristic and
//! the computer player's minimax. `Game` implements the supplied `Playable` (what the window,
//! the terminal and the protocol drive) and `Analyze` (the AI's numbers the grader asks for).
//!
//! Name: YOUR NAME
//! Course: YOUR COURSE
//! Project: Connect Four on many cores
//! Date: THE DATE

use connect_four_supplied::{
    Analyze, Arguments, Checker, MoveError, Outcome, Playable, Player, Score,
};

use crate::pool::Pool;

/// A game of Connect Four in progress or finished, with the computer player's settings.
#[derive(Debug)]
pub struct Game {
    /// The worker threads the computer player searches on.
    pool: Pool,
}

impl Game {
    /// A new game on a board of `args.rows` x `args.cols`, whose computer player searches
    /// `args.depth` plies on `args.threads` threads; `args.first` moves first, or a random
    /// player if it is `None`.
    pub fn new(args: &Arguments) -> Game {
        Game {
            pool: Pool::new(args.threads),
        }
    }
}

impl Playable for Game {
    fn rows(&self) -> usize {
        todo!("the number of rows")
    }

    fn cols(&self) -> usize {
        todo!("the number of columns")
    }

    fn checker(&self, row: usize, col: usize) -> Checker {
        todo!("the checker at row {row}, column {col}")
    }

    fn turn(&self) -> Checker {
        todo!("the player to move, or Checker::Empty once the game is over")
    }

    fn play(&mut self, col: usize) -> Result<usize, MoveError> {
        todo!("drop the current player's checker in column {col}")
    }

    fn outcome(&self) -> Option<Outcome> {
        todo!("who won, or a tie, or None while the game goes on")
    }

    fn computer_move(&mut self) -> Result<usize, MoveError> {
        todo!("the computer's choice of column, found by minimax on the thread pool")
    }

    fn new_game(&mut self, first: Option<Player>) {
        todo!("clear the board; {first:?} moves first (random if None)")
    }
}

impl Analyze for Game {
    fn heuristic(&self, col: usize) -> Result<Score, MoveError> {
        todo!("the heuristic value of the player to move dropping in column {col}")
    }

    fn scores(&mut self, depth: u32) -> Result<Vec<Option<Score>>, MoveError> {
        todo!(
            "the minimax value of every column at depth {depth}, on the threads of {:?}",
            self.pool
        )
    }

    fn depth(&self) -> u32 {
        todo!("the search depth from the command line")
    }
}
