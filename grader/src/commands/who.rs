//! Who each submission of a class is, when it came in and how late, for the gradebook's
//! joined columns: the roster (`--roster`), Gradescope's export metadata (when the submissions
//! folder holds `submission_metadata.yml`) and the rubric's late policy, read before anything
//! is graded so that a broken file stops the run before hours of it. Submission times from
//! the files are taken before the run builds anything, leaving out what changed since the
//! class was first graded.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::SystemTime;

use crate::judge::Student;
use crate::kit::gradescope_export::{self, Metadata, METADATA};
use crate::kit::late::{lateness, LatePolicy};
use crate::kit::roster::{members, Roster};
use crate::kit::submitted::{self, Source, Submitted};
use crate::kit::{KitError, Rubric};
use crate::report::gradebook::{Late, Who};
use crate::report::inert;

/// What a class is joined with.
#[derive(Clone, Debug)]
pub struct Joining {
    /// The instructor's roster.
    roster: Option<Roster>,
    /// Gradescope's metadata of the export being graded.
    metadata: Option<Metadata>,
    /// The rubric's late policy, and the assignment's points it takes a percent of.
    late: Option<(LatePolicy, f64)>,
}

impl Joining {
    /// What the class in `submissions` is joined with: the roster at `roster`, the export's
    /// metadata and `rubric`'s late policy; `None` when there is none of them, and the
    /// gradebook is as it always was.
    pub fn load(
        submissions: &Path,
        roster: Option<&Path>,
        rubric: &Rubric,
    ) -> Result<Option<Joining>, KitError> {
        let roster = roster.map(Roster::load).transpose()?;
        let metadata = gradescope_export::load(submissions)?;
        if metadata.is_some() {
            eprintln!(
                "grade: {} is a Gradescope export: names, ids, emails and submission times \
                 from its {METADATA}",
                submissions.display()
            );
        }
        let points = rubric.categories.iter().map(|c| c.points).sum();
        let late = rubric.late.clone().map(|policy| (policy, points));
        Ok(
            (roster.is_some() || metadata.is_some() || late.is_some()).then_some(Joining {
                roster,
                metadata,
                late,
            }),
        )
    }

    /// Each of `students`' rows: who, when (Gradescope's time, else their files' newest before
    /// `before`) and how late; what cannot be joined is said on standard error.
    pub fn who(&self, students: &[Student], before: SystemTime) -> BTreeMap<String, Who> {
        let folders: Vec<String> = students.iter().map(|s| s.name.clone()).collect();
        if let Some(roster) = &self.roster {
            let missing = roster.missing(&folders);
            if !missing.is_empty() {
                eprintln!(
                    "grade: the roster names {} with no submission: {}",
                    folders_word(missing.len()),
                    names(&missing)
                );
            }
        }
        let mut unnamed = Vec::new();
        let who = students
            .iter()
            .map(|student| {
                let folder = student.name.as_str();
                let exported = self
                    .metadata
                    .as_ref()
                    .and_then(|m| m.submissions.get(folder));
                let submitters = exported.map_or(&[][..], |s| s.submitters.as_slice());
                let (members, extensions) = members(folder, self.roster.as_ref(), submitters);
                if members.is_empty() && (self.roster.is_some() || self.metadata.is_some()) {
                    unnamed.push(student.name.clone());
                }
                let exported = exported.and_then(|s| s.created_at).map(|at| Submitted {
                    at,
                    source: Source::Gradescope,
                });
                let submitted = exported.or_else(|| {
                    let files = submitted::from_files(student.dir.as_deref()?, before)?;
                    // Shown in the due date's offset, when there is one.
                    Some(match &self.late {
                        Some((policy, _)) => Submitted {
                            at: files.at.with_offset(policy.due.offset),
                            ..files
                        },
                        None => files,
                    })
                });
                let late = match (&self.late, submitted) {
                    (None, _) => Late::NoPolicy,
                    (Some(_), None) => Late::NoTime,
                    (Some((policy, points)), Some(at)) => {
                        Late::Judged(lateness(policy, &extensions, at.at.at, *points))
                    }
                };
                let who = Who {
                    members,
                    submitted,
                    late,
                };
                (student.name.clone(), who)
            })
            .collect();
        if !unnamed.is_empty() {
            eprintln!(
                "grade: neither the roster nor the export names who submitted {} (blank in the \
                 gradebook's student id, name and email): {}",
                folders_word(unnamed.len()),
                names(&unnamed)
            );
        }
        who
    }
}

/// `count` folders, in words.
fn folders_word(count: usize) -> String {
    match count {
        1 => "1 folder".into(),
        _ => format!("{count} folders"),
    }
}

/// Folder names made inert and joined by commas, for a message.
fn names(folders: &[String]) -> String {
    let inert: Vec<String> = folders.iter().map(|name| inert::line(name)).collect();
    inert.join(", ")
}
