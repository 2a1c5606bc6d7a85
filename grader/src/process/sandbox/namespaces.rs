//! The job's namespaces, made once per job in the grader and joined by every process of the job
//! with `setns` (cheap) rather than made anew for each (a network namespace costs milliseconds to
//! make and more to tear down).
//!
//! A short-lived helper process is forked that `unshare`s them (a network namespace; when the
//! grader is not root, first a user namespace owning it, in which the grader's uid and gid map to
//! themselves and no nested user namespace can be made), the grader opens them from
//! `/proc/HELPER/ns/` and the helper exits: the open descriptors keep them alive as long as the
//! prepared sandbox.

use std::ffi::CStr;
use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::fs::MetadataExt;

/// The namespaces of one job.
#[derive(Debug)]
pub(super) struct JobNamespaces {
    /// The user namespace and its inode (what `/proc/PID/ns/user` of a job's process shows).
    pub user: Option<(OwnedFd, u64)>,
    /// The network namespace: a loopback interface, down, and nothing else.
    pub net: Option<OwnedFd>,
    /// Whether nested user namespaces were refused inside the user namespace, and if not why.
    pub nested_refused: Result<(), String>,
}

/// What the helper tells the grader: a status byte and an `errno`.
const OK: u8 = 0;
const UNSHARE_FAILED: u8 = 1;
const NESTED_NOT_REFUSED: u8 = 2;

/// Makes a user namespace (`user`) and a network namespace (`net`) for a job.
pub(super) fn make(user: bool, net: bool) -> io::Result<JobNamespaces> {
    let mut flags = 0;
    if user {
        flags |= libc::CLONE_NEWUSER;
    }
    if net {
        flags |= libc::CLONE_NEWNET;
    }
    if flags == 0 {
        return Ok(JobNamespaces {
            user: None,
            net: None,
            nested_refused: Ok(()),
        });
    }
    let (ready_read, ready_write) = pipe()?;
    let (hold_read, hold_write) = pipe()?;
    // SAFETY: the child only makes async-signal-safe calls (unshare, open, write, read, close,
    // _exit) on memory that exists before the fork, then exits without returning.
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        return Err(io::Error::last_os_error());
    }
    if pid == 0 {
        let ends = [ready_read.as_raw_fd(), hold_write.as_raw_fd()];
        unsafe {
            helper(
                flags,
                user,
                ready_write.as_raw_fd(),
                hold_read.as_raw_fd(),
                ends,
            )
        }
    }
    drop(ready_write);
    drop(hold_read);
    let made = adopt(pid, user, net, ready_read);
    // The helper exits once the holding pipe closes.
    drop(hold_write);
    let mut status = 0;
    // SAFETY: waits for the helper forked above, which is this process's child.
    unsafe { libc::waitpid(pid, &mut status, 0) };
    made
}

/// The grader's half: reads the helper's status, writes its identity maps, opens its namespaces.
fn adopt(pid: i32, user: bool, net: bool, ready: OwnedFd) -> io::Result<JobNamespaces> {
    let mut report = [0u8; 5];
    File::from(ready).read_exact(&mut report)?;
    let errno = i32::from_ne_bytes([report[1], report[2], report[3], report[4]]);
    if report[0] == UNSHARE_FAILED {
        return Err(io::Error::from_raw_os_error(errno));
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
    let net = if net {
        Some(OwnedFd::from(File::open(format!("{proc}/ns/net"))?))
    } else {
        None
    };
    let nested_refused = if report[0] == NESTED_NOT_REFUSED {
        Err(io::Error::from_raw_os_error(errno).to_string())
    } else {
        Ok(())
    };
    Ok(JobNamespaces {
        user,
        net,
        nested_refused,
    })
}

/// The helper, in the forked child: unshares, refuses nested user namespaces in a new user
/// namespace (the sysctl is per user namespace, writable by one with `CAP_SYS_RESOURCE` in it,
/// which its creator has), reports, and waits for the grader to be done (the holding pipe's
/// end of file, once the grader's ends, passed in `close`, are the only ones left).
///
/// # Safety
/// Only to be called in a child just forked; never returns.
unsafe fn helper(flags: libc::c_int, user: bool, ready: i32, hold: i32, close: [i32; 2]) -> ! {
    const NESTED: &CStr = c"/proc/sys/user/max_user_namespaces";
    for fd in close {
        libc::close(fd);
    }
    close_all_but(ready, hold);
    let mut status = OK;
    let mut errno = 0;
    if libc::unshare(flags) != 0 {
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
    let e = errno.to_ne_bytes();
    let report = [status, e[0], e[1], e[2], e[3]];
    libc::write(ready, report.as_ptr().cast(), report.len());
    let mut byte = 0u8;
    libc::read(hold, (&mut byte as *mut u8).cast(), 1);
    libc::_exit(0)
}

/// Closes every descriptor from 3 up but `keep` and `also`. A helper inherits every descriptor
/// the grader had open when it forked, among them the holding pipes of other jobs' helpers
/// forked by other threads at the same time: kept, each would wait for the other's end of file
/// for ever.
///
/// # Safety
/// Only in a child just forked, which owns nothing else it needs.
unsafe fn close_all_but(keep: i32, also: i32) {
    let (low, high) = (keep.min(also), keep.max(also));
    for (first, last) in [(3, low - 1), (low + 1, high - 1), (high + 1, i32::MAX)] {
        if first > last {
            continue;
        }
        // close_range (Linux 5.9); else one by one, as far as descriptors usually go.
        if libc::syscall(
            libc::SYS_close_range,
            first as libc::c_uint,
            last as libc::c_uint,
            0,
        ) != 0
        {
            for fd in first..=last.min(65_535) {
                libc::close(fd);
            }
        }
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
