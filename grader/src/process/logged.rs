//! A shell command run to a log file with a time limit: how a build runs. Its output goes to the
//! log, never a pipe, so that a descendant that escapes its group and holds the output open
//! cannot keep the grader waiting; a log that grows past its cap stops the command, and when it
//! ends (or is stopped) whatever it left running in its group or below is killed.

use std::ffi::OsStr;
use std::fs::{self, File};
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use super::group::Group;
use super::sandbox::Prepared;
use super::served::{Account, AtLimit};

/// The most a command may write to its log, in bytes: past it the command is stopped.
pub const MAX_LOG: u64 = 16 << 20;
/// How often a running command is looked at.
const POLL: Duration = Duration::from_millis(50);
/// How often its threads are counted for the time it had ([`Account`]): a compiler's
/// process that lives less than this between two looks is left out of the account.
const LOOK: Duration = Duration::from_millis(500);

/// How a logged command ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ended {
    /// It succeeded.
    Succeeded,
    /// It failed with this exit status.
    Failed(ExitStatus),
    /// It failed with this exit status, the job's own disk full (it wrote all it may).
    DiskFull(ExitStatus),
    /// It was still running at its time limit, and was killed.
    TimedOut(Duration),
    /// It was still running, killed after [`LONGEST`](super::served::LONGEST) times its time
    /// limit on the clock, in which a busy machine gave it less than its limit: not the
    /// student's fault.
    Starved {
        /// The time limit.
        limit: Duration,
        /// The time it had (the wall clock less its waiting for a CPU).
        had: Duration,
        /// The time it was given on the wall clock.
        wall: Duration,
    },
    /// Its log grew past [`MAX_LOG`], and it was killed.
    Flooded,
    /// It could not be started: the system's reason.
    NotStarted(String),
    /// Its log could not be created: the system's reason.
    NoLog(String),
}

