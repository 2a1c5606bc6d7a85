//! The top layer: one function per `grade` subcommand, each given its settings as plain data by
//! `main.rs` and doing its whole job: find and load the kit, judge, render and write. `student`
//! grades one program, `class` a folder of submissions (with `again`, grades some of a class
//! again; keeping each record in the class store as it comes, to carry on a run stopped by a
//! crash or an `interrupt`; with `who` each submission is and how late), `publish` writes the
//! files made of the store's records (reports, gradebook, gallery, feedback), `gallery` serves
//! the gallery and takes the hand scores, `feedback` writes the files returned to students
//! (also on the gallery's saves and at the end of a class run), `export` writes the
//! gradebook in the layouts learning platforms import, `solutions` writes or checks the stored
//! answers, `pack` makes the kit students get (from the files of the working tree its `source`
//! lists, as `make_zip.sh` does), `matchup` plays a match, `handout` checks a course's copy of
//! the handout, `similar` compares a class's submissions for the code they share (`class`
//! does too, with a report directory). The five before `similar`, and the `grade feedback` and
//! `grade similar` subcommands, are the course's alone: the students' `grade` (the
//! `students-kit` feature) only grades.

pub mod again;
pub mod class;
#[cfg(not(feature = "students-kit"))]
pub mod export;
pub mod feedback;
mod files;
pub mod gallery;
#[cfg(not(feature = "students-kit"))]
pub mod handout;
pub mod interrupt;
#[cfg(not(feature = "students-kit"))]
pub mod matchup;
#[cfg(not(feature = "students-kit"))]
pub mod pack;
mod publish;
mod settle;
pub mod similar;
#[cfg(not(feature = "students-kit"))]
pub mod solutions;
#[cfg(not(feature = "students-kit"))]
pub mod source;
pub mod student;
mod who;

pub use files::{find_kit, Grading, WindowAsk};
