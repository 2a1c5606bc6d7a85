//! The build step: a command run in a submission's directory before it is graded (`cargo build
//! ...`, `javac ...`), in its own process group with a time limit. Its output goes to a log file,
//! never a pipe, so that a descendant that escapes the group and holds the output open cannot
//! keep the grader waiting; the last lines of the log go into the reports. A build that fails or
//! times out costs every automatic point: no case is run (the assignment: a submission that does
//! not compile scores 0).

use std::env;
use std::fs::{self, File, OpenOptions};
use std::io::{ErrorKind, Read, Seek, SeekFrom};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{self, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use crate::{batch, limits, report, seconds, Student};

/// How many lines of a build's log the reports show.
pub const TAIL_LINES: usize = 30;
/// The most a build may write to its log, in bytes: past it the build is stopped as failed.
const MAX_LOG: u64 = 16 << 20;
/// How much of the end of a log is read for its last lines, in bytes.
const TAIL_BYTES: u64 = 16 << 10;
/// How often a running build is looked at.
const POLL: Duration = Duration::from_millis(50);

/// The build step of a run of the grader.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The shell command, `{dir}` standing for the submission's absolute path.
    pub template: String,
    /// How long one build may take.
    pub timeout: Duration,
    /// Where each log is kept, as `<student>.build.log` (the report directory); `None` writes
    /// it to a temporary file, removed once its last lines are read.
    pub logs: Option<PathBuf>,
}

/// How a build ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// It succeeded.
    Ok,
    /// It failed: how (its exit status, or why it could not run).
    Failed(String),
    /// It was still running at its time limit, and was killed.
    TimedOut(Duration),
}

/// One student's build.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Build {
    /// How it ended.
    pub status: Status,
    /// How long it took.
    pub elapsed: Duration,
    /// The last [`TAIL_LINES`] lines of its log.
    pub tail: String,
    /// The log, when it is kept.
    pub log: Option<PathBuf>,
}

impl Build {
    /// The gradebook's word for it: `ok`, `failed` or `timed out`.
    pub fn word(&self) -> &'static str {
        match self.status {
            Status::Ok => "ok",
            Status::Failed(_) => "failed",
            Status::TimedOut(_) => "timed out",
        }
    }

    /// One sentence for the reports: how it ended and, if it failed, what that costs.
    pub fn headline(&self) -> String {
        const COST: &str = "no case was run, and every automatic category scores 0";
        match &self.status {
            Status::Ok => format!("The build succeeded in {}.", seconds(self.elapsed)),
            Status::Failed(how) => format!(
                "The build failed ({how}) after {}: {COST}.",
                seconds(self.elapsed)
            ),
            Status::TimedOut(limit) => {
                format!("The build timed out after {} s: {COST}.", limit.as_secs())
            }
        }
    }

    /// Why the cases are not run, if the build failed.
    pub fn failure(&self) -> Option<String> {
        match &self.status {
            Status::Ok => None,
            Status::Failed(_) => Some("not run: the build failed".into()),
            Status::TimedOut(limit) => Some(format!(
                "not run: the build timed out after {} s",
                limit.as_secs()
            )),
        }
    }
}

impl Step {
    /// Builds `student`: runs the command in their directory (else the current one), `{dir}`
    /// replaced by its absolute path.
    pub fn run(&self, student: &Student) -> Build {
        let started = Instant::now();
        let dir = student
            .dir
            .clone()
            .or_else(|| env::current_dir().ok())
            .unwrap_or_else(|| PathBuf::from("."));
        let command = batch::with_dir(&self.template, &dir);
        let (status, tail, log) = match open_log(self.logs.as_deref(), &student.name) {
            Ok((path, file)) => {
                let status = execute(&command, &dir, file, &path, self.timeout);
                let tail = tail(&path);
                if self.logs.is_none() {
                    let _ = fs::remove_file(&path);
                }
                (status, tail, self.logs.is_some().then_some(path))
            }
            Err(why) => (
                Status::Failed(format!("its log cannot be written: {why}")),
                String::new(),
                None,
            ),
        };
        Build {
            status,
            elapsed: started.elapsed(),
            tail,
            log,
        }
    }
}

