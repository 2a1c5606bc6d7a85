//! A student's program as a child process: started in its own process [`Group`] under its
//! resource limits ([`super::limits`]), fed one command at a time, its standard output read on a thread
//! into a bounded channel with a cap on size, every answer awaited with a deadline, and
//! everything it started killed at the end. Nothing a program does (hang, crash, flood, garbage,
//! early exit, closing its output, leaving behind a process that holds its output, breaking a
//! limit) can stop or crash the grader: each becomes a typed [`Failure`], which the reports put in
//! words.
//!
//! The grader never waits for a pipe to close, which a process the program started in a session
//! of its own could keep open for ever: it polls for the program's exit without reaping it, and
//! after killing the program's group finds and kills whatever still holds the program's pipes.
//! The reading threads are never joined.

use std::fs;
use std::io::{Read, Write};
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::process::{ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam::channel::{bounded, Receiver, RecvTimeoutError};

use super::group::{processes_of, Group};
use super::limits::{LimitHit, Limits};
use super::procfs::holders;
use super::sandbox::{Prepared, Status};
use super::served::{Account, AtLimit};
use super::watch::Watch;

/// The most a program may print in one run, in bytes.
pub const MAX_OUTPUT: usize = 1 << 20;
/// The longest line a program may print, in bytes.
pub const MAX_LINE: usize = 16 << 10;
/// How much of standard error is kept for reports, in bytes.
const STDERR_TAIL: usize = 1024;
/// How often a program waited for is checked for having exited.
const POLL: Duration = Duration::from_millis(50);
/// How long output written before a program exited may take to arrive, and how long its pipes
/// may take to close once its group is killed, before something else is taken to hold them.
const OUTPUT_GRACE: Duration = Duration::from_millis(100);
/// How long after its output closed a program may take to exit before it is taken to have
/// closed its output and gone on running.
const EXIT_GRACE: Duration = Duration::from_millis(200);
/// First words that keep a command from being run with `exec`: shell keywords and built-ins
/// that are not programs.
const SHELL_WORDS: [&str; 15] = [
    "!", ".", "case", "cd", "eval", "exec", "export", "for", "if", "set", "source", "trap",
    "ulimit", "umask", "while",
];

/// Why a command got no usable answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// No complete answer within the time limit.
    TimedOut {
        /// The time limit.
        limit: Duration,
        /// The answer's first line (shortened), if one came.
        first: Option<String>,
    },
    /// No complete answer, but the machine was too busy to give the program its time: however
    /// long it was given on the wall clock, waiting for a CPU left it less than its limit.
    /// Not the program's fault: it is graded again, never charged.
    Starved {
        /// The time limit.
        limit: Duration,
        /// The time it had (the wall clock less its waiting for a CPU).
        had: Duration,
        /// The time it was given on the wall clock.
        wall: Duration,
    },
    /// The program ended.
    Ended(Ending),
    /// The program closed one of its standard streams and went on running.
    Closed {
        /// Which stream.
        stream: Stream,
        /// The end of its standard error.
        stderr: String,
    },
    /// The answer is not a protocol response: its first line (shortened).
    Garbage(String),
    /// Too much output ([`MAX_OUTPUT`]), or a line too long ([`MAX_LINE`]).
    Flood,
    /// The program could not be started or written to: the system's reason.
    Io(String),
}

/// How a program that ended did so.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// Its exit status.
    pub status: ExitStatus,
    /// The resource limit it most likely hit, if any.
    pub limit: Option<LimitHit>,
    /// How many processes it left behind holding its output, now killed.
    pub escaped: usize,
    /// The end of its standard error, trimmed.
    pub stderr: String,
}

/// One of a program's standard streams.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    /// Standard input.
    Input,
    /// Standard output.
    Output,
}

/// What the reading thread passes on.
enum FromReader {
    Line(String),
    Closed,
    Flood,
}

