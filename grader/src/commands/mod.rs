//! The top layer: one function per `grade` subcommand, each given its settings as plain data by
//! `main.rs` and doing its whole job: find and load the kit, judge, render and write. `student`
//! grades one program, `class` a folder of submissions, `solutions` writes or checks the stored
//! answers, `pack` makes the kit students get, `matchup` plays a match. The last three are the
//! course's alone (the `reference` feature): the students' `grade` only grades.

pub mod class;
mod files;
#[cfg(feature = "reference")]
pub mod matchup;
#[cfg(feature = "reference")]
pub mod pack;
#[cfg(feature = "reference")]
pub mod solutions;
pub mod student;

pub use files::{find_kit, Grading};
