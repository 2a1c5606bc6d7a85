//! Reports: the judge's typed results put in words, for people and for other programs. The
//! shared [`words`], the [`terminal`] report, the per-student [`markdown`] report, the CSV
//! [`gradebook`], Gradescope's results.json ([`gradescope`]), the [`class`] summary, the
//! [`matchup`] summary, the [`style`] facts, the [`window`] observation, the submission's
//! [`special`] files, what a busy machine [`starved`], a failure said once however often it [`repeats`], the graders' [`gallery`]
//! pages, the [`feedback`] returned to students, the platforms' grade imports ([`export`]), and
//! [`progress`] on standard error, the speed-up's causes and CPUs ([`threading`]) and the
//! scaling view's [`plot`]; what a student controls in them made [`inert`] for people.
//! Nothing here runs anything.

pub mod class;
mod detail;
pub mod export;
pub mod feedback;
pub mod gallery;
pub mod gradebook;
pub mod gradescope;
pub mod inert;
pub mod markdown;
#[cfg(not(feature = "students-kit"))]
pub mod matchup;
pub mod plot;
pub mod progress;
mod repeats;
pub mod similarity;
pub mod special;
mod starved;
pub mod style;
pub mod terminal;
pub mod threading;
pub mod window;
pub mod words;