/// A running student program.
pub struct Program {
    stdin: Option<ChildStdin>,
    events: Receiver<FromReader>,
    stderr: Arc<Mutex<Vec<u8>>>,
    /// How many of the two threads reading standard output and error are still reading.
    reading: Arc<AtomicUsize>,
    /// The program's pipes as `/proc` names them (`pipe:[INODE]`), to find who else holds them.
    pipes: Vec<PathBuf>,
    limits: Limits,
    /// The process limit's watch; stopped before the leader is reaped.
    watch: Option<Watch>,
    /// Whether everything the program started has been killed.
    killed: bool,
    /// Taken when the program is dropped: it kills the family again and reaps the leader.
    group: Option<Group>,
    /// The job's sandbox, swept for survivors once the leader is reaped.
    sandbox: Option<Prepared>,
}

impl Program {
    /// Starts `sh -c "COMMAND ARGUMENTS"` (see [`shell_line`]) in `dir`, in a new process group,
    /// under `limits`, in `sandbox` if one is given.
    pub fn start(
        command: &str,
        arguments: &str,
        dir: Option<&Path>,
        limits: &Limits,
        sandbox: Option<&Prepared>,
    ) -> Result<Program, Failure> {
        Program::start_with(command, arguments, dir, limits, sandbox, &[])
    }

    /// [`Program::start`] with the variables `env` set as well (`DISPLAY` for a window).
    pub fn start_with(
        command: &str,
        arguments: &str,
        dir: Option<&Path>,
        limits: &Limits,
        sandbox: Option<&Prepared>,
        env: &[(&str, &str)],
    ) -> Result<Program, Failure> {
        let mut shell = Command::new("sh");
        shell
            .arg("-c")
            .arg(shell_line(command, arguments))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // A panic's report is the same whatever the grader's own environment asks for.
            .env_remove("RUST_BACKTRACE")
            .env_remove("RUST_LIB_BACKTRACE");
        if let Some(dir) = dir {
            shell.current_dir(dir);
        }
        shell.envs(env.iter().copied());
        limits.apply(&mut shell);
        if let Some(sandbox) = sandbox {
            sandbox.watch_memory();
            sandbox.apply(&mut shell);
        }
        let mut group = Group::start(shell, sandbox).map_err(|e| Failure::Io(e.to_string()))?;
        let child = group.child();
        let stdin = child.stdin.take();
        let (Some(stdout), Some(stderr_pipe)) = (child.stdout.take(), child.stderr.take()) else {
            return Err(Failure::Io("no output pipes".into()));
        };
        let fds = [stdout.as_raw_fd(), stderr_pipe.as_raw_fd()];
        let pipes = stdin
            .iter()
            .map(|s| s.as_raw_fd())
            .chain(fds)
            .filter_map(|fd| fs::read_link(format!("/proc/self/fd/{fd}")).ok())
            .collect();
        let reading = Arc::new(AtomicUsize::new(2));
        let (sender, events) = bounded(256);
        let done = Arc::clone(&reading);
        thread::spawn(move || {
            read_lines(stdout, |event| sender.send(event).is_ok());
            done.fetch_sub(1, Ordering::SeqCst);
        });
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let (tail, done) = (Arc::clone(&stderr), Arc::clone(&reading));
        thread::spawn(move || {
            keep_tail(stderr_pipe, &tail);
            done.fetch_sub(1, Ordering::SeqCst);
        });
        // Where the kernel counts the job's processes (and threads) against the same limit, the
        // watch could never find more.
        let by_kernel = sandbox.is_some_and(|s| s.protections().processes == Status::InForce);
        let watch =
            (!by_kernel).then(|| Watch::start(group.leader(), limits.processes, sandbox.cloned()));
        Ok(Program {
            group: Some(group),
            sandbox: sandbox.cloned(),
            stdin,
            events,
            stderr,
            reading,
            pipes,
            limits: *limits,
            watch,
            killed: false,
        })
    }

