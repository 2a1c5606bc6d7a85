//! The job's namespaces, made once per job in the grader and joined by every process of the job
//! with `setns` (cheap) rather than made anew for each (a network namespace costs milliseconds to
//! make and more to tear down).
//!
//! A short-lived helper process is forked that `unshare`s them (when the grader is not root,
//! first a user namespace owning the others, in which the grader's uid and gid map to themselves
//! and no nested user namespace can be made; then a network, a mount, an IPC and a PID
//! namespace, each on its own so that one refused costs only itself), builds the job's own file
//! tree in the mount namespace (`mounts`) once the grader has written its identity maps, and
//! starts the job's [`Init`]: the first process of the PID namespace, which mounts a fresh
//! `/proc` there (only the job's processes in it) and lives as long as the job. The grader opens
//! the namespaces from `/proc/HELPER/ns/` and lets the helper exit: the open descriptors keep
//! them alive as long as the prepared sandbox. When the sandbox is dropped the init ends, and the
//! kernel kills whatever was left in the PID namespace; the IPC namespace, with every System V
//! object and message queue in it, goes with the last descriptor and process.

use std::ffi::CStr;
use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::thread;
use std::time::{Duration, Instant};

use super::environment;
use super::mounts::{self, Inside, Plan};

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
    /// The IPC namespace (System V objects, POSIX message queues), or why there is none.
    pub ipc: Result<OwnedFd, String>,
    /// The PID namespace with its init, or why there is none.
    pub pid: Result<Init, String>,
    /// The job's own folders and devices (`/dev/shm`, those it only reads, its devices, its
    /// `/proc`, and on its disk the layered writable folders and the homes) as the job sees
    /// them, opened `O_PATH` from the grader through the helper's root,
    /// for the Landlock rules that must name them (the grader's own `/dev/shm` is another
    /// folder).
    pub inside: Vec<(OwnedFd, Inside)>,
    /// Whether the job's disk holds every writable folder, and if not why (`Ok` too when no
    /// disk was asked for).
    pub disk: Result<(), String>,
    /// Whether every folder it only reads, `/sys` and every device are its own (other inodes
    /// than any other job's), and if not why some are the grader's, bound as they are.
    pub shared: Result<(), String>,
    /// Whether nested user namespaces were refused inside the user namespace, and if not why.
    pub nested_refused: Result<(), String>,
}

impl JobNamespaces {
    /// None of the namespaces, each refused for `why` (the helper could not make them).
    pub fn refused(why: &str) -> JobNamespaces {
        JobNamespaces {
            user: None,
            net: None,
            mount: Err(why.to_owned()),
            ipc: Err(why.to_owned()),
            pid: Err(why.to_owned()),
            inside: Vec::new(),
            disk: Err(why.to_owned()),
            shared: Ok(()),
            nested_refused: Ok(()),
        }
    }
}

/// The first process of a job's PID namespace: it holds the namespace open, mounted the job's
/// fresh `/proc`, and reaps the orphans reparented to it (it ignores `SIGCHLD`, so the kernel
/// reaps them). It ends when its life pipe closes (this value is dropped, or the grader dies),
/// and the kernel then kills every process left in the namespace.
#[derive(Debug)]
pub(super) struct Init {
    /// The namespace, which each of the job's commands joins (its children are born in it).
    pub namespace: OwnedFd,
    /// Its process id in the grader's namespace.
    pub pid: i32,
    /// Whether it mounted a fresh `/proc`, and if not why.
    pub proc: Result<(), String>,
    /// The write end of its life pipe.
    life: Option<OwnedFd>,
}

impl Drop for Init {
    /// Ends the init (its pipe closes) and reaps it if it is the grader's child (the grader is a
    /// subreaper), waiting a little for the namespace to empty.
    fn drop(&mut self) {
        drop(self.life.take());
        let start = Instant::now();
        loop {
            let mut status = 0;
            // SAFETY: WNOHANG never blocks; a pid that is not this process's child gives ECHILD.
            let reaped = unsafe { libc::waitpid(self.pid, &mut status, libc::WNOHANG) };
            if reaped != 0 || start.elapsed() > Duration::from_secs(2) {
                return;
            }
            thread::sleep(Duration::from_millis(1));
        }
    }
}

