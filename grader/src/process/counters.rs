//! The instructions a program's threads retire, from the kernel's hardware counters (perf
//! events, `perf_event_open(2)`), where the machine offers them: a busy host stretches the CPU
//! time of the same instructions (a neighbour that evicts the caches makes each take longer),
//! not their count. One counter per thread, opened before a search, read after it; each is
//! inherited by the threads and processes the thread starts meanwhile, so a pool started for
//! the search counts too. User space only (the kernel's work is not the program's, and
//! `perf_event_paranoid` 2 allows no more). Where a counter cannot be opened or read, the
//! typed reason says why, and the grader measures work as CPU time instead.

use std::io;

use perf_event::events::{Event, Hardware};
use perf_event::{Builder, Counter};

/// The most threads counted at once: each counter takes one of the grader's file descriptors,
/// and a program that starts thousands of threads must not leave the grader none (a pool has a
/// few workers, a JVM some twenty threads of its own).
pub const MOST_THREADS: usize = 256;

/// Why the instructions could not be counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Uncounted {
    /// The machine offers no counter of instructions retired (`ENOENT`, `ENODEV`,
    /// `EOPNOTSUPP`: no hardware performance unit, as in most virtual machines and containers).
    NoCounter,
    /// The kernel refused (`EACCES`, `EPERM`): `perf_event_paranoid` forbids it, or the program
    /// runs as another user and the grader lacks the right to watch it (`CAP_PERFMON`).
    Denied,
    /// The grader had no file descriptor left for a counter (`EMFILE`, `ENFILE`).
    NoDescriptors,
    /// No thread of the program was there to count.
    NoThreads,
    /// The program had more than [`MOST_THREADS`] threads.
    TooManyThreads,
    /// Opening or reading a counter failed otherwise, with this error number if the kernel
    /// gave one.
    Failed(Option<i32>),
}

/// Counters of the instructions retired by some threads and by those they start, or why they
/// could not be opened.
#[derive(Debug)]
pub struct Counters(Result<Vec<Counter>, Uncounted>);

impl Counters {
    /// Counting, from now on, the instructions retired by each of the threads `tids` (a thread
    /// that ended meanwhile is left out) and by every thread or process each starts from now.
    pub fn on(tids: impl IntoIterator<Item = i32>) -> Counters {
        Counters(open(Hardware::INSTRUCTIONS, tids))
    }

    /// Counting, from now on, the instructions retired by the calling thread and by every
    /// thread it starts from now.
    pub fn here() -> Counters {
        // Thread id 0: the calling thread.
        Counters::on([0])
    }

    /// How many counted since they were opened, all the counters added up (scaled up where the
    /// kernel shared the hardware among more counters than it has and ran one for part of the
    /// time), or why they could not be opened or read.
    pub fn read(&mut self) -> Result<u64, Uncounted> {
        let counters = self.0.as_mut().map_err(|why| *why)?;
        counters.iter_mut().try_fold(0u64, |sum, counter| {
            let data = counter.read_full().map_err(|e| why(&e))?;
            let (enabled, running) = (data.time_enabled(), data.time_running());
            let share = match enabled.zip(running) {
                Some((enabled, running)) if !running.is_zero() && running < enabled => {
                    enabled.as_secs_f64() / running.as_secs_f64()
                }
                _ => 1.0,
            };
            Ok(sum + (data.count() as f64 * share) as u64)
        })
    }
}

/// Counters of `event` on each of the threads `tids` (0: the calling thread), counting at
/// once, in user space only, inherited by the threads and processes they start.
fn open<E: Event>(
    event: E,
    tids: impl IntoIterator<Item = i32>,
) -> Result<Vec<Counter>, Uncounted> {
    let mut builder = Builder::new(event);
    builder
        .any_cpu()
        .inherit(true)
        .exclude_kernel(true)
        .exclude_hv(true)
        .enabled(true);
    let tids: Vec<i32> = tids.into_iter().collect();
    if tids.len() > MOST_THREADS {
        return Err(Uncounted::TooManyThreads);
    }
    let mut counters = Vec::new();
    for tid in tids {
        match builder.observe_pid(tid).build() {
            Ok(counter) => counters.push(counter),
            Err(e) if e.raw_os_error() == Some(libc::ESRCH) => {}
            Err(e) => return Err(why(&e)),
        }
    }
    match counters.is_empty() {
        true => Err(Uncounted::NoThreads),
        false => Ok(counters),
    }
}

