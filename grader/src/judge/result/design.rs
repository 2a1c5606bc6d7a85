//! The thread design seen while a program searched twice on several threads, for the grader
//! who reads its code: the handout's designs as they show from outside.

/// How a program used its threads over two searches with the same `THREADS`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Design {
    /// The threads that worked in the second search were there in the first: created once and
    /// reused (a pool).
    Pool {
        /// How many worked in the second search.
        workers: usize,
    },
    /// Threads that worked in the second search were new: started for every search (a fixed
    /// division, or threads started per move).
    PerSearch {
        /// How many worked in the second search.
        workers: usize,
        /// How many of them were new.
        new: usize,
    },
    /// One thread did the work in both searches, whatever `THREADS` says.
    OneWorker,
    /// Not seen, and why.
    Unseen(Unseen),
}

/// Why the thread design was not seen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unseen {
    /// The searches were too short to tell the threads that worked from the others.
    TooQuick,
    /// The program did not get as far as two searches on several threads.
    NotSearched,
}