/// How the helper's first report is laid out: a status byte, then the `errno` of each step
/// (0 when it was made): the required unshare, the mount, IPC and PID namespaces.
const REPORT: usize = 1 + 4 * 4;
const OK: u8 = 0;
const UNSHARE_FAILED: u8 = 1;
const NESTED_NOT_REFUSED: u8 = 2;
/// Its second report, once the file tree is built: a status byte ([`OK`] or [`TREE_FAILED`]),
/// the failing entry (two bytes) and an `errno`.
const TREE_FAILED: u8 = 3;
/// Its third, once the init is started: the init's pid (or -1) and an `errno` (of the clone,
/// or of mounting `/proc`; 0 when mounted; -1 when there was no tree to mount it in).
const NO_TREE: i32 = -1;

/// Makes a user namespace (`user`), a network namespace (`net`), an IPC and a PID namespace
/// and, with a `plan`, a mount namespace holding the job's own file tree, for a job.
pub(super) fn make(user: bool, net: bool, plan: Option<&Plan>) -> io::Result<JobNamespaces> {
    let mut flags = 0;
    if user {
        flags |= libc::CLONE_NEWUSER;
    }
    if net {
        flags |= libc::CLONE_NEWNET;
    }
    let (ready_read, ready_write) = pipe()?;
    let (go_read, go_write) = pipe()?;
    let (hold_read, hold_write) = pipe()?;
    let (life_read, life_write) = pipe()?;
    // Room for the descriptors the helper opens, made before the fork.
    let mut fds = vec![-1; plan.map_or(0, Plan::len)];
    // SAFETY: the child only makes async-signal-safe calls (unshare, open, mount, mkdir, write,
    // read, close, clone, _exit) on memory that exists before the fork, then exits without
    // returning.
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        return Err(io::Error::last_os_error());
    }
    if pid == 0 {
        let ends = [
            ready_read.as_raw_fd(),
            go_write.as_raw_fd(),
            hold_write.as_raw_fd(),
            life_write.as_raw_fd(),
        ];
        let keep = Pipes {
            ready: ready_write.as_raw_fd(),
            go: go_read.as_raw_fd(),
            hold: hold_read.as_raw_fd(),
            life: life_read.as_raw_fd(),
        };
        unsafe { helper(flags, user, plan, &mut fds, keep, ends) }
    }
    drop(ready_write);
    drop(go_read);
    drop(hold_read);
    drop(life_read);
    let made = adopt(pid, user, net, plan, ready_read, go_write, life_write);
    // The helper exits once the holding pipe closes.
    drop(hold_write);
    let mut status = 0;
    // SAFETY: waits for the helper forked above, which is this process's child.
    unsafe { libc::waitpid(pid, &mut status, 0) };
    made
}

/// The helper's ends of its pipes.
#[derive(Clone, Copy)]
struct Pipes {
    ready: i32,
    go: i32,
    hold: i32,
    life: i32,
}

/// An `errno` as the error it is, or `None` for 0.
fn error(errno: i32) -> Option<io::Error> {
    (errno != 0).then(|| io::Error::from_raw_os_error(errno))
}

