//! What `grade class` was asked: the run's folders, its command and its choices, apart from the
//! run so that its setup, its grading and its errors read them without reading the run.

use std::path::{Path, PathBuf};

use crate::commands::files::{parent, Grading};

/// What `grade class` was asked.
#[derive(Clone, Debug, Default)]
pub struct ClassRun {
    /// The folder of submissions, one subdirectory per student, or a Gradescope export: its
    /// `.zip`, or a folder holding it.
    pub submissions: PathBuf,
    /// The command for one student, `{dir}` standing for their directory.
    pub command: String,
    /// Students graded at once.
    pub jobs: usize,
    /// Where the gradebook goes.
    pub csv: PathBuf,
    /// What every grading run takes.
    pub grading: Grading,
    /// Grade again only these students, into the class's files (`--only`).
    pub only: Vec<String>,
    /// Grade again the students with no automatic total yet (`--not-counted`).
    pub not_counted: bool,
    /// Grade everyone, though an earlier run stopped part way could be carried on
    /// (`--restart`).
    pub restart: bool,
    /// The roster: who each submission folder is, and their extensions (`--roster`).
    pub roster: Option<PathBuf>,
    /// Whether lateness may be judged from the files' times where no trusted time is known
    /// (`--late-from-files`).
    pub late_from_files: bool,
    /// Whether the roster's students without a graded submission, and the submissions without
    /// a roster student, still let the run succeed (`--allow-missing`).
    pub allow_missing: bool,
}

impl ClassRun {
    /// Whether only some students are graded again, into the files a class run wrote.
    pub(super) fn again(&self) -> bool {
        !self.only.is_empty() || self.not_counted
    }

    /// Where the store, the class summary and the standings go: the report directory, else
    /// beside the gradebook.
    pub(super) fn summary_dir(&self) -> &Path {
        self.grading
            .report
            .as_deref()
            .unwrap_or_else(|| parent(&self.csv))
    }
}
