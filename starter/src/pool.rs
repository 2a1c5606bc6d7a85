//! The thread pool the computer player searches on: THREADS worker threads, created once, that
//! wait (on a condition variable) until they are handed a root column to value, report its
//! value, and wait for the next one.
//!
//! Name: YOUR NAME
//! Course: YOUR COURSE
//! Project: Connect Four on many cores
//! Date: THE DATE

/// Worker threads that wait for work and value one root column at a time.
#[derive(Debug)]
pub struct Pool {
    /// How many worker threads the pool has.
    threads: usize,
}

impl Pool {
    /// A pool of `threads` worker threads. As shipped it starts none, so that the rest of the
    /// game can be written and tried first: starting the threads here, once, is yours to do.
    pub fn new(threads: usize) -> Pool {
        Pool { threads }
    }

    /// How many worker threads the pool has.
    pub fn threads(&self) -> usize {
        self.threads
    }
}
