//! The thread design seen from outside, from the kernel's account of a program's threads: a
//! search on one thread, two searches on several, an idle second between commands, and a
//! search of a position where some columns are full. The threads that did the work of the
//! second search, and whether they were already there in the first, tell a pool (created once
//! and reused) from threads started for every search; how many worked on one thread tells a
//! program that ignores `THREADS`; workers ready to run while there is nothing to do poll for
//! work instead of waiting for it; and one worker doing nearly everything where several could
//! share it is a division of the columns fixed in advance. None of it depends on how busy the
//! machine is: the threads' ready time and CPU time do not.

use std::thread;
use std::time::Duration;

use super::result::design::{Design, Division, Unseen};
use super::result::speedup::Work;
use super::work::workers;
use crate::process::sandbox::Prepared;
use crate::process::threads::Seen;
use crate::process::{Failure, Program, ThreadUse, ThreadWatch};

/// How long a program is watched between commands, doing nothing.
pub const IDLE: Duration = Duration::from_secs(1);
/// A pool busy-waits when its workers were ready to run, between commands, this many threads'
/// worth on average: a pool that waits on a condition variable is ready for none of the time
/// (measured: 0.00), one whose workers poll with `yield_now` for nearly all of it, one thread
/// per worker, whatever else runs.
pub const BUSY_IDLE: f64 = 0.5;
/// The columns were divided in advance when, at the uneven position, the busiest worker ran at
/// least this share of the CPU time: a division `c % THREADS` gives every open column there to
/// one thread (measured: 0.99 and more), while threads that take the next column as they finish
/// share it (measured: 0.5 to 0.6 on 2 threads).
pub const FIXED_SHARE: f64 = 0.9;

/// Sends `command` to `program` and waits up to `limit` for its answer (see [`Program::ask`])
/// while watching its threads and every other process of the student's `sandbox`: the answer,
/// how long it took, and what every thread did.
pub(crate) fn watched(
    program: &mut Program,
    sandbox: Option<&Prepared>,
    command: &str,
    limit: Duration,
) -> Result<(Vec<String>, Duration, Vec<ThreadUse>), Failure> {
    let watch = program
        .leader()
        .map(|leader| ThreadWatch::start(leader, sandbox.cloned()));
    let answer = program.ask(command, limit);
    let seen = watch.map(ThreadWatch::stop).unwrap_or_default();
    answer.map(|(lines, took)| (lines, took, seen.threads))
}

/// What `program`'s threads (and the sandbox's other processes') did for [`IDLE`], sent
/// nothing.
pub(crate) fn idle(program: &Program, sandbox: Option<&Prepared>) -> Seen {
    let Some(leader) = program.leader() else {
        return Seen::default();
    };
    let watch = ThreadWatch::start(leader, sandbox.cloned());
    thread::sleep(IDLE);
    watch.stop()
}

/// The design that the searches' threads show: `alone` on one thread, `first` and `second` on
/// several, then `idle` between commands.
pub(crate) fn classify(
    alone: &[ThreadUse],
    first: &[ThreadUse],
    second: &[ThreadUse],
    idle: &Seen,
) -> Design {
    let (Some(_), Some(now)) = (workers(first), workers(second)) else {
        return Design::Unseen(Unseen::TooQuick);
    };
    let alone = workers(alone).map_or(0, |w| w.len());
    if alone > 1 && now.len() > 1 {
        return Design::IgnoresThreads {
            workers: now.len(),
            alone,
        };
    }
    // The first search's own helpers (a JIT compiler warming up) do not count.
    if now.len() <= 1 {
        return Design::OneWorker;
    }
    let new = now
        .iter()
        .filter(|thread| !first.iter().any(|seen| seen.id == thread.id))
        .count();
    let ready: Duration = idle
        .threads
        .iter()
        .filter(|t| now.iter().any(|w| w.id == t.id))
        .map(|t| t.clock.ready())
        .sum();
    let idling = ready.as_secs_f64() / idle.watched.as_secs_f64().max(1e-9);
    match new {
        0 if idling >= BUSY_IDLE => Design::BusyWaiting {
            workers: now.len(),
            idle: idling,
        },
        0 => Design::Pool {
            workers: now.len(),
            division: Division::Unknown,
        },
        new => Design::PerSearch {
            workers: now.len(),
            new,
            division: Division::Unknown,
        },
    }
}

