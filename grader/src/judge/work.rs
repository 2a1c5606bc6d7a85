//! What a search's threads did, summed up from the kernel's account of each ([`ThreadUse`]):
//! which threads were its workers, the CPU time they ran, the time they were ready to run, and
//! the search's span, the time it would have taken had no thread waited for a CPU. On a busy
//! machine the wall clock stretches while the threads wait; the span does not, which is what
//! lets a speed-up be judged whatever else runs.
//!
//! The span is the wall-clock time scaled by the share of its ready time that the best-served
//! worker ran. Taking the best-served worker, not the average, keeps a thread that is ready but
//! rarely runs (one that lowered its own priority to look busy) from shrinking the span; and a
//! span is never more than the CPU time all the threads ran, so time spent asleep is not work.

use std::time::Duration;

use super::result::speedup::Work;
use crate::process::ThreadUse;

/// A thread worked in a search when it ran at least this share of the busiest thread's CPU
/// time. Workers sharing a search run about as much as each other (7 columns on 2 threads: 4
/// against 3); a pool's idle caller, a runtime's helpers and a JIT compiler finishing its work
/// run less.
pub(crate) const WORKER_SHARE: f64 = 0.4;
/// A thread that ran less than [`WORKER_SHARE`] still worked when it ran at least this share
/// of the busiest thread's CPU time and was ready to run at least [`WORKER_SHARE`] of the
/// busiest thread's ready time: a worker the machine served less than the others (measured
/// under load: 40% of the busiest's CPU time, 90% of its ready time). A thread woken again and
/// again while the workers hold every CPU (a pool's caller, handed each result) waits for a
/// CPU at every wake-up, so it is long ready, but it runs almost nothing (measured: 1 ms
/// against 230 ms).
pub(crate) const PART_SHARE: f64 = 0.1;
/// The busiest thread must run at least this much CPU time for the others to be measured
/// against it.
pub(crate) const LEAST_WORK: Duration = Duration::from_millis(50);
/// A worker's share of running counts toward the span only when it was ready at least this
/// share of the longest-ready worker's time: a thread that ran a moment without waiting says
/// little about how the machine served the search.
const READY_SHARE: f64 = 0.5;

/// The threads that worked in a search, or `None` if none worked long enough to tell.
pub(crate) fn workers(threads: &[ThreadUse]) -> Option<Vec<&ThreadUse>> {
    let busiest = threads.iter().max_by_key(|t| t.used())?;
    (busiest.used() >= LEAST_WORK).then(|| near(threads, busiest))
}

/// The threads that took part in a search: each ran at least [`PART_SHARE`] of the busiest
/// thread's CPU time (a worker, or one that did some of the work while another did most).
pub(crate) fn taking_part(threads: &[ThreadUse]) -> Vec<&ThreadUse> {
    let busiest = threads
        .iter()
        .map(ThreadUse::used)
        .max()
        .unwrap_or_default();
    let least = busiest.mul_f64(PART_SHARE);
    threads.iter().filter(|t| t.used() >= least).collect()
}

/// The threads that worked as `busiest` did: at least [`WORKER_SHARE`] of its CPU time, or,
/// served less by the machine, [`PART_SHARE`] of it and [`WORKER_SHARE`] of its ready time.
fn near<'a>(threads: &'a [ThreadUse], busiest: &ThreadUse) -> Vec<&'a ThreadUse> {
    let (used, ready) = (busiest.used(), busiest.clock.ready());
    taking_part(threads)
        .into_iter()
        .filter(|t| {
            t.used() >= used.mul_f64(WORKER_SHARE) || t.clock.ready() >= ready.mul_f64(WORKER_SHARE)
        })
        .collect()
}