/// A new, empty log: `<name>.build.log` in `logs`, else a fresh temporary file.
fn open_log(logs: Option<&Path>, name: &str) -> std::io::Result<(PathBuf, File)> {
    if let Some(logs) = logs {
        fs::create_dir_all(logs)?;
        let path = logs.join(format!("{}.build.log", report::file_name(name)));
        return File::create(&path).map(|file| (path, file));
    }
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    loop {
        let path = env::temp_dir().join(format!(
            "grade-{}-{}.build.log",
            process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        match OpenOptions::new().write(true).create_new(true).open(&path) {
            Err(e) if e.kind() == ErrorKind::AlreadyExists => continue,
            opened => return opened.map(|file| (path, file)),
        }
    }
}

/// Runs `sh -c COMMAND` in `dir`, in a new process group, its output into `log` (at `path`),
/// until it ends, `timeout` passes or the log grows past [`MAX_LOG`]; then kills what is left of
/// it: the whole of a timed-out build, and whatever a finished one left running in its group or
/// below a process still there.
fn execute(command: &str, dir: &Path, log: File, path: &Path, timeout: Duration) -> Status {
    let mut shell = Command::new("sh");
    shell
        .arg("-c")
        .arg(command)
        .current_dir(dir)
        .stdin(Stdio::null())
        .process_group(0);
    let spawned = log
        .try_clone()
        .and_then(|out| shell.stdout(out).stderr(log).spawn());
    let mut child = match spawned {
        Ok(child) => child,
        Err(why) => return Status::Failed(format!("it could not be started: {why}")),
    };
    // `id` is the child's pid_t as a u32: casting it back is exact.
    let leader = child.id() as i32;
    let deadline = Instant::now() + timeout;
    let stopped = loop {
        if limits::exit_status(leader).is_some() {
            break None;
        }
        if Instant::now() >= deadline {
            break Some(Status::TimedOut(timeout));
        }
        if fs::metadata(path).is_ok_and(|m| m.len() > MAX_LOG) {
            break Some(Status::Failed(format!(
                "its output passed {} MiB",
                MAX_LOG >> 20
            )));
        }
        thread::sleep(POLL.min(deadline.saturating_duration_since(Instant::now())));
    };
    limits::kill(leader, &limits::family(leader, &limits::processes()));
    let waited = child.wait();
    match (stopped, waited) {
        (Some(status), _) => status,
        (None, Ok(status)) if status.success() => Status::Ok,
        (None, Ok(status)) => Status::Failed(status.to_string()),
        (None, Err(why)) => Status::Failed(why.to_string()),
    }
}

/// The last [`TAIL_LINES`] lines of the log at `path`, read from its last [`TAIL_BYTES`] bytes.
fn tail(path: &Path) -> String {
    let mut bytes = Vec::new();
    let read = File::open(path).and_then(|mut file| {
        let length = file.metadata()?.len();
        file.seek(SeekFrom::Start(length.saturating_sub(TAIL_BYTES)))?;
        file.take(TAIL_BYTES).read_to_end(&mut bytes)
    });
    if read.is_err() {
        return String::new();
    }
    last_lines(&String::from_utf8_lossy(&bytes), TAIL_LINES)
}

/// The last `count` lines of `text`, trailing blank lines left off.
fn last_lines(text: &str, count: usize) -> String {
    let lines: Vec<&str> = text.trim_end().lines().collect();
    lines[lines.len().saturating_sub(count)..].join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Builds with `command` in a fresh directory, the log kept there; returns the build and the
    /// directory.
    fn build(command: &str, timeout_ms: u64) -> (Build, tempfile::TempDir) {
        let dir = tempfile::tempdir().unwrap();
        let step = Step {
            template: command.into(),
            timeout: Duration::from_millis(timeout_ms),
            logs: Some(dir.path().join("logs")),
        };
        let student = Student {
            name: "ann lee".into(),
            command: String::new(),
            dir: Some(dir.path().to_path_buf()),
            limits: Default::default(),
        };
        (step.run(&student), dir)
    }

    #[test]
    fn a_build_runs_in_the_submission_with_its_log_kept() {
        let (built, dir) = build(
            "echo compiling; echo warning >&2; touch {dir}/built",
            10_000,
        );
        assert_eq!(built.status, Status::Ok);
        assert_eq!(built.word(), "ok");
        assert_eq!(built.failure(), None);
        assert!(dir.path().join("built").is_file());
        assert_eq!(built.tail, "compiling\nwarning");
        let log = dir.path().join("logs/ann_lee.build.log");
        assert_eq!(built.log.as_deref(), Some(log.as_path()));
        assert_eq!(fs::read_to_string(log).unwrap(), "compiling\nwarning\n");
    }

    #[test]
    fn a_failed_build_keeps_its_last_lines() {
        let (built, _dir) = build(
            "seq 1 100; echo 'error[E0425]: cannot find value `x`' >&2; exit 101",
            10_000,
        );
        assert_eq!(built.status, Status::Failed("exit status: 101".into()));
        assert_eq!(built.word(), "failed");
        let lines: Vec<&str> = built.tail.lines().collect();
        assert_eq!(lines.len(), TAIL_LINES);
        assert_eq!(lines[0], "72");
        assert_eq!(lines[TAIL_LINES - 1], "error[E0425]: cannot find value `x`");
        assert!(built
            .headline()
            .starts_with("The build failed (exit status: 101) after "));
        assert_eq!(
            built.failure().as_deref(),
            Some("not run: the build failed")
        );
    }

    #[test]
    fn a_hung_build_is_killed_with_its_group_at_its_time_limit() {
        let started = Instant::now();
        // One process in the group, one in a session of its own, both still the shell's.
        let (built, dir) = build(
            "sleep 30 & echo $! > {dir}/pids; setsid sleep 30 & echo $! >> {dir}/pids; sleep 30",
            1_000,
        );
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "not waited for"
        );
        assert_eq!(built.status, Status::TimedOut(Duration::from_secs(1)));
        assert_eq!(built.word(), "timed out");
        assert!(built
            .headline()
            .starts_with("The build timed out after 1 s: "));
        thread::sleep(Duration::from_millis(200));
        let pids = fs::read_to_string(dir.path().join("pids")).unwrap();
        assert_eq!(pids.lines().count(), 2, "{pids}");
        for pid in pids.lines() {
            // Gone, or a zombie (state Z) that its new parent has not reaped yet.
            let stat = fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            let state = stat
                .rsplit(") ")
                .next()
                .and_then(|rest| rest.chars().next());
            assert!(
                matches!(state, None | Some('Z')),
                "every sleep was killed: {stat}"
            );
        }
    }

    #[test]
    fn an_escaped_process_holding_the_log_does_not_hold_the_grader() {
        let started = Instant::now();
        let (built, _dir) = build("setsid sleep 5 & echo built", 10_000);
        assert_eq!(built.status, Status::Ok);
        assert!(started.elapsed() < Duration::from_secs(4), "waited for it");
        assert_eq!(built.tail, "built");
    }

    #[test]
    fn a_flooding_build_is_stopped_soon_after_its_cap() {
        // About 100 MB a second: fast, yet slow enough to measure how soon it was stopped.
        let (built, dir) = build("while :; do yes | head -n 500000; sleep 0.01; done", 20_000);
        assert_eq!(
            built.status,
            Status::Failed("its output passed 16 MiB".into())
        );
        assert!(built.tail.ends_with("y\ny"), "{}", built.tail);
        let size = fs::metadata(dir.path().join("logs/ann_lee.build.log"))
            .unwrap()
            .len();
        assert!(
            size < 8 * MAX_LOG,
            "stopped within a poll or so: {size} bytes"
        );
    }

    #[test]
    fn a_temporary_log_is_read_then_removed() {
        let dir = tempfile::tempdir().unwrap();
        let step = Step {
            template: "echo built".into(),
            timeout: Duration::from_secs(10),
            logs: None,
        };
        let student = Student {
            name: "ann".into(),
            command: String::new(),
            dir: Some(dir.path().to_path_buf()),
            limits: Default::default(),
        };
        let built = step.run(&student);
        assert_eq!((&built.status, built.tail.as_str()), (&Status::Ok, "built"));
        assert_eq!(built.log, None);
        let left = fs::read_dir(env::temp_dir()).unwrap().flatten().any(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with(&format!("grade-{}-", process::id()))
        });
        assert!(!left, "the temporary log is removed");
    }
}
