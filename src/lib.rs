//! Connect Four, the reference implementation of the multicore assignment: the rules, the
//! assignment's minimax AI with its 1/4/32 heuristic, a wait/notify thread pool, and the
//! front ends (window, terminal, grading protocol) that drive a game through [`Playable`].
//!
//! The engine (`board`, `heuristic`, `search`, `pool`, `engine`, `game`) does no I/O and knows
//! no front end. Rows are counted from the top and columns from the left everywhere.
//!
//! ```
//! use connect_four::{Checker, Game, GameConfig, Playable};
//!
//! let mut game = Game::new(&GameConfig::default(), Some(Checker::Red)).unwrap();
//! assert_eq!(game.play(3), Ok(5)); // red's checker falls to the bottom row
//! assert_eq!(game.turn(), Checker::Black);
//! let reply = game.computer_move().unwrap();
//! assert!(reply < 7);
//! ```
#![deny(missing_docs)]

pub mod cli;
pub mod grade;
#[cfg(feature = "gui")]
pub mod gui;
pub mod protocol;
pub mod text;

mod bits;
mod board;
mod checker;
mod engine;
mod game;
mod geometry;
mod heuristic;
mod input;
mod playable;
mod pool;
mod score;
mod search;

pub use board::{Board, MoveError, SizeError};
pub use checker::{Checker, ParsePlayerError};
pub use engine::{best_columns, Engine};
pub use game::{Game, GameConfig};
pub use geometry::{MAX_SIZE, MIN_SIZE};
pub use playable::{Analyze, Outcome, Playable};
pub use pool::{Pool, PoolError};
pub use score::{ParseScoreError, Score};
