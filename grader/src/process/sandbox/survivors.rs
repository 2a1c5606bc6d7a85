//! No survivors: finding and killing every process a job started, wherever it went (a new
//! session, a double fork, reparented to init), and knowing that none is left.
//!
//! A job's processes are recognised by what they cannot shed: under a user of the job's own
//! (the grader is root), that uid; otherwise the job's user namespace (nested ones are refused
//! in it, so none can hide in one). Under a uid, a helper forked as that uid sends `SIGKILL` to
//! every process it may signal (`kill(-1)`): all of that uid's, in one call that no fork can
//! outrun. Under a namespace, each process found in `/proc` is signalled through a pidfd after
//! checking that it is still the job's (no pid reused in between). Either way `/proc` is then
//! read again, and the sweep repeats until no process of the job is left or the deadline
//! passes. Zombies of the job whose parent is the grader (a child subreaper, see
//! [`become_subreaper`]) are reaped; the others are waited for until the deadline (a zombie still
//! counts against the job's process limit until its parent reaps it), and then left: dead, they
//! are not survivors.

use std::collections::BTreeSet;
use std::fs;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::fs::MetadataExt;
use std::thread;
use std::time::{Duration, Instant};

use procfs::process::Status;
use procfs::FromRead;

use crate::process::procfs::pids;

/// How long a sweep goes on before what is left is reported.
pub const DEADLINE: Duration = Duration::from_secs(2);
/// The pause between two passes of a sweep.
const PAUSE: Duration = Duration::from_millis(2);

/// Processes of a job still running at the end of a sweep: nothing the job did may be trusted
/// (results must not be written) while they run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{} process(es) of the student's job could not be killed: {:?}",
    .pids.len(),
    .pids
)]
pub struct Survivors {
    /// Their process ids.
    pub pids: Vec<i32>,
}

/// Makes the grader a child subreaper (`PR_SET_CHILD_SUBREAPER`): a process a student program
/// orphans (a double fork) is reparented to the grader instead of init, so that its zombie is
/// reaped by the sweep rather than left to an init that may not reap (a container's). Call once,
/// at start; optional (a sweep finds and kills orphans without it).
pub fn become_subreaper() -> io::Result<()> {
    // SAFETY: a prctl with integer arguments.
    if unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// How a job's processes are recognised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Marker {
    /// Every process with this uid (real, effective, saved or filesystem).
    Uid(u32),
    /// Every process in the user namespace with this inode but the job's init (`init`, or 0),
    /// which holds the job's PID namespace for the next commands.
    UserNamespace { inode: u64, init: i32 },
}

/// A process of the job found in `/proc`.
struct JobProcess {
    pid: i32,
    parent: i32,
    zombie: bool,
}

/// Kills every process of `job` and returns how many were found running, or the survivors if
/// some are still running after `deadline`. Reaps the job's zombies that are the grader's
/// children: call it only once the children the grader started for the job have been waited
/// for (else their exit status could be taken from under the code waiting for them).
pub(super) fn sweep(job: Marker, deadline: Duration) -> Result<usize, Survivors> {
    let start = Instant::now();
    // SAFETY: getpid cannot fail.
    let grader = unsafe { libc::getpid() };
    let mut seen = BTreeSet::new();
    loop {
        let members = members(job);
        for zombie in members.iter().filter(|m| m.zombie && m.parent == grader) {
            let mut status = 0;
            // SAFETY: a zombie child of this process; WNOHANG never blocks.
            unsafe { libc::waitpid(zombie.pid, &mut status, libc::WNOHANG) };
        }
        let live: Vec<i32> = members
            .iter()
            .filter(|m| !m.zombie)
            .map(|m| m.pid)
            .collect();
        // Dead but not yet reaped, a zombie still counts against the job's process limit: wait
        // for its parent to reap it, but not beyond the deadline (it can do nothing any more).
        if members.is_empty() || (live.is_empty() && start.elapsed() > deadline) {
            return Ok(seen.len());
        }
        seen.extend(live.iter().copied());
        if start.elapsed() > deadline {
            return Err(Survivors { pids: live });
        }
        if live.is_empty() {
            thread::sleep(PAUSE);
            continue;
        }
        match job {
            Marker::Uid(uid) => kill_all_of(uid),
            Marker::UserNamespace { inode, .. } => {
                for &pid in &live {
                    let _ = kill_checked(pid, |pid| namespace(pid) == Some(inode));
                }
            }
        }
        thread::sleep(PAUSE);
    }
}

