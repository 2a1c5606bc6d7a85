//! How a student's build went: how it ended, how long it took, the end of its log, and why no
//! case is run after a failed one.

use std::path::PathBuf;
use std::time::Duration;

use super::not_run::NotRun;
use crate::kit::build_config::Redirection;
use crate::process::logged::Ended;

/// How many lines of a build's log the reports show.
pub const TAIL_LINES: usize = 30;

/// One student's build.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Build {
    /// How it ended.
    pub ended: Ended,
    /// How long it took.
    pub elapsed: Duration,
    /// The last [`TAIL_LINES`] lines of its log.
    pub tail: String,
    /// The log, when it is kept.
    pub log: Option<PathBuf>,
    /// Whether cargo failed for want of a crate it could not download: a sandboxed build is
    /// offline, with only the crates already on the grading machine.
    pub offline: bool,
    /// The submission's own cargo and rustup configuration files, set aside for the build
    /// (paths below the submission): the build is the course's.
    pub set_aside: Vec<String>,
    /// What in its manifests would have built it, or in cargo's log did build it, against
    /// something else than the course's supplied crate: the build was refused for it, and no
    /// case run.
    pub refused: Vec<Redirection>,
    /// Whether the build succeeded without cargo's log naming the supplied crate the kit
    /// checks (a quiet build, output already there without the sandbox's verbose cargo, a
    /// program that does not use it): which copy the program is linked with is not known.
    pub supplied_unseen: bool,
    /// When the configuration set aside could not be put back after grading: why, and where
    /// the files not put back are (relative to the submission).
    pub not_put_back: Option<(String, String)>,
}

impl Build {
    /// Whether it succeeded.
    pub fn succeeded(&self) -> bool {
        self.ended == Ended::Succeeded && self.refused.is_empty()
    }

    /// A build never started, for `why`.
    pub fn not_started(why: String) -> Build {
        Build {
            ended: Ended::NotStarted(why),
            elapsed: Duration::ZERO,
            tail: String::new(),
            log: None,
            offline: false,
            set_aside: Vec::new(),
            refused: Vec::new(),
            supplied_unseen: false,
            not_put_back: None,
        }
    }

    /// Why the cases are not run, if the build failed.
    pub fn not_run(&self) -> Option<NotRun> {
        if !self.refused.is_empty() {
            return Some(NotRun::BuildFailed);
        }
        match self.ended {
            Ended::Succeeded => None,
            Ended::TimedOut(limit) => Some(NotRun::BuildTimedOut(limit)),
            Ended::Starved { limit, had, wall } => Some(NotRun::BuildStarved { limit, had, wall }),
            _ => Some(NotRun::BuildFailed),
        }
    }
}
