//! Connect Four, the reference implementation of the multicore assignment: the rules on line
//! words (four in a row, or M for the Connect-M extension), the assignment's minimax with its
//! 1/4/32 heuristic (and an exact alpha-beta), a
//! wait/notify thread pool, and [`Game`], which implements the supplied [`Playable`] and
//! [`Analyze`] so that the supplied front ends (window, terminal, grading protocol) drive it.
//!
//! Nothing here does I/O or knows a front end. Rows are counted from the top and columns from
//! the left everywhere.
//!
//! ```
//! use connect_four::{Game, GameConfig};
//! use connect_four_supplied::{Checker, Playable, Player};
//!
//! let mut game = Game::new(&GameConfig::default(), Some(Player::Red)).unwrap();
//! assert_eq!(game.play(3), Ok(5)); // red's checker falls to the bottom row
//! assert_eq!(game.turn(), Checker::Black);
//! let reply = game.computer_move().unwrap();
//! assert!(reply < 7);
//! ```
#![deny(missing_docs)]

pub mod cli;

mod board;
mod engine;
mod error_chain;
mod game;
mod geometry;
mod heuristic;
mod pool;
mod pruned;
mod search;
mod table;

pub use board::{Board, ConnectError, SizeError};
pub use engine::{best_columns, Algorithm, Engine, SearchError};
pub use error_chain::error_chain;
pub use game::{Game, GameConfig, GameError};
pub use pool::{Pool, PoolError};
