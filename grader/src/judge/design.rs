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
use super::work::{taking_part, workers};
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
/// how long it took, and what every thread did and the instructions they retired.
pub(crate) fn watched(
    program: &mut Program,
    sandbox: Option<&Prepared>,
    command: &str,
    limit: Duration,
) -> Result<(Vec<String>, Duration, Seen), Failure> {
    let watch = program
        .leader()
        .map(|leader| ThreadWatch::start(leader, sandbox.cloned()));
    let answer = program.ask(command, limit);
    let seen = watch.map(ThreadWatch::stop).unwrap_or_default();
    answer.map(|(lines, took)| (lines, took, seen))
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

/// Workers took turns when fewer than one thread plus this share of each other worker were
/// ready to run at once, on average, in the second search: a pool of 2 sharing 7 root columns
/// keeps about 1.75 at once (measured: 1.9), workers holding one lock for each whole task
/// about 1 (1.02 in the Java fixture). Ready, not running: a busy machine does not
/// change it.
pub const TURNS_SHARE: f64 = 0.3;

/// How many threads at once, on average, `workers` taking turns keep at most: one, and
/// [`TURNS_SHARE`] of each other worker. More than that, they worked side by side.
pub(crate) fn turns(workers: usize) -> f64 {
    1.0 + TURNS_SHARE * workers.saturating_sub(1) as f64
}
/// Idle workers poll with sleeps when each was woken this many times a second or more with
/// nothing to do: a pool waiting on a condition variable is woken never (measured: 0), one
/// sleeping 1 ms between looks about a thousand times.
pub const POLL_WAKEUPS: f64 = 50.0;
/// The program on more threads, all on one CPU, did work beside the search when it ran this
/// many times the CPU time of its search on one thread: on one CPU threads cannot slow each
/// other down through a lock or a cache line (a pool: about 1), while a burner beside the
/// search or threads that each search everything run twice as much.
pub const DUPLICATED: f64 = 1.5;

/// What the design is told from: a search on one thread, two on several, an idle second, and,
/// when the threads' work grew, the same search with all the threads on one CPU.
pub(crate) struct Watched<'a> {
    /// The threads of the search on one thread.
    pub alone: &'a [ThreadUse],
    /// The threads of the first search on several.
    pub first: &'a [ThreadUse],
    /// The threads of the second search on several, and how long it took.
    pub second: (&'a [ThreadUse], Duration),
    /// The idle second after it.
    pub idle: &'a Seen,
    /// The CPU time of the search on several threads all on one CPU over the one-thread
    /// search's, when it was measured.
    pub on_one_cpu: Option<f64>,
    /// The root columns of the position searched: as many workers on any `THREADS` are a
    /// thread per column.
    pub columns: usize,
}

/// The design that the searches' threads show.
pub(crate) fn classify(seen: &Watched) -> Design {
    let (second, wall) = seen.second;
    let (Some(_), Some(now)) = (workers(seen.first), workers(second)) else {
        return Design::Unseen(Unseen::TooQuick);
    };
    let alone = workers(seen.alone).map_or(0, |w| w.len());
    if alone > 1 && now.len() > 1 {
        return Design::IgnoresThreads {
            workers: now.len(),
            alone,
            per_column: alone == seen.columns && now.len() == seen.columns,
        };
    }
    // The program on several threads: every thread seen in its searches that the program on
    // one thread, searching first in the same sandbox, did not have.
    let own = |t: &ThreadUse| {
        !seen.alone.iter().any(|a| a.id == t.id)
            && seen.first.iter().chain(second).any(|s| s.id == t.id)
    };
    let idle = seen.idle;
    let watched = idle.watched.as_secs_f64().max(1e-9);
    let ready: Duration = idle
        .threads
        .iter()
        .filter(|t| own(t))
        .map(|t| t.clock.ready())
        .sum();
    let idling = ready.as_secs_f64() / watched;
    if idling >= BUSY_IDLE {
        return Design::BusyWaiting {
            workers: now.len(),
            idle: idling,
        };
    }
    let at_once = |threads: &[&ThreadUse]| {
        let ready: Duration = threads.iter().map(|t| t.clock.ready()).sum();
        ready.as_secs_f64() / wall.as_secs_f64().max(1e-9)
    };
    // The first search's own helpers (a JIT compiler warming up) do not count.
    if now.len() <= 1 {
        // One thread did most of the search; others that did some, which the program on one
        // thread did not have, waited for it: workers taking turns behind an unfair lock.
        let part: Vec<&ThreadUse> = taking_part(second).into_iter().filter(|t| own(t)).collect();
        let before = taking_part(seen.alone).len();
        return match (part.len(), at_once(&part)) {
            (workers, at_once) if workers > before.max(1) && at_once < turns(workers) => {
                Design::TakingTurns { workers, at_once }
            }
            _ => Design::OneWorker,
        };
    }
    let workers = now.len();
    if let Some(work) = seen.on_one_cpu.filter(|&w| w >= DUPLICATED) {
        return Design::Duplicated { workers, work };
    }
    // New threads are counted before a lock is inferred: threads started for every search,
    // each after the last had finished, are about one at work at once with no lock at all.
    let new = now
        .iter()
        .filter(|thread| !seen.first.iter().any(|s| s.id == thread.id))
        .count();
    let together = at_once(&now);
    let serial = together < turns(workers);
    if new > 0 {
        return Design::PerSearch {
            workers,
            new,
            division: Division::Unknown,
            serial,
        };
    }
    if serial {
        return Design::TakingTurns {
            workers,
            at_once: together,
        };
    }
    let woken: u64 = idle
        .threads
        .iter()
        .filter(|t| now.iter().any(|w| w.id == t.id))
        .filter_map(|t| t.clock.slices)
        .sum();
    let wakeups = woken as f64 / watched / workers as f64;
    match wakeups >= POLL_WAKEUPS {
        true => Design::Polling { workers, wakeups },
        false => Design::Pool {
            workers,
            division: Division::Unknown,
        },
    }
}

/// The design seen, told more by the uneven position's many-thread search `work`: how the
/// work was shared there, and, for a program that searched with one worker before, whether
/// several took turns there (a lock held for a whole task lets one worker take every task of a
/// search when the lock favours it, as `std`'s and Java's do, but not every time).
pub(crate) fn with_uneven(design: Design, work: &Work) -> Design {
    match design {
        Design::OneWorker if work.workers > 1 && work.at_once() < turns(work.workers) => {
            Design::TakingTurns {
                workers: work.workers,
                at_once: work.at_once(),
            }
        }
        design => design.divided(division(work)),
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
            ..Seen::default()
        }
    }

    /// The design of these searches, the second taking as long as its readiest thread was
    /// ready, not searched on one CPU.
    fn classified(
        alone: &[ThreadUse],
        first: &[ThreadUse],
        second: &[ThreadUse],
        idle: &Seen,
    ) -> Design {
        let wall = second
            .iter()
            .map(|t| t.clock.ready())
            .max()
            .unwrap_or_default();
        classify(&Watched {
            alone,
            first,
            second: (second, wall),
            idle,
            on_one_cpu: None,
            columns: 7,
        })
    }

    /// The design of these searches, the second taking `wall`, with nothing ready between
    /// commands and, searched on one CPU, `on_one_cpu` the work.
    fn timed(
        alone: &[ThreadUse],
        first: &[ThreadUse],
        second: &[ThreadUse],
        wall: Duration,
        on_one_cpu: Option<f64>,
    ) -> Design {
        classify(&Watched {
            alone,
            first,
            second: (second, wall),
            idle: &idle(&[]),
            on_one_cpu,
            columns: 7,
        })
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
        let design = classified(&alone(), &first, &second, &idle(&[(11, 0), (12, 0)]));
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
        let design = classified(&alone(), &first, &second, &idle(&[(11, 1000), (12, 990)]));
        assert!(
            matches!(design, Design::BusyWaiting { workers: 2, idle } if idle > 1.9),
            "{design:?}"
        );
        // A runtime thread busy between commands (a JIT compiler) is not the pool's doing.
        let design = classified(&alone(), &first, &second, &idle(&[(13, 900)]));
        assert!(design.is_pool(), "{design:?}");
    }

    #[test]
    fn new_workers_for_the_second_search_are_threads_per_search() {
        let first = seen(&[(10, 2), (20, 200), (21, 190)]);
        let second = seen(&[(10, 3), (22, 180), (23, 210)]);
        assert_eq!(
            classified(&alone(), &first, &second, &idle(&[])),
            Design::PerSearch {
                workers: 2,
                new: 2,
                division: Division::Unknown,
                serial: false,
            }
        );
    }

    #[test]
    fn threads_started_one_after_another_are_threads_per_search_not_a_lock() {
        // A thread for every item, each joined before the next starts: five new threads a
        // search, about one at work at once, and no lock anywhere.
        let first = seen(&[(10, 1), (20, 60), (21, 58), (22, 61), (23, 59), (24, 60)]);
        let second = seen(&[(10, 1), (30, 60), (31, 58), (32, 61), (33, 59), (34, 60)]);
        let design = timed(&alone(), &first, &second, Duration::from_millis(300), None);
        assert_eq!(
            design,
            Design::PerSearch {
                workers: 5,
                new: 5,
                division: Division::Unknown,
                serial: true,
            }
        );
        // The same counts from the same threads twice are workers taking turns on a lock.
        let design = timed(&alone(), &first, &first, Duration::from_millis(300), None);
        assert!(
            matches!(design, Design::TakingTurns { workers: 5, .. }),
            "{design:?}"
        );
    }

    #[test]
    fn several_workers_on_one_thread_ignore_threads() {
        let alone = seen(&[(10, 2), (20, 60), (21, 58), (22, 61)]);
        let first = seen(&[(10, 2), (30, 60), (31, 58), (32, 61)]);
        let second = seen(&[(10, 3), (40, 60), (41, 58), (42, 61)]);
        assert_eq!(
            classified(&alone, &first, &second, &idle(&[])),
            Design::IgnoresThreads {
                workers: 3,
                alone: 3,
                per_column: false,
            }
        );
    }

    #[test]
    fn a_thread_for_every_root_column_on_any_threads_is_a_thread_per_column() {
        let each = |base: i32| -> Vec<(i32, u64)> {
            std::iter::once((10, 2))
                .chain((0..7).map(|c| (base + c, 60)))
                .collect()
        };
        let (alone, first, second) = (seen(&each(20)), seen(&each(30)), seen(&each(40)));
        assert_eq!(
            classified(&alone, &first, &second, &idle(&[])),
            Design::IgnoresThreads {
                workers: 7,
                alone: 7,
                per_column: true,
            }
        );
    }

    #[test]
    fn one_thread_doing_everything_is_one_worker_even_if_new() {
        let first = seen(&[(10, 400), (11, 0)]);
        let second = seen(&[(10, 2), (30, 390)]);
        assert_eq!(
            classified(&alone(), &first, &second, &idle(&[])),
            Design::OneWorker
        );
        // A JIT compiler's thread, busy in the first search only, does not make it a pool.
        let first = seen(&[(10, 400), (12, 250)]);
        let second = seen(&[(10, 400), (12, 10)]);
        assert_eq!(
            classified(&alone(), &first, &second, &idle(&[])),
            Design::OneWorker
        );
    }

    #[test]
    fn searches_too_short_to_tell_are_not_judged() {
        let first = seen(&[(10, 20), (11, 30)]);
        let second = seen(&[(10, 400)]);
        assert_eq!(
            classified(&alone(), &first, &second, &idle(&[])),
            Design::Unseen(Unseen::TooQuick)
        );
        assert_eq!(
            classified(&[], &[], &[], &idle(&[])),
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

    #[test]
    fn one_worker_whose_uneven_search_had_two_taking_turns_took_turns() {
        let ms = Duration::from_millis;
        // Two workers, one after the other: 0.8 s of work, ready 0.8 s in 0.81 s.
        let turns = work(&seen(&[(1, 1), (2, 420), (3, 380)]), ms(810));
        assert!(matches!(
            with_uneven(Design::OneWorker, &turns),
            Design::TakingTurns { workers: 2, at_once } if at_once < 1.01
        ));
        // One worker there too: one worker.
        let one = work(&seen(&[(1, 1), (2, 800)]), ms(810));
        assert_eq!(with_uneven(Design::OneWorker, &one), Design::OneWorker);
        // A pool's two sharing at once: its division.
        let pool = Design::Pool {
            workers: 2,
            division: Division::Unknown,
        };
        let shared = work(&seen(&[(1, 1), (2, 420), (3, 380)]), ms(430));
        assert!(with_uneven(pool, &shared).is_pool());
    }

    #[test]
    fn workers_holding_one_lock_take_turns() {
        // Both searched, one after the other: 390 ms of ready time in a 400 ms search.
        let first = seen(&[(10, 0), (11, 200), (12, 190)]);
        let second = seen(&[(10, 0), (11, 210), (12, 180)]);
        let design = timed(&alone(), &first, &second, Duration::from_millis(400), None);
        assert!(
            matches!(design, Design::TakingTurns { workers: 2, at_once } if at_once < 1.0),
            "{design:?}"
        );
    }

    #[test]
    fn a_busy_waiting_pool_is_named_so_whatever_its_searches_showed() {
        // Under load one worker did nearly all of the second search: still busy-waiting, from
        // what its threads did between commands.
        let first = seen(&[(10, 0), (11, 300), (12, 290)]);
        let second = seen(&[(10, 0), (11, 600), (12, 20)]);
        let design = classified(&alone(), &first, &second, &idle(&[(11, 900), (12, 950)]));
        assert!(
            matches!(design, Design::BusyWaiting { idle, .. } if idle > 1.8),
            "{design:?}"
        );
        // The one-thread program's worker spinning in the same sandbox is not the pool's.
        let design = classified(&alone(), &first, &second, &idle(&[(5, 1000)]));
        assert_eq!(design, Design::OneWorker);
    }

    #[test]
    fn one_worker_doing_most_while_another_waited_its_turn_took_turns() {
        // Behind an unfair lock one worker took six tasks; the other, holding the seventh,
        // waited for the lock, then searched alone.
        let first = seen(&[(10, 0), (11, 500), (12, 90)]);
        let second = seen(&[(10, 0), (11, 510), (12, 85)]);
        let wall = Duration::from_millis(600);
        let design = timed(&alone(), &first, &second, wall, None);
        assert!(
            matches!(design, Design::TakingTurns { workers: 2, at_once } if at_once < 1.0),
            "{design:?}"
        );
        // A runtime's helper doing as much on one thread as on several: one worker.
        let alone = seen(&[(1, 0), (5, 510), (6, 80)]);
        let design = timed(&alone, &first, &second, wall, None);
        assert_eq!(design, Design::OneWorker);
    }

    #[test]
    fn idle_workers_woken_again_and_again_poll_with_sleeps() {
        let first = seen(&[(10, 0), (11, 200), (12, 190)]);
        let second = seen(&[(10, 0), (11, 180), (12, 210)]);
        let mut polling = idle(&[(11, 20), (12, 20)]);
        for t in &mut polling.threads {
            t.clock.slices = Some(950);
        }
        let design = classified(&alone(), &first, &second, &polling);
        assert!(
            matches!(design, Design::Polling { workers: 2, wakeups } if wakeups > 900.0),
            "{design:?}"
        );
        // A pool's workers, woken once or twice by the runtime: a pool.
        for t in &mut polling.threads {
            t.clock.slices = Some(2);
        }
        assert!(classified(&alone(), &first, &second, &polling).is_pool());
    }

    #[test]
    fn twice_the_work_on_one_cpu_is_work_beside_the_search() {
        // A burner started for every search beside the worker that searches.
        let ms = Duration::from_millis;
        let first = seen(&[(10, 0), (11, 400), (20, 400)]);
        let second = seen(&[(10, 0), (11, 400), (21, 400)]);
        let watched = |on_one_cpu| timed(&alone(), &first, &second, ms(400), on_one_cpu);
        assert_eq!(
            watched(Some(1.98)),
            Design::Duplicated {
                workers: 2,
                work: 1.98
            }
        );
        // The same figures with the threads merely slowing each other (about the search's work
        // on one CPU): a design by its threads, here new ones for every search.
        assert!(matches!(watched(Some(1.02)), Design::PerSearch { .. }));
    }
}
