//! Grading again only some students of a class graded before (`grade class --only NAME`,
//! `--not-counted`): who, chosen among the submissions (those named, and those whose record has
//! no automatic total yet: a speed-up not counted, a case a busy machine starved, not graded at
//! all), from the class store, checked before anything is graded. Their new records take their
//! places; everyone else's files are made again from their records as they were.

use std::path::PathBuf;

use crate::judge::Student;
use crate::report::inert;
use crate::store::{Class, Record};

/// How many submission folders an error lists before it says how many more there are.
const LISTED: usize = 10;

/// Why some students cannot be graded again into the class's files.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AgainError {
    /// No class was graded with these files.
    #[error(
        "{}: no class graded there to grade again into: grade the whole class first (without \
         --only and --not-counted), or give the --report (or --csv) of the class run",
        .0.display()
    )]
    NoClass(PathBuf),
    /// Names given that are no submission folder.
    #[error(
        "no submission folder {} in {} (its students: {})",
        quoted(names),
        folder.display(),
        listed(known)
    )]
    Unknown {
        /// The names.
        names: Vec<String>,
        /// The folder of submissions.
        folder: PathBuf,
        /// Its submissions' names.
        known: Vec<String>,
    },
    /// The class was graded with the columns of who each student is and this run has none, or
    /// the other way round.
    #[error(
        "{}: it {} columns of who each student is and how late (student id ... final total), \
         and this run {} roster, export or [late]: give the class run's --roster",
        gradebook.display(),
        if *joined { "has" } else { "has no" },
        if *joined { "has no" } else { "has" }
    )]
    Columns {
        /// The class's gradebook.
        gradebook: PathBuf,
        /// Whether the class has them.
        joined: bool,
    },
}

impl AgainError {
    /// Whether it is the command line's doing (exit status 2, as for a bad argument): a name
    /// or a report directory that is not there. The other is the files' (1).
    pub fn bad_arguments(&self) -> bool {
        !matches!(self, AgainError::Columns { .. })
    }
}

/// `names`, quoted and joined by commas.
fn quoted(names: &[String]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("{n:?}")).collect();
    quoted.join(", ")
}

/// The first of `known`, inert, and how many more.
fn listed(known: &[String]) -> String {
    let mut listed: Vec<String> = known.iter().take(LISTED).map(|n| inert::line(n)).collect();
    if known.len() > LISTED {
        listed.push(format!("and {} more", known.len() - LISTED));
    }
    listed.join(", ")
}

/// The students to grade again of `class` (whose records are `records`), in the class's
/// order: those `only` names and, if `not_counted`, those with no automatic total yet. Each
/// must have a submission among `students` (of the folder `folder`); this run must have the
/// columns of who (`joined`) just when the class has.
pub fn chosen<'a>(
    class: &Class,
    records: &[Record],
    students: &'a [Student],
    (only, not_counted): (&[String], bool),
    folder: PathBuf,
    joined: bool,
) -> Result<Vec<&'a Student>, AgainError> {
    if class.joined() != joined {
        return Err(AgainError::Columns {
            gradebook: class.gradebook.clone(),
            joined: class.joined(),
        });
    }
    let mut wanted: Vec<&str> = only.iter().map(String::as_str).collect();
    if not_counted {
        let uncounted = records
            .iter()
            .filter(|r| r.result.automatic_total().is_none());
        wanted.extend(uncounted.map(|r| r.student.as_str()));
    }
    let unknown: Vec<String> = wanted
        .iter()
        .filter(|name| !students.iter().any(|s| s.name == **name))
        .map(|name| name.to_string())
        .collect();
    if !unknown.is_empty() {
        return Err(AgainError::Unknown {
            names: unknown,
            folder,
            known: students.iter().map(|s| s.name.clone()).collect(),
        });
    }
    Ok(students
        .iter()
        .filter(|s| wanted.contains(&s.name.as_str()))
        .collect())
}
