//! What a speed-up case measured: the CPUs the program could use, each position's timings
//! round by round, whether the machine could be judged by (too few CPUs, busy), the credit
//! earned against the machine's own ceiling, the uneven position compared with the plain one,
//! and the thread design seen.

use std::time::Duration;

use super::design::Design;
use crate::process::{Cpus, Failure};

/// One `scores DEPTH` timed round after round: alone on one thread, on many threads, and (for
/// the plain position) on one thread in as many copies of the program at once, all with the
/// same answer. Each round's times are taken close together, so its ratios are judged, not the
/// ratio of times taken seconds apart while the machine's speed drifted.
#[derive(Clone, Debug, PartialEq)]
pub struct Measurement {
    /// The depth searched.
    pub depth: u32,
    /// Each round's time on one thread, alone.
    pub one: Vec<Duration>,
    /// Each round's time on the speed-up's threads.
    pub many: Vec<Duration>,
    /// Each round's mean time of the one-thread copies run at once; empty when the machine's
    /// ceiling was not measured.
    pub together: Vec<Duration>,
}

impl Measurement {
    /// Each round's speed-up: its one-thread time over its many-thread time.
    pub fn speedups(&self) -> Vec<f64> {
        ratios(&self.one, &self.many, 1.0)
    }

    /// Each round's ceiling, the most `copies` threads could give on this machine: that many
    /// one-thread runs at once did `copies` times the work of one alone in their time; none if
    /// not measured.
    pub fn ceilings(&self, copies: usize) -> Vec<f64> {
        ratios(&self.one, &self.together, copies as f64)
    }

    /// The median of the rounds' speed-ups.
    pub fn speedup(&self) -> f64 {
        median(&self.speedups())
    }

    /// The median of the rounds' ceilings, if it was measured.
    pub fn ceiling(&self, copies: usize) -> Option<f64> {
        let ceilings = self.ceilings(copies);
        (!ceilings.is_empty()).then(|| median(&ceilings))
    }

    /// How far the rounds disagree: the wider spread of their speed-ups and their ceilings.
    pub fn spread(&self, copies: usize) -> f64 {
        spread(&self.speedups()).max(spread(&self.ceilings(copies)))
    }
}

/// `factor` times each of `times` over the same round's `over` (none where `over` is empty).
fn ratios(times: &[Duration], over: &[Duration], factor: f64) -> Vec<f64> {
    times
        .iter()
        .zip(over)
        .map(|(t, o)| factor * t.as_secs_f64() / o.as_secs_f64().max(1e-6))
        .collect()
}

/// The seconds of `times`.
pub fn as_seconds(times: &[Duration]) -> Vec<f64> {
    times.iter().map(Duration::as_secs_f64).collect()
}

/// The median of `values` (0 for none).
pub fn median(values: &[f64]) -> f64 {
    let sorted = sorted(values);
    match sorted.len() {
        0 => 0.0,
        n if n % 2 == 0 => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
        n => sorted[n / 2],
    }
}

/// `values` in order.
fn sorted(values: &[f64]) -> Vec<f64> {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted
}

/// The middle half of `values` (lower to upper quartile) over their median; 0 for none.
fn spread(values: &[f64]) -> f64 {
    let sorted = sorted(values);
    let Some(last) = sorted.len().checked_sub(1) else {
        return 0.0;
    };
    let quarter = sorted.len() / 4;
    (sorted[last - quarter] - sorted[quarter]) / median(values).max(1e-6)
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
    /// A `play` setting the position up was refused: the command and the answer.
    Refused(String, String),
    /// `scores DEPTH` answered differently with one thread and with more (or from one run to
    /// another), or failed.
    Differ {
        /// The depth.
        depth: u32,
        /// The first answer with one thread.
        one: String,
        /// The answer that differs.
        other: String,
        /// The threads it was given with.
        threads: usize,
    },
}

/// Why the machine could not judge the speed-up, though the program was measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Busy {
    /// A series of timings of one search spread this much (the middle half over the median).
    Spread(f64),
    /// The one-thread copies at once gained only this ceiling.
    Ceiling(f64),
}

/// What became of the plain position.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// Fewer CPUs than the speed-up's threads: not timed, not counted.
    TooFewCpus,
    /// A measurement failed: no credit.
    Failed(SpeedupFault),
    /// Measured, but the machine was busy: not counted (grade again).
    Busy(Measurement, Busy),
    /// Measured and judged.
    Judged(Measurement, Judged),
}

/// A speed-up judged against the machine's ceiling.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Judged {
    /// The one-thread time over the many-thread time (medians).
    pub speedup: f64,
    /// The most the threads could give on this machine, measured in the same run.
    pub ceiling: f64,
    /// `(speedup - 1) / (ceiling - 1)`: the share of the possible gain that the program gained.
    pub gain: f64,
    /// The speed-up that earns full credit on this machine.
    pub full_at: f64,
    /// The share of the case's points it earns, 0 to 1.
    pub credit: f64,
}

/// How the uneven position compares with the plain one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Evenness {
    /// Measured, and not well below the plain speed-up.
    Even,
    /// Well below the plain speed-up: flagged for the hand grader.
    Flagged,
    /// One thread needed less than half the case's target time there even at the deepest
    /// search: not judged.
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
    /// The CPUs the program could use.
    pub cpus: Cpus,
    /// The plain position, and what it earned.
    pub outcome: Outcome,
    /// The uneven position, when the case has one and the plain one was judged.
    pub uneven: Option<Uneven>,
    /// How the program used its threads over two searches.
    pub design: Design,
}

impl Speedup {
    /// The share of the case's points it earns, 0 to 1; `None` when the machine could not judge
    /// it (too few CPUs, busy), so that it is not counted either way.
    pub fn credit(&self) -> Option<f64> {
        match &self.outcome {
            Outcome::TooFewCpus | Outcome::Busy(..) => None,
            Outcome::Failed(_) => Some(0.0),
            Outcome::Judged(_, judged) => Some(judged.credit),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(times: &[u64]) -> Vec<Duration> {
        times.iter().map(|&t| Duration::from_millis(t)).collect()
    }

    #[test]
    fn each_rounds_ratios_make_the_speedup_and_the_ceiling() {
        // The machine slowed down in the last rounds: each round's ratios hold.
        let m = Measurement {
            depth: 8,
            one: ms(&[400, 400, 400, 600, 600]),
            many: ms(&[230, 220, 230, 345, 330]),
            together: ms(&[420, 410, 420, 630, 620]),
        };
        assert!((m.speedup() - 400.0 / 230.0).abs() < 1e-9);
        assert!((m.ceiling(2).unwrap() - 2.0 * 400.0 / 420.0).abs() < 1e-9);
        assert!(m.spread(2) < 0.05, "{}", m.spread(2));
        // Something came and went: the rounds disagree.
        let busy = Measurement {
            many: ms(&[230, 330, 230, 500, 230]),
            ..m.clone()
        };
        assert!(busy.spread(2) > 0.25, "{}", busy.spread(2));
        let no_ceiling = Measurement {
            together: Vec::new(),
            ..m
        };
        assert_eq!(no_ceiling.ceiling(2), None);
        assert!(no_ceiling.spread(2) < 0.05);
    }
}
