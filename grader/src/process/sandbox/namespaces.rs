//! The job's namespaces, made once per job in the grader and joined by every process of the job
//! with `setns` (cheap) rather than made anew for each (a network namespace costs milliseconds to
//! make and more to tear down).
//!
//! A short-lived helper process is forked that `unshare`s them (a network namespace and a mount
//! namespace; when the grader is not root, first a user namespace owning them, in which the
//! grader's uid and gid map to themselves and no nested user namespace can be made), builds the
//! job's own file tree in the mount namespace (`mounts`) once the grader has written its
//! identity maps, and the grader opens them from `/proc/HELPER/ns/` and lets the helper exit:
//! the open descriptors keep them alive as long as the prepared sandbox.

use std::ffi::CStr;
use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::fs::MetadataExt;

use super::environment;
use super::mounts::{self, Plan};

/// The namespaces of one job.
#[derive(Debug)]
pub(super) struct JobNamespaces {
    /// The user namespace and its inode (what `/proc/PID/ns/user` of a job's process shows).
    pub user: Option<(OwnedFd, u64)>,
    /// The network namespace: a loopback interface, down, and nothing else.
    pub net: Option<OwnedFd>,
    /// The mount namespace with the job's own file tree, when one was asked for, or why there
    /// is none.
    pub mount: Result<Option<OwnedFd>, String>,
    /// Whether nested user namespaces were refused inside the user namespace, and if not why.
    pub nested_refused: Result<(), String>,
}

/// What the helper tells the grader first: a status byte, an `errno`, and whether (1) the mount
/// namespace could not be made, with its `errno`.
const OK: u8 = 0;
const UNSHARE_FAILED: u8 = 1;
const NESTED_NOT_REFUSED: u8 = 2;
/// Its second report, once the file tree is built: a status byte ([`OK`] or [`TREE_FAILED`]),
/// the failing entry (two bytes) and an `errno`.
const TREE_FAILED: u8 = 3;

/// Makes a user namespace (`user`), a network namespace (`net`) and, with a `plan`, a mount
/// namespace holding the job's own file tree, for a job.
pub(super) fn make(user: bool, net: bool, plan: Option<&Plan>) -> io::Result<JobNamespaces> {
    let mut flags = 0;
    if user {
        flags |= libc::CLONE_NEWUSER;
    }
    if net {
        flags |= libc::CLONE_NEWNET;
    }
    if plan.is_some() {
        flags |= libc::CLONE_NEWNS;
    }
    if flags == 0 {
        return Ok(JobNamespaces {
            user: None,
            net: None,
            mount: Ok(None),
            nested_refused: Ok(()),
        });
    }
    let (ready_read, ready_write) = pipe()?;
    let (go_read, go_write) = pipe()?;
    let (hold_read, hold_write) = pipe()?;
    // Room for the descriptors the helper opens, made before the fork.
    let mut fds = vec![-1; plan.map_or(0, Plan::len)];
    // SAFETY: the child only makes async-signal-safe calls (unshare, open, mount, mkdir, write,
    // read, close, _exit) on memory that exists before the fork, then exits without returning.
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        return Err(io::Error::last_os_error());
    }
    if pid == 0 {
        let ends = [
            ready_read.as_raw_fd(),
            go_write.as_raw_fd(),
            hold_write.as_raw_fd(),
        ];
        let keep = [
            ready_write.as_raw_fd(),
            go_read.as_raw_fd(),
            hold_read.as_raw_fd(),
        ];
        unsafe { helper(flags, user, plan, &mut fds, keep, ends) }
    }
    drop(ready_write);
    drop(go_read);
    drop(hold_read);
    let made = adopt(pid, user, net, plan, ready_read, go_write);
    // The helper exits once the holding pipe closes.
    drop(hold_write);
    let mut status = 0;
    // SAFETY: waits for the helper forked above, which is this process's child.
    unsafe { libc::waitpid(pid, &mut status, 0) };
    made
}

/// The grader's half: reads the helper's status, writes its identity maps, lets it build the
/// file tree, opens its namespaces.
fn adopt(
    pid: i32,
    user: bool,
    net: bool,
    plan: Option<&Plan>,
    ready: OwnedFd,
    go: OwnedFd,
) -> io::Result<JobNamespaces> {
    let mut ready = File::from(ready);
    let mut report = [0u8; 10];
    ready.read_exact(&mut report)?;
    let errno = |at: usize| {
        let bytes = [report[at], report[at + 1], report[at + 2], report[at + 3]];
        io::Error::from_raw_os_error(i32::from_ne_bytes(bytes))
    };
    if report[0] == UNSHARE_FAILED {
        return Err(errno(1));
    }
    let proc = format!("/proc/{pid}");
    let user = if user {
        // SAFETY: geteuid and getegid cannot fail.
        let (uid, gid) = unsafe { (libc::geteuid(), libc::getegid()) };
        write(&format!("{proc}/setgroups"), "deny")?;
        write(&format!("{proc}/uid_map"), &format!("{uid} {uid} 1\n"))?;
        write(&format!("{proc}/gid_map"), &format!("{gid} {gid} 1\n"))?;
        let file = File::open(format!("{proc}/ns/user"))?;
        let inode = file.metadata()?.ino();
        Some((OwnedFd::from(file), inode))
    } else {
        None
    };
    let mount = match plan {
        None => Ok(None),
        Some(_) if report[5] != 0 => Err(format!("no mount namespace: {}", errno(6))),
        Some(plan) => {
            File::from(go).write_all(&[1])?;
            let mut built = [0u8; 7];
            ready.read_exact(&mut built)?;
            let failed = i32::from_ne_bytes([built[3], built[4], built[5], built[6]]);
            if built[0] == OK {
                Ok(Some(OwnedFd::from(File::open(format!("{proc}/ns/mnt"))?)))
            } else {
                let entry = u16::from_ne_bytes([built[1], built[2]]);
                let at = plan
                    .path(entry)
                    .map(|p| format!(" {}", p.to_string_lossy()))
                    .unwrap_or_default();
                Err(format!(
                    "cannot build it{at}: {}",
                    io::Error::from_raw_os_error(failed)
                ))
            }
        }
    };
    let net = if net {
        Some(OwnedFd::from(File::open(format!("{proc}/ns/net"))?))
    } else {
        None
    };
    let nested_refused = if report[0] == NESTED_NOT_REFUSED {
        Err(errno(1).to_string())
    } else {
        Ok(())
    };
    Ok(JobNamespaces {
        user,
        net,
        mount,
        nested_refused,
    })
}

