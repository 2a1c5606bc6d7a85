//! Ctrl-C, `SIGTERM` and `SIGHUP` (a closed terminal) while a class is graded: caught rather
//! than left to end `grade` at once, the first of them asks the run to [`Stop`], so that the
//! students already graded are written to the class's files and the run says how to carry on.
//! A thread of its own waits for them (signal-hook's self-pipe), for nothing but an atomic flag
//! can be set in a signal handler.

use std::thread;

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

use crate::judge::stop::Stop;
use crate::report::progress::Progress;

/// A signal that stopped a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Signal(pub i32);

impl Signal {
    /// The exit status of a program it ended, as shells give it: 130 for Ctrl-C.
    pub fn exit_status(self) -> u8 {
        u8::try_from(128 + self.0).unwrap_or(1)
    }

    /// Its name, and what sends it.
    pub fn name(self) -> &'static str {
        match self.0 {
            SIGINT => "SIGINT, Ctrl-C",
            SIGTERM => "SIGTERM",
            SIGHUP => "SIGHUP, the terminal closed",
            _ => "a signal",
        }
    }
}

/// Runs `work` with Ctrl-C, `SIGTERM` and `SIGHUP` caught: the first of them asks `stop`.
/// Returns what `work` did, and the signal if one came. Where they cannot be caught (said on
/// standard error), `work` runs as it would have, and a signal ends `grade` at once.
pub fn watching<T>(stop: &Stop, work: impl FnOnce() -> T) -> (T, Option<Signal>) {
    let mut signals = match Signals::new([SIGINT, SIGTERM, SIGHUP]) {
        Ok(signals) => signals,
        Err(why) => {
            eprintln!("grade: Ctrl-C cannot be caught ({why}): it stops grade at once");
            return (work(), None);
        }
    };
    let handle = signals.handle();
    thread::scope(|scope| {
        let watcher = scope.spawn(move || {
            let signal = signals.forever().next().map(Signal);
            if let Some(signal) = signal {
                Progress::stderr().line(&format!(
                    "grade: stopping ({}): no more students start, and those being graded are \
                     stopped",
                    signal.name()
                ));
                stop.ask();
            }
            signal
        });
        let done = work();
        handle.close();
        (done, watcher.join().ok().flatten())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_statuses_are_the_shells() {
        assert_eq!(Signal(SIGINT).exit_status(), 130);
        assert_eq!(Signal(SIGTERM).exit_status(), 143);
        assert_eq!(Signal(SIGHUP).exit_status(), 129);
    }

    #[test]
    fn without_a_signal_the_work_is_done_and_nothing_is_asked() {
        let stop = Stop::default();
        let (done, signal) = watching(&stop, || 7);
        assert_eq!((done, signal), (7, None));
        assert!(!stop.asked());
    }

    #[test]
    fn a_signal_asks_the_stop_and_is_returned() {
        let stop = Stop::default();
        let (waited, signal) = watching(&stop, || {
            // SAFETY: raise only sends a signal, caught by now.
            unsafe { libc::raise(SIGTERM) };
            let start = std::time::Instant::now();
            while !stop.asked() && start.elapsed() < std::time::Duration::from_secs(10) {
                thread::sleep(std::time::Duration::from_millis(5));
            }
            stop.asked()
        });
        assert!(waited, "the stop was asked");
        assert_eq!(signal, Some(Signal(SIGTERM)));
    }
}
