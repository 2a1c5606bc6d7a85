//! A game of Connect Four: a board, whose turn it is, how it ended, and the computer player.
//! `Game` is the reference implementation of [`Playable`] and [`Analyze`].

use std::fmt;

use connect_four_supplied::{
    Analyze, Checker, MoveError, Outcome, Playable, Player, Score, StopSignal,
};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use crate::board::{Board, ConnectError, SizeError};
use crate::engine::{Algorithm, Engine};
use crate::error_chain::error_chain;
use crate::pool::PoolError;

/// Everything a game is set up with, as the command line gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameConfig {
    /// Board rows, 1 to 32.
    pub rows: usize,
    /// Board columns, 1 to 32.
    pub cols: usize,
    /// How many plies the computer searches beyond its own move.
    pub depth: u32,
    /// Worker threads in the search pool.
    pub threads: usize,
    /// How the computer player searches (the values are the same either way).
    pub algorithm: Algorithm,
    /// Seed for the first player and the tie-breaks, for reproducible games; random if `None`.
    pub seed: Option<u64>,
    /// How many in a row win: the assignment's 4, or M for the Connect-M extension.
    pub connect: usize,
}

impl Default for GameConfig {
    /// The standard 6 x 7 board, four in a row, depth 5, two threads, plain minimax, random.
    fn default() -> Self {
        GameConfig {
            rows: 6,
            cols: 7,
            depth: 5,
            threads: 2,
            algorithm: Algorithm::Plain,
            seed: None,
            connect: connect_four_supplied::limits::CONNECT,
        }
    }
}

/// Why a game could not be set up; the error behind it is the source.
#[derive(Debug)]
pub enum GameError {
    /// The board size is outside 1 to 32.
    Size(SizeError),
    /// No line of the board holds M in a row.
    Connect(ConnectError),
    /// The computer player's threads could not be started.
    Threads(PoolError),
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Size(_) | GameError::Connect(_) => f.write_str("cannot set up the board"),
            GameError::Threads(_) => f.write_str("cannot start the computer player"),
        }
    }
}

impl std::error::Error for GameError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            GameError::Size(error) => Some(error),
            GameError::Connect(error) => Some(error),
            GameError::Threads(error) => Some(error),
        }
    }
}

/// A game in progress or finished.
#[derive(Debug)]
pub struct Game {
    board: Board,
    turn: Player,
    outcome: Option<Outcome>,
    depth: u32,
    engine: Engine,
    rng: StdRng,
}

impl Game {
    /// A new game; `first` moves first, or a random player if `None`.
    pub fn new(config: &GameConfig, first: Option<Player>) -> Result<Game, GameError> {
        let board = Board::new(config.rows, config.cols)
            .map_err(GameError::Size)?
            .with_connect(config.connect)
            .map_err(GameError::Connect)?;
        let rng = match config.seed {
            Some(seed) => StdRng::seed_from_u64(seed),
            None => rand::make_rng(),
        };
        let mut game = Game {
            board,
            turn: Player::Red,
            outcome: None,
            depth: config.depth,
            engine: Engine::new(config.threads, config.algorithm).map_err(GameError::Threads)?,
            rng,
        };
        game.new_game(first);
        Ok(game)
    }

    /// The board as it stands.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Fails with [`MoveError::GameOver`] once the game has ended.
    fn ensure_running(&self) -> Result<(), MoveError> {
        if self.outcome.is_some() {
            Err(MoveError::GameOver)
        } else {
            Ok(())
        }
    }
}

impl Playable for Game {
    fn rows(&self) -> usize {
        self.board.rows()
    }

    fn cols(&self) -> usize {
        self.board.cols()
    }

    fn checker(&self, row: usize, col: usize) -> Checker {
        self.board.get(row, col)
    }

    fn turn(&self) -> Checker {
        if self.outcome.is_some() {
            Checker::Empty
        } else {
            self.turn.checker()
        }
    }

    fn play(&mut self, col: usize) -> Result<usize, MoveError> {
        self.ensure_running()?;
        let value = self.board.move_value(col, self.turn)?;
        let row = self.board.drop_checker(col, self.turn)?;
        if value == Score::WIN {
            self.outcome = Some(Outcome::Win(self.turn));
        } else if self.board.is_full() {
            self.outcome = Some(Outcome::Tie);
        }
        self.turn = self.turn.opponent();
        Ok(row)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn connect(&self) -> usize {
        self.board.connect()
    }

    fn computer_move(&mut self) -> Result<usize, MoveError> {
        self.ensure_running()?;
        self.engine
            .choose(&self.board, self.turn, self.depth, &mut self.rng)
            .map_err(|e| MoveError::EngineFailed(error_chain(&e)))?
            .ok_or(MoveError::GameOver)
    }

    /// The engine's signal: raising it makes a running search give up within microseconds.
    fn stop_signal(&self) -> Option<StopSignal> {
        Some(self.engine.stop_signal().clone())
    }

    fn new_game(&mut self, first: Option<Player>) {
        self.board = self.board.emptied();
        self.outcome = None;
        self.turn = match first {
            Some(player) => player,
            None if self.rng.random_bool(0.5) => Player::Red,
            None => Player::Black,
        };
    }
}

impl Analyze for Game {
    fn heuristic(&self, col: usize) -> Result<Score, MoveError> {
        self.ensure_running()?;
        self.board.move_value(col, self.turn)
    }

    fn scores(&mut self, depth: u32) -> Result<Vec<Option<Score>>, MoveError> {
        self.ensure_running()?;
        self.engine
            .scores(&self.board, self.turn, depth)
            .map_err(|e| MoveError::EngineFailed(error_chain(&e)))
    }

    fn depth(&self) -> u32 {
        self.depth
    }

    /// The rising level's new depth: the engine takes the depth with each search.
    fn set_depth(&mut self, depth: u32) -> bool {
        self.depth = depth;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_raised_stop_signal_ends_a_long_search_at_once() {
        let config = GameConfig {
            depth: 40,
            ..GameConfig::default()
        };
        let mut game = Game::new(&config, Some(Player::Red)).unwrap();
        let stop = game.stop_signal().expect("the reference can be stopped");
        let raiser = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(50));
            stop.raise();
        });
        // Depth 40 would take far longer than any test: only the signal can end it.
        let started = std::time::Instant::now();
        assert_eq!(
            game.computer_move(),
            Err(MoveError::EngineFailed(
                "the search was stopped".to_string()
            ))
        );
        raiser.join().unwrap();
        assert!(started.elapsed() < std::time::Duration::from_secs(30));
        // Cleared, the signal lets the next search run.
        game.stop_signal().unwrap().clear();
        assert_eq!(game.scores(1).map(|s| s.len()), Ok(7));
    }

    #[test]
    fn a_game_can_move_to_another_thread() {
        fn assert_send<T: Send>() {}
        assert_send::<Game>();
    }
}
