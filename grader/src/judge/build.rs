//! The build step: a command run in a submission's directory before it is graded (`cargo build
//! ...`, `javac ...`), through [`logged::run`] with a time limit, its log kept beside the
//! reports (or in a temporary directory) and its last lines kept for them, and read in it where
//! cargo, made verbose, says the supplied crate it built came from. A build that fails or times
//! out, or that built another supplied crate than the course's, costs every automatic point: no
//! case is run (the assignment: a submission that does not compile scores 0).

use std::env;
use std::ffi::OsStr;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::job::{Job, Student};
use super::result::build::{Build, TAIL_LINES};
use crate::kit::build_config;
use crate::process::logged::{self, Ended};
use crate::process::sandbox::Toolchain;

/// How much of the end of a log is read for its last lines, in bytes.
const TAIL_BYTES: u64 = 16 << 10;

/// Set for a build: cargo names every package it compiles and every one already compiled
/// (`Fresh connect_four_supplied v0.1.0 (SOURCE)`), so that its log says which supplied crate
/// is linked even when the build's output was there already (a warmed `CARGO_TARGET_DIR`).
/// Cargo's `term.verbose`: https://doc.rust-lang.org/cargo/reference/config.html#termverbose
const VERBOSE: [(&str, &str); 1] = [("CARGO_TERM_VERBOSE", "true")];

/// How every submission of a run of the grader is built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildCommand {
    /// The shell command, `{dir}` standing for the submission's absolute path.
    pub template: String,
    /// How long one build may take.
    pub timeout: Duration,
    /// Where each log is kept, as `<student>.<name>.log` (the report directory); `None` writes
    /// it to a temporary directory, removed once its last lines are read.
    pub logs: Option<PathBuf>,
    /// What the logs are named after: `build` for the graded build, `window-build` for the
    /// window's.
    pub name: &'static str,
}

impl BuildCommand {
    /// Builds the job's student: the command run as [`run_logged`] runs it, its log's tail
    /// kept; `set_aside` is what of the submission's configuration was set aside for it. With
    /// `supplied`, the folder (absolute) of the supplied crate the kit checked, the build is
    /// refused when cargo's log says it built that crate from anywhere else, and a successful
    /// one said unseen when the log does not name it ([`build_config::compiled`]).
    pub fn run(&self, job: &Job, set_aside: Vec<String>, supplied: Option<&Path>) -> Build {
        let started = Instant::now();
        let logs = self.logs.as_deref();
        let read = |log: &Path| (tail(log), supplied.map(|f| build_config::compiled(log, f)));
        let (ended, log, (tail, compiled)) = run_logged(
            job,
            &self.template,
            &VERBOSE,
            self.timeout,
            logs,
            self.name,
            read,
        );
        let succeeded = ended == Ended::Succeeded;
        let supplied_unseen = succeeded && matches!(compiled, Some(None));
        Build {
            // Cargo's words whenever offline mode stopped it: "you're using offline mode
            // (--offline)", "... but --offline was specified".
            offline: !succeeded && tail.contains("--offline"),
            tail,
            elapsed: started.elapsed(),
            log,
            ended,
            set_aside,
            refused: compiled.flatten().unwrap_or_default(),
            supplied_unseen,
            not_put_back: None,
        }
    }
}

