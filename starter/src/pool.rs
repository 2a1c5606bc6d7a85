//! The thread pool the computer player searches on: THREADS worker threads, created once, that
//! wait (on a condition variable) until they are handed a root column to value, report its
//! value, and wait for the next one.
//!
//! Name: YOUR NAME
//! Course: YOUR COURSE
//! Project: Connect Four on many cores
//! Date: THE DATE

use std::thread::JoinHandle;

/// Worker threads that wait for work and value one root column at a time.
#[derive(Debug)]
pub struct Pool {
    /// The worker threads, started once, in `new`.
    workers: Vec<JoinHandle<()>>,
}

impl Pool {
    /// A pool of `threads` worker threads. As shipped it starts none, so that the rest of the
    /// game can be written and tried first: starting the threads here, once, is yours to do.
    pub fn new(threads: usize) -> Pool {
        Pool {
            workers: Vec::with_capacity(threads),
        }
    }
}

impl Drop for Pool {
    /// Waits for every worker when the pool goes away. Tell them to stop first (yours to do):
    /// a worker still waiting for work would keep this waiting forever.
    fn drop(&mut self) {
        for worker in self.workers.drain(..) {
            // A worker that panicked has already said so on standard error; nothing to add.
            let _ = worker.join();
        }
    }
}