/// Runs `sh -c COMMAND` in `dir`, in a new process group (in `sandbox`, if one is given, with
/// `env` set), its output into a new log at `log`, until it ends, `timeout` passes or the log
/// grows past [`MAX_LOG`]; then kills what is left of it: the whole of a stopped command,
/// whatever a finished one left running in its group or below a process still there, and
/// whatever else of its job is still running in its sandbox.
pub fn run(
    command: &str,
    dir: &Path,
    log: &Path,
    timeout: Duration,
    sandbox: Option<(&Prepared, &[(&str, &OsStr)])>,
) -> Ended {
    let (out, err) = match File::create(log).and_then(|f| Ok((f.try_clone()?, f))) {
        Ok(files) => files,
        Err(why) => return Ended::NoLog(why.to_string()),
    };
    let mut shell = Command::new("sh");
    shell
        .arg("-c")
        .arg(command)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(err);
    if let Some((sandbox, env)) = sandbox {
        sandbox.apply(&mut shell);
        shell.envs(env.iter().copied());
    }
    let mut group = match Group::start(shell, sandbox.map(|(sandbox, _)| sandbox)) {
        Ok(group) => group,
        Err(why) => return Ended::NotStarted(why.to_string()),
    };
    let started = Instant::now();
    let mut account = Account::start(group.leader(), sandbox.map(|(sandbox, _)| sandbox));
    let mut deadline = started + timeout;
    let mut looked = started;
    let stopped = loop {
        if group.status().is_some() {
            break None;
        }
        if Instant::now() >= deadline {
            match account.at_limit(started, timeout) {
                AtLimit::Had => break Some(Ended::TimedOut(timeout)),
                AtLimit::Starved { had, wall } => {
                    break Some(Ended::Starved {
                        limit: timeout,
                        had,
                        wall,
                    })
                }
                AtLimit::Owed(more) => deadline = Instant::now() + more.max(POLL),
            }
        }
        if looked.elapsed() >= LOOK {
            account.look();
            looked = Instant::now();
        }
        if fs::metadata(log).is_ok_and(|m| m.len() > MAX_LOG) {
            break Some(Ended::Flooded);
        }
        thread::sleep(POLL.min(deadline.saturating_duration_since(Instant::now())));
    };
    group.kill();
    let waited = group.child().wait();
    let full = sandbox.is_some_and(|(sandbox, _)| {
        // The job's last sweep, after its last case, says whether anything survived.
        let _ = sandbox.kill_survivors();
        sandbox.disk_full()
    });
    match (stopped, waited) {
        (Some(ended), _) => ended,
        (None, Ok(status)) if status.success() => Ended::Succeeded,
        (None, Ok(status)) if full => Ended::DiskFull(status),
        (None, Ok(status)) => Ended::Failed(status),
        (None, Err(why)) => Ended::NotStarted(why.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::process::served;
    use procfs::process::Stat;
    use procfs::FromRead;

    /// Runs `command` in a fresh directory, its log there; returns how it ended, the log's
    /// text and the directory.
    fn logged(command: &str, timeout_ms: u64) -> (Ended, String, tempfile::TempDir) {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("build.log");
        let ended = run(
            command,
            dir.path(),
            &log,
            Duration::from_millis(timeout_ms),
            None,
        );
        let text = fs::read_to_string(&log).unwrap_or_default();
        (ended, text, dir)
    }

    #[test]
    fn output_and_errors_go_to_the_log() {
        let (ended, text, dir) = logged("echo compiling; echo warning >&2; touch built", 10_000);
        assert_eq!(ended, Ended::Succeeded);
        assert_eq!(text, "compiling\nwarning\n");
        assert!(dir.path().join("built").is_file(), "ran in its directory");
        let (ended, _, _) = logged("exit 101", 10_000);
        assert!(
            matches!(ended, Ended::Failed(s) if s.code() == Some(101)),
            "{ended:?}"
        );
    }

    #[test]
    fn a_hung_command_is_killed_with_its_group_at_its_time_limit() {
        let started = Instant::now();
        // One process in the group, one in a session of its own, both still the shell's.
        let (ended, _, dir) = logged(
            "sleep 30 & echo $! > pids; setsid sleep 30 & echo $! >> pids; sleep 30",
            1_000,
        );
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "not waited for"
        );
        assert_eq!(ended, Ended::TimedOut(Duration::from_secs(1)));
        thread::sleep(Duration::from_millis(200));
        let pids = fs::read_to_string(dir.path().join("pids")).unwrap();
        assert_eq!(pids.lines().count(), 2, "{pids}");
        for pid in pids.lines() {
            // Gone, or a zombie (state Z) that its new parent has not reaped yet.
            let stat = Stat::from_file(format!("/proc/{pid}/stat"));
            assert!(
                stat.as_ref().map_or(true, |stat| stat.state == 'Z'),
                "every sleep was killed: {stat:?}"
            );
        }
    }

    #[test]
    fn a_build_starved_of_cpu_is_stopped_but_not_charged_with_a_time_out() {
        let _busy = served::Burners::on_cpu_0(3);
        let (ended, _, _dir) = logged("exec taskset -c 0 sh -c 'while :; do :; done'", 300);
        let Ended::Starved { limit, had, wall } = ended else {
            panic!("{ended:?}")
        };
        assert_eq!(limit, Duration::from_millis(300));
        assert!(wall >= limit * served::LONGEST, "{wall:?}");
        assert!(had < limit.mul_f64(served::ENOUGH), "{had:?}");
    }

    #[test]
    fn an_escaped_process_holding_the_log_does_not_hold_the_grader() {
        let started = Instant::now();
        let (ended, text, _dir) = logged("setsid sleep 60 & echo built", 120_000);
        assert_eq!(ended, Ended::Succeeded);
        // Waiting for the sleep would take its 60 s.
        assert!(started.elapsed() < Duration::from_secs(30), "waited for it");
        assert_eq!(text, "built\n");
    }

    #[test]
    fn a_flooding_command_is_stopped_soon_after_its_cap() {
        // About 100 MB a second: fast, yet slow enough to measure how soon it was stopped.
        let (ended, _, dir) = logged("while :; do yes | head -n 500000; sleep 0.01; done", 20_000);
        assert_eq!(ended, Ended::Flooded);
        let size = fs::metadata(dir.path().join("build.log")).unwrap().len();
        assert!(
            size < 8 * MAX_LOG,
            "stopped within a poll or so: {size} bytes"
        );
    }

    #[test]
    fn a_log_that_cannot_be_created_is_said() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("missing/build.log");
        let ended = run("true", dir.path(), &log, Duration::from_secs(5), None);
        assert!(matches!(ended, Ended::NoLog(_)), "{ended:?}");
    }
}