/// The `i32` at `at` in `bytes`.
fn int(bytes: &[u8], at: usize) -> i32 {
    i32::from_ne_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
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
    life: OwnedFd,
) -> io::Result<JobNamespaces> {
    let mut ready = File::from(ready);
    let mut report = [0u8; REPORT];
    ready.read_exact(&mut report)?;
    if report[0] == UNSHARE_FAILED {
        return Err(io::Error::from_raw_os_error(int(&report, 1)));
    }
    let proc = format!("/proc/{pid}");
    let open = |name: &str| -> io::Result<OwnedFd> {
        Ok(OwnedFd::from(File::open(format!("{proc}/ns/{name}"))?))
    };
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
    let mut disk = Err("the job has no file tree of its own".to_owned());
    let mut shared = Ok(());
    let mount = match (plan, error(int(&report, 5))) {
        (None, _) => Ok(None),
        (Some(_), Some(refused)) => Err(format!("no mount namespace: {refused}")),
        (Some(plan), None) => {
            File::from(go).write_all(&[1])?;
            let mut built = [0u8; 11];
            ready.read_exact(&mut built)?;
            if built[0] == OK {
                disk = match error(int(&built, 3)) {
                    None => Ok(()),
                    Some(refused) => Err(format!("cannot mount it: {refused}")),
                };
                shared = match error(int(&built, 7)) {
                    None => Ok(()),
                    Some(refused) => Err(refused.to_string()),
                };
                Ok(Some(open("mnt")?))
            } else {
                let entry = u16::from_ne_bytes([built[1], built[2]]);
                let at = plan
                    .path(entry)
                    .map(|p| format!(" {}", p.to_string_lossy()))
                    .unwrap_or_default();
                let failed = io::Error::from_raw_os_error(int(&built, 3));
                Err(format!("cannot build it{at}: {failed}"))
            }
        }
    };
    let mut inside = match (&mount, plan) {
        (Ok(Some(_)), Some(plan)) => plan
            .inside(disk.is_ok())
            .map(|(path, how)| {
                let inside = format!("{proc}/root{}", path.to_string_lossy());
                Ok((open_path(&inside)?, how))
            })
            .collect::<io::Result<Vec<_>>>()?,
        _ => Vec::new(),
    };
    let ipc = match error(int(&report, 9)) {
        Some(refused) => Err(format!("no IPC namespace: {refused}")),
        None => Ok(open("ipc")?),
    };
    let pid_ns = match error(int(&report, 13)) {
        Some(refused) => Err(format!("no PID namespace: {refused}")),
        None => {
            let mut started = [0u8; 8];
            ready.read_exact(&mut started)?;
            let (init, errno) = (int(&started, 0), int(&started, 4));
            if init <= 0 {
                Err(format!(
                    "no process could start the PID namespace: {}",
                    io::Error::from_raw_os_error(errno)
                ))
            } else {
                let proc = match errno {
                    0 => Ok(()),
                    NO_TREE => Err("the job has no file tree of its own to mount it in".into()),
                    errno => Err(io::Error::from_raw_os_error(errno).to_string()),
                };
                if proc.is_ok() {
                    inside.push((open_path(&format!("/proc/{init}/root/proc"))?, Inside::Read));
                }
                let namespace = OwnedFd::from(File::open(format!("/proc/{init}/ns/pid"))?);
                Ok(Init {
                    namespace,
                    pid: init,
                    proc,
                    life: Some(life),
                })
            }
        }
    };
    let net = if net { Some(open("net")?) } else { None };
    let nested_refused = if report[0] == NESTED_NOT_REFUSED {
        Err(io::Error::from_raw_os_error(int(&report, 1)).to_string())
    } else {
        Ok(())
    };
    Ok(JobNamespaces {
        user,
        net,
        mount,
        ipc,
        pid: pid_ns,
        inside,
        disk,
        shared,
        nested_refused,
    })
}

