//! The machine's ceiling, measured with the grader's own work, never the student's program: a
//! fixed amount of arithmetic on a small table (like a search, it stays in the CPU's caches)
//! done by one thread, then split among as many threads as the speed-up's at once, each
//! summed up as a search's threads are ([`work`]), and its instructions counted as theirs are
//! (a counter on the thread that starts the others, which inherit it). The ratio of the two
//! spans is the most that many threads can gain here now: near the thread count on CPUs of
//! their own, less where two threads share a core's pipeline. A busy machine stretches both
//! wall-clock times, not the spans.

use std::hint::black_box;
use std::thread;
use std::time::{Duration, Instant};

use super::result::speedup::Work;
use super::work::work;
use crate::process::counters::{Counters, Uncounted};
use crate::process::threads::own_clock;
use crate::process::ThreadUse;

/// About how much CPU time one thread's share of the calibration takes.
const UNIT: Duration = Duration::from_millis(60);

/// What the calibration showed on some threads at once, against the same work on one.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ceiling {
    /// The most that many threads can gain: the span of the work on one thread over its span
    /// split among them at once, never more than their count (more only caught the machine
    /// speeding up).
    pub most: f64,
    /// The CPU time of the work split among them over its CPU time on one thread: about 1 on
    /// CPUs of their own, more where the machine slows CPUs at work at once (the machine's
    /// share of a program's growth).
    pub growth: f64,
    /// The same in instructions retired (about 1: the same instructions, however the machine
    /// slows them), or why they could not be counted.
    pub instructions: Result<f64, Uncounted>,
}

/// The grader's calibration work, sized to take about [`UNIT`] on this machine.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Calibration {
    /// Rounds of [`churn`] in one unit.
    unit: u64,
}

impl Calibration {
    /// Sizes the work: rounds doubled until they take a tenth of [`UNIT`] of CPU time on this
    /// thread, then scaled up.
    pub(crate) fn new() -> Calibration {
        let mut rounds = 1 << 12;
        loop {
            let before = own_clock().map(|c| c.ran);
            churn(rounds);
            let ran = own_clock()
                .map(|c| c.ran)
                .zip(before)
                .map(|(after, before)| after.saturating_sub(before));
            match ran {
                Some(ran) if ran >= UNIT / 10 => {
                    let scale = UNIT.as_secs_f64() / ran.as_secs_f64();
                    return Calibration {
                        unit: (rounds as f64 * scale) as u64,
                    };
                }
                None if rounds >= 1 << 24 => return Calibration { unit: rounds },
                _ => rounds *= 2,
            }
        }
    }

    /// What `threads` threads at once show on this machine now (see [`Ceiling`]). `None` if
    /// the kernel does not account for the threads.
    pub(crate) fn ceiling(&self, threads: usize) -> Option<Ceiling> {
        let count = u64::try_from(threads).unwrap_or(u64::MAX);
        let (alone, alone_counted) = self.timed(&[count * self.unit]);
        let (together, together_counted) = self.timed(&vec![self.unit; threads]);
        let most = threads as f64;
        let seconds = |d: std::time::Duration| d.as_secs_f64().max(1e-9);
        (alone.accounted && together.accounted).then(|| Ceiling {
            most: (seconds(alone.span) / seconds(together.span)).min(most),
            growth: seconds(together.cpu) / seconds(alone.cpu),
            instructions: alone_counted
                .and_then(|a| together_counted.map(|t| t as f64 / a.max(1) as f64)),
        })
    }

    /// The work of one thread per entry of `rounds`, all at once, summed up, and the
    /// instructions it retired or why they could not be counted.
    fn timed(&self, rounds: &[u64]) -> (Work, Result<u64, Uncounted>) {
        let started = Instant::now();
        let mut counters = Counters::here();
        let threads: Vec<ThreadUse> = thread::scope(|scope| {
            let handles: Vec<_> = rounds
                .iter()
                .zip(1..)
                .map(|(&n, id)| scope.spawn(move || on_own_clock(id, || churn(n))))
                .collect();
            handles
                .into_iter()
                .filter_map(|h| h.join().ok().flatten())
                .collect()
        });
        (work(&threads, started.elapsed()), counters.read())
    }
}

/// What the calling thread did while running `job`, as thread `id`.
fn on_own_clock(id: i32, job: impl FnOnce() -> u64) -> Option<ThreadUse> {
    let before = own_clock()?;
    black_box(job());
    let after = own_clock()?;
    Some(ThreadUse {
        id,
        clock: after.since(&before),
    })
}

/// `rounds` of a xorshift generator indexing a table that fits in the first-level cache.
fn churn(rounds: u64) -> u64 {
    let mut table = [0u64; 512];
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    for _ in 0..rounds {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let slot = (state % 512) as usize;
        table[slot] = table[slot].wrapping_add(state);
    }
    black_box(table.iter().fold(0, |a, &b| a ^ b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_thread_gains_nothing_and_two_gain_up_to_two() {
        let calibration = Calibration::new();
        let one = calibration
            .ceiling(1)
            .expect("this kernel accounts for threads");
        assert!((one.most - 1.0).abs() < 0.25, "one thread: {one:?}");
        assert!((one.growth - 1.0).abs() < 0.25, "one thread: {one:?}");
        // Two threads: whatever else runs, never more than two, and more than one on two CPUs
        // or where they wait for one (their waiting is taken out). Not much more when the other
        // tests run beside them: two CPUs that share a physical core slow each other down
        // without waiting (a CI run measured 1.17 so).
        let two = calibration.ceiling(2).unwrap().most;
        assert!(two > 1.05 && two < 2.2, "two threads: {two}");
    }
}
