//! The sandbox's filesystem half: the system paths a student program may read and run, the
//! Landlock ruleset built from a [`Sandbox`](super::Sandbox) in the grader (the `landlock`
//! crate; the child only enforces the finished ruleset's file descriptor), the check that
//! nothing to hide lies under an allowed path (Landlock cannot deny below an allowed
//! directory), and handing the writable paths to the job's user when the grader is root. Why
//! a sandbox cannot be prepared ([`SandboxError`]) is always one of these paths or rules.

use std::fs;
use std::io;
use std::os::fd::OwnedFd;
use std::os::unix::fs::{lchown, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

use landlock::{
    Access, AccessFs, AccessNet, BitFlags, PathBeneath, PathFd, Ruleset, RulesetAttr,
    RulesetCreatedAttr, Scope, ABI,
};

use super::mounts::Inside;
use super::user::User;

/// Why a sandbox cannot be prepared as described.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SandboxError {
    /// A path to hide lies under (or is) an allowed one.
    #[error(
        "{} must be out of students' reach but is under {}, which the sandbox lets them \
         reach",
        .hidden.display(),
        .allowed.display()
    )]
    HiddenUnderAllowed {
        /// The path to hide.
        hidden: PathBuf,
        /// The allowed path above it.
        allowed: PathBuf,
    },
    /// A listed path cannot be used: it does not exist, or cannot be opened or handed over.
    #[error("cannot put {} in the sandbox: {}", .0.display(), .1)]
    Path(PathBuf, String),
    /// Landlock refused the ruleset.
    #[error("cannot build the Landlock ruleset: {0}")]
    Landlock(String),
}

/// Directories every program may read and execute from (those that exist): the system's
/// programs, libraries and configuration, a JVM under `/usr/lib/jvm`, `/proc` and `/sys` (the
/// JVM, Python and Rust's standard library read their CPU count and limits there; other
/// processes' private `/proc` files stay out of reach, Landlock refusing to ptrace out of the
/// sandbox). `/tmp`, `/home`, `/root`, `/srv`, `/var`, `/work` and `/autograder` are not
/// among them.
pub const SYSTEM: [&str; 13] = [
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/etc",
    "/opt",
    "/proc",
    "/sys",
    "/dev/random",
    "/dev/urandom",
];

/// Device files every program may read and write.
pub const DEVICES: [&str; 3] = ["/dev/null", "/dev/zero", "/dev/full"];

/// Directories every program may write: POSIX shared memory, which Python's `multiprocessing`
/// needs for its locks. It is shared by every job: under a user of the job's own, what one job
/// writes there is private by default, but two students could agree to use it to talk.
pub const SHARED: [&str; 1] = ["/dev/shm"];

/// The Landlock ABI whose filesystem rights are asked for (V5: up to `ioctl` on devices).
const FS_ABI: ABI = ABI::V5;
/// The ABI of Landlock's TCP rules.
const NET_ABI: ABI = ABI::V4;
/// The ABI of Landlock's scopes (signals, abstract UNIX sockets).
const SCOPE_ABI: ABI = ABI::V6;

/// The paths that exist among `paths`.
pub(super) fn existing(paths: &[&str]) -> Vec<PathBuf> {
    paths
        .iter()
        .map(PathBuf::from)
        .filter(|p| p.exists())
        .collect()
}

/// The kernel's Landlock ABI version, 0 without Landlock. The `landlock` crate keeps its own
/// query private (it wants programs to ask for rights, not versions), but the report must say
/// what is missing, so this asks the kernel directly: `landlock_create_ruleset` with
/// `LANDLOCK_CREATE_RULESET_VERSION` creates nothing.
pub(super) fn abi_version() -> i32 {
    const LANDLOCK_CREATE_RULESET_VERSION: libc::c_uint = 1;
    // SAFETY: a null attribute with size 0 and the version flag only returns a number.
    let v = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<u8>(),
            0usize,
            LANDLOCK_CREATE_RULESET_VERSION,
        )
    };
    i32::try_from(v).unwrap_or(0).max(0)
}

