//! Stopping a class run part way (Ctrl-C, `SIGTERM`): once a [`Stop`] is asked, no student's
//! grading starts, and every student being graded has their processes killed at once through
//! their sandbox, so that their grading ends in moments, not after its cases' time limits; their
//! results, cut short, are set aside (the student is not graded, and a later run grades them).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

use crate::process::sandbox::Prepared;

/// Whether a class run has been asked to stop, and the sandboxes of the students being graded,
/// to kill their processes when it is.
#[derive(Debug, Default)]
pub struct Stop {
    /// Asked: never cleared.
    asked: AtomicBool,
    /// The sandboxes in use, each with the number it was entered under.
    running: Mutex<Vec<(u64, Prepared)>>,
    /// The next number to enter a sandbox under.
    next: AtomicU64,
}

impl Stop {
    /// Asks the run to stop: no grading starts from now on, and the processes of every student
    /// being graded are killed (not reaped: their grading waits for its own children, and ends).
    pub fn ask(&self) {
        self.asked.store(true, Ordering::SeqCst);
        if let Ok(running) = self.running.lock() {
            for (_, prepared) in running.iter() {
                prepared.kill_now();
            }
        }
    }

    /// Whether the run has been asked to stop.
    pub fn asked(&self) -> bool {
        self.asked.load(Ordering::SeqCst)
    }

    /// Keeps `prepared` (a student's sandbox) to be killed if the run is asked to stop, until
    /// the guard returned is dropped; killed at once if it has been asked already.
    pub(crate) fn enter(&self, prepared: &Prepared) -> Running<'_> {
        let number = self.next.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut running) = self.running.lock() {
            running.push((number, prepared.clone()));
        }
        if self.asked() {
            prepared.kill_now();
        }
        Running { stop: self, number }
    }

    /// How many sandboxes are kept now.
    #[cfg(test)]
    fn kept(&self) -> usize {
        self.running.lock().map_or(0, |running| running.len())
    }
}

/// A student's sandbox kept by a [`Stop`]; let go of when dropped.
#[derive(Debug)]
pub(crate) struct Running<'a> {
    stop: &'a Stop,
    number: u64,
}

impl Drop for Running<'_> {
    fn drop(&mut self) {
        if let Ok(mut running) = self.stop.running.lock() {
            running.retain(|(number, _)| *number != self.number);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::process::sandbox::Sandbox;

    #[test]
    fn a_sandbox_is_kept_while_its_guard_lives_and_asking_is_for_good() {
        let stop = Stop::default();
        assert!(!stop.asked());
        // Without confinement (Landlock, namespaces) a sandbox still prepares; its processes
        // then cannot be told apart, and killing them does nothing.
        let Ok(prepared) = Sandbox::new().prepare() else {
            return;
        };
        let first = stop.enter(&prepared);
        let second = stop.enter(&prepared);
        assert_eq!(stop.kept(), 2);
        drop(first);
        assert_eq!(stop.kept(), 1);
        stop.ask();
        assert!(stop.asked());
        drop(second);
        assert_eq!(stop.kept(), 0);
        let late = stop.enter(&prepared);
        assert_eq!(stop.kept(), 1);
        drop(late);
        assert!(stop.asked());
    }
}
