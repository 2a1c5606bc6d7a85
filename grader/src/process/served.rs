//! How much of its time on the wall clock the machine gave a program: a time limit is the
//! program's own time, never the time it spent waiting for a CPU that a busy machine could not
//! give it. From what its threads did meanwhile ([`Clock`]s summed: the time they ran and the
//! time they were ready but waited), [`had`] takes out of the wall clock the time lost to
//! waiting, counting the program's own threads beyond its CPUs as its own doing. A command or a
//! build at its limit that had less than [`ENOUGH`] of it is given more time on the clock, up to
//! [`LONGEST`] times its limit, and then said to be starved: not the student's fault, graded
//! again, never charged.

use std::time::{Duration, Instant};

use super::cpus::Cpus;
use super::sandbox::Prepared;
use super::threads::{threads_of, Clock, Sightings};

/// A program at its time limit was given its time when it had at least this share of it.
pub const ENOUGH: f64 = 0.95;
/// The most wall-clock time a starved program is given, in multiples of its limit.
pub const LONGEST: u32 = 3;

/// What a program at its time limit is owed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtLimit {
    /// Nothing: it had its time, and timed out.
    Had,
    /// Nothing more: a busy machine gave it less than its limit in [`LONGEST`] times it on
    /// the clock, of which it had `had`.
    Starved {
        /// The time it had.
        had: Duration,
        /// The time on the wall clock.
        wall: Duration,
    },
    /// This much more time on the clock: the time of its limit it did not have.
    Owed(Duration),
}

/// What a job's threads do from its start on: those of every process of its control group
/// where it has one, else those of the program's leader alone.
pub struct Account {
    leader: i32,
    sandbox: Option<Prepared>,
    sightings: Sightings,
    /// When it was started.
    since: Instant,
}

impl Account {
    /// Starts the account of the job led by `leader` (unreaped while it is kept) in `sandbox`.
    pub fn start(leader: i32, sandbox: Option<&Prepared>) -> Account {
        let mut account = Account {
            leader,
            sandbox: sandbox.cloned(),
            sightings: Sightings::default(),
            since: Instant::now(),
        };
        let threads = account.threads();
        account.sightings.look(threads, true);
        account
    }

    /// Looks at the job's threads again: a long job is looked at now and then, so that its
    /// short-lived processes are counted.
    pub fn look(&mut self) {
        let threads = self.threads();
        self.sightings.look(threads, false);
    }

    /// What the job, started at `started`, is owed at its time `limit`. The time before the
    /// account was started (the first moments of an answer, not yet worth watching) counts as
    /// had.
    pub fn at_limit(&mut self, started: Instant, limit: Duration) -> AtLimit {
        let wall = started.elapsed();
        let watched = self.since.elapsed().min(wall);
        self.look();
        let cpus = Cpus::of_this_process().usable();
        let had = (wall - watched) + had(watched, self.sightings.total(), cpus);
        if given(had, limit) {
            AtLimit::Had
        } else if wall >= limit * LONGEST {
            AtLimit::Starved { had, wall }
        } else {
            AtLimit::Owed(limit - had)
        }
    }

    fn threads(&self) -> Vec<(i32, Clock)> {
        let pids = self.sandbox.as_ref().and_then(Prepared::processes);
        threads_of(pids.as_deref().unwrap_or(&[self.leader]))
    }
}

/// Of `wall` on the clock, the time the program had: all of it, less the time lost waiting for
/// a CPU. Its threads, `used` together, wanted to run `ready` = ran + waited: on average
/// `ready / wall` of them at once. Of those, at most `cpus` could run; what they ran short of
/// that is the CPU time the machine withheld, lost over as many CPUs as they could use at once
/// (at least one). Unknown waiting (no `schedstat`) counts as none: the whole wall clock.
fn had(wall: Duration, used: Clock, cpus: f64) -> Duration {
    let Some(waited) = used.waited else {
        return wall;
    };
    let wall_s = wall.as_secs_f64();
    if wall_s <= 0.0 {
        return wall;
    }
    let ran = used.ran.as_secs_f64();
    let ready = ran + waited.as_secs_f64();
    let could = ready.min(cpus.max(1.0) * wall_s);
    let withheld = (could - ran).max(0.0);
    let lost = withheld / (could / wall_s).max(1.0);
    Duration::from_secs_f64((wall_s - lost).clamp(0.0, wall_s))
}

