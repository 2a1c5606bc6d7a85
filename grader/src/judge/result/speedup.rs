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
    /// No rounds yet, at `depth`.
    pub fn new(depth: u32) -> Self {
        Measurement {
            depth,
            one: Vec::new(),
            many: Vec::new(),
            together: Vec::new(),
        }
    }

    /// Each round's speed-up: its one-thread time over its many-thread time.
    pub fn speedups(&self) -> Vec<f64> {
        ratios(&self.one, &self.many, 1.0)
    }

    /// Each round's ceiling, the most `copies` threads could give on this machine: that many
    /// one-thread runs at once did `copies` times the work of one alone in their time, and
    /// never more than `copies` (a round that shows more only caught the machine speeding
    /// up); none if not measured.
    pub fn ceilings(&self, copies: usize) -> Vec<f64> {
        let most = copies as f64;
        ratios(&self.one, &self.together, most)
            .into_iter()
            .map(|c| c.min(most))
            .collect()
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

    /// Where the median speed-up lies with [`CONFIDENCE`], from the rounds': lowest, highest.
    pub fn speedup_range(&self) -> (f64, f64) {
        median_range(&self.speedups())
    }

    /// Where the median ceiling lies with [`CONFIDENCE`], if it was measured.
    pub fn ceiling_range(&self, copies: usize) -> Option<(f64, f64)> {
        let ceilings = self.ceilings(copies);
        (!ceilings.is_empty()).then(|| median_range(&ceilings))
    }

    /// How many rounds were timed.
    pub fn rounds(&self) -> usize {
        self.one.len()
    }
}

/// How sure [`median_range`] is that the true median lies in the range it gives.
pub const CONFIDENCE: f64 = 0.8;

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

/// The range in which the median of what `values` sample lies with [`CONFIDENCE`], whatever
/// their distribution: from the k-th smallest to the k-th largest, for the largest k such that
/// the median falls below the k-th smallest (each value is below it with chance one half) no
/// more often than half of `1 - CONFIDENCE`. More rounds narrow it. (0, 0) for none.
pub fn median_range(values: &[f64]) -> (f64, f64) {
    let sorted = sorted(values);
    let n = sorted.len();
    if n == 0 {
        return (0.0, 0.0);
    }
    let tail = (1.0 - CONFIDENCE) / 2.0;
    // `chance`: that exactly j of the n values fall below the median; `below`: j or fewer.
    let mut chance = 0.5_f64.powi(i32::try_from(n).unwrap_or(i32::MAX));
    let mut below = 0.0;
    let mut k = 1;
    for j in 0..n / 2 {
        below += chance;
        if below > tail {
            break;
        }
        k = j + 1;
        chance *= (n - j) as f64 / (j + 1) as f64;
    }
    (sorted[k - 1], sorted[n - k])
}

/// `values` in order.
fn sorted(values: &[f64]) -> Vec<f64> {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted
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
    /// The rounds, as many as the case allows, still left the credit unsettled: the medians'
    /// ranges allowed anything from the first share of the points to the second.
    Unsettled(f64, f64),
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
        assert_eq!(m.rounds(), 5);
        // Two copies at once faster than one alone: the machine sped up, the ceiling is 2.
        let faster = Measurement {
            together: ms(&[380, 380, 380, 570, 570]),
            ..m.clone()
        };
        assert_eq!(faster.ceiling(2), Some(2.0));
        let no_ceiling = Measurement {
            together: Vec::new(),
            ..m
        };
        assert_eq!(no_ceiling.ceiling(2), None);
        assert_eq!(no_ceiling.ceiling_range(2), None);
    }

    /// The chance that the median of a uniform sample of `n` falls outside `median_range`,
    /// counted over many samples drawn by a fixed generator.
    fn missed(n: usize) -> f64 {
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        let trials = 20_000;
        let misses = (0..trials)
            .filter(|_| {
                let values: Vec<f64> = (0..n).map(|_| next()).collect();
                let (low, high) = median_range(&values);
                !(low..=high).contains(&0.5)
            })
            .count();
        misses as f64 / trials as f64
    }

    #[test]
    fn the_median_range_holds_the_median_as_often_as_it_says() {
        for n in [7, 10, 15, 21] {
            let missed = missed(n);
            assert!(
                missed <= 1.0 - CONFIDENCE + 0.01,
                "{n} values: missed {missed}"
            );
            // Not much wider than it needs to be either.
            assert!(
                missed >= (1.0 - CONFIDENCE) / 3.0,
                "{n} values: missed {missed}"
            );
        }
    }

    #[test]
    fn the_median_range_narrows_with_more_values_and_holds_the_median() {
        let values: Vec<f64> = (1..=7).map(f64::from).collect();
        assert_eq!(median_range(&values), (2.0, 6.0));
        let more: Vec<f64> = (1..=21).map(f64::from).collect();
        let (low, high) = median_range(&more);
        assert!(
            low <= 11.0 && 11.0 <= high && high - low < 10.0,
            "{low} {high}"
        );
        assert_eq!(median_range(&[3.0]), (3.0, 3.0));
        assert_eq!(median_range(&[]), (0.0, 0.0));
    }
}