    /// Sends `line` and waits up to `limit` for the whole answer: its lines (the first starting
    /// `=` or `?`, the empty line that ends it left off) and how long it took. A program that
    /// exits or closes its output fails at once, not at the time limit.
    pub fn ask(&mut self, line: &str, limit: Duration) -> Result<(Vec<String>, Duration), Failure> {
        let started = Instant::now();
        // Started with the question, not at the first poll without an answer: on a machine busy
        // enough to starve the program, the grader's own poll can come late, and the time
        // before an account starts counts as the program's.
        let mut account = self.account();
        let sent = match self.stdin.as_mut() {
            Some(stdin) => stdin
                .write_all(format!("{line}\n").as_bytes())
                .and_then(|()| stdin.flush()),
            None => Err(std::io::ErrorKind::BrokenPipe.into()),
        };
        if sent.is_err() {
            return Err(self.ended(Stream::Input));
        }
        let mut deadline = started + limit;
        let mut lines: Vec<String> = Vec::new();
        // When the program was seen to have exited while its output stayed open.
        let mut exited: Option<Instant> = None;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                match account
                    .as_mut()
                    .map_or(AtLimit::Had, |a| a.at_limit(started, limit))
                {
                    AtLimit::Had => {
                        let first = lines.first().map(|l| shorten(l));
                        return Err(Failure::TimedOut { limit, first });
                    }
                    AtLimit::Starved { had, wall } => {
                        return Err(Failure::Starved { limit, had, wall })
                    }
                    AtLimit::Owed(more) => deadline = Instant::now() + more.max(POLL),
                }
                continue;
            }
            match self.events.recv_timeout(left.min(POLL)) {
                Ok(FromReader::Line(text)) if lines.is_empty() => {
                    if !is_response_start(&text) {
                        return Err(Failure::Garbage(shorten(&text)));
                    }
                    lines.push(text);
                }
                Ok(FromReader::Line(text)) if text.is_empty() => {
                    return Ok((lines, started.elapsed()))
                }
                Ok(FromReader::Line(text)) => lines.push(text),
                Ok(FromReader::Flood) => return Err(Failure::Flood),
                Ok(FromReader::Closed) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.ended(Stream::Output))
                }
                Err(RecvTimeoutError::Timeout) => match exited {
                    Some(at) if at.elapsed() >= OUTPUT_GRACE => {
                        return Err(self.ended(Stream::Output))
                    }
                    Some(_) => {}
                    None => exited = self.status().map(|_| Instant::now()),
                },
            }
        }
    }

    /// An account of what the job's threads do from now on, to tell at a time limit how much
    /// of the time the program had; `None` once it has been reaped.
    fn account(&self) -> Option<Account> {
        Some(Account::start(self.leader()?, self.sandbox.as_ref()))
    }

    /// The process id of the program's group leader (the group's id too), while it has not been
    /// reaped: to watch its threads.
    pub fn leader(&self) -> Option<i32> {
        self.group.as_ref().map(Group::leader)
    }

    /// How the program ended, if it has, as [`Program::ask`] would report it: for a program
    /// that is watched rather than asked (a window).
    pub fn exited(&mut self) -> Option<Ending> {
        self.status()?;
        match self.ended(Stream::Output) {
            Failure::Ended(ending) => Some(ending),
            _ => None,
        }
    }

    /// How the program (its group's leader) ended, if it has. It is left unreaped, so that the
    /// group's id stays its own until [`Drop`] has killed the group.
    fn status(&self) -> Option<ExitStatus> {
        self.group.as_ref().and_then(Group::status)
    }

    /// The failure for a program whose `stream` has closed, or that was seen to exit: if it
    /// does not exit within [`EXIT_GRACE`], that it closed the stream; else how it ended, what
    /// it left running, the limit it hit if any, and the end of its standard error.
    fn ended(&mut self, stream: Stream) -> Failure {
        let deadline = Instant::now() + EXIT_GRACE;
        let status = loop {
            match self.status() {
                Some(status) => break status,
                None if Instant::now() < deadline => thread::sleep(Duration::from_millis(5)),
                None => {
                    let stderr = self.stderr_tail();
                    return Failure::Closed { stream, stderr };
                }
            }
        };
        self.stdin = None;
        let escaped = self.kill();
        let counted = self.watch.as_ref().map_or(0, Watch::crowd);
        let job_memory = self.sandbox.as_ref().is_some_and(Prepared::memory_exceeded);
        let disk_full = self.sandbox.as_ref().is_some_and(Prepared::disk_full);
        let stderr = self.stderr_tail();
        Failure::Ended(Ending {
            status,
            limit: self
                .limits
                .diagnose(status, counted, job_memory, disk_full, &stderr),
            escaped,
            stderr,
        })
    }

    /// The end of the program's standard error, trimmed.
    fn stderr_tail(&self) -> String {
        let tail = self.stderr.lock().map(|s| s.clone()).unwrap_or_default();
        String::from_utf8_lossy(&tail).trim().to_string()
    }

    /// Kills everything the program started, once: its group and every process started from
    /// it, then, if its output has not closed within [`OUTPUT_GRACE`] (something that left the
    /// group holds it), whatever holds its pipes. Returns how many of those last it killed.
    fn kill(&mut self) -> usize {
        if std::mem::replace(&mut self.killed, true) {
            return 0;
        }
        let family = self.group.as_ref().map(Group::kill).unwrap_or_default();
        let deadline = Instant::now() + OUTPUT_GRACE;
        while self.reading.load(Ordering::SeqCst) > 0 && Instant::now() < deadline {
            // A reader waiting for room in the channel must be able to see the end.
            while self.events.try_recv().is_ok() {}
            thread::sleep(Duration::from_millis(5));
        }
        if self.reading.load(Ordering::SeqCst) == 0 {
            return 0;
        }
        let holders: Vec<i32> = holders(&self.pipes, processes_of(self.sandbox.as_ref()))
            .into_iter()
            .filter(|pid| !family.contains(pid))
            .collect();
        if let Some(group) = &self.group {
            group.kill_also(&holders);
        }
        holders.len()
    }
}

