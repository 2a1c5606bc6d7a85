//! The lines typed at the terminal, read ahead on a thread of their own so that the game can
//! wait for a line with a time limit and a line typed during a search can stop it; and the
//! prompt that asks for one.

use std::io::{self, BufRead, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::Duration;

use crate::input::{read_line, Line};
use crate::stop::StopSignal;

/// The lines typed, read ahead on a thread of their own (bytes that are not UTF-8 replaced,
/// over-long lines marked, as [`read_line`] does).
pub(super) struct Typed {
    /// The lines read, in order; closed at the end of input (or after a failed read).
    lines: Receiver<io::Result<Line>>,
    /// The stop signal of the search under way, if it can be stopped: the reading thread
    /// raises it (once) when the next line comes.
    search: Arc<Mutex<Option<StopSignal>>>,
}

impl Typed {
    /// Starts reading `input` on a thread of its own. The thread ends at the end of input, or
    /// with the program if it is still waiting for a line then.
    pub(super) fn spawn(mut input: impl BufRead + Send + 'static) -> Typed {
        let (sender, lines) = mpsc::channel();
        let search = Arc::new(Mutex::new(None::<StopSignal>));
        let to_stop = Arc::clone(&search);
        thread::spawn(move || {
            while let Some(line) = read_line(&mut input).transpose() {
                let failed = line.is_err();
                if let Some(signal) = to_stop
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .take()
                {
                    signal.raise();
                }
                if sender.send(line).is_err() || failed {
                    break;
                }
            }
        });
        Typed { lines, search }
    }

    /// The next line, waiting for it; `None` at the end of input.
    pub(super) fn next_line(&self) -> io::Result<Option<Line>> {
        self.lines.recv().ok().transpose()
    }

    /// Waits `pause` for a line: `true` (and the line is used up) if one came. After the end
    /// of input, nobody can type: it just waits.
    pub(super) fn typed_within(&self, pause: Duration) -> io::Result<bool> {
        match self.lines.recv_timeout(pause) {
            Ok(line) => line.map(|_| true),
            Err(RecvTimeoutError::Timeout) => Ok(false),
            Err(RecvTimeoutError::Disconnected) => {
                thread::sleep(pause);
                Ok(false)
            }
        }
    }

    /// Runs `search`, which watches `signal` (cleared first), so that the next line typed
    /// raises it. Returns what `search` returned and whether the signal was raised: the line
    /// that raised it is still to be read.
    pub(super) fn interruptible<T>(
        &self,
        signal: Option<StopSignal>,
        search: impl FnOnce() -> T,
    ) -> (T, bool) {
        let slot = || self.search.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(signal) = &signal {
            signal.clear();
        }
        *slot() = signal.clone();
        let result = search();
        *slot() = None;
        (result, signal.is_some_and(|signal| signal.is_raised()))
    }
}

/// Writes `prompt` and reads one line; `None` at the end of input. An over-long line is
/// refused and asked again, so any input gets an answer.
pub(super) fn ask(
    typed: &Typed,
    output: &mut impl Write,
    prompt: &str,
) -> io::Result<Option<String>> {
    loop {
        write!(output, "{prompt}")?;
        output.flush()?;
        match typed.next_line()? {
            None => {
                writeln!(output)?;
                return Ok(None);
            }
            Some(Line::Text(line)) => return Ok(Some(line)),
            Some(Line::TooLong) => writeln!(output, "That line is too long.")?,
        }
    }
}
