//! The thread design seen, in the handout's words: how the program's workers used their
//! threads (a pool, a pool made anew for every search, a fixed division of the columns,
//! busy-waiting, ...), as a sentence for the hand grader and as the gradebook's word for it.

use super::numbers::percent;
use crate::judge::result::design::{Design, Division, Unseen};
use crate::judge::result::speedup::Speedup;

/// The line on the thread design seen, for the hand grader; none when the program did not
/// search on several threads.
pub fn design_note(speedup: &Speedup) -> Option<String> {
    let seen = design(speedup.design, speedup.threads.1)?;
    Some(format!("Thread design seen (for the hand grader): {seen}."))
}

/// How a program used `threads` threads, in the handout's words; `None` when it did not get
/// as far as searching on them.
pub fn design(design: Design, threads: usize) -> Option<String> {
    let shared = |division: Division| match division {
        Division::Shared(busiest) => format!(
            "; with some columns full they still shared the work (the busiest ran {}% of it)",
            percent(busiest)
        ),
        Division::Fixed(busiest) => format!(
            ", but with some columns full one of them ran {}% of the work: the columns are \
             divided among the threads in advance",
            percent(busiest)
        ),
        Division::Unknown => String::new(),
    };
    Some(match design {
        Design::Pool { workers, division } if design.fixed() => format!(
            "a pool with a fixed division of the columns: the same {workers} threads searched \
             both times, created once and reused{}",
            shared(division)
        ),
        Design::Pool { workers, division } => format!(
            "a pool: the same {workers} threads searched both times, created once and reused, \
             waiting between commands{}",
            shared(division)
        ),
        Design::PerSearch {
            workers,
            new,
            division,
            ..
        } if design.fixed() => format!(
            "threads started for every search with a fixed division of the columns ({new} of \
             the {workers} that searched the second time were new){}: not a pool",
            shared(division)
        ),
        Design::PerSearch {
            workers,
            new,
            serial: true,
            ..
        } => format!(
            "threads started for every search, one at a time: {new} of the {workers} threads \
             that searched the second time were new, and about one was at work at once, each \
             started after the last had finished (no lock between them): neither created \
             once nor searching side by side"
        ),
        Design::PerSearch {
            workers,
            new,
            division,
            ..
        } => format!(
            "a pool created anew for every search ({new} of the {workers} threads that searched \
             the second time were new){}: not created once",
            shared(division)
        ),
        Design::IgnoresThreads {
            workers,
            alone,
            per_column: true,
        } => format!(
            "a thread per root column whatever THREADS says: {workers} threads worked with \
             THREADS {threads}, and {alone} with THREADS 1"
        ),
        Design::IgnoresThreads { workers, alone, .. } => format!(
            "ignores THREADS: {workers} threads worked with THREADS {threads}, and {alone} with \
             THREADS 1, not one per root column (a pool sized by something else, such as the \
             machine's CPUs)"
        ),
        Design::BusyWaiting { workers, idle } => format!(
            "a busy-waiting pool: the same {workers} threads searched both times, but between \
             commands they kept {idle:.1} threads ready to run with nothing to do, polling for \
             work instead of waiting for it"
        ),
        Design::TakingTurns { workers, at_once } => format!(
            "workers taking turns: {workers} threads searched, but {at_once:.2} of them were at \
             work at once: each task holds one lock for its whole search (a `synchronized \
             run()`), so the others wait for it"
        ),
        Design::Polling { workers, wakeups } => format!(
            "a pool polling with sleeps: the same {workers} threads searched both times, but \
             between commands each was woken {wakeups:.0} times a second with nothing to do, \
             sleeping a moment between looks for work instead of waiting to be notified"
        ),
        Design::Duplicated { workers, work } => format!(
            "work beside the search: {workers} threads worked, and with all of them on one CPU \
             the program on THREADS {threads} ran {work:.2}x the CPU time of its search on 1 \
             thread: a thread burning CPU beside the search, or threads that each search \
             everything"
        ),
        Design::OneWorker => {
            format!("one thread did all the work with THREADS {threads}, as with no threads")
        }
        Design::Unseen(Unseen::TooQuick) => {
            "not seen: the searches were too short to tell the threads apart".into()
        }
        Design::Unseen(Unseen::NotSearched) => return None,
    })
}

