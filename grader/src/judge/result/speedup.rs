//! What a speed-up case measured: each position's timings, why one could not be measured, how
//! the uneven position compares with the plain one, and the credit earned.

use std::time::Duration;

use crate::process::Failure;

/// One `scores DEPTH` timed with one thread and with more, the same answer from both.
#[derive(Clone, Debug, PartialEq)]
pub struct Measurement {
    /// The depth searched.
    pub depth: u32,
    /// The time with the case's thread count (one).
    pub time_one: Duration,
    /// The time with the speed-up's thread count.
    pub time_many: Duration,
}

impl Measurement {
    /// One thread's time over many threads'.
    pub fn ratio(&self) -> f64 {
        self.time_one.as_secs_f64() / self.time_many.as_secs_f64().max(1e-6)
    }
}

/// Why a position could not be measured.
#[derive(Clone, Debug, PartialEq)]
pub enum SpeedupFault {
    /// The case's script did not get through with this many threads (the case's exchanges say
    /// why).
    Script(usize),
    /// A command failed, with this many threads.
    Program {
        /// The command.
        command: String,
        /// The threads the program was started with.
        threads: usize,
        /// How it failed.
        failure: Failure,
    },
    /// A `play` filling a column was refused: the command and the answer.
    Refused(String, String),
    /// `scores DEPTH` answered differently with one thread and with more, or failed.
    Differ {
        /// The depth.
        depth: u32,
        /// The answer with one thread.
        one: String,
        /// The answer with more.
        many: String,
    },
}

/// How the uneven position compares with the plain one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Evenness {
    /// Measured, and not well below the plain speed-up.
    Even,
    /// Well below the plain speed-up: flagged for the hand grader.
    Flagged,
    /// One thread needed less than [`UNEVEN_LEAST_SHARE`] of the target time: not judged.
    TooQuick,
    /// Not measured.
    Unknown,
}

/// The uneven position's measurement (not scored).
#[derive(Clone, Debug, PartialEq)]
pub struct Uneven {
    /// The columns filled to the top.
    pub columns: Vec<usize>,
    /// What was measured there, or why nothing was.
    pub measured: Result<Measurement, SpeedupFault>,
    /// How it compares with the plain position.
    pub evenness: Evenness,
}

/// A speed-up case's measurement and credit.
#[derive(Clone, Debug, PartialEq)]
pub struct Speedup {
    /// The case's thread count (one) and the speed-up's.
    pub threads: (usize, usize),
    /// The speed-up that earns full credit: the rubric's highest threshold.
    pub best: f64,
    /// The plain position, or why it could not be measured.
    pub plain: Result<Measurement, SpeedupFault>,
    /// The share of the case's points it earns, 0 to 1.
    pub credit: f64,
    /// The uneven position, when the case has one and the plain one was measured.
    pub uneven: Option<Uneven>,
}
