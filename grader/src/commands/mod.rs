//! The top layer: one function per `grade` subcommand, each given its settings as plain data by
//! `main.rs` and doing its whole job: find and load the kit, judge, render and write. `student`
//! grades one program, `class` a folder of submissions, `solutions` writes or checks the stored
//! answers, `pack` makes the kit students get, `matchup` plays a match.

pub mod class;
mod files;
pub mod matchup;
pub mod pack;
pub mod solutions;
pub mod student;

pub use files::{find_kit, Grading};
