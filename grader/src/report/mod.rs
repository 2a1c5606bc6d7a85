//! Reports: the judge's typed results put in words, for people and for other programs. The
//! [`terminal`] report, the per-student [`markdown`] report, the CSV [`gradebook`],
//! Gradescope's results.json ([`gradescope`]), the [`class`] summary, the [`matchup`] summary,
//! the [`style`] facts, the [`window`] observation, the submission's [`special`] files, what a
//! busy machine [`starved`], a failure said once however often it [`repeats`], the graders'
//! [`gallery`] pages, the [`feedback`] returned to students, the platforms' grade imports
//! ([`export`]), and [`progress`] on standard error, the speed-up's causes and CPUs
//! ([`threading`]) and the scaling view's [`plot`]; what a student controls in them made
//! [`inert`] for people. The wording they share, one topic a module: [`numbers`] (points,
//! seconds, counts), a program's [`failure`], an exchange's or a case's [`verdict`], the
//! [`building`] of the program, the supplied crate's [`comparison`], the sandbox's
//! [`isolation`], the speed-up of the [`timing`] cases and the thread design of its
//! [`workers`]; what stands in for a file whose reporter failed ([`unreported`]). Nothing here
//! runs anything.

pub mod building;
pub mod class;
pub mod comparison;
mod detail;
pub mod export;
pub mod failure;
pub mod feedback;
pub mod gallery;
pub mod gradebook;
pub mod gradescope;
pub mod inert;
pub mod isolation;
pub mod markdown;
#[cfg(not(feature = "students-kit"))]
pub mod matchup;
pub mod numbers;
pub mod plot;
pub mod progress;
pub mod reconcile;
mod repeats;
pub mod similarity;
pub mod special;
mod starved;
pub mod style;
pub mod terminal;
pub mod threading;
pub mod timing;
pub mod unreported;
pub mod verdict;
pub mod window;
pub mod workers;

/// Hand scores of `items` with `comment` in the `GUI` category of the tests' rubric
/// ([`crate::judge::fixtures::hand_rubric`]), as the reports' tests give them.
#[cfg(test)]
pub(crate) fn gui_marks(items: &[Option<f64>], comment: &str) -> crate::judge::result::hand::Marks {
    let marks = crate::judge::result::hand::CategoryMarks {
        items: items.to_vec(),
        comment: comment.into(),
    };
    [("GUI".to_string(), marks)].into()
}