/// How the work was shared at the uneven position, from its many-thread search.
pub(crate) fn division(work: &Work) -> Division {
    if work.cpu < super::work::LEAST_WORK {
        Division::Unknown
    } else if work.busiest >= FIXED_SHARE {
        Division::Fixed(work.busiest)
    } else {
        Division::Shared(work.busiest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::work::tests::threads;
    use crate::judge::work::work;

    /// Threads `(id, milliseconds run)`, never kept waiting.
    fn seen(list: &[(i32, u64)]) -> Vec<ThreadUse> {
        let with_waits: Vec<(i32, u64, u64)> = list.iter().map(|&(i, r)| (i, r, 0)).collect();
        threads(&with_waits)
    }

    /// An idle second in which threads `(id, milliseconds ready)` were ready.
    fn idle(list: &[(i32, u64)]) -> Seen {
        Seen {
            threads: seen(list),
            watched: IDLE,
        }
    }

    /// One thread searching alone.
    fn alone() -> Vec<ThreadUse> {
        seen(&[(1, 0), (5, 400)])
    }

    #[test]
    fn the_same_workers_twice_waiting_between_commands_are_a_pool() {
        // The caller waits; two workers share the search; a runtime thread does a little.
        let first = seen(&[(10, 0), (11, 200), (12, 190), (13, 20)]);
        let second = seen(&[(10, 0), (11, 180), (12, 210), (13, 5)]);
        let design = classify(&alone(), &first, &second, &idle(&[(11, 0), (12, 0)]));
        assert_eq!(
            design,
            Design::Pool {
                workers: 2,
                division: Division::Unknown
            }
        );
        assert!(design.is_pool());
        assert!(!design.divided(Division::Fixed(1.0)).is_pool());
    }

    #[test]
    fn workers_ready_between_commands_busy_wait() {
        let first = seen(&[(10, 0), (11, 200), (12, 190)]);
        let second = seen(&[(10, 0), (11, 180), (12, 210)]);
        // Ready all along, one thread's worth each, whether or not a CPU was free for them.
        let design = classify(&alone(), &first, &second, &idle(&[(11, 1000), (12, 990)]));
        assert!(
            matches!(design, Design::BusyWaiting { workers: 2, idle } if idle > 1.9),
            "{design:?}"
        );
        // A runtime thread busy between commands (a JIT compiler) is not the pool's doing.
        let design = classify(&alone(), &first, &second, &idle(&[(13, 900)]));
        assert!(design.is_pool(), "{design:?}");
    }

    #[test]
    fn new_workers_for_the_second_search_are_threads_per_search() {
        let first = seen(&[(10, 2), (20, 200), (21, 190)]);
        let second = seen(&[(10, 3), (22, 180), (23, 210)]);
        assert_eq!(
            classify(&alone(), &first, &second, &idle(&[])),
            Design::PerSearch {
                workers: 2,
                new: 2,
                division: Division::Unknown
            }
        );
    }

    #[test]
    fn several_workers_on_one_thread_ignore_threads() {
        let alone = seen(&[(10, 2), (20, 60), (21, 58), (22, 61)]);
        let first = seen(&[(10, 2), (30, 60), (31, 58), (32, 61)]);
        let second = seen(&[(10, 3), (40, 60), (41, 58), (42, 61)]);
        assert_eq!(
            classify(&alone, &first, &second, &idle(&[])),
            Design::IgnoresThreads {
                workers: 3,
                alone: 3
            }
        );
    }

    #[test]
    fn one_thread_doing_everything_is_one_worker_even_if_new() {
        let first = seen(&[(10, 400), (11, 0)]);
        let second = seen(&[(10, 2), (30, 390)]);
        assert_eq!(
            classify(&alone(), &first, &second, &idle(&[])),
            Design::OneWorker
        );
        // A JIT compiler's thread, busy in the first search only, does not make it a pool.
        let first = seen(&[(10, 400), (12, 250)]);
        let second = seen(&[(10, 400), (12, 10)]);
        assert_eq!(
            classify(&alone(), &first, &second, &idle(&[])),
            Design::OneWorker
        );
    }

    #[test]
    fn searches_too_short_to_tell_are_not_judged() {
        let first = seen(&[(10, 20), (11, 30)]);
        let second = seen(&[(10, 400)]);
        assert_eq!(
            classify(&alone(), &first, &second, &idle(&[])),
            Design::Unseen(Unseen::TooQuick)
        );
        assert_eq!(
            classify(&[], &[], &[], &idle(&[])),
            Design::Unseen(Unseen::TooQuick)
        );
    }

    #[test]
    fn one_worker_doing_nearly_all_at_the_uneven_position_is_a_fixed_division() {
        let ms = Duration::from_millis;
        let fixed = work(&seen(&[(1, 1), (2, 800), (3, 3)]), ms(810));
        assert!(matches!(division(&fixed), Division::Fixed(s) if s > 0.99));
        let shared = work(&seen(&[(1, 1), (2, 450), (3, 350)]), ms(460));
        assert!(matches!(division(&shared), Division::Shared(s) if s < 0.6));
        let quick = work(&seen(&[(2, 10)]), ms(12));
        assert_eq!(division(&quick), Division::Unknown);
    }
}