/// The gradebook's word for the thread design, or nothing when the program did not search on
/// several threads.
pub fn design_word(design: Design) -> &'static str {
    match design {
        Design::Pool { .. } if design.fixed() => "pool, fixed division",
        Design::Pool { .. } => "pool",
        Design::PerSearch { .. } if design.fixed() => "threads per search, fixed division",
        Design::PerSearch { serial: true, .. } => "threads per search, one at a time",
        Design::PerSearch { .. } => "pool per search",
        Design::IgnoresThreads {
            per_column: true, ..
        } => "thread per column",
        Design::IgnoresThreads { .. } => "ignores THREADS",
        Design::BusyWaiting { .. } => "busy-waiting pool",
        Design::TakingTurns { .. } => "workers taking turns",
        Design::Polling { .. } => "pool polling with sleeps",
        Design::Duplicated { .. } => "work beside the search",
        Design::OneWorker => "one worker",
        Design::Unseen(Unseen::TooQuick) => "not seen",
        Design::Unseen(Unseen::NotSearched) => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_thread_designs_are_named_as_the_handout_names_them() {
        let named = |d: Design| (design(d, 2).unwrap(), design_word(d));
        let (text, word) = named(Design::PerSearch {
            workers: 2,
            new: 2,
            division: Division::Shared(0.55),
            serial: false,
        });
        assert_eq!(
            text,
            "a pool created anew for every search (2 of the 2 threads that searched the second \
             time were new); with some columns full they still shared the work (the busiest \
             ran 55% of it): not created once"
        );
        assert_eq!(word, "pool per search");
        let (text, word) = named(Design::PerSearch {
            workers: 2,
            new: 2,
            division: Division::Fixed(1.0),
            serial: false,
        });
        assert!(text.starts_with("threads started for every search with a fixed division"));
        assert_eq!(word, "threads per search, fixed division");
        let (text, word) = named(Design::Pool {
            workers: 2,
            division: Division::Fixed(0.99),
        });
        assert!(text.contains("one of them ran 99% of the work"), "{text}");
        assert_eq!(word, "pool, fixed division");
        let (text, word) = named(Design::IgnoresThreads {
            workers: 7,
            alone: 7,
            per_column: true,
        });
        assert_eq!(
            text,
            "a thread per root column whatever THREADS says: 7 threads worked with THREADS 2, \
             and 7 with THREADS 1"
        );
        assert_eq!(word, "thread per column");
        // A pool sized by the machine's CPUs is named by its counts, not as a thread per column.
        let (text, word) = named(Design::IgnoresThreads {
            workers: 2,
            alone: 2,
            per_column: false,
        });
        assert_eq!(
            text,
            "ignores THREADS: 2 threads worked with THREADS 2, and 2 with THREADS 1, not one per \
             root column (a pool sized by something else, such as the machine's CPUs)"
        );
        assert_eq!(word, "ignores THREADS");
        // Threads started for every search and joined one by one hold no lock.
        let (text, word) = named(Design::PerSearch {
            workers: 7,
            new: 7,
            division: Division::Unknown,
            serial: true,
        });
        assert!(text.starts_with("threads started for every search, one at a time"));
        assert!(!text.contains("lock for"), "{text}");
        assert_eq!(word, "threads per search, one at a time");
        let (text, word) = named(Design::BusyWaiting {
            workers: 2,
            idle: 1.96,
        });
        assert!(text.contains("kept 2.0 threads ready to run"), "{text}");
        assert_eq!(word, "busy-waiting pool");
        assert_eq!(
            named(Design::OneWorker),
            (
                "one thread did all the work with THREADS 2, as with no threads".to_string(),
                "one worker"
            )
        );
        assert_eq!(design(Design::Unseen(Unseen::NotSearched), 2), None);
    }
}
