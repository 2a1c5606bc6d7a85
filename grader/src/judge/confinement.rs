//! Each student's sandbox, from the grader's policy: their submission (and a private scratch
//! directory) writable, the Rust toolchain readable for a build, everything else of the machine
//! (the kit and its answers, the reference, the reports, the results, other students' work) out
//! of reach; their own unprivileged user when the grader is root (a uid claimed with a lock
//! file, so that no two students graded at once share one, even by two runs of the grader);
//! their process limit enforced by the kernel. What was in force, and whether anything outlived
//! the student's last case, is kept for the reports.

use std::env;
use std::fs::{self, File};
use std::io;
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};

use tempfile::TempDir;

use super::job::Student;
use super::result::confinement::Confinement;
use crate::process::sandbox::{Budget, Prepared, Sandbox, SandboxError, Toolchain, User};

/// How student processes are confined in a run of the grader.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Policy {
    /// The first uid the students' users may have when the grader is root: each student runs as
    /// the first of `base_uid`, `base_uid + 1`, ... that no other is using.
    pub base_uid: u32,
    /// Paths that must stay out of students' reach (the kit, the reports, the results): a
    /// student whose writable paths hold one is not graded, rather than graded unsafely.
    pub hidden: Vec<PathBuf>,
    /// More paths every job may write: a cargo target directory outside the submission.
    pub writable: Vec<PathBuf>,
}

/// Why a student's sandbox cannot be prepared ([`Prison::prepare`]).
#[derive(Debug, thiserror::Error)]
pub(crate) enum PrisonError {
    /// The grader has no working directory (the student's, when none is given).
    #[error("no working directory: {0}")]
    NoWorkingDirectory(#[source] io::Error),
    /// The student's scratch directory cannot be made.
    #[error("cannot make a scratch directory: {0}")]
    Scratch(#[source] io::Error),
    /// A uid's claim (its folder, or its lock file) cannot be made.
    #[error("{}: {source}", .path.display())]
    Claim {
        /// The folder or lock file.
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// Every uid a grader may try is claimed (from this base).
    #[error("all {UIDS} sandbox uids from {0} are in use")]
    NoUid(u32),
    /// The sandbox itself.
    #[error(transparent)]
    Sandbox(#[from] SandboxError),
}

/// A student's sandbox, prepared: kept for the whole of their grading.
pub(crate) struct Prison {
    /// The prepared sandbox.
    pub(crate) prepared: Prepared,
    /// The scratch directory, removed when the prison is dropped.
    _scratch: TempDir,
    /// The lock on the uid (when the grader is root), held while the student is graded.
    _claim: Option<File>,
}

impl Prison {
    /// Prepares `student`'s sandbox under `policy`, or says why it cannot be.
    pub(crate) fn prepare(policy: &Policy, student: &Student) -> Result<Prison, PrisonError> {
        let submission = match &student.dir {
            Some(dir) => dir.clone(),
            None => env::current_dir().map_err(PrisonError::NoWorkingDirectory)?,
        };
        let scratch = tempfile::Builder::new()
            .prefix("grade-scratch-")
            .tempdir()
            .map_err(PrisonError::Scratch)?;
        // Only root switches users: an unprivileged grader's jobs are told apart by their user
        // namespaces, and claim no uid.
        // SAFETY: geteuid cannot fail.
        let (offset, claim) = match unsafe { libc::geteuid() } {
            0 => claim_uid(policy.base_uid).map(|(offset, file)| (offset, Some(file)))?,
            _ => (0, None),
        };
        let mut sandbox = Sandbox::new()
            .write(&submission)
            .scratch(scratch.path())
            .user(User::for_job(policy.base_uid, offset))
            .processes(student.limits.processes)
            .budget(Budget {
                memory_bytes: Some(student.limits.job_memory_mib.saturating_mul(1 << 20)),
                processes: Some(student.limits.processes),
                cpus: None,
            })
            .disk(student.limits.disk_mib.saturating_mul(1 << 20));
        for path in Toolchain::here().readable() {
            sandbox = sandbox.read(path);
        }
        for path in &policy.writable {
            sandbox = sandbox.write(path);
        }
        for path in &policy.hidden {
            sandbox = sandbox.hide(absolute(path));
        }
        let prepared = sandbox.prepare()?;
        Ok(Prison {
            prepared,
            _scratch: scratch,
            _claim: claim,
        })
    }

    /// Kills whatever the student left running, and says what the sandbox was.
    pub(crate) fn release(&self) -> Confinement {
        Confinement::On {
            protections: Box::new(self.prepared.protections().clone()),
            uid: self.prepared.user().map(|user| user.uid),
            swept: self.prepared.kill_survivors(),
        }
    }
}

impl Drop for Prison {
    /// Kills whatever the student left running when their grading panicked (it was not
    /// released): the panic is caught, and the class run goes on without their processes.
    fn drop(&mut self) {
        if std::thread::panicking() {
            let _ = self.prepared.kill_survivors();
        }
    }
}

/// How many uids from the base a grader may try before giving up.
const UIDS: u32 = 1000;

/// Claims the first uid from `base` that no one else is using, by an exclusive lock on a file
/// named after it in [`uid_claims`] (out of students' reach); returns its offset
/// from `base` and the locked file, which holds the claim until it is dropped.
fn claim_uid(base: u32) -> Result<(u32, File), PrisonError> {
    let dir = uid_claims();
    let claim = |path: PathBuf| move |source| PrisonError::Claim { path, source };
    fs::create_dir_all(&dir).map_err(claim(dir.clone()))?;
    for offset in 0..UIDS {
        let path = dir.join(format!("{}.lock", base + offset));
        let file = File::create(&path).map_err(claim(path.clone()))?;
        // SAFETY: flock only acts on the descriptor the file owns.
        if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
            return Ok((offset, file));
        }
    }
    Err(PrisonError::NoUid(base))
}

/// Where uids are claimed: one folder for every grader on the machine, whatever its `TMPDIR`
/// (two TAs' runs with different temporary folders would otherwise claim the same uids and kill
/// each other's students): `/run/lock` (root's, kept in memory), else `/tmp`.
fn uid_claims() -> PathBuf {
    let run = Path::new("/run/lock");
    let base = if run.is_dir() { run } else { Path::new("/tmp") };
    base.join("connect-four-grade-uids")
}

/// `path` made absolute against the working directory, for the check that it is out of reach.
fn absolute(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| {
        env::current_dir()
            .map(|here| here.join(path))
            .unwrap_or_else(|_| path.to_path_buf())
    })
}