/// The Landlock ruleset for these paths, as the file descriptor the child enforces, or `None`
/// when the kernel has no Landlock. Filesystem rights not in `handled` are those this kernel
/// does not know (the crate's best effort); `network` allowed leaves TCP unhandled.
pub(super) fn ruleset(
    read: &[PathBuf],
    devices: &[PathBuf],
    write: &[PathBuf],
    inside: &[(OwnedFd, Inside)],
    network: bool,
) -> Result<Option<OwnedFd>, SandboxError> {
    let landlock = |e: landlock::RulesetError| SandboxError::Landlock(e.to_string());
    let mut ruleset = Ruleset::default()
        .handle_access(AccessFs::from_all(FS_ABI))
        .map_err(landlock)?
        .scope(Scope::from_all(SCOPE_ABI))
        .map_err(landlock)?;
    if !network {
        ruleset = ruleset
            .handle_access(AccessNet::from_all(NET_ABI))
            .map_err(landlock)?;
    }
    let mut created = ruleset.create().map_err(landlock)?;
    let read_rights = AccessFs::from_read(FS_ABI);
    let device_rights = AccessFs::from_file(FS_ABI) & !AccessFs::Execute;
    let write_rights = AccessFs::from_all(FS_ABI);
    let rules = read
        .iter()
        .map(|p| (p, read_rights))
        .chain(devices.iter().map(|p| (p, device_rights)))
        .chain(write.iter().map(|p| (p, write_rights)));
    for (path, rights) in rules {
        created = created.add_rule(rule(path, rights)?).map_err(landlock)?;
    }
    // The job's own folders: written like the writable paths; private ones never executed from.
    for (folder, how) in inside {
        let rights = match how {
            Inside::Private => write_rights & !AccessFs::Execute,
            Inside::Written => write_rights,
            Inside::Read => read_rights,
            Inside::Device => device_rights,
        };
        created = created
            .add_rule(PathBeneath::new(folder, rights))
            .map_err(landlock)?;
    }
    Ok(created.into())
}

/// A rule giving `rights` beneath `path`, less those that only make sense on a directory when
/// `path` is a file.
fn rule(path: &Path, rights: BitFlags<AccessFs>) -> Result<PathBeneath<PathFd>, SandboxError> {
    let fd = PathFd::new(path).map_err(|e| SandboxError::Path(path.to_owned(), e.to_string()))?;
    let rights = if path.is_dir() {
        rights
    } else {
        rights & AccessFs::from_file(FS_ABI)
    };
    Ok(PathBeneath::new(fd, rights))
}

/// Refuses a path to hide that is an allowed path or lies under one: Landlock could not keep
/// student code out of it. Both sides are compared canonical (symbolic links resolved).
pub(super) fn check_hidden(allowed: &[PathBuf], hidden: &[PathBuf]) -> Result<(), SandboxError> {
    for secret in hidden {
        let secret_real = fs::canonicalize(secret).unwrap_or_else(|_| secret.clone());
        for open in allowed {
            let open_real = fs::canonicalize(open).unwrap_or_else(|_| open.clone());
            if secret_real.starts_with(&open_real) {
                return Err(SandboxError::HiddenUnderAllowed {
                    hidden: secret.clone(),
                    allowed: open.clone(),
                });
            }
        }
    }
    Ok(())
}

/// Hands `root` and everything under it to `user`, so that the job's user can write what the
/// sandbox lets it write. Symbolic links are changed themselves, never followed (a submission's
/// link to the kit must not give the kit away); a file with several hard links is left as it is
/// (the other names may be outside). `private` directories are also made `0700`.
pub(super) fn hand_over(root: &Path, user: User, private: bool) -> io::Result<()> {
    let meta = fs::symlink_metadata(root)?;
    if private && meta.is_dir() {
        fs::set_permissions(root, fs::Permissions::from_mode(0o700))?;
    }
    let mut pending = vec![(root.to_path_buf(), meta)];
    while let Some((path, meta)) = pending.pop() {
        if meta.is_dir() {
            for entry in fs::read_dir(&path)? {
                let entry = entry?;
                let meta = fs::symlink_metadata(entry.path())?;
                pending.push((entry.path(), meta));
            }
        } else if meta.is_file() && meta.nlink() > 1 {
            continue;
        }
        if meta.uid() != user.uid || meta.gid() != user.gid {
            lchown(&path, Some(user.uid), Some(user.gid))?;
        }
    }
    Ok(())
}