/// Why `error` kept a counter from being opened or read.
fn why(error: &io::Error) -> Uncounted {
    match error.raw_os_error() {
        Some(libc::ENOENT | libc::ENODEV | libc::EOPNOTSUPP) => Uncounted::NoCounter,
        Some(libc::EACCES | libc::EPERM) => Uncounted::Denied,
        Some(libc::EMFILE | libc::ENFILE) => Uncounted::NoDescriptors,
        // The crate's word for E2BIG: a kernel older than the counter's settings.
        None if error.kind() == io::ErrorKind::Unsupported => Uncounted::NoCounter,
        errno => Uncounted::Failed(errno),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    //! The events and flags are `perf_event_open(2)`'s:
    //! <https://man7.org/linux/man-pages/man2/perf_event_open.2.html>.

    use super::*;
    use crate::process::threads::own_clock;
    use perf_event::events::Software;
    use std::sync::{mpsc, Arc, Barrier};
    use std::thread;
    use std::time::Duration;

    /// Whether the machine offers a counter of instructions retired: a performance unit in
    /// `/sys/bus/event_source/devices` with an `instructions` event (this project's VM has
    /// none, and opening one fails with `ENOENT`).
    pub(crate) fn offered() -> bool {
        std::fs::read_dir("/sys/bus/event_source/devices").is_ok_and(|devices| {
            devices
                .flatten()
                .any(|device| device.path().join("events/instructions").exists())
        })
    }

    /// Runs on the calling thread until its clock shows `cpu` more CPU time: how much it ran.
    fn burn(cpu: Duration) -> Duration {
        let ran = || own_clock().expect("this kernel accounts for threads").ran;
        let start = ran();
        while ran() < start + cpu {
            std::hint::black_box((0..1000u64).sum::<u64>());
        }
        ran() - start
    }

    /// Nanoseconds, as the task clock counts.
    fn nanos(d: Duration) -> u64 {
        d.as_nanos() as u64
    }

    #[test]
    fn the_counters_add_up_every_thread_s_work_and_that_of_threads_started_later() {
        // The task clock, a software event every kernel offers, counts each thread's
        // nanoseconds on a CPU as the instructions event counts its instructions.
        const WORK: Duration = Duration::from_millis(40);
        let (ids, tids) = mpsc::channel();
        let go = Arc::new(Barrier::new(3));
        // Two threads already there when the counters are opened, each waiting to work.
        let busy: Vec<_> = (0..2)
            .map(|_| {
                let (ids, go) = (ids.clone(), go.clone());
                thread::spawn(move || {
                    // SAFETY: gettid cannot fail.
                    ids.send(unsafe { libc::gettid() }).unwrap();
                    go.wait();
                    burn(WORK)
                })
            })
            .collect();
        let mut threads: Vec<i32> = tids.iter().take(2).collect();
        // SAFETY: gettid cannot fail.
        threads.push(unsafe { libc::gettid() });
        let mut counters = Counters(open(Software::TASK_CLOCK, threads));
        let before = counters.read().unwrap();
        go.wait();
        let worked: Duration = busy.into_iter().map(|t| t.join().unwrap()).sum();
        let after_two = counters.read().unwrap();
        // Both threads' work, each counted by its own counter: not one thread's.
        assert!(
            after_two - before >= nanos(worked.mul_f64(0.9)),
            "counted {} ns of {worked:?}",
            after_two - before
        );
        // A thread started by a counted one after the counters were opened counts too, once.
        let late = thread::spawn(|| burn(WORK)).join().unwrap();
        let counted = counters.read().unwrap() - after_two;
        assert!(
            counted >= nanos(late.mul_f64(0.9)) && counted <= nanos(late * 2),
            "counted {counted} ns of the late thread's {late:?}"
        );
    }

    #[test]
    fn where_no_counter_can_be_opened_the_reason_is_given() {
        let offered = offered();
        let mut counters = Counters::here();
        match counters.read() {
            Ok(before) => {
                assert!(offered, "a counter opened where the machine offers none");
                burn(Duration::from_millis(5));
                assert!(counters.read().unwrap() > before);
            }
            Err(why) => {
                assert!(!offered, "the machine offers counters, yet {why:?}");
                assert_eq!(why, Uncounted::NoCounter);
            }
        }
        let errno = |e| io::Error::from_raw_os_error(e);
        assert_eq!(why(&errno(libc::ENOENT)), Uncounted::NoCounter);
        assert_eq!(why(&errno(libc::EACCES)), Uncounted::Denied);
        assert_eq!(why(&errno(libc::EMFILE)), Uncounted::NoDescriptors);
        assert_eq!(
            why(&errno(libc::EINVAL)),
            Uncounted::Failed(Some(libc::EINVAL))
        );
        assert_eq!(
            Counters(open(Software::TASK_CLOCK, [])).read(),
            Err(Uncounted::NoThreads)
        );
        // SAFETY: gettid cannot fail.
        let many = vec![unsafe { libc::gettid() }; MOST_THREADS + 1];
        assert_eq!(
            Counters(open(Software::TASK_CLOCK, many)).read(),
            Err(Uncounted::TooManyThreads)
        );
    }
}
