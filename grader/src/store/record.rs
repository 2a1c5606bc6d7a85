//! One student's record in the class store: everything the kit knows of them, once. Their
//! whole result, the stamp of the submission it was graded from, when and by which run,
//! who the submission is and when it came in (with a roster, an export or a late policy), and
//! the hand scores typed in the gallery. Every report, gradebook row, export and feedback file
//! of the student is made from it.

use std::time::SystemTime;

use serde::{Deserialize, Serialize};

use super::stamp::Stamp;
use crate::judge::result::hand::Marks;
use crate::judge::result::StudentResult;
use crate::kit::late::Lateness;
use crate::kit::roster::Member;
use crate::kit::submitted::Submitted;

/// The version of the records this `grade` writes and reads. A record of another is refused,
/// never read as something else nor written over.
pub const VERSION: u32 = 1;

/// One student graded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// The format's version ([`VERSION`]).
    pub version: u32,
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
    #[serde(default)]
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
            version: VERSION,
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
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Late {
    /// The rubric has no `[late]` table.
    NoPolicy,
    /// It has one, but the submission's time is not known.
    NoTime,
    /// Judged by it.
    Judged(Lateness),
}

/// Who a submission is, when it came in and how late.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
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
