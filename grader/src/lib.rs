//! The grading kit: runs a student's program through the grading protocol, compares it with the
//! reference and scores it by the rubric in `grading/`.
//!
//! Six layers, each importing only those above it in this list, and the commands on top:
//! - [`process`]: running a program under limits (process groups, resource limits, `/proc`,
//!   the sandbox); nothing of cases or scores.
//! - [`kit`]: what we grade with, as data: the rubric, the case files, their stored answers and
//!   the course's copy of the supplied crate; no child processes.
//! - [`judge`]: a program against the kit: scripts played and judged, consistency and the
//!   speed-up, requirements between cases, builds, a student, a class, a match; typed results.
//! - [`similarity`]: a class's submissions compared with each other and with earlier years'
//!   (winnowed fingerprints of syntax tokens, the given code left out); reads, never runs.
//! - [`store`]: the class store: one versioned, typed record per student (result, submission
//!   stamp, who and when, hand scores) and the class a run grades; the only code that
//!   reads a file the kit wrote.
//! - [`report`]: records and results in words: terminal, Markdown, gradebook, exports,
//!   feedback, results.json, class summary, match summary, similar pairs, the graders'
//!   gallery; pure functions, never runs anything.
//! - [`commands`]: one function per `grade` subcommand (`student`, `class`, `gallery`,
//!   `feedback`, `export`, `generate`, `check`, `pack`, `match`, `similar`, ...), which
//!   `main.rs` calls; `publish` writes the files made of the store's records.
//!
//! Linux only: the process layer reads `/proc` and uses process groups and `setrlimit`.
//!
//! One submission, from `grade class` to its feedback file, is a walk of 15 files with 4 climbs
//! back up a layer when last measured, and no file imports one that imports it back: both
//! measured from the sources by `layout`'s tests, which fail past 20 files or 10 climbs, and on
//! any circle (grading/README.md, "The grader's architecture").

pub mod commands;
pub mod judge;
pub mod kit;
pub mod process;
pub mod report;
pub mod similarity;
pub mod store;

#[cfg(test)]
mod layout;