impl Drop for Program {
    /// Kills everything the program started (see [`Program::kill`]), reaps it, and then kills
    /// whatever else of its job is still running in its sandbox (a daemon in a session of its
    /// own that left no pipe behind).
    fn drop(&mut self) {
        self.stdin = None;
        // Stopped first: it must not count a group whose leader has been reaped.
        self.watch = None;
        self.kill();
        self.group = None;
        if let Some(sandbox) = &self.sandbox {
            // The job's last sweep, after its last case, says whether anything survived.
            let _ = sandbox.kill_survivors();
        }
    }
}

/// `COMMAND ARGUMENTS` for `sh -c`, after `exec` when the command is one simple command (no
/// shell operators; no assignment, keyword or built-in first): then the program itself, not a
/// shell waiting for it, is the process the grader started, so that its output closes when the
/// program closes it and its exit status and signals are its own. Other commands run as given.
fn shell_line(command: &str, arguments: &str) -> String {
    let simple = !command.contains([';', '&', '|', '(', ')', '{', '}', '`', '\n'])
        && command
            .split_whitespace()
            .next()
            .is_some_and(|first| !first.contains('=') && !SHELL_WORDS.contains(&first));
    if simple {
        format!("exec {command} {arguments}")
    } else {
        format!("{command} {arguments}")
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
fn read_lines(mut output: impl Read, send: impl Fn(FromReader) -> bool) {
    let mut total = 0;
    let mut line = Vec::new();
    let mut buffer = [0u8; 8192];
    loop {
        let n = match output.read(&mut buffer) {
            Ok(0) | Err(_) => {
                send(FromReader::Closed);
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
                if !send(FromReader::Line(
                    String::from_utf8_lossy(&line).into_owned(),
                )) {
                    return;
                }
                line.clear();
            } else {
                line.push(byte);
            }
        }
        if total > MAX_OUTPUT || line.len() > MAX_LINE {
            send(FromReader::Flood);
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
    use crate::process::limits::{Detection, Limit};
    use crate::process::served;

    fn ask_once(script: &str, limit_ms: u64) -> Result<Vec<String>, Failure> {
        ask_limited(script, limit_ms, &Limits::default(), None)
    }

    fn ask_limited(
        script: &str,
        limit_ms: u64,
        limits: &Limits,
        dir: Option<&Path>,
    ) -> Result<Vec<String>, Failure> {
        let mut program = Program::start(script, "", dir, limits, None).unwrap();
        program
            .ask("board", Duration::from_millis(limit_ms))
            .map(|(lines, _)| lines)
    }

    /// Whether a process whose command line is `words` is running (zombies have none).
    fn running(words: &[&str]) -> bool {
        let wanted: Vec<u8> = words
            .iter()
            .flat_map(|w| [w.as_bytes(), b"\0"].concat())
            .collect();
        super::super::procfs::processes()
            .iter()
            .any(|p| fs::read(format!("/proc/{}/cmdline", p.pid)).is_ok_and(|c| c == wanted))
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
            Err(Failure::TimedOut { limit, first: None })
        );
        let unended = ask_once("read x; echo '= 3'; sleep 30 #", 300);
        assert_eq!(
            unended,
            Err(Failure::TimedOut {
                limit,
                first: Some("= 3".into())
            })
        );
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "the hung group was killed"
        );
        let crash = ask_once("read x; echo oops >&2; exit 3 #", 5000).unwrap_err();
        let Failure::Ended(ending) = crash else {
            panic!("{crash:?}")
        };
        assert_eq!(ending.status.code(), Some(3));
        assert_eq!(
            (ending.stderr.as_str(), ending.limit, ending.escaped),
            ("oops", None, 0)
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

    #[test]
    fn only_a_simple_command_is_run_with_exec() {
        assert_eq!(shell_line("sh /x/run", "6 7"), "exec sh /x/run 6 7");
        assert_eq!(
            shell_line("java -cp 'a b' C 2>/dev/null", "1"),
            "exec java -cp 'a b' C 2>/dev/null 1"
        );
        for compound in [
            "cd /x && ./p",
            "a; b",
            "a | b",
            "X=1 p",
            "exec p",
            "$(p)",
            "{ p; }",
        ] {
            assert_eq!(shell_line(compound, "1"), format!("{compound} 1"));
        }
    }

    #[test]
    fn a_program_that_closes_its_output_fails_at_once() {
        let started = Instant::now();
        let closed = ask_once("read x; exec >&-; cat >/dev/null #", 20_000);
        assert_eq!(
            closed,
            Err(Failure::Closed {
                stream: Stream::Output,
                stderr: String::new()
            })
        );
        // A script, as a submission's `run` is: the shell that starts it must not hold its output.
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("run"), "read x; exec >&-; cat >/dev/null\n").unwrap();
        let script = ask_limited("sh run", 20_000, &Limits::default(), Some(dir.path()));
        assert_eq!(script, closed);
        // Waiting for `cat` would take the two asks' 20 s each.
        assert!(started.elapsed() < Duration::from_secs(20));
        let last_words = ask_once("read x; printf '= bye\\n\\n'; exit 0 #", 20_000);
        assert_eq!(last_words, Ok(vec!["= bye".to_string()]));
    }

    #[test]
    fn a_process_left_holding_the_output_is_killed_not_waited_for() {
        let started = Instant::now();
        let escaped = ask_once("read x; setsid sleep 873.25 & exit 0 #", 20_000).unwrap_err();
        // Waiting for the sleep would take the ask's 20 s.
        assert!(started.elapsed() < Duration::from_secs(10), "{escaped:?}");
        let Failure::Ended(ending) = escaped else {
            panic!("{escaped:?}")
        };
        assert_eq!(ending.status.code(), Some(0));
        assert_eq!((ending.escaped, ending.limit), (1, None));
        let gone = Instant::now();
        while running(&["sleep", "873.25"]) && gone.elapsed() < Duration::from_secs(2) {
            thread::sleep(Duration::from_millis(20));
        }
        assert!(
            !running(&["sleep", "873.25"]),
            "the escaped process was killed"
        );
    }

    #[test]
    fn a_limit_hit_is_named() {
        let dir = tempfile::tempdir().unwrap();
        // The defaults, but for the one limit tried: which limit was hit, and how it is known.
        let hit = |script, limits| {
            let started = Instant::now();
            let failure = ask_limited(script, 20_000, &limits, Some(dir.path())).unwrap_err();
            assert!(started.elapsed() < Duration::from_secs(10), "{failure:?}");
            match failure {
                Failure::Ended(Ending {
                    limit: Some(hit), ..
                }) => (hit.limit, hit.amount, hit.evidence),
                other => panic!("no limit named: {other:?}"),
            }
        };
        let signal = |name| Detection::Signal { name, shell: None };
        let cpu = Limits {
            cpu_seconds: 1,
            ..Limits::default()
        };
        assert_eq!(
            hit("read x; while :; do :; done #", cpu),
            (Limit::CpuTime, 1, signal("SIGXCPU"))
        );
        let file = Limits {
            file_size_mib: 1,
            ..Limits::default()
        };
        assert_eq!(
            hit("read x; exec head -c 3000000 /dev/zero > big #", file),
            (Limit::FileSize, 1, signal("SIGXFSZ"))
        );
        let memory = Limits {
            memory_mib: 64,
            ..Limits::default()
        };
        let (limit, amount, evidence) =
            hit("read x; exec python3 -c 'bytearray(256 << 20)' #", memory);
        assert_eq!((limit, amount), (Limit::Memory, 64));
        assert!(
            matches!(&evidence, Detection::Stderr { line, .. } if line == "MemoryError"),
            "{evidence:?}"
        );
        let processes = Limits {
            processes: 5,
            ..Limits::default()
        };
        let script = "read x; for i in 1 2 3 4 5 6 7 8; do sleep 30 & done; wait #";
        let (limit, amount, evidence) = hit(script, processes);
        assert_eq!((limit, amount), (Limit::Processes, 5));
        assert!(
            matches!(evidence, Detection::Counted(n) if n > 5),
            "{evidence:?}"
        );
    }

    #[test]
    fn a_program_starved_of_cpu_is_not_charged_with_a_time_out() {
        let _busy = served::Burners::on_cpu_0(3);
        // Ready to run all along, but given a quarter of its one CPU.
        let script = "read x; exec taskset -c 0 sh -c 'while :; do :; done' #";
        let limit = Duration::from_millis(300);
        let failure = ask_once(script, 300).unwrap_err();
        let Failure::Starved {
            limit: said,
            had,
            wall,
        } = failure
        else {
            panic!("{failure:?}")
        };
        assert_eq!(said, limit);
        assert!(wall >= limit * served::LONGEST, "{wall:?}");
        assert!(had < limit.mul_f64(served::ENOUGH), "{had:?}");
    }

    #[test]
    fn a_program_slowed_by_a_busy_machine_gets_its_own_time_to_answer() {
        let _busy = served::Burners::on_cpu_0(3);
        // About 0.1 s of CPU time, which takes 0.4 s on a CPU shared four ways.
        let script = "read x; exec taskset -c 0 /usr/bin/python3 -c \"import time
t = time.process_time()
while time.process_time() - t < 0.1: pass
print('= done', flush=True)
print(flush=True)
input()\" #";
        match ask_once(script, 300) {
            Ok(answer) => assert_eq!(answer, ["= done"]),
            // On a machine busier still, not charged either.
            Err(failure) => assert!(matches!(failure, Failure::Starved { .. }), "{failure:?}"),
        }
    }
}
