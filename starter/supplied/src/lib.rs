//! What the Connect Four course supplies to every student, and what the reference itself is
//! built on: the contract between a game and its front ends, and the front ends.
//!
//! - The contract: [`Checker`] (what a cell holds), [`Player`], [`Outcome`], [`MoveError`],
//!   [`Score`], and the traits [`Playable`] (what every front end drives) and [`Analyze`] (the
//!   AI's numbers the grading protocol asks for).
//! - The front ends, each generic over those traits: [`protocol`] (the grading protocol),
//!   [`text`] (the terminal game), and `gui` (the FLTK window, feature `gui`, on by default).
//! - What the front ends share beyond the contract: [`History`] (undo and redo on any
//!   [`Playable`]), [`StopSignal`] (stopping a search early) and [`Opponent`].
//! - The rising level ([`level`]) that both the window and the terminal keep with `--adaptive`.
//! - The assignment's command line ([`Arguments`]) and [`launch::run`], which hands a game to
//!   the front end the command line asks for.
//!
//! Nothing here knows the rules, the heuristic, the search or the thread pool: that is the
//! student's work (and the reference's). Rows are counted from the top and columns from the
//! left everywhere.
#![deny(missing_docs)]

pub mod cli;
#[cfg(feature = "gui")]
pub mod gui;
pub mod launch;
pub mod level;
pub mod limits;
pub mod protocol;
pub mod text;

mod checker;
mod error;
mod history;
mod input;
mod opponent;
mod playable;
mod score;
mod stop;

/// The integration tests' small `Playable` and its hooked searches, for the unit tests too
/// (they name this crate).
#[cfg(test)]
extern crate self as connect_four_supplied;
#[cfg(test)]
#[path = "../tests/support/hooked.rs"]
mod hooked;
#[cfg(test)]
#[path = "../tests/support/tiny_game.rs"]
mod tiny_game;

pub use checker::{Checker, ParsePlayerError, Player};
pub use cli::Arguments;
pub use error::MoveError;
pub use history::History;
pub use opponent::Opponent;
pub use playable::{Analyze, Outcome, Playable};
pub use score::{ParseScoreError, Score};
pub use stop::StopSignal;