/// Whether a program that had `had` of a time `limit` was given its time.
fn given(had: Duration, limit: Duration) -> bool {
    had >= limit.mul_f64(ENOUGH)
}

#[cfg(test)]
/// `count` busy loops on CPU 0, stopped when dropped: a busy machine, for programs held
/// to CPU 0 too.
pub(crate) struct Burners(Vec<std::process::Child>);

#[cfg(test)]
impl Burners {
    /// Started, and returned once each loop has run (on a loaded machine their start-up can
    /// take longer than a test's limit, leaving CPU 0 to the program under test meanwhile).
    pub(crate) fn on_cpu_0(count: usize) -> Burners {
        let burners = Burners(
            (0..count)
                .map(|_| {
                    std::process::Command::new("taskset")
                        .args(["-c", "0", "sh", "-c", "while :; do :; done"])
                        .spawn()
                        .unwrap()
                })
                .collect(),
        );
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        let spinning = |child: &std::process::Child| {
            let pid = child.id() as i32;
            super::threads::clock_of(pid, pid).is_some_and(|c| c.ran >= Duration::from_millis(10))
        };
        while !burners.0.iter().all(spinning) && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
        burners
    }
}

#[cfg(test)]
impl Drop for Burners {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn clock(ran: f64, waited: f64) -> Clock {
        Clock {
            ran: Duration::from_secs_f64(ran),
            waited: Some(Duration::from_secs_f64(waited)),
            slices: None,
        }
    }

    fn had_s(wall: f64, ran: f64, waited: f64, cpus: f64) -> f64 {
        had(Duration::from_secs_f64(wall), clock(ran, waited), cpus).as_secs_f64()
    }

    #[test]
    fn waiting_for_a_cpu_is_taken_out_and_sleeping_is_not() {
        // One thread: 1 s running, 2 s waiting, 2 s asleep.
        assert!((had_s(5.0, 1.0, 2.0, 2.0) - 3.0).abs() < 1e-6);
        // Two threads, each 3 s running and 2 s waiting: 2 s lost on two CPUs at once.
        assert!((had_s(5.0, 6.0, 4.0, 2.0) - 3.0).abs() < 1e-6);
        // Asleep all along (a hung program): all of it.
        assert_eq!(had_s(5.0, 0.0, 0.0, 2.0), 5.0);
        let unknown = Clock {
            ran: Duration::from_secs(1),
            waited: None,
            slices: None,
        };
        assert_eq!(had(Duration::from_secs(5), unknown, 2.0).as_secs(), 5);
    }

    #[test]
    fn threads_beyond_the_cpus_wait_on_the_program_not_the_machine() {
        // Eight busy threads on two CPUs, which ran all along: nothing withheld.
        assert_eq!(had_s(5.0, 10.0, 30.0, 2.0), 5.0);
        // The same with only one CPU's worth given: half the time lost.
        assert!((had_s(5.0, 5.0, 35.0, 2.0) - 2.5).abs() < 1e-6);
    }

    #[test]
    fn given_is_most_of_the_limit() {
        let limit = Duration::from_secs(10);
        assert!(given(Duration::from_secs_f64(9.6), limit));
        assert!(!given(Duration::from_secs_f64(9.4), limit));
    }

    proptest! {
        /// Against the plain model: never more than the wall clock, never less than the time
        /// the busiest possible thread ran, all of it when nothing waited, and less the more
        /// the threads waited.
        #[test]
        fn had_is_bounded_and_falls_with_waiting(
            wall in 0.01f64..100.0,
            ran_share in 0.0f64..8.0,
            waited_share in 0.0f64..8.0,
            more in 0.0f64..4.0,
            cpus in 1u32..64,
        ) {
            let cpus = f64::from(cpus);
            let ran = wall * ran_share.min(cpus);
            let waited = wall * waited_share;
            let h = had_s(wall, ran, waited, cpus);
            prop_assert!(h <= wall + 1e-9);
            prop_assert!(h >= -1e-9);
            prop_assert!(h + 1e-6 >= ran / cpus.max(1.0));
            prop_assert!((had_s(wall, ran, 0.0, cpus) - wall).abs() < 1e-6);
            prop_assert!(had_s(wall, ran, waited + more * wall, cpus) <= h + 1e-6);
        }
    }
}
