//! The top layer: one function per `grade` subcommand, each given its settings as plain data by
//! `main.rs` and doing its whole job: find and load the kit, judge, render and write. `student`
//! grades one program, `class` a folder of submissions (and writes the graders' gallery; with
//! `again`, grades some of a class again into its files; keeping each result in its `journal`
//! as it comes, to carry on a run stopped by a crash or an `interrupt`, the submissions'
//! `fingerprint`s telling which changed since), `gallery` serves the gallery and takes
//! the hand scores, `solutions` writes or checks the stored answers, `pack` makes the kit
//! students get (from the files of the working tree its `source` lists, as `make_zip.sh` does),
//! `matchup` plays a match. These last four are the course's alone: the students' `grade` (the
//! `students-kit` feature) only grades.

pub mod again;
pub mod class;
mod files;
pub mod fingerprint;
pub mod gallery;
pub mod interrupt;
pub mod journal;
#[cfg(not(feature = "students-kit"))]
pub mod matchup;
#[cfg(not(feature = "students-kit"))]
pub mod pack;
#[cfg(not(feature = "students-kit"))]
pub mod solutions;
#[cfg(not(feature = "students-kit"))]
pub mod source;
pub mod student;

pub use files::{find_kit, Grading, WindowAsk};
