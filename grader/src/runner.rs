//! A student's program as a child process: started in its own process group, fed one command at
//! a time, its standard output read on a thread into a bounded channel with a cap on size, every
//! answer awaited with a deadline, and the whole group killed at the end. Nothing a program does
//! (hang, crash, flood, garbage, early exit) can stop or crash the grader: each becomes a
//! [`Failure`] with a reason.

use std::fmt;
use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam::channel::{bounded, Receiver, RecvTimeoutError};

/// The most a program may print in one run, in bytes.
pub const MAX_OUTPUT: usize = 1 << 20;
/// The longest line a program may print, in bytes.
pub const MAX_LINE: usize = 16 << 10;
/// How much of standard error is kept for reports, in bytes.
const STDERR_TAIL: usize = 1024;

/// Why a command got no usable answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// No complete answer within the time limit (the first line, if one came).
    TimedOut(Duration, Option<String>),
    /// The program ended (its status and the end of its standard error).
    Exited(String),
    /// The answer is not a protocol response.
    Garbage(String),
    /// Too much output, or a line too long.
    Flood,
    /// The program could not be started or written to.
    Io(String),
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::TimedOut(limit, None) => write!(
                f,
                "no answer within the time limit of {}",
                super::seconds(*limit)
            ),
            Failure::TimedOut(limit, Some(first)) => write!(
                f,
                "the answer starting {first:?} was not ended by an empty line within {}",
                super::seconds(*limit)
            ),
            Failure::Exited(how) => write!(f, "the program exited: {how}"),
            Failure::Garbage(line) => write!(
                f,
                "not a protocol response (a line must start with `= ` or `? `): {line:?}"
            ),
            Failure::Flood => write!(
                f,
                "too much output (over {MAX_OUTPUT} bytes, or a line over {MAX_LINE} bytes)"
            ),
            Failure::Io(why) => write!(f, "cannot talk to the program: {why}"),
        }
    }
}

/// What the reading thread passes on.
enum Event {
    Line(String),
    Closed,
    Flood,
}

/// A running student program.
pub struct Program {
    child: Child,
    stdin: Option<ChildStdin>,
    events: Receiver<Event>,
    stderr: Arc<Mutex<Vec<u8>>>,
}

impl Program {
    /// Starts `sh -c "COMMAND ARGUMENTS"` in `dir`, in a new process group.
    pub fn start(command: &str, arguments: &str, dir: Option<&Path>) -> Result<Program, Failure> {
        let mut shell = Command::new("sh");
        shell
            .arg("-c")
            .arg(format!("{command} {arguments}"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // A panic's report is the same whatever the grader's own environment asks for.
            .env_remove("RUST_BACKTRACE")
            .env_remove("RUST_LIB_BACKTRACE")
            .process_group(0);
        if let Some(dir) = dir {
            shell.current_dir(dir);
        }
        let mut child = shell.spawn().map_err(|e| Failure::Io(e.to_string()))?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().ok_or(Failure::Io("no stdout".into()))?;
        let stderr_pipe = child.stderr.take().ok_or(Failure::Io("no stderr".into()))?;
        let (sender, events) = bounded(256);
        thread::spawn(move || read_lines(stdout, |event| sender.send(event).is_ok()));
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let tail = Arc::clone(&stderr);
        thread::spawn(move || keep_tail(stderr_pipe, &tail));
        Ok(Program {
            child,
            stdin,
            events,
            stderr,
        })
    }

    /// Sends `line` and waits up to `limit` for the whole answer: its lines (the first starting
    /// `=` or `?`, the empty line that ends it left off) and how long it took.
    pub fn ask(&mut self, line: &str, limit: Duration) -> Result<(Vec<String>, Duration), Failure> {
        let started = Instant::now();
        let sent = match self.stdin.as_mut() {
            Some(stdin) => stdin
                .write_all(format!("{line}\n").as_bytes())
                .and_then(|()| stdin.flush()),
            None => Err(std::io::ErrorKind::BrokenPipe.into()),
        };
        if sent.is_err() {
            return Err(self.exited());
        }
        let deadline = started + limit;
        let mut lines: Vec<String> = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.events.recv_timeout(left) {
                Ok(Event::Line(text)) if lines.is_empty() => {
                    if !is_response_start(&text) {
                        return Err(Failure::Garbage(shorten(&text)));
                    }
                    lines.push(text);
                }
                Ok(Event::Line(text)) if text.is_empty() => return Ok((lines, started.elapsed())),
                Ok(Event::Line(text)) => lines.push(text),
                Ok(Event::Flood) => return Err(Failure::Flood),
                Ok(Event::Closed) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.exited())
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(Failure::TimedOut(limit, lines.first().map(|l| shorten(l))))
                }
            }
        }
    }

    /// The failure for a program whose output has ended: its exit status (waiting briefly for
    /// it) and the end of its standard error.
    fn exited(&mut self) -> Failure {
        self.stdin = None;
        let deadline = Instant::now() + Duration::from_millis(500);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break status.to_string(),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(10)),
                _ => break "closed its output".to_string(),
            }
        };
        let stderr = self.stderr.lock().map(|s| s.clone()).unwrap_or_default();
        let stderr = String::from_utf8_lossy(&stderr);
        let stderr = stderr.trim();
        if stderr.is_empty() {
            Failure::Exited(status)
        } else {
            Failure::Exited(format!("{status}; standard error ends: {stderr}"))
        }
    }
}