/// Sends `SIGKILL` once to every live process of `job`, reaping none: safe while the grader
/// still waits for its own children in the job (their ids stay theirs until it has), as when a
/// class run is stopped from another thread. The sweep after the job's command makes sure.
pub(super) fn kill_once(job: Marker) {
    match job {
        Marker::Uid(uid) => kill_all_of(uid),
        Marker::UserNamespace { inode, .. } => {
            for member in members(job).iter().filter(|m| !m.zombie) {
                let _ = kill_checked(member.pid, |pid| namespace(pid) == Some(inode));
            }
        }
    }
}

/// The live processes of `job`.
#[cfg(test)]
pub(super) fn live(job: Marker) -> Vec<i32> {
    members(job)
        .into_iter()
        .filter(|m| !m.zombie)
        .map(|m| m.pid)
        .collect()
}

/// The live processes and zombies of `job` in `/proc`.
fn members(job: Marker) -> Vec<JobProcess> {
    pids()
        .into_iter()
        .filter_map(|pid| {
            let status = status(pid)?;
            belongs_by(job, pid, &status).then(|| JobProcess {
                pid,
                parent: status.ppid,
                zombie: status.state.starts_with('Z') || status.state.starts_with('X'),
            })
        })
        .collect()
}

/// Whether process `pid` is one of `job`'s (false once it is gone).
pub(super) fn belongs(job: Marker, pid: i32) -> bool {
    status(pid).is_some_and(|status| belongs_by(job, pid, &status))
}

/// Process `pid`'s `/proc/PID/status`, if it is there.
fn status(pid: i32) -> Option<Status> {
    Status::from_file(format!("/proc/{pid}/status")).ok()
}

/// Whether process `pid`, whose `/proc/PID/status` is `status`, is one of `job`'s.
fn belongs_by(job: Marker, pid: i32, status: &Status) -> bool {
    match job {
        Marker::Uid(uid) => [status.ruid, status.euid, status.suid, status.fuid].contains(&uid),
        Marker::UserNamespace { inode, init } => pid != init && namespace(pid) == Some(inode),
    }
}

/// The inode of the user namespace of `pid`, if it can be read.
fn namespace(pid: i32) -> Option<u64> {
    fs::metadata(format!("/proc/{pid}/ns/user"))
        .ok()
        .map(|m| m.ino())
}

/// Sends `SIGKILL` to every process of `uid` from a helper forked as that uid: `kill(-1)`
/// reaches every process whose real or saved uid is the sender's, in one call.
fn kill_all_of(uid: u32) {
    // SAFETY: kill is async-signal-safe.
    as_user(uid, None, || unsafe {
        libc::kill(-1, libc::SIGKILL);
    });
}

/// Runs `action` in a child forked as `uid` (and `gid`, when given), and waits for it: what only
/// the job's user may do to its own processes or keys. Only root can switch; elsewhere the
/// child does nothing.
///
/// `action` runs between fork and exit in a child of a multithreaded process: it may only make
/// async-signal-safe system calls.
pub(super) fn as_user(uid: u32, gid: Option<u32>, action: fn()) {
    // SAFETY: the child only calls setresgid, setresuid, `action` (system calls, as required)
    // and _exit.
    let pid = unsafe { libc::fork() };
    if pid == 0 {
        unsafe {
            let grouped = gid.is_none_or(|gid| libc::setresgid(gid, gid, gid) == 0);
            if grouped && libc::setresuid(uid, uid, uid) == 0 {
                action();
            }
            libc::_exit(0);
        }
    }
    if pid > 0 {
        let mut status = 0;
        // SAFETY: waits for the helper just forked.
        unsafe { libc::waitpid(pid, &mut status, 0) };
    }
}

/// Sends `SIGKILL` to `pid` if `still` says, just before, that it is the process meant: through
/// a pidfd, so that a pid reused since it was found is never signalled. The error of
/// `pidfd_open` where there is no pidfd (gone, Linux < 5.3, out of descriptors).
pub(super) fn kill_checked(pid: i32, still: impl Fn(i32) -> bool) -> io::Result<()> {
    // SAFETY: pidfd_open with integer arguments.
    let raw = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
    let fd = match i32::try_from(raw) {
        Ok(fd) if fd >= 0 => fd,
        _ => return Err(io::Error::last_os_error()),
    };
    // SAFETY: pidfd_open returned a new descriptor that nothing else owns.
    let fd = unsafe { OwnedFd::from_raw_fd(fd) };
    if still(pid) {
        // SAFETY: pidfd_send_signal on a pidfd we own, no siginfo.
        unsafe {
            libc::syscall(
                libc::SYS_pidfd_send_signal,
                fd.as_raw_fd(),
                libc::SIGKILL,
                std::ptr::null::<libc::siginfo_t>(),
                0,
            )
        };
    }
    Ok(())
}