/// Runs `template` as a build runs: in the job's directory (else the current one), `{dir}`
/// replaced by its absolute path, in its sandbox with cargo and rustup pointed at the grader's
/// toolchain and the variables `set` set, for at most `timeout`, its output to
/// `<student>.<kind>.log` in `logs` (else a temporary file, removed once read). Returns how it
/// ended, the log if kept, and what `read` made of the log.
pub(crate) fn run_logged<R>(
    job: &Job,
    template: &str,
    set: &[(&'static str, &str)],
    timeout: Duration,
    logs: Option<&Path>,
    kind: &str,
    read: impl FnOnce(&Path) -> R,
) -> (Ended, Option<PathBuf>, R) {
    let dir = job
        .student
        .dir
        .clone()
        .or_else(|| env::current_dir().ok())
        .unwrap_or_else(|| PathBuf::from("."));
    let command = Student::with_dir(template, &dir);
    // Held until the log has been read: dropping it removes the temporary log.
    let temporary;
    let log = match logs {
        Some(logs) => {
            // A directory that cannot be made shows as a log that cannot be created.
            let _ = std::fs::create_dir_all(logs);
            logs.join(format!("{}.{kind}.log", job.student.file_stem()))
        }
        None => match tempfile::Builder::new().prefix("grade-build-").tempdir() {
            Ok(dir) => {
                temporary = dir;
                temporary.path().join(format!("{kind}.log"))
            }
            Err(why) => {
                let nowhere = Path::new("");
                return (Ended::NoLog(why.to_string()), None, read(nowhere));
            }
        },
    };
    let toolchain = Toolchain::here();
    let mut env = toolchain.env();
    env.extend(set.iter().map(|(name, value)| (*name, OsStr::new(*value))));
    let sandbox = job.sandbox.map(|sandbox| (sandbox, env.as_slice()));
    let ended = logged::run(&command, &dir, &log, timeout, sandbox);
    let read = read(&log);
    (ended, logs.is_some().then_some(log), read)
}

/// The last [`TAIL_LINES`] lines of the log at `path`, read from its last [`TAIL_BYTES`] bytes.
pub(crate) fn tail(path: &Path) -> String {
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
    use crate::judge::fixtures;
    use crate::judge::result::NotRun;
    use std::fs;

    /// Builds `ann lee` with `command` in a fresh directory, the log kept in `logs/` there if
    /// `keep`; returns the build and the directory.
    fn build(command: &str, keep: bool) -> (Build, tempfile::TempDir) {
        let dir = tempfile::tempdir().unwrap();
        let step = BuildCommand {
            template: command.into(),
            timeout: Duration::from_secs(10),
            logs: keep.then(|| dir.path().join("logs")),
            name: "build",
        };
        let student = fixtures::student_in("ann lee", dir.path());
        let job = Job {
            student: &student,
            sandbox: None,
        };
        (step.run(&job, Vec::new(), None), dir)
    }

    #[test]
    fn a_build_runs_in_the_submission_with_its_log_kept() {
        let (built, dir) = build("echo compiling; echo warning >&2; touch {dir}/built", true);
        assert!(built.succeeded());
        assert_eq!(built.not_run(), None);
        assert!(dir.path().join("built").is_file());
        assert_eq!(built.tail, "compiling\nwarning");
        let log = dir.path().join("logs/ann_lee.build.log");
        assert_eq!(built.log.as_deref(), Some(log.as_path()));
        assert_eq!(fs::read_to_string(log).unwrap(), "compiling\nwarning\n");
    }

    #[test]
    fn a_failed_build_keeps_its_last_lines_and_runs_no_case() {
        let (built, _dir) = build(
            "seq 1 100; echo 'error[E0425]: cannot find value `x`' >&2; exit 101",
            true,
        );
        assert!(matches!(built.ended, Ended::Failed(s) if s.code() == Some(101)));
        let lines: Vec<&str> = built.tail.lines().collect();
        assert_eq!(lines.len(), TAIL_LINES);
        assert_eq!(lines[0], "72");
        assert_eq!(lines[TAIL_LINES - 1], "error[E0425]: cannot find value `x`");
        assert_eq!(built.not_run(), Some(NotRun::BuildFailed));
        assert!(!built.offline);
    }

    #[test]
    fn a_build_stopped_by_cargo_s_offline_mode_is_said_to_be() {
        let said = "echo \"error: no matching package named \\`itoa\\` found\"; echo \"As a \
             reminder, you're using offline mode (--offline)\"; exit 101";
        assert!(build(said, false).0.offline);
        let (passed, _dir) = build("echo '--offline'", false);
        assert!(!passed.offline, "only a failed build");
    }

    #[test]
    fn a_temporary_log_is_read_then_removed() {
        let (built, _dir) = build("echo built", false);
        assert!(built.succeeded());
        assert_eq!((built.tail.as_str(), built.log.as_ref()), ("built", None));
        let left = fs::read_dir(env::temp_dir()).unwrap().flatten().any(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.starts_with("grade-build-")
                && e.path().join("build.log").exists()
                && fs::read_to_string(e.path().join("build.log")).is_ok_and(|t| t == "built\n")
        });
        assert!(!left, "the temporary log is removed");
    }
}