/// The helper, in the forked child: unshares what is required (the user and network
/// namespaces), refuses nested user namespaces in a new user namespace (the sysctl is per user
/// namespace, writable by one with `CAP_SYS_RESOURCE` in it, which its creator has), unshares
/// the mount, IPC and PID namespaces one at a time, reports, builds the file tree when the
/// grader says so (after it has written the identity maps, which making folders in the new root
/// needs), reports again, starts the init, reports its pid, and waits for the grader to be done
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
    pipes: Pipes,
    close: [i32; 4],
) -> ! {
    const NESTED: &CStr = c"/proc/sys/user/max_user_namespaces";
    for fd in close {
        libc::close(fd);
    }
    close_all_but(&mut [pipes.ready, pipes.go, pipes.hold, pipes.life]);
    let errno = || *libc::__errno_location();
    let mut report = [0u8; REPORT];
    let mut put = |at: usize, value: i32| report[at..at + 4].copy_from_slice(&value.to_ne_bytes());
    let made = flags == 0 || libc::unshare(flags) == 0;
    let mut status = OK;
    if !made {
        status = UNSHARE_FAILED;
        put(1, errno());
    } else if user {
        let fd = libc::open(NESTED.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
        if fd < 0 || libc::write(fd, b"0\n".as_ptr().cast(), 2) != 2 {
            status = NESTED_NOT_REFUSED;
            put(1, errno());
        }
        if fd >= 0 {
            libc::close(fd);
        }
    }
    let mut optional = |at: usize, flag: libc::c_int, wanted: bool| -> bool {
        if !made || !wanted {
            put(at, libc::EPERM);
            return false;
        }
        let ok = libc::unshare(flag) == 0;
        put(at, if ok { 0 } else { errno() });
        ok
    };
    let mount = optional(5, libc::CLONE_NEWNS, plan.is_some());
    let _ipc = optional(9, libc::CLONE_NEWIPC, true);
    let pid = optional(13, libc::CLONE_NEWPID, true);
    report[0] = status;
    libc::write(pipes.ready, report.as_ptr().cast(), report.len());
    let mut byte = 0u8;
    let mut tree = false;
    if let Some(plan) = plan.filter(|_| mount) {
        // End of file instead: the grader gave up, nothing to build.
        if libc::read(pipes.go, (&mut byte as *mut u8).cast(), 1) == 1 {
            let (status, entry, errno, shared) = match mounts::build(plan, fds) {
                Ok(built) => (OK, 0u16, built.disk, built.shared),
                Err(failure) => (TREE_FAILED, failure.entry, failure.errno, 0),
            };
            tree = status == OK;
            let (n, e, s) = (
                entry.to_ne_bytes(),
                errno.to_ne_bytes(),
                shared.to_ne_bytes(),
            );
            let report = [
                status, n[0], n[1], e[0], e[1], e[2], e[3], s[0], s[1], s[2], s[3],
            ];
            libc::write(pipes.ready, report.as_ptr().cast(), report.len());
        }
    }
    if pid {
        let (init, errno) = start_init(tree, pipes.life);
        let mut started = [0u8; 8];
        started[..4].copy_from_slice(&init.to_ne_bytes());
        started[4..].copy_from_slice(&errno.to_ne_bytes());
        libc::write(pipes.ready, started.as_ptr().cast(), started.len());
    }
    libc::read(pipes.hold, (&mut byte as *mut u8).cast(), 1);
    libc::_exit(0)
}

/// Starts the init of the PID namespace just made (the helper's next child is its first
/// process) and returns its pid (or -1) and the `errno` of starting it or of mounting `/proc`
/// (or [`NO_TREE`]). The init keeps only `life` open and ends at its end of file.
///
/// # Safety
/// Only in the helper. A raw `clone`, not glibc's `fork`, which would take locks that the
/// grader's other threads may have held at the helper's fork.
unsafe fn start_init(tree: bool, life: i32) -> (i32, i32) {
    let (mut report, mut mounted) = ([0; 2], [0u8; 4]);
    if libc::pipe2(report.as_mut_ptr(), libc::O_CLOEXEC) != 0 {
        return (-1, *libc::__errno_location());
    }
    let child = clone_process();
    if child < 0 {
        return (-1, *libc::__errno_location());
    }
    if child == 0 {
        libc::signal(libc::SIGCHLD, libc::SIG_IGN);
        let errno = if !tree {
            NO_TREE
        } else if libc::mount(
            c"proc".as_ptr(),
            c"/proc".as_ptr(),
            c"proc".as_ptr(),
            libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
            std::ptr::null(),
        ) != 0
        {
            *libc::__errno_location()
        } else {
            0
        };
        libc::write(report[1], errno.to_ne_bytes().as_ptr().cast(), 4);
        close_all_but(&mut [life]);
        environment::close_range(0, 2, false);
        let mut byte = 0u8;
        while libc::read(life, (&mut byte as *mut u8).cast(), 1) != 0 {
            if *libc::__errno_location() != libc::EINTR {
                break;
            }
        }
        libc::_exit(0);
    }
    libc::close(report[1]);
    let read = libc::read(report[0], mounted.as_mut_ptr().cast(), 4);
    libc::close(report[0]);
    let errno = if read == 4 {
        i32::from_ne_bytes(mounted)
    } else {
        libc::EIO
    };
    (child as i32, errno)
}

/// A copy of the calling process, as `fork` makes, by the raw system call: in a child of a
/// multithreaded process glibc's `fork` may wait for ever on a lock another thread held.
/// Returns the child's pid in the parent, 0 in the child, -1 on failure.
///
/// # Safety
/// The child may only make async-signal-safe system calls, and none of glibc's functions that
/// use the thread's cached id (`raise`, `abort`, mutexes).
pub(super) unsafe fn clone_process() -> libc::c_long {
    libc::syscall(
        libc::SYS_clone,
        libc::c_long::from(libc::SIGCHLD),
        0 as libc::c_long,
        0 as libc::c_long,
        0 as libc::c_long,
        0 as libc::c_long,
    )
}

/// Closes every descriptor from 3 up but those in `keep`. A helper inherits every descriptor
/// the grader had open when it forked, among them the holding pipes of other jobs' helpers
/// forked by other threads at the same time: kept, each would wait for the other's end of file
/// for ever.
///
/// # Safety
/// Only in a child just forked, which owns nothing else it needs.
unsafe fn close_all_but(keep: &mut [i32]) {
    keep.sort_unstable();
    let mut first = 3;
    for last in keep.iter().map(|k| k - 1).chain([i32::MAX]) {
        if first <= last {
            environment::close_range(first, last, false);
        }
        first = last.saturating_add(2);
    }
}

/// A folder or a device opened `O_PATH`, for a Landlock rule.
fn open_path(path: &str) -> io::Result<OwnedFd> {
    let opened = fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_PATH)
        .open(path)?;
    Ok(OwnedFd::from(opened))
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
