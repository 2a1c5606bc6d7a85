//! A program's threads seen at work: a [`ThreadWatch`] looks at every thread of every process
//! of the program, and of the student's sandbox when it can tell the student's processes apart
//! (another copy of the program, a process that left the program's family), while it answers a
//! command or sits idle, and says which threads it saw and what each did meanwhile: how long it
//! ran on a CPU and how long it waited, ready, for one (`/proc/PID/task/TID/schedstat`, in
//! nanoseconds), and, where the machine offers hardware counters, the instructions they
//! retired ([`Counters`], opened on every thread of the first look). The time a thread was ready
//! to run does not depend on how busy the machine is; only how it splits into running and
//! waiting does. Whether a program starts its threads once or for every search shows in their
//! ids.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fs;
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use crossbeam::channel::{bounded, RecvTimeoutError, Sender};

use procfs::process::{Schedstat, Stat};
use procfs::FromRead;

use super::counters::{Counters, Uncounted};
use super::group::processes_of;
use super::procfs::family;
use super::sandbox::Prepared;

/// How often the watch looks: a thread that ends loses at most this much of its account.
const LOOK: Duration = Duration::from_millis(10);

/// What one thread did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// The time it ran on a CPU.
    pub ran: Duration,
    /// The time it was ready to run but waited for a CPU; `None` where the kernel does not say
    /// (no `schedstat`: `ran` is then counted in clock ticks).
    pub waited: Option<Duration>,
    /// How many times it was put on a CPU (`schedstat`'s third field): a thread that sleeps
    /// and wakes a thousand times a second is put on one a thousand times. `None` where the
    /// kernel does not say.
    pub slices: Option<u64>,
}

impl Clock {
    /// The time it was ready: running or waiting for a CPU (running alone where waiting is not
    /// known).
    pub fn ready(&self) -> Duration {
        self.ran + self.waited.unwrap_or_default()
    }

    /// What it did between `earlier` and this.
    pub(crate) fn since(&self, earlier: &Clock) -> Clock {
        Clock {
            ran: self.ran.saturating_sub(earlier.ran),
            waited: self
                .waited
                .zip(earlier.waited)
                .map(|(now, then)| now.saturating_sub(then)),
            slices: self
                .slices
                .zip(earlier.slices)
                .map(|(now, then)| now.saturating_sub(then)),
        }
    }
}

/// One thread seen by a [`ThreadWatch`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreadUse {
    /// Its id (unique on the machine while it runs).
    pub id: i32,
    /// What it did while watched (since it started, if it started meanwhile), as last seen.
    pub clock: Clock,
}

impl ThreadUse {
    /// The CPU time it used while watched.
    pub fn used(&self) -> Duration {
        self.clock.ran
    }
}

/// What a watch saw: every thread, how long it watched, and the instructions retired.
#[derive(Clone, Debug, PartialEq)]
pub struct Seen {
    /// Every thread seen, with what it did.
    pub threads: Vec<ThreadUse>,
    /// From the first look to the last.
    pub watched: Duration,
    /// The instructions retired meanwhile by the threads of the first look and those they
    /// started, or why they could not be counted.
    pub instructions: Result<u64, Uncounted>,
}

impl Default for Seen {
    /// Nothing seen: no thread, none counted.
    fn default() -> Seen {
        Seen {
            threads: Vec::new(),
            watched: Duration::ZERO,
            instructions: Err(Uncounted::NoThreads),
        }
    }
}

/// What the threads seen by successive looks did: each thread's clock at its first sighting
/// and as last seen. A thread first seen by the first look counts from then; one first seen
/// later started meanwhile and counts from its start.
#[derive(Clone, Debug, Default)]
pub(crate) struct Sightings {
    seen: BTreeMap<i32, (Clock, Clock, bool)>,
}

impl Sightings {
    /// Adds a look at `threads`; `first` for the look that starts the sightings.
    pub(crate) fn look(&mut self, threads: impl IntoIterator<Item = (i32, Clock)>, first: bool) {
        for (id, clock) in threads {
            self.seen.entry(id).or_insert((clock, clock, first)).1 = clock;
        }
    }

    /// Every thread seen, with what it did since the sightings started.
    pub(crate) fn threads(&self) -> Vec<ThreadUse> {
        self.seen
            .iter()
            .map(|(&id, (at_first, last, from_start))| ThreadUse {
                id,
                clock: if *from_start {
                    last.since(at_first)
                } else {
                    *last
                },
            })
            .collect()
    }

