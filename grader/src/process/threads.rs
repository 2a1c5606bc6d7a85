//! A program's threads seen at work: a [`ThreadWatch`] looks at every thread of every process
//! of the program (`/proc/PID/task/TID/stat`) while it answers a command, and says which threads
//! it saw and how much CPU time each used meanwhile. Whether a program starts its threads once
//! or for every search shows in their ids.

use std::collections::BTreeMap;
use std::fs;
use std::thread::{self, JoinHandle};
use std::time::Duration;

use crossbeam::channel::{bounded, RecvTimeoutError, Sender};

use super::procfs::{family, processes, stat_fields};

/// How often the watch looks.
const LOOK: Duration = Duration::from_millis(5);

/// One thread seen by a [`ThreadWatch`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreadUse {
    /// Its id (unique on the machine while it runs).
    pub id: i32,
    /// The CPU time it used while watched (since it started, if it started meanwhile), as
    /// last seen.
    pub used: Duration,
}

/// Looks at a program's threads until it is stopped.
pub struct ThreadWatch {
    stop: Option<Sender<()>>,
    thread: Option<JoinHandle<Vec<ThreadUse>>>,
}

impl ThreadWatch {
    /// Watches the threads of the program led by `leader` (a process group's leader, which
    /// must stay unreaped while the watch runs), looking at once and then every [`LOOK`].
    pub fn start(leader: i32) -> ThreadWatch {
        let (stop, stopped) = bounded::<()>(0);
        let thread = thread::spawn(move || {
            // Each thread's CPU time at its first sighting, and as last seen.
            let mut seen: BTreeMap<i32, (Duration, Duration, bool)> = BTreeMap::new();
            let mut look = |first: bool| {
                for (id, cpu) in thread_times(leader) {
                    seen.entry(id).or_insert((cpu, cpu, first)).1 = cpu;
                }
            };
            look(true);
            loop {
                let go_on = matches!(stopped.recv_timeout(LOOK), Err(RecvTimeoutError::Timeout));
                look(false);
                if !go_on {
                    break;
                }
            }
            seen.into_iter()
                .map(|(id, (at_first, last, from_start))| ThreadUse {
                    id,
                    used: if from_start {
                        last.saturating_sub(at_first)
                    } else {
                        last
                    },
                })
                .collect()
        });
        ThreadWatch {
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    /// Takes a last look and stops: every thread seen, with what it used.
    pub fn stop(mut self) -> Vec<ThreadUse> {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        self.thread
            .take()
            .and_then(|t| t.join().ok())
            .unwrap_or_default()
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

/// Every thread of the program led by `leader`, with the CPU time it has used.
fn thread_times(leader: i32) -> Vec<(i32, Duration)> {
    // SAFETY: sysconf has no memory effects.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as f64;
    family(leader, &processes())
        .into_iter()
        .flat_map(|pid| {
            fs::read_dir(format!("/proc/{pid}/task"))
                .into_iter()
                .flatten()
        })
        .flatten()
        .filter_map(|task| {
            let id: i32 = task.file_name().to_str()?.parse().ok()?;
            let stat = fs::read_to_string(task.path().join("stat")).ok()?;
            Some((
                id,
                Duration::from_secs_f64(cpu_ticks(&stat)? as f64 / ticks),
            ))
        })
        .collect()
}

/// The user and system CPU time in a `stat` line, in clock ticks.
fn cpu_ticks(stat: &str) -> Option<u64> {
    // `PID (COMMAND) STATE ...`: utime and stime are the 14th and 15th fields, the 12th and
    // 13th from the state.
    let mut fields = stat_fields(stat)?.skip(11);
    let user: u64 = fields.next()?.parse().ok()?;
    let system: u64 = fields.next()?.parse().ok()?;
    Some(user + system)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::CommandExt;
    use std::process::{Command, Stdio};

    #[test]
    fn cpu_time_is_read_after_the_command() {
        let stat = "42 (a (b) c) R 1 42 42 0 -1 4194304 0 0 0 0 150 25 0 0 20 0 3 0 1";
        assert_eq!(cpu_ticks(stat), Some(175));
        assert_eq!(cpu_ticks("garbage"), None);
    }

    #[test]
    fn a_busy_thread_is_seen_with_its_cpu_time() {
        let mut child = Command::new("sh")
            .args(["-c", "while :; do :; done"])
            .stdout(Stdio::null())
            .process_group(0)
            .spawn()
            .unwrap();
        let watch = ThreadWatch::start(child.id() as i32);
        // Until the shell has had 150 ms of CPU (the first field of schedstat, in nanoseconds),
        // however busy the machine: a fixed wait gave it less on a loaded one.
        let schedstat = format!("/proc/{}/schedstat", child.id());
        let on_cpu = || {
            std::fs::read_to_string(&schedstat)
                .ok()
                .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
                .map_or(Duration::ZERO, Duration::from_nanos)
        };
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        while on_cpu() < Duration::from_millis(150) && std::time::Instant::now() < deadline {
            thread::sleep(Duration::from_millis(20));
        }
        let seen = watch.stop();
        let _ = child.kill();
        let _ = child.wait();
        assert_eq!(seen.len(), 1, "{seen:?}");
        assert_eq!(seen[0].id, child.id() as i32);
        assert!(seen[0].used >= Duration::from_millis(100), "{seen:?}");
    }
}
