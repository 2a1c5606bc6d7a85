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
pub struct Pool {}

impl Pool {
    /// Starts `threads` worker threads, each waiting for work.
    pub fn new(threads: usize) -> Pool {
        todo!("start {threads} waiting worker threads")
    }
}
