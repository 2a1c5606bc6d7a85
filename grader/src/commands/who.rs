//! Who each submission of a class is, when it came in and how late, for the gradebook's
//! joined columns: the roster (`--roster`), Gradescope's export metadata (the export found as
//! downloaded, which is said with how) and the rubric's late policy, read before anything is
//! graded so that a broken file stops the run before hours of it. Submissions the metadata and
//! the folders do not both have are named, and so are the roster's students with no
//! submission (missing: a row each at the gradebook's end). Submission times from the files
//! are taken before the run builds anything, leaving out what changed since the class was
//! first graded; the files of an extracted `.zip` tell no one's time. Where the roster, the
//! submissions and the metadata disagree is found here, before grading
//! ([`crate::kit::reconcile`]), for the class run to say and to fail on.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::SystemTime;

use crate::judge::Student;
use crate::kit::gradescope_download::{Metadata, Submissions, METADATA};
use crate::kit::late::{lateness, LatePolicy};
use crate::kit::reconcile::{reconcile, Duplicates, Reconciliation, Submission};
use crate::kit::roster::{assign, Member, Roster, RosterError};
use crate::kit::submitted::{self, Source, Submitted};
use crate::kit::Rubric;
use crate::report::class;
use crate::report::inert::{self, names};
use crate::store::{Late, Who};

/// How many of the entries of an archive not extracted as it has them are named.
const NOTES_SHOWN: usize = 10;

/// Who each submission of a class is, and who on the roster submitted nothing: what each
/// record and the gradebook say of them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Joined {
    /// Each submission's, by its folder.
    pub who: BTreeMap<String, Who>,
    /// The roster's students with no submission.
    pub missing: Vec<Member>,
    /// The submissions Gradescope's metadata lists with no folder: each id, its submitters.
    pub no_folder: Vec<(String, Vec<Member>)>,
    /// Where the roster, the submissions and the metadata disagree.
    pub reconciliation: Reconciliation,
}

/// What a class is joined with.
#[derive(Clone, Debug)]
pub struct Joining {
    /// The instructor's roster.
    roster: Option<Roster>,
    /// Gradescope's metadata of the export being graded.
    metadata: Option<Metadata>,
    /// The rubric's late policy, and the assignment's points it takes a percent of.
    late: Option<(LatePolicy, f64)>,
    /// Whether lateness may be judged from the submissions' files' times (asked for, and not
    /// those of an extraction).
    dated_files: bool,
    /// Whether `--late-from-files` was given on a `.zip`, whose extracted files tell no one's
    /// time.
    zip_dated: bool,
    /// The rubric's rule for a student in two submissions.
    duplicates: Duplicates,
}

impl Joining {
    /// What the class of `submissions` (found in `given`) is joined with: the roster at
    /// `roster`, the export's metadata and `rubric`'s late policy; `None` when there is none of
    /// them, and the gradebook is as it always was. Says how the export was found.
    pub fn load(
        given: &Path,
        submissions: &Submissions,
        roster: Option<&Path>,
        rubric: &Rubric,
        late_from_files: bool,
    ) -> Result<Option<Joining>, RosterError> {
        let roster = roster.map(Roster::load).transpose()?;
        say_found(given, submissions);
        let metadata = submissions.metadata.clone();
        let late = rubric.late.clone().map(|policy| (policy, rubric.points()));
        Ok(
            (roster.is_some() || metadata.is_some() || late.is_some()).then_some(Joining {
                roster,
                metadata,
                late,
                dated_files: late_from_files && submissions.archive.is_none(),
                zip_dated: late_from_files && submissions.archive.is_some(),
                duplicates: rubric.duplicates,
            }),
        )
    }

