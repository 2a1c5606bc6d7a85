//! Why a whole case was not run: its build failed, the sandbox could not be set up, the
//! student's time ran out or their program stopped answering. A file of its own, below the
//! build's result, which says it of a failed build.

use std::time::Duration;

/// Why a whole case was not run: it lost every point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotRun {
    /// The build failed.
    BuildFailed,
    /// The build ran out of its time.
    BuildTimedOut(Duration),
    /// The build ran out of its time because the machine was too busy to give it: not
    /// counted either way, graded again.
    BuildStarved {
        /// The build's time limit.
        limit: Duration,
        /// The time it had (the wall clock less its waiting for a CPU).
        had: Duration,
        /// The time it was given on the wall clock.
        wall: Duration,
    },
    /// The student's overall time ran out before this case.
    OutOfTime(Duration),
    /// The student's sandbox could not be set up (why), and no student code runs unconfined.
    NoSandbox(String),
    /// The program answered nothing in this many cases in a row, each of which timed out.
    Unresponsive(usize),
}
