//! The thread design seen from outside, for the grader who reads the code and for the automatic
//! rules: the handout's designs as they show in the kernel's account of a program's threads
//! over two searches, an idle second and a position where some columns are full.

/// How a program used its threads.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Design {
    /// The threads that worked in the second search were there in the first: created once and
    /// reused (a pool).
    Pool {
        /// How many worked in the second search.
        workers: usize,
        /// How they shared the work at the uneven position.
        division: Division,
    },
    /// Threads that worked in the second search were new: started for every search.
    PerSearch {
        /// How many worked in the second search.
        workers: usize,
        /// How many of them were new.
        new: usize,
        /// How they shared the work at the uneven position.
        division: Division,
        /// Whether they worked one at a time (each started after the last had finished): about
        /// one at work at once, with no lock between them.
        serial: bool,
    },
    /// More threads worked than `THREADS` says, with `THREADS` 1 too, whatever `THREADS` asks
    /// for.
    IgnoresThreads {
        /// How many worked with the speed-up's `THREADS`.
        workers: usize,
        /// How many worked with `THREADS` 1.
        alone: usize,
        /// Whether there was one for every root column on both thread counts (a thread per
        /// column), rather than some other count (a pool sized by the machine's CPUs).
        per_column: bool,
    },
    /// A pool whose idle workers poll for work instead of waiting for it.
    BusyWaiting {
        /// How many worked in the second search.
        workers: usize,
        /// How many threads its workers kept ready to run, on average, while it had nothing
        /// to do.
        idle: f64,
    },
    /// Workers that took turns: several threads searched, but about one at a time (each task
    /// holding one lock for its whole search: a `synchronized run()`).
    TakingTurns {
        /// How many worked in the second search.
        workers: usize,
        /// How many of them were ready to run at once, on average.
        at_once: f64,
    },
    /// A pool whose idle workers poll for work with sleeps instead of waiting to be woken: not
    /// ready between commands, but woken again and again.
    Polling {
        /// How many worked in the second search.
        workers: usize,
        /// How many times a second each was woken, on average, with nothing to do.
        wakeups: f64,
    },
    /// Work beside the search: with every thread on one CPU, where threads cannot slow each
    /// other down, the program on more threads still ran this many times the CPU time of its
    /// search on one thread (a thread burning CPU beside a one-thread search, or threads that
    /// each search everything).
    Duplicated {
        /// How many worked in the second search.
        workers: usize,
        /// The CPU time on one CPU over the one-thread search's.
        work: f64,
    },
    /// One thread did the work, whatever `THREADS` says.
    OneWorker,
    /// Not seen, and why.
    Unseen(Unseen),
}

/// How the workers shared the search of a position where some columns are full.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Division {
    /// Each took more as it finished: the busiest did this share of the work.
    Shared(f64),
    /// Divided in advance: the busiest did this share of the work, the others had little or
    /// nothing to do.
    Fixed(f64),
    /// Not seen: the position was not searched long enough, or not at all.
    Unknown,
}

/// Why the thread design was not seen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unseen {
    /// The searches were too short to tell the threads that worked from the others.
    TooQuick,
    /// The program did not get as far as two searches on several threads.
    NotSearched,
}

impl Design {
    /// Whether it is the design the assignment asks for: a pool created once, whose workers
    /// wait for work and take the next column as they finish (or one whose division was not
    /// seen).
    pub fn is_pool(&self) -> bool {
        matches!(self, Design::Pool { .. }) && !self.fixed()
    }

    /// Whether its threads had the columns divided among them in advance.
    pub fn fixed(self) -> bool {
        match self {
            Design::Pool { division, .. } | Design::PerSearch { division, .. } => {
                matches!(division, Division::Fixed(_))
            }
            _ => false,
        }
    }

    /// The same design, with the division seen at the uneven position (designs without one
    /// keep theirs).
    pub fn divided(self, seen: Division) -> Design {
        match self {
            Design::Pool { workers, .. } => Design::Pool {
                workers,
                division: seen,
            },
            Design::PerSearch {
                workers,
                new,
                serial,
                ..
            } => Design::PerSearch {
                workers,
                new,
                division: seen,
                serial,
            },
            other => other,
        }
    }
}