    /// What all the threads seen did together: their running, and their waiting if the kernel
    /// said it for every one.
    pub(crate) fn total(&self) -> Clock {
        self.threads().iter().fold(
            Clock {
                ran: Duration::ZERO,
                waited: Some(Duration::ZERO),
                slices: Some(0),
            },
            |sum, t| Clock {
                ran: sum.ran + t.clock.ran,
                waited: sum.waited.zip(t.clock.waited).map(|(a, b)| a + b),
                slices: sum.slices.zip(t.clock.slices).map(|(a, b)| a + b),
            },
        )
    }
}

/// Every thread of the processes `pids`, with its clock.
pub(crate) fn threads_of(pids: &[i32]) -> Vec<(i32, Clock)> {
    pids.iter().copied().flat_map(process_threads).collect()
}

/// Looks at a program's threads until it is stopped.
pub struct ThreadWatch {
    stop: Option<Sender<()>>,
    thread: Option<JoinHandle<Seen>>,
    counters: Counters,
}

impl ThreadWatch {
    /// Watches the threads of the program led by `leader` (a process group's leader, which
    /// must stay unreaped while the watch runs) and, when `sandbox` can tell its processes
    /// apart, of every other process in it, looking at once and then every [`LOOK`]. The
    /// first look is taken before it returns, in the calling thread: on a busy machine a new
    /// thread may wait for a CPU while the command it watches runs, and what the threads did
    /// before its first look would be lost. The counters of instructions are opened on the
    /// threads of that look.
    pub fn start(leader: i32, sandbox: Option<Prepared>) -> ThreadWatch {
        let (stop, stopped) = bounded::<()>(0);
        let mut scope = Scope {
            leader,
            sandbox,
            known: HashMap::new(),
        };
        let mut sightings = Sightings::default();
        let started = Instant::now();
        let first = scope.threads();
        let counters = Counters::on(first.iter().map(|&(tid, _)| tid));
        sightings.look(first, true);
        let thread = thread::spawn(move || {
            loop {
                let go_on = matches!(stopped.recv_timeout(LOOK), Err(RecvTimeoutError::Timeout));
                sightings.look(scope.threads(), false);
                if !go_on {
                    break;
                }
            }
            Seen {
                threads: sightings.threads(),
                watched: started.elapsed(),
                ..Seen::default()
            }
        });
        ThreadWatch {
            stop: Some(stop),
            thread: Some(thread),
            counters,
        }
    }

    /// Takes a last look, reads the counters and stops: every thread seen, with what it did,
    /// and the instructions retired.
    pub fn stop(mut self) -> Seen {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let seen = self.thread.take().and_then(|t| t.join().ok());
        Seen {
            instructions: self.counters.read(),
            ..seen.unwrap_or_default()
        }
    }
}