    /// Each of `students`' rows: who, when (Gradescope's time, else the roster's, else, when
    /// asked, their files' newest before `before`) and how late; and the roster's students with
    /// no submission. What cannot be joined, and every lateness judged from file times, is said
    /// on standard error.
    pub fn who(&self, students: &[Student], before: SystemTime) -> Joined {
        let folders: Vec<String> = students.iter().map(|s| s.name.clone()).collect();
        let unmatched = self
            .metadata
            .as_ref()
            .map(|m| m.unmatched(&folders))
            .unwrap_or_default();
        for line in class::unmatched(&unmatched) {
            eprintln!("grade: {line}");
        }
        let exported = |folder: &str| {
            self.metadata
                .as_ref()
                .and_then(|m| m.submissions.get(folder))
        };
        let known: Vec<(&str, &[Member])> = folders
            .iter()
            .map(|folder| {
                let submitters = exported(folder).map_or(&[][..], |s| s.submitters.as_slice());
                (folder.as_str(), submitters)
            })
            .collect();
        let assigned = assign(self.roster.as_ref(), &known);
        let mut unnamed = Vec::new();
        let who: BTreeMap<String, Who> = students
            .iter()
            .zip(assigned.submissions)
            .map(|(student, (members, extensions, listed))| {
                let folder = student.name.as_str();
                let exported = exported(folder);
                if members.is_empty() && (self.roster.is_some() || self.metadata.is_some()) {
                    unnamed.push(student.name.clone());
                }
                let exported = exported.and_then(|s| s.created_at).map(|at| Submitted {
                    at,
                    source: Source::Gradescope,
                });
                let listed = listed.map(|at| Submitted {
                    at,
                    source: Source::Roster,
                });
                let submitted = exported.or(listed).or_else(|| {
                    let dir = student.dir.as_deref().filter(|_| self.dated_files)?;
                    let files = submitted::from_files(dir, before)?;
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
        let submissions: Vec<Submission> = (known.iter())
            .map(|&(folder, named)| {
                let who = &who[folder];
                Submission {
                    folder,
                    named,
                    members: &who.members,
                    at: who.submitted.map(|s| s.at.at),
                    grade: None,
                }
            })
            .collect();
        let reconciliation = reconcile(
            self.roster.as_ref(),
            &submissions,
            &assigned.missing,
            &unmatched.no_folder,
            self.duplicates,
        );
        let who = Joined {
            who,
            missing: assigned.missing,
            no_folder: unmatched.no_folder,
            reconciliation,
        };
        self.say_untimed(&who);
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

    /// Says on standard error whose lateness is judged from file times (loudly: they are not
    /// the submission's), and, under a late policy, who has no submission time at all and how
    /// to give one.
    fn say_untimed(&self, joined: &Joined) {
        for line in self.untimed(joined) {
            eprintln!("grade: {line}");
        }
    }

    /// What [`Joining::say_untimed`] says, a line each.
    fn untimed(&self, joined: &Joined) -> Vec<String> {
        let mut lines = Vec::new();
        if self.late.is_none() {
            return lines;
        }
        let with = |source: Option<Source>| -> Vec<String> {
            joined
                .who
                .iter()
                .filter(|(_, who)| who.submitted.map(|s| s.source) == source)
                .map(|(folder, _)| folder.clone())
                .collect()
        };
        let files = with(Some(Source::Files));
        if !files.is_empty() {
            lines.push(format!(
                "WARNING: the lateness of {} is judged from the newest modification time \
                 of its files (--late-from-files), not from a submission time: a copy without \
                 cp -p, an unzip or a checkout changes it. The gradebook and the feedback say \
                 so; check them before exporting: {}",
                folders_word(files.len()),
                names(&files)
            ));
        }
        let none = with(None);
        if !none.is_empty() {
            let files = match self.zip_dated {
                true => {
                    "Gradescope's export or a roster with a submitted column (--late-from-files \
                     cannot judge them: the files of a .zip extracted for the run have the \
                     extraction's times; unzip it keeping its times and give the folder)"
                }
                false => {
                    "Gradescope's export, a roster with a submitted column, or --late-from-files \
                     to judge by the files' times"
                }
            };
            lines.push(format!(
                "{} {} no submission time (late: \"no submission time\", no penalty): give \
                 {files}: {}",
                folders_word(none.len()),
                if none.len() == 1 { "has" } else { "have" },
                names(&none)
            ));
        }
        lines
    }
}

/// Says on standard error how `submissions` were found in `given`: the archive extracted (and
/// what of it was not, as it is), the export found below the folder given (and how many
/// folders beside it are not graded), whose names and times are read.
fn say_found(given: &Path, submissions: &Submissions) {
    let shown = given.display();
    if let Some(archive) = &submissions.archive {
        eprintln!(
            "grade: {shown}: extracted into {} for this run (removed at its end)",
            archive.path().display()
        );
        for note in archive.notes.iter().take(NOTES_SHOWN) {
            eprintln!("grade: {shown}: {}", inert::line(&note.to_string()));
        }
        if archive.notes.len() > NOTES_SHOWN {
            eprintln!(
                "grade: {shown}: and {} more entries not extracted as they are",
                archive.notes.len() - NOTES_SHOWN
            );
        }
    }
    if submissions.metadata.is_none() {
        return;
    }
    let (export, beside) = match &submissions.inside {
        None => (format!("{shown} is a Gradescope export"), 0),
        Some((inside, beside)) => {
            let export = given.join(inside);
            (
                format!("{shown} holds a Gradescope export, {}", export.display()),
                *beside,
            )
        }
    };
    let beside = match beside {
        0 => String::new(),
        1 => format!(" (the 1 other folder in {shown} is not graded)"),
        n => format!(" (the {n} other folders in {shown} are not graded)"),
    };
    eprintln!(
        "grade: {export}{beside}: its submissions graded, with names, ids, emails and submission \
         times from its {METADATA}"
    );
}

/// `count` folders, in words.
fn folders_word(count: usize) -> String {
    match count {
        1 => "1 folder".into(),
        _ => format!("{count} folders"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn late_from_files_on_a_zip_is_never_suggested_again() {
        let policy: Result<LatePolicy, _> =
            toml::from_str("due = \"2026-11-20T10:00:00-08:00\"\npenalty = 10\nper = \"day\"\n");
        let joining = |zip_dated| Joining {
            roster: None,
            metadata: None,
            late: Some((policy.clone().unwrap(), 100.0)),
            dated_files: false,
            zip_dated,
            duplicates: Duplicates::Refuse,
        };
        let mut joined = Joined::default();
        let untimed = Who {
            members: Vec::new(),
            submitted: None,
            late: Late::NoTime,
        };
        joined.who.insert("ann".into(), untimed);
        let folder = joining(false).untimed(&joined).join("\n");
        assert!(
            folder.contains("or --late-from-files to judge by"),
            "{folder}"
        );
        let zip = joining(true).untimed(&joined).join("\n");
        assert!(zip.starts_with("1 folder has no submission time"), "{zip}");
        assert!(zip.contains("--late-from-files cannot judge them"), "{zip}");
        assert!(!zip.contains("or --late-from-files"), "{zip}");
    }
}
