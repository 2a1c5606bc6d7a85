//! The thread design seen from outside: a program on several threads answers a command while a
//! [`ThreadWatch`] looks at its threads, twice. The threads that did the work of the second
//! search, and whether they were already there in the first, tell a pool (created once and
//! reused) from threads started for every search, and both from one thread doing everything.

use std::time::Duration;

use super::result::design::{Design, Unseen};
use crate::process::{Failure, Program, ThreadUse, ThreadWatch};

/// A thread worked in a search when it used at least this share of the busiest thread's CPU
/// time. Workers sharing a search use about as much as each other (7 columns on 2 threads: 4
/// against 3); a pool's idle caller, a runtime's helpers and a JIT compiler finishing its work
/// use less.
const WORKER_SHARE: f64 = 0.4;
/// The busiest thread must use at least this much CPU time for the others to be measured
/// against it (CPU time is counted in clock ticks, a hundredth of a second).
const LEAST_WORK: Duration = Duration::from_millis(50);

/// Sends `command` to `program` and waits up to `limit` for its answer (see [`Program::ask`])
/// while watching its threads: the answer, and every thread seen with what it used.
pub(crate) fn watched(
    program: &mut Program,
    command: &str,
    limit: Duration,
) -> Result<(Vec<String>, Vec<ThreadUse>), Failure> {
    let watch = program.leader().map(ThreadWatch::start);
    let answer = program.ask(command, limit);
    let seen = watch.map(ThreadWatch::stop).unwrap_or_default();
    answer.map(|(lines, _)| (lines, seen))
}

/// The design that two searches' threads show.
pub(crate) fn classify(first: &[ThreadUse], second: &[ThreadUse]) -> Design {
    let (Some(_), Some(now)) = (workers(first), workers(second)) else {
        return Design::Unseen(Unseen::TooQuick);
    };
    // The first search's own helpers (a JIT compiler warming up) do not count.
    if now.len() <= 1 {
        return Design::OneWorker;
    }
    let new = now
        .iter()
        .filter(|thread| !first.iter().any(|seen| seen.id == thread.id))
        .count();
    match new {
        0 => Design::Pool { workers: now.len() },
        new => Design::PerSearch {
            workers: now.len(),
            new,
        },
    }
}

/// The threads that worked in a search, or `None` if none worked long enough to tell.
fn workers(threads: &[ThreadUse]) -> Option<Vec<&ThreadUse>> {
    let busiest = threads.iter().map(|t| t.used).max()?;
    if busiest < LEAST_WORK {
        return None;
    }
    let least = busiest.mul_f64(WORKER_SHARE);
    Some(threads.iter().filter(|t| t.used >= least).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Threads `(id, milliseconds used)`.
    fn seen(threads: &[(i32, u64)]) -> Vec<ThreadUse> {
        threads
            .iter()
            .map(|&(id, ms)| ThreadUse {
                id,
                used: Duration::from_millis(ms),
            })
            .collect()
    }

    #[test]
    fn the_same_workers_twice_are_a_pool() {
        // The caller waits; two workers share the search; a runtime thread does a little.
        let first = seen(&[(10, 0), (11, 200), (12, 190), (13, 20)]);
        let second = seen(&[(10, 0), (11, 180), (12, 210), (13, 5)]);
        assert_eq!(classify(&first, &second), Design::Pool { workers: 2 });
    }

    #[test]
    fn new_workers_for_the_second_search_are_threads_per_search() {
        let first = seen(&[(10, 2), (20, 200), (21, 190)]);
        let second = seen(&[(10, 3), (22, 180), (23, 210)]);
        assert_eq!(
            classify(&first, &second),
            Design::PerSearch { workers: 2, new: 2 }
        );
    }

    #[test]
    fn one_thread_doing_everything_is_one_worker_even_if_new() {
        let first = seen(&[(10, 400), (11, 0)]);
        let second = seen(&[(10, 2), (30, 390)]);
        assert_eq!(classify(&first, &second), Design::OneWorker);
        // A JIT compiler's thread, busy in the first search only, does not make it a pool.
        let first = seen(&[(10, 400), (12, 250)]);
        let second = seen(&[(10, 400), (12, 10)]);
        assert_eq!(classify(&first, &second), Design::OneWorker);
    }

    #[test]
    fn searches_too_short_to_tell_are_not_judged() {
        let first = seen(&[(10, 20), (11, 30)]);
        let second = seen(&[(10, 400)]);
        assert_eq!(classify(&first, &second), Design::Unseen(Unseen::TooQuick));
        assert_eq!(classify(&[], &[]), Design::Unseen(Unseen::TooQuick));
    }
}
