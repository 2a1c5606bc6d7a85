//! The store's two kinds of file, as the kit holds them: one student's [`Record`],
//! everything the kit knows of them once (their whole result, the stamp of the submission it
//! was graded from, when and by which run, who the submission is and when it came in, with a
//! roster, an export or a late policy, and the hand scores typed in the gallery), of which
//! every report, gradebook row, export and feedback file of theirs is made; and the [`Class`]
//! a run grades (the submissions folder, the kit and the settings the results depend on, so
//! that a run carries on only the same class), when its run started and whether it finished,
//! its students in order, where its gradebook goes, and the roster's students who submitted
//! nothing. What they are written as is [`super::schema`]'s.

use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};

use super::stamp::Stamp;
use crate::judge::result::hand::Marks;
use crate::judge::result::StudentResult;
use crate::kit::late::Lateness;
use crate::kit::roster::Member;
use crate::kit::submitted::Submitted;

/// One student graded.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// The student: their submission folder's name (or `grade student`'s name).
    pub student: String,
    /// Their submission as it was graded (none for `grade student`, which grades a command).
    pub submission: Option<Stamp>,
    /// When they were graded.
    pub graded: SystemTime,
    /// The class run that graded them, by when it started (none for `grade student`).
    pub run: Option<SystemTime>,
    /// Who the submission is, when it came in and how late (a class run with a roster, an
    /// export or a late policy).
    pub who: Option<Who>,
    /// The hand scores typed in the gallery, by category.
    pub hand: Marks,
    /// Their whole result.
    pub result: StudentResult,
}

impl Record {
    /// A new record of `result`, graded now by the class run started at `run` (if any), from
    /// the submission `submission`.
    pub fn new(
        result: StudentResult,
        submission: Option<Stamp>,
        run: Option<SystemTime>,
        who: Option<Who>,
    ) -> Record {
        Record {
            student: result.student.clone(),
            submission,
            graded: SystemTime::now(),
            run,
            who,
            hand: Marks::new(),
            result,
        }
    }

    /// The hand scores, `None` while there are none.
    pub fn marks(&self) -> Option<&Marks> {
        Some(&self.hand).filter(|marks| !marks.is_empty())
    }
}

/// How a submission stands with the late policy.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Late {
    /// The rubric has no `[late]` table.
    NoPolicy,
    /// It has one, but the submission's time is not known.
    NoTime,
    /// Judged by it.
    Judged(Lateness),
}

/// Who a submission is, when it came in and how late.
#[derive(Clone, Debug, PartialEq)]
pub struct Who {
    /// Its students (several for a group; none when nothing names them).
    pub members: Vec<Member>,
    /// When it came in, if that is known.
    pub submitted: Option<Submitted>,
    /// How late.
    pub late: Late,
}

impl Who {
    /// The points the lateness costs (0 when on time or not judged).
    pub fn penalty(&self) -> f64 {
        match self.late {
            Late::Judged(lateness) => lateness.penalty,
            Late::NoPolicy | Late::NoTime => 0.0,
        }
    }
}

/// A class graded, as the store keeps it.
#[derive(Clone, Debug, PartialEq)]
pub struct Class {
    /// When its run started (the first of the runs carrying it on): the records of this run
    /// have it as theirs.
    pub started: SystemTime,
    /// When every student had been graded, once they had.
    pub finished: Option<SystemTime>,
    /// What it grades.
    pub setup: Setup,
    /// Its students (the submission folders), in order.
    pub students: Vec<String>,
    /// The rubric's categories with a speed-up case, each with a column beside it in the
    /// gradebook.
    pub timed: Vec<String>,
    /// The gradebook, absolute.
    pub gradebook: PathBuf,
    /// With a roster, an export or a late policy (the gradebook then has the columns of who
    /// each submission is): the roster's students with no submission.
    pub missing: Option<Vec<Member>>,
    /// The submissions Gradescope's metadata lists with no folder in the export (each id, and
    /// its submitters): not graded, and said so again at export.
    pub no_folder: Vec<(String, Vec<Member>)>,
}

impl Class {
    /// A class run of `setup` starting now, its `timed` categories, its gradebook at
    /// `gradebook`; no students yet.
    pub fn new(setup: Setup, timed: Vec<String>, gradebook: PathBuf) -> Class {
        Class {
            started: SystemTime::now(),
            finished: None,
            setup,
            students: Vec::new(),
            timed,
            gradebook,
            missing: None,
            no_folder: Vec::new(),
        }
    }

    /// Whether the gradebook has the columns of who each submission is.
    pub fn joined(&self) -> bool {
        self.missing.is_some()
    }
}

/// What a run grades: a run carries on another only if they are equal.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// The submissions folder, absolute.
    pub submissions: PathBuf,
    /// The kit's folder, absolute.
    pub kit: PathBuf,
    /// The kit's files.
    pub kit_files: Stamp,
    /// The command for one student.
    pub command: String,
    /// The build command and its time limit.
    pub build: Option<(String, Duration)>,
    /// The course's copy of the supplied crate, when given.
    pub supplied: Option<PathBuf>,
    /// The speed-up left out.
    pub skip_timing: bool,
    /// The longest one student's cases may take.
    pub student_deadline: Duration,
    /// Memory, processes, CPU and file size, as in force.
    pub limits: [u64; 4],
    /// The job's memory, as in force.
    pub job_memory: u64,
    /// The job's disk, as in force.
    pub disk: u64,
    /// Student code sandboxed.
    pub sandbox: bool,
    /// The style facts gathered.
    pub style: bool,
    /// The window's command, build and search depth, when it is observed.
    pub window: Option<(String, Option<String>, u32)>,
    /// Reports written.
    pub reports: bool,
}

impl Setup {
    /// A setup of the submissions folder `submissions`, for tests.
    #[cfg(test)]
    pub fn example(submissions: &str) -> Setup {
        Setup {
            submissions: submissions.into(),
            kit: "/kit".into(),
            kit_files: Stamp {
                entries: 1,
                bytes: 1,
                digest: "kit".into(),
            },
            command: "sh {dir}/run".into(),
            build: None,
            supplied: None,
            skip_timing: true,
            student_deadline: Duration::from_secs(60),
            limits: [1024, 64, 60, 16],
            job_memory: 4096,
            disk: 2048,
            sandbox: true,
            style: false,
            window: None,
            reports: false,
        }
    }

    /// What of `self` differs from `earlier`, in words; `None` when it is the same class.
    pub fn changed(&self, earlier: &Setup) -> Option<&'static str> {
        if earlier.submissions != self.submissions {
            Some("the submissions folder")
        } else if earlier.kit != self.kit || earlier.kit_files != self.kit_files {
            Some("the kit")
        } else if earlier != self {
            Some("the grading settings")
        } else {
            None
        }
    }
}
