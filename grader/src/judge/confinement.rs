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
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt};
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
    /// The claims' folder is a link, or not the grader's own, or others may write it.
    #[error(
        "{} is not a folder of the grader's own that only it may write: someone else made it, \
         so no uid is claimed there; remove it",
        .0.display()
    )]
    UnsafeClaims(PathBuf),
    /// A claim's file is a link, a device, a file with other names or another user's.
    #[error(
        "{} is not a plain file of the grader's own: it was planted, so no uid is claimed; \
         remove it",
        .0.display()
    )]
    PlantedClaim(PathBuf),
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

/// Where uids are claimed: one folder for every grader on the machine, whatever its `TMPDIR`
/// (two TAs' runs with different temporary folders would otherwise claim the same uids and kill
/// each other's students), in `/run`, which only root may write (`/run/lock` and `/tmp` are
/// world-writable: a local user could plant the folder, or a link in it, there).
const CLAIMS: &str = "/run/connect-four-grade-uids";

/// Claims the first uid from `base` that no one else is using, in [`CLAIMS`].
fn claim_uid(base: u32) -> Result<(u32, File), PrisonError> {
    claim_uid_in(Path::new(CLAIMS), base)
}

/// Claims the first uid from `base` that no one else is using, by an exclusive lock on a file
/// named after it in `dir`; returns its offset from `base` and the locked file, which holds the
/// claim until it is dropped. `dir` is made `0700` if missing, and must be a folder (not a
/// link) of the grader's own that no one else may write; each file in it is created exclusively
/// or opened without following links, never truncated, and must be a plain file of the
/// grader's: anything else was planted, and no uid is claimed.
fn claim_uid_in(dir: &Path, base: u32) -> Result<(u32, File), PrisonError> {
    let claim = |path: &Path| {
        let path = path.to_path_buf();
        move |source| PrisonError::Claim { path, source }
    };
    match fs::DirBuilder::new().mode(0o700).create(dir) {
        Err(e) if e.kind() != io::ErrorKind::AlreadyExists => return Err(claim(dir)(e)),
        _ => {}
    }
    // SAFETY: geteuid cannot fail.
    let grader = unsafe { libc::geteuid() };
    let own = |meta: &fs::Metadata| meta.uid() == grader && meta.mode() & 0o022 == 0;
    let folder = fs::symlink_metadata(dir).map_err(claim(dir))?;
    if !folder.is_dir() || !own(&folder) {
        return Err(PrisonError::UnsafeClaims(dir.to_path_buf()));
    }
    for offset in 0..UIDS {
        let path = dir.join(format!("{}.lock", base + offset));
        let open = |create: bool| {
            fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create_new(create)
                .mode(0o600)
                .custom_flags(libc::O_NOFOLLOW)
                .open(&path)
        };
        let file = match open(true) {
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => open(false),
            made => made,
        };
        let file = match file {
            Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
                return Err(PrisonError::PlantedClaim(path))
            }
            other => other.map_err(claim(&path))?,
        };
        let meta = file.metadata().map_err(claim(&path))?;
        if !meta.is_file() || meta.nlink() != 1 || !own(&meta) {
            return Err(PrisonError::PlantedClaim(path));
        }
        // SAFETY: flock only acts on the descriptor the file owns.
        if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
            return Ok((offset, file));
        }
    }
    Err(PrisonError::NoUid(base))
}

/// `path` made absolute against the working directory, for the check that it is out of reach.
fn absolute(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| {
        env::current_dir()
            .map(|here| here.join(path))
            .unwrap_or_else(|_| path.to_path_buf())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::{symlink, PermissionsExt};

    #[test]
    fn a_link_planted_among_the_claims_is_refused_and_its_target_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("shadow");
        fs::write(&victim, "root's secret").unwrap();
        let claims = dir.path().join("claims");
        fs::create_dir(&claims).unwrap();
        fs::set_permissions(&claims, fs::Permissions::from_mode(0o700)).unwrap();
        symlink(&victim, claims.join("61000.lock")).unwrap();
        let refused = claim_uid_in(&claims, 61000).unwrap_err();
        assert!(
            matches!(&refused, PrisonError::PlantedClaim(path) if path.ends_with("61000.lock")),
            "{refused}"
        );
        assert_eq!(fs::read_to_string(&victim).unwrap(), "root's secret");
    }

    #[test]
    fn a_claims_folder_others_may_write_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o1777)).unwrap();
        let refused = claim_uid_in(dir.path(), 61000).unwrap_err();
        assert!(matches!(refused, PrisonError::UnsafeClaims(_)), "{refused}");
        let link = dir.path().join("link");
        let real = dir.path().join("real");
        fs::create_dir(&real).unwrap();
        symlink(&real, &link).unwrap();
        let refused = claim_uid_in(&link, 61000).unwrap_err();
        assert!(matches!(refused, PrisonError::UnsafeClaims(_)), "{refused}");
    }

    #[test]
    fn two_claims_at_once_get_two_uids_and_a_released_one_is_claimed_again() {
        let dir = tempfile::tempdir().unwrap();
        let claims = dir.path().join("claims");
        let (first, held) = claim_uid_in(&claims, 61000).unwrap();
        let (second, _other) = claim_uid_in(&claims, 61000).unwrap();
        assert_eq!((first, second), (0, 1));
        assert_eq!(
            fs::metadata(&claims).unwrap().permissions().mode() & 0o777,
            0o700
        );
        drop(held);
        assert_eq!(claim_uid_in(&claims, 61000).unwrap().0, 0);
    }
}