impl Drop for ThreadWatch {
    fn drop(&mut self) {
        self.stop = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The processes a watch looks at.
struct Scope {
    leader: i32,
    sandbox: Option<Prepared>,
    /// Whether each process seen so far is the sandbox's: asked once per process.
    known: HashMap<i32, bool>,
}

impl Scope {
    /// Every thread of the program's family and of the sandbox's other processes, with its
    /// clock.
    fn threads(&mut self) -> Vec<(i32, Clock)> {
        let all = processes_of(self.sandbox.as_ref());
        let mut pids: HashSet<i32> = family(self.leader, &all).into_iter().collect();
        if let Some(sandbox) = &self.sandbox {
            let running: HashSet<i32> = all.iter().map(|p| p.pid).collect();
            let known = &mut self.known;
            known.retain(|pid, _| running.contains(pid));
            for process in &all {
                let held = *known
                    .entry(process.pid)
                    .or_insert_with(|| sandbox.holds(process.pid) == Some(true));
                if held {
                    pids.insert(process.pid);
                }
            }
        }
        pids.into_iter().flat_map(process_threads).collect()
    }
}

/// Every thread of process `pid`, with its clock.
fn process_threads(pid: i32) -> Vec<(i32, Clock)> {
    procfs::process::Process::new(pid)
        .and_then(|p| p.tasks())
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|task| Some((task.tid, clock_of(pid, task.tid)?)))
        .collect()
}

/// Whether thread `tid` is a JVM's just-in-time compiler (`C1 CompilerThre`, `C2
/// CompilerThre` in a process whose program is `java`): a runtime's helper that may run as
/// much as a worker while it compiles a search's first rounds, and is no worker of the
/// student's design.
pub fn is_jit_compiler(tid: i32) -> bool {
    let java = fs::read_link(format!("/proc/{tid}/exe"))
        .is_ok_and(|exe| exe.file_name().is_some_and(|name| name == "java"));
    java && fs::read_to_string(format!("/proc/{tid}/comm")).is_ok_and(|comm| {
        comm.starts_with("C1 CompilerThre") || comm.starts_with("C2 CompilerThre")
    })
}

/// The clock of thread `tid` of process `pid`: from `schedstat` where the kernel has it (time
/// run, time waited on a run queue, time slices), else the CPU time of `stat` in clock ticks,
/// with the waiting unknown.
pub fn clock_of(pid: i32, tid: i32) -> Option<Clock> {
    let dir = format!("/proc/{pid}/task/{tid}");
    if let Ok(schedstat) = Schedstat::from_file(format!("{dir}/schedstat")) {
        return Some(Clock {
            ran: Duration::from_nanos(schedstat.sum_exec_runtime),
            waited: Some(Duration::from_nanos(schedstat.run_delay)),
            slices: Some(schedstat.pcount),
        });
    }
    let stat = Stat::from_file(format!("{dir}/stat")).ok()?;
    let ticks = (stat.utime + stat.stime) as f64 / procfs::ticks_per_second().max(1) as f64;
    Some(Clock {
        ran: Duration::from_secs_f64(ticks),
        waited: None,
        slices: None,
    })
}

/// The clock of the calling thread.
pub fn own_clock() -> Option<Clock> {
    // SAFETY: getpid and gettid cannot fail.
    let (pid, tid) = unsafe { (libc::getpid(), libc::gettid()) };
    clock_of(pid, tid)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::process::counters::tests::offered;
    use std::os::unix::process::CommandExt;
    use std::process::{Command, Stdio};

    #[test]
    fn a_busy_thread_is_seen_with_its_cpu_time() {
        let mut child = Command::new("sh")
            .args(["-c", "while :; do :; done"])
            .stdout(Stdio::null())
            .process_group(0)
            .spawn()
            .unwrap();
        let pid = child.id() as i32;
        let ran = || clock_of(pid, pid).map_or(Duration::ZERO, |c| c.ran);
        // Until the shell has had `cpu` of CPU time, however busy the machine: a fixed wait gave
        // it less on a loaded one.
        let until_ran = |cpu: Duration| {
            let deadline = Instant::now() + Duration::from_secs(20);
            while ran() < cpu && Instant::now() < deadline {
                thread::sleep(Duration::from_millis(10));
            }
        };
        // Watched from when it spins: its start-up (loading from disk) is not ready time.
        until_ran(Duration::from_millis(20));
        let watch = ThreadWatch::start(pid, None);
        until_ran(ran() + Duration::from_millis(150));
        let seen = watch.stop();
        let _ = child.kill();
        let _ = child.wait();
        assert_eq!(seen.threads.len(), 1, "{seen:?}");
        assert_eq!(seen.threads[0].id, pid);
        let clock = seen.threads[0].clock;
        assert!(clock.ran >= Duration::from_millis(100), "{seen:?}");
        // Its instructions, where the machine offers counters; else why not.
        match seen.instructions {
            Ok(n) => assert!(offered() && n > 1_000_000, "{seen:?}"),
            Err(why) => assert!(!offered() && why == Uncounted::NoCounter, "{seen:?}"),
        }
        // Ready to run all along: running, or waiting for a CPU on a busy machine.
        assert!(
            clock.ready() >= seen.watched.mul_f64(0.8),
            "{seen:?}: ready {:?}",
            clock.ready()
        );
    }

    #[test]
    fn a_sleeping_thread_is_not_ready() {
        let mut child = Command::new("sleep")
            .arg("5")
            .process_group(0)
            .spawn()
            .unwrap();
        let watch = ThreadWatch::start(child.id() as i32, None);
        thread::sleep(Duration::from_millis(300));
        let seen = watch.stop();
        let _ = child.kill();
        let _ = child.wait();
        assert_eq!(seen.threads.len(), 1, "{seen:?}");
        assert!(
            seen.threads[0].clock.ready() < Duration::from_millis(30),
            "{seen:?}"
        );
        // Watched about as long as the test slept (the watch's own clock starts a moment after
        // `start` returns, so a little less is no fault).
        assert!(seen.watched >= Duration::from_millis(250), "{seen:?}");
    }
}
