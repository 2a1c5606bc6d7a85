//! Progress on standard error, shared by the long runs (a class, a match): on a terminal one
//! status line rewritten in place, with messages printed above it; elsewhere (a log file) no
//! status line, only plain lines, so that a log reads top to bottom. What is shown is made
//! [`inert`](super::inert) (it names students), kept to one line.

use std::io::{IsTerminal, Write};

use super::inert;

/// Where progress goes, and whether it may rewrite its line.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Whether standard error is a terminal.
    live: bool,
}

impl Progress {
    /// Progress for standard error as it is now.
    pub fn stderr() -> Progress {
        Progress {
            live: std::io::stderr().is_terminal(),
        }
    }

    /// Whether the status line is shown (standard error is a terminal).
    pub fn live(self) -> bool {
        self.live
    }

    /// On a terminal, replaces the status line with `status`; elsewhere does nothing.
    pub fn status(self, status: &str) {
        if self.live {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[K{}", inert::line(status));
            let _ = err.flush();
        }
    }

    /// Writes `line` on a line of its own: on a terminal over the status line, which the next
    /// [`status`](Self::status) draws again below it.
    pub fn line(self, line: &str) {
        let mut err = std::io::stderr().lock();
        let clear = if self.live { "\r\x1b[K" } else { "" };
        let _ = writeln!(err, "{clear}{}", inert::line(line));
        let _ = err.flush();
    }

    /// Ends the status line on a terminal, so that what follows starts on a line of its own.
    pub fn finish(self) {
        if self.live {
            eprintln!();
        }
    }
}