impl Drop for Program {
    /// Kills the program's whole process group, so that nothing it started lives on.
    fn drop(&mut self) {
        self.stdin = None;
        if let Ok(pid) = i32::try_from(self.child.id()) {
            // SAFETY: kill(2) has no memory effects; the group id is our child's pid, made a
            // group leader by `process_group(0)`, and not reaped yet, so it cannot be reused.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
        let _ = self.child.wait();
    }
}

/// Whether `line` can start a response: `=` or `?`, alone or followed by a space.
fn is_response_start(line: &str) -> bool {
    let mut chars = line.chars();
    matches!(chars.next(), Some('=' | '?')) && matches!(chars.next(), None | Some(' '))
}

/// At most 80 characters of `text`, for reports.
fn shorten(text: &str) -> String {
    match text.char_indices().nth(80) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text.to_string(),
    }
}

/// Splits `output` into lines (without `\n` or a final `\r`) and passes each to `send` until the
/// output ends, `send` refuses, or the output breaks a cap.
fn read_lines(mut output: impl Read, send: impl Fn(Event) -> bool) {
    let mut total = 0;
    let mut line = Vec::new();
    let mut buffer = [0u8; 8192];
    loop {
        let n = match output.read(&mut buffer) {
            Ok(0) | Err(_) => {
                send(Event::Closed);
                return;
            }
            Ok(n) => n,
        };
        total += n;
        for &byte in &buffer[..n] {
            if byte == b'\n' {
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                if !send(Event::Line(String::from_utf8_lossy(&line).into_owned())) {
                    return;
                }
                line.clear();
            } else {
                line.push(byte);
            }
        }
        if total > MAX_OUTPUT || line.len() > MAX_LINE {
            send(Event::Flood);
            return;
        }
    }
}

/// Keeps the last [`STDERR_TAIL`] bytes of `pipe` in `tail`.
fn keep_tail(mut pipe: impl Read, tail: &Mutex<Vec<u8>>) {
    let mut buffer = [0u8; 4096];
    while let Ok(n @ 1..) = pipe.read(&mut buffer) {
        if let Ok(mut tail) = tail.lock() {
            tail.extend_from_slice(&buffer[..n]);
            let excess = tail.len().saturating_sub(STDERR_TAIL);
            tail.drain(..excess);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask_once(script: &str, limit_ms: u64) -> Result<Vec<String>, Failure> {
        let mut program = Program::start(script, "", None).unwrap();
        program
            .ask("board", Duration::from_millis(limit_ms))
            .map(|(lines, _)| lines)
    }

    #[test]
    fn a_framed_answer_is_read_up_to_its_empty_line() {
        let answer = ask_once(
            "read x; printf '=\\n..\\nRB\\n\\n= extra\\n\\n'; cat >/dev/null #",
            5000,
        );
        assert_eq!(answer, Ok(vec!["=".into(), "..".into(), "RB".into()]));
    }

    #[test]
    fn hangs_crashes_garbage_and_floods_are_failures() {
        let started = Instant::now();
        let limit = Duration::from_millis(300);
        assert_eq!(
            ask_once("sleep 30 #", 300),
            Err(Failure::TimedOut(limit, None))
        );
        let unended = ask_once("read x; echo '= 3'; sleep 30 #", 300);
        assert_eq!(unended, Err(Failure::TimedOut(limit, Some("= 3".into()))));
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "the hung group was killed"
        );
        let crash = ask_once("read x; echo oops >&2; exit 3 #", 5000).unwrap_err();
        assert!(
            crash.to_string().contains("exit status: 3") && crash.to_string().contains("oops"),
            "{crash}"
        );
        assert_eq!(
            ask_once("echo hello; sleep 30 #", 5000),
            Err(Failure::Garbage("hello".into()))
        );
        assert_eq!(ask_once("read x; echo =; yes #", 5000), Err(Failure::Flood));
        assert_eq!(
            ask_once("read x; head -c 100000 /dev/zero #", 5000),
            Err(Failure::Flood)
        );
    }
}