/// What `threads` did in a search that took `wall` on the wall clock (the instructions they
/// retired are the counters' to say).
pub(crate) fn work(threads: &[ThreadUse], wall: Duration) -> Work {
    let cpu: Duration = threads.iter().map(ThreadUse::used).sum();
    let ready: Duration = threads.iter().map(|t| t.clock.ready()).sum();
    let accounted = threads.iter().all(|t| t.clock.waited.is_some());
    let busiest = threads.iter().max_by_key(|t| t.used());
    let working = busiest.map_or_else(Vec::new, |b| near(threads, b));
    let longest = working.iter().map(|t| t.clock.ready()).max();
    let served = working
        .iter()
        .filter(|t| Some(t.clock.ready().mul_f64(1.0 / READY_SHARE)) >= longest)
        .map(|t| t.used().as_secs_f64() / t.clock.ready().as_secs_f64().max(1e-9))
        .fold(0.0_f64, f64::max)
        .min(1.0);
    let span = if accounted && served > 0.0 {
        wall.mul_f64(served).min(cpu)
    } else {
        wall
    };
    Work {
        wall,
        cpu,
        ready,
        span,
        workers: working.len(),
        busiest: busiest.map_or(0.0, |b| b.used().as_secs_f64()) / cpu.as_secs_f64().max(1e-9),
        accounted,
        instructions: None,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::process::threads::Clock;

    /// Threads `(id, milliseconds run, milliseconds waited)`.
    pub(crate) fn threads(threads: &[(i32, u64, u64)]) -> Vec<ThreadUse> {
        threads
            .iter()
            .map(|&(id, ran, waited)| ThreadUse {
                id,
                clock: Clock {
                    ran: Duration::from_millis(ran),
                    waited: Some(Duration::from_millis(waited)),
                    slices: None,
                },
            })
            .collect()
    }

    fn ms(ms: u64) -> Duration {
        Duration::from_millis(ms)
    }

    #[test]
    fn an_idle_machine_spans_the_wall_clock() {
        // Two workers shared 1 s of work in 0.5 s; the caller waited.
        let w = work(&threads(&[(1, 1, 0), (2, 500, 5), (3, 495, 5)]), ms(505));
        assert_eq!(w.workers, 2);
        assert!((w.span.as_secs_f64() - 0.5).abs() < 0.01, "{w:?}");
        assert!((w.at_once() - 1.98).abs() < 0.02, "{w:?}");
        assert!((w.busiest - 0.5).abs() < 0.01);
    }

    #[test]
    fn a_busy_machine_stretches_the_wall_clock_but_not_the_span() {
        // The same search while two busy loops took half of each CPU.
        let w = work(
            &threads(&[(1, 1, 0), (2, 500, 500), (3, 495, 505)]),
            ms(1000),
        );
        assert!((w.span.as_secs_f64() - 0.5).abs() < 0.01, "{w:?}");
        // One thread alone, served half the time.
        let alone = work(&threads(&[(1, 1000, 1000)]), ms(2000));
        assert!((alone.span.as_secs_f64() - 1.0).abs() < 0.01, "{alone:?}");
    }

    #[test]
    fn a_thread_that_is_ready_but_rarely_runs_does_not_shrink_the_span() {
        // One worker did all the search, served half the time; a second thread, at the lowest
        // priority, was ready all along and ran a little.
        let w = work(&threads(&[(2, 1000, 1000), (3, 450, 1550)]), ms(2000));
        assert!((w.span.as_secs_f64() - 1.0).abs() < 0.01, "{w:?}");
    }

    #[test]
    fn sleeping_is_not_work() {
        // One thread searched 0.5 s and slept 0.5 s.
        let w = work(&threads(&[(2, 500, 0)]), ms(1000));
        assert_eq!(w.span, ms(500));
    }

    #[test]
    fn without_the_waiting_the_span_is_the_wall_clock() {
        let mut seen = threads(&[(2, 500, 0), (3, 500, 0)]);
        seen[1].clock.waited = None;
        let w = work(&seen, ms(900));
        assert!(!w.accounted);
        assert_eq!(w.span, ms(900));
    }

    #[test]
    fn the_threads_that_worked_are_those_near_the_busiest() {
        let seen = threads(&[(1, 0, 0), (2, 200, 0), (3, 190, 0), (4, 20, 0)]);
        let ids: Vec<i32> = workers(&seen).unwrap().iter().map(|t| t.id).collect();
        assert_eq!(ids, [2, 3]);
        assert!(workers(&threads(&[(1, 20, 0), (2, 30, 0)])).is_none());
    }

    #[test]
    fn a_worker_the_machine_served_less_still_worked() {
        // Measured under load: a worker ran 185 ms, ready 455 ms; the other 466 ms, ready
        // 504 ms; the caller, woken for every result, ran 1 ms, ready 315 ms.
        let seen = threads(&[(1, 1, 314), (2, 185, 270), (3, 466, 38)]);
        let ids: Vec<i32> = workers(&seen).unwrap().iter().map(|t| t.id).collect();
        assert_eq!(ids, [2, 3]);
        assert_eq!(work(&seen, ms(505)).workers, 2);
        // Served alike, a thread that did a sixth of the work took part but did not work.
        let seen = threads(&[(2, 600, 60), (3, 100, 10)]);
        assert_eq!(workers(&seen).unwrap().len(), 1);
        assert_eq!(taking_part(&seen).len(), 2);
    }
}
