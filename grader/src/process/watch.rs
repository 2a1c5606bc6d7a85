//! The process limit as a watch: a thread that counts a program's processes in `/proc` and kills
//! them all when there are more than its limit. `RLIMIT_NPROC` would count every process of the
//! user (the grader's own and other students' among them) and does not apply to root at all.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::Duration;

use crossbeam::channel::{bounded, RecvTimeoutError, Sender};

use super::group::processes_of;
use super::procfs::{family, kill};
use super::sandbox::Prepared;

/// How often the process watch counts.
const WATCH_TICK: Duration = Duration::from_millis(100);

/// The process limit: a thread that counts the program's processes ([`family`]) every
/// [`WATCH_TICK`] and kills them all when there are more than the limit. A burst between two
/// looks can briefly pass the limit; it is stopped at the next look. Dropping the watch stops
/// it, after its current look at most.
pub(crate) struct Watch {
    stop: Option<Sender<()>>,
    thread: Option<JoinHandle<()>>,
    crowd: Arc<AtomicUsize>,
}

impl Watch {
    /// Watches the program led by `leader` in `sandbox`, which must stay unreaped while the
    /// watch runs.
    pub(crate) fn start(leader: i32, limit: u64, sandbox: Option<Prepared>) -> Watch {
        let (stop, stopped) = bounded::<()>(0);
        let crowd = Arc::new(AtomicUsize::new(0));
        let seen = Arc::clone(&crowd);
        let thread = thread::spawn(move || {
            while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(WATCH_TICK) {
                let members = family(leader, &processes_of(sandbox.as_ref()));
                if members.len() as u64 > limit {
                    seen.store(members.len(), Ordering::SeqCst);
                    kill(leader, &members);
                    return;
                }
            }
        });
        Watch {
            stop: Some(stop),
            thread: Some(thread),
            crowd,
        }
    }

    /// How many processes the program had when the watch killed it; 0 if it has not.
    pub(crate) fn crowd(&self) -> usize {
        self.crowd.load(Ordering::SeqCst)
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        self.stop = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::{CommandExt, ExitStatusExt};
    use std::process::Command;
    use std::time::Instant;

    #[test]
    fn the_watch_kills_a_program_with_too_many_processes() {
        let mut child = Command::new("sh")
            .args(["-c", "for i in 1 2 3 4 5 6; do sleep 30 & done; wait"])
            .process_group(0)
            .spawn()
            .unwrap();
        let started = Instant::now();
        let watch = Watch::start(child.id() as i32, 4, None);
        let status = child.wait().unwrap();
        assert!(started.elapsed() < Duration::from_secs(5));
        assert_eq!(status.signal(), Some(libc::SIGKILL));
        assert!(watch.crowd() > 4, "{}", watch.crowd());
    }
}