/// The helper, in the forked child: unshares (without the mount namespace if that alone is
/// refused), refuses nested user namespaces in a new user namespace (the sysctl is per user
/// namespace, writable by one with `CAP_SYS_RESOURCE` in it, which its creator has), reports,
/// builds the file tree when the grader says so (after it has written the identity maps, which
/// making folders in the new root needs), reports again, and waits for the grader to be done
/// (the holding pipe's end of file, once the grader's ends, passed in `close`, are the only
/// ones left).
///
/// # Safety
/// Only to be called in a child just forked; never returns.
unsafe fn helper(
    flags: libc::c_int,
    user: bool,
    plan: Option<&Plan>,
    fds: &mut [i32],
    [ready, go, hold]: [i32; 3],
    close: [i32; 3],
) -> ! {
    const NESTED: &CStr = c"/proc/sys/user/max_user_namespaces";
    for fd in close {
        libc::close(fd);
    }
    close_all_but([ready, go, hold]);
    let mut status = OK;
    let mut errno = 0;
    let (mut mount_refused, mut mount_errno) = (0u8, 0);
    let mut made = libc::unshare(flags) == 0;
    if !made && flags & libc::CLONE_NEWNS != 0 {
        (mount_refused, mount_errno) = (1, *libc::__errno_location());
        made = libc::unshare(flags & !libc::CLONE_NEWNS) == 0;
    }
    if !made {
        status = UNSHARE_FAILED;
        errno = *libc::__errno_location();
    } else if user {
        let fd = libc::open(NESTED.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
        if fd < 0 || libc::write(fd, b"0\n".as_ptr().cast(), 2) != 2 {
            status = NESTED_NOT_REFUSED;
            errno = *libc::__errno_location();
        }
        if fd >= 0 {
            libc::close(fd);
        }
    }
    let (e, m) = (errno.to_ne_bytes(), mount_errno.to_ne_bytes());
    let report = [
        status,
        e[0],
        e[1],
        e[2],
        e[3],
        mount_refused,
        m[0],
        m[1],
        m[2],
        m[3],
    ];
    libc::write(ready, report.as_ptr().cast(), report.len());
    let mut byte = 0u8;
    if let Some(plan) = plan.filter(|_| made && mount_refused == 0) {
        // End of file instead: the grader gave up, nothing to build.
        if libc::read(go, (&mut byte as *mut u8).cast(), 1) == 1 {
            let (status, entry, errno) = match mounts::build(plan, fds) {
                Ok(()) => (OK, 0u16, 0),
                Err(failure) => (TREE_FAILED, failure.entry, failure.errno),
            };
            let (n, e) = (entry.to_ne_bytes(), errno.to_ne_bytes());
            let report = [status, n[0], n[1], e[0], e[1], e[2], e[3]];
            libc::write(ready, report.as_ptr().cast(), report.len());
        }
    }
    libc::read(hold, (&mut byte as *mut u8).cast(), 1);
    libc::_exit(0)
}

/// Closes every descriptor from 3 up but those in `keep`. A helper inherits every descriptor
/// the grader had open when it forked, among them the holding pipes of other jobs' helpers
/// forked by other threads at the same time: kept, each would wait for the other's end of file
/// for ever.
///
/// # Safety
/// Only in a child just forked, which owns nothing else it needs.
unsafe fn close_all_but(mut keep: [i32; 3]) {
    keep.sort_unstable();
    let mut first = 3;
    for last in keep.into_iter().map(|k| k - 1).chain([i32::MAX]) {
        if first <= last {
            environment::close_range(first, last, false);
        }
        first = last.saturating_add(2);
    }
}

/// A pipe, both ends close-on-exec: (read, write).
fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors, which are owned from here on.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// Writes a `/proc` control file in one `write`, as those files require.
fn write(path: &str, text: &str) -> io::Result<()> {
    fs::OpenOptions::new()
        .write(true)
        .open(path)?
        .write_all(text.as_bytes())
}

/// The kernel's release (`uname -r`) and whether it is at least `major.minor`.
pub(super) fn kernel_at_least(major: u32, minor: u32) -> (String, bool) {
    let release = fs::read_to_string("/proc/sys/kernel/osrelease")
        .map(|s| s.trim().to_owned())
        .unwrap_or_default();
    let mut numbers = release
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|n| n.parse::<u32>().ok());
    let found = (numbers.next().unwrap_or(0), numbers.next().unwrap_or(0));
    (release, found >= (major, minor))
}
