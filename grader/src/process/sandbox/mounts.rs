//! The job's own file tree: a mount namespace whose root is an empty `tmpfs` into which only the
//! paths the sandbox allows are bound, at the same places. Landlock decides what may be read or
//! written, but not what may be connected to: a named UNIX socket (the grading user's tmux
//! server, D-Bus session bus, ssh-agent, X server, a Docker socket) is reached with `connect()`,
//! which Landlock does not check. In this tree such a socket, and any FIFO or device outside the
//! allowed paths, has no name at all. `/dev` holds only the allowed devices and a private
//! `/dev/shm`; `/tmp` is an empty folder, but for `/tmp/.X11-unix`, which leads into the job's
//! scratch folder, where [`admit`] puts the socket of the job's own X server (a window's).
//!
//! With a disk bound, everything the job writes lands on one `tmpfs` of that size (its pages
//! counted in the job's memory where it has a control group), gone with the job: each writable
//! folder (the submission) is an overlay whose changes go there, so the grader's copy never
//! grows, and the job's homes are a folder of it bound at `SCRATCH/home`. Where an overlay cannot
//! be mounted (a kernel older than 5.11 in a user namespace) the folder is bound as it is and
//! [`Built::disk`] says why.
//!
//! Nothing of the machine's that two jobs could both reach is one and the same file to them, so
//! that no two jobs graded at once can talk through it (a lock, a watch): each folder the job
//! only reads (the system's, a toolchain) is a read-only overlay of its own over the grader's
//! (the same files, other inodes), `/sys` is a `sysfs` of the job's own network namespace
//! (without the machine's control groups, so no other job's figures), the devices are nodes of
//! its own (as root; in a user namespace no node can be made) and `/proc` is its PID
//! namespace's. Where one cannot be had, the grader's is bound as it is and [`Built::shared`]
//! says why.
//!
//! A [`Plan`] is made in the grader (it allocates); [`build`] runs in the namespaces helper
//! forked by `namespaces`, after the namespace is made, with async-signal-safe system calls
//! only, and pivots the helper's namespace to the new root, which every process of the job then
//! joins with `setns`.

use std::ffi::{CStr, CString, OsStr};
use std::fs;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::path::{Component, Path, PathBuf};

/// Where the new root is put together, in the helper's namespace only: a folder every Linux
/// system has, covered there by the new root's `tmpfs` (the sources are opened before).
const STAGE: &CStr = c"/tmp";

/// Where X servers put their sockets (`/tmp/.X11-unix/X<n>`), which X clients look in.
pub const X11_PATH: &str = "/tmp/.X11-unix";
/// What [`X11_PATH`] leads to in the job's tree, below its scratch folder: a folder of the
/// grader's, in which [`admit`] puts the one X server's socket the job may reach.
const X11_LINK: &str = ".X11-unix";

/// The job's private folders (`/dev/shm`): a `tmpfs` writable by every user of the job, of a
/// bounded size (a `tmpfs` is half the machine's memory by default); what is written there is
/// memory, counted against the job's memory limit where the job has a control group.
const PRIVATE_OPTIONS: &CStr = c"mode=1777,size=256m";

/// The system's `/sys` and `/proc`, which are not overlaid: the first is mounted afresh, the
/// second by the job's init.
const SYS: &str = "/sys";
const PROC: &str = "/proc";

/// An empty folder of the new root, the bottom layer of each read-only overlay (an overlay
/// without an upper folder needs two), removed once they are mounted.
const EMPTY: &CStr = c"/tmp/.empty";
/// The job's `/dev`, a `tmpfs` of its own on which device nodes work (the root's does not
/// allow them), holding its devices and its `/dev/shm`.
const DEV: &CStr = c"/tmp/dev";

/// Where the job's disk is mounted while the tree is put together (inside the new root, and
/// detached from it once its folders are in place).
const DISK: &CStr = c"/tmp/.job-disk";
/// The folder of the job's disk that holds its homes, and where it is bound below the scratch
/// folder.
pub const HOMES: &str = "home";

/// Symbolic links every `/dev` has, which shells and runtimes use (`/dev/stdout`, bash's
/// `/dev/fd/N`): they lead into `/proc`, which is bound.
const DEV_LINKS: [(&str, &str); 4] = [
    ("/dev/fd", "/proc/self/fd"),
    ("/dev/stdin", "/proc/self/fd/0"),
    ("/dev/stdout", "/proc/self/fd/1"),
    ("/dev/stderr", "/proc/self/fd/2"),
];

/// One thing in the new root.
#[derive(Debug)]
enum RootEntry {
    /// The grader's `source` bound (recursively) at the same path; a folder or a file.
    Bind { path: CString, file: bool },
    /// A symbolic link with this text (the system's `/bin -> usr/bin`).
    Link { path: CString, text: CString },
    /// A fresh `tmpfs` of the job's own, writable by every user (`/dev/shm`).
    Private { path: CString },
    /// An empty folder (`/tmp`).
    Folder { path: CString },
    /// The grader's folder at the same path under an overlay whose changes go to the job's
    /// disk (`number` names its folders there); bound as it is when the overlay is refused.
    Layer { path: CString, number: u8 },
    /// The job's disk's [`HOMES`] folder, bound here (`SCRATCH/home`).
    Homes { path: CString },
    /// A folder the job only reads, as its own: a read-only overlay of the grader's at the
    /// same path, or (`sys`) a fresh `sysfs`; the grader's bound as it is when refused.
    Own { path: CString, sys: bool },
    /// A device of its own, the grader's `rdev`; the grader's bound as it is when refused.
    Device { path: CString, rdev: libc::dev_t },
}

impl RootEntry {
    /// Where it is, in the new root.
    fn path(&self) -> &CString {
        match self {
            RootEntry::Bind { path, .. }
            | RootEntry::Link { path, .. }
            | RootEntry::Private { path }
            | RootEntry::Folder { path }
            | RootEntry::Layer { path, .. }
            | RootEntry::Homes { path }
            | RootEntry::Own { path, .. }
            | RootEntry::Device { path, .. } => path,
        }
    }
}

/// The new root's contents, in the order they are made: binds and layers, private folders, the
/// homes, then links; and the options of the job's disk, if it has one.
#[derive(Debug)]
pub(super) struct Plan {
    entries: Vec<RootEntry>,
    disk: Option<CString>,
}

/// What [`build`] made of the job's disk: `disk` is 0 when every writable folder is layered
/// over it (or no disk was asked for), else the `errno` of the first mount refused; `shared`
/// likewise for the folders and devices made the job's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Built {
    pub disk: i32,
    pub shared: i32,
}

/// How a job reaches a folder of its own tree, for the Landlock rule that must name it there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Inside {
    /// A private `tmpfs` (`/dev/shm`): written, never executed from.
    Private,
    /// A layered writable folder, or the homes: written and executed from.
    Written,
    /// A device of its own: read and written, never executed.
    Device,
    /// The job's fresh `/proc` (a file system of its own, which the rule for the grader's
    /// `/proc` does not reach): read only.
    Read,
}

/// Which step of [`build`] failed, and the system's error.
#[derive(Clone, Copy, Debug)]
pub(super) struct FailedStep {
    /// The entry (counting from 1), or 0 for the steps around them.
    pub entry: u16,
    pub errno: i32,
}

impl Plan {
    /// The plan for these allowed paths: `system` (folders, files and the system's links),
    /// `devices` (files, and [`super::SHARED`] folders, which become private), and `others`
    /// (the toolchain, the submission, the scratch folder). A path below one already bound is
    /// visible through it and left out (making its folder would write into the bound one). With
    /// `disk` (bytes), the folders among `layered` are layered over the job's disk, and the
    /// homes bound below `scratch`. The folders among `read_only` become the job's own, `/sys`
    /// only when `own_sys` (the job has a network namespace of its own), and every device.
    pub fn new(
        system: &[PathBuf],
        devices: &[PathBuf],
        others: &[PathBuf],
        scratch: Option<&Path>,
        layered: &[PathBuf],
        disk: Option<u64>,
        (read_only, own_sys): (&[PathBuf], bool),
    ) -> Plan {
        let mut binds: Vec<(PathBuf, bool)> = Vec::new();
        let mut links = Vec::new();
        let mut private = Vec::new();
        for path in system.iter().chain(devices).chain(others) {
            let Ok(meta) = fs::symlink_metadata(path) else {
                continue;
            };
            if system.contains(path) && meta.file_type().is_symlink() {
                if let Ok(text) = fs::read_link(path) {
                    links.push((path.clone(), text));
                }
            } else if devices.contains(path) && meta.is_dir() {
                private.push(path.clone());
            } else {
                binds.push((path.clone(), !path.is_dir()));
            }
        }
        binds.sort_by(|a, b| a.0.cmp(&b.0));
        let mut kept: Vec<(PathBuf, bool)> = Vec::new();
        for (path, file) in binds {
            let covered = kept
                .iter()
                .map(|(p, _)| p)
                .chain(links.iter().map(|(p, _)| p))
                .any(|above| path.starts_with(above));
            if !covered && normal(&path) {
                kept.push((path, file));
            }
        }
        let c = |path: &Path| CString::new(path.as_os_str().as_bytes()).ok();
        let mut number = 0;
        let mut entries: Vec<RootEntry> = kept
            .iter()
            .filter_map(|(path, file)| {
                let path_c = c(path)?;
                let rdev = fs::metadata(path)
                    .ok()
                    .filter(|meta| meta.file_type().is_char_device())
                    .map(|meta| meta.rdev());
                let sys = path == Path::new(SYS);
                Some(if let Some(rdev) = rdev.filter(|_| *file) {
                    RootEntry::Device { path: path_c, rdev }
                } else if !file && read_only.contains(path) && path != Path::new(PROC) {
                    match sys && !own_sys {
                        true => RootEntry::Bind {
                            path: path_c,
                            file: false,
                        },
                        false => RootEntry::Own { path: path_c, sys },
                    }
                } else if !file && disk.is_some() && layered.contains(path) && number < u8::MAX {
                    number += 1;
                    RootEntry::Layer {
                        path: path_c,
                        number,
                    }
                } else {
                    RootEntry::Bind {
                        path: path_c,
                        file: *file,
                    }
                })
            })
            .collect();
        entries.extend(
            private
                .iter()
                .filter_map(|path| Some(RootEntry::Private { path: c(path)? })),
        );
        let homes = scratch.filter(|_| disk.is_some());
        entries.extend(homes.and_then(|folder| {
            Some(RootEntry::Homes {
                path: c(&folder.join(HOMES))?,
            })
        }));
        entries.extend(c(Path::new("/tmp")).map(|path| RootEntry::Folder { path }));
        let dev_links = DEV_LINKS
            .iter()
            .map(|(path, text)| (PathBuf::from(path), PathBuf::from(text)));
        let x11 = scratch.map(|folder| (PathBuf::from(X11_PATH), folder.join(X11_LINK)));
        let links = links.into_iter().chain(dev_links).chain(x11);
        entries.extend(links.filter_map(|(path, text)| {
            Some(RootEntry::Link {
                path: c(&path)?,
                text: c(&text)?,
            })
        }));
        let disk = disk.and_then(|bytes| CString::new(format!("mode=0755,size={bytes}")).ok());
        Plan { entries, disk }
    }

    /// The path of entry `number` (counting from 1), for reports.
    pub fn path(&self, number: u16) -> Option<&OsStr> {
        let entry = self.entries.get(usize::from(number).checked_sub(1)?)?;
        Some(OsStr::from_bytes(entry.path().as_bytes()))
    }

    /// The folders of the job's own that Landlock must name as the job sees them: the private
    /// ones (`/dev/shm`), those it only reads and its devices, and when `disk` is in force the
    /// layered folders and the homes.
    pub fn inside(&self, disk: bool) -> impl Iterator<Item = (&OsStr, Inside)> {
        self.entries.iter().filter_map(move |entry| {
            let how = match entry {
                RootEntry::Private { .. } => Inside::Private,
                RootEntry::Own { .. } => Inside::Read,
                RootEntry::Device { .. } => Inside::Device,
                RootEntry::Layer { .. } | RootEntry::Homes { .. } if disk => Inside::Written,
                _ => return None,
            };
            Some((OsStr::from_bytes(entry.path().as_bytes()), how))
        })
    }

    /// How many descriptors [`build`] needs room for.
    pub fn len(&self) -> usize {
        self.entries.len()
    }
}

/// Whether `path` is absolute with no `.` or `..` (which the new root could not mirror).
fn normal(path: &Path) -> bool {
    path.is_absolute()
        && path
            .components()
            .all(|c| matches!(c, Component::RootDir | Component::Normal(_)))
}

/// Makes the new root from `plan` in the calling process's mount namespace (just made, not
/// shared with the grader's) and pivots to it. `fds` has room for one descriptor per entry.
///
/// # Safety
/// Only in the namespaces helper, a child just forked, after `unshare(CLONE_NEWNS)`: it makes
/// system calls only, on memory that existed before the fork.
pub(super) unsafe fn build(plan: &Plan, fds: &mut [i32]) -> Result<Built, FailedStep> {
    let fail = |entry: usize| FailedStep {
        entry: u16::try_from(entry).unwrap_or(u16::MAX),
        errno: *libc::__errno_location(),
    };
    // Nothing done here may reach the grader's namespace.
    if libc::mount(
        std::ptr::null(),
        c"/".as_ptr(),
        std::ptr::null(),
        libc::MS_REC | libc::MS_PRIVATE,
        std::ptr::null(),
    ) != 0
    {
        return Err(fail(0));
    }
    // The sources, opened before the stage covers `/tmp`, where a submission may be.
    for (i, entry) in plan.entries.iter().enumerate() {
        fds[i] = -1;
        if let RootEntry::Bind { path, .. }
        | RootEntry::Layer { path, .. }
        | RootEntry::Own { path, .. }
        | RootEntry::Device { path, .. } = entry
        {
            fds[i] = libc::open(path.as_ptr(), libc::O_PATH | libc::O_CLOEXEC);
            if fds[i] < 0 {
                return Err(fail(i + 1));
            }
        }
    }
    if !tmpfs(STAGE.as_ptr(), c"mode=0755".as_ptr()) {
        return Err(fail(0));
    }
    let mut built = Built { disk: 0, shared: 0 };
    // Devices need a file system that allows them; the folders a bottom layer.
    let own_dev = libc::mkdir(DEV.as_ptr(), 0o755) == 0
        && libc::mount(
            c"tmpfs".as_ptr(),
            DEV.as_ptr(),
            c"tmpfs".as_ptr(),
            libc::MS_NOSUID,
            c"mode=0755,size=1m".as_ptr().cast(),
        ) == 0;
    if !own_dev || libc::mkdir(EMPTY.as_ptr(), 0o755) != 0 {
        return Err(fail(0));
    }
    let disk = match &plan.disk {
        Some(options) => {
            let made =
                libc::mkdir(DISK.as_ptr(), 0o755) == 0 && tmpfs(DISK.as_ptr(), options.as_ptr());
            if !made {
                built.disk = *libc::__errno_location();
            }
            made
        }
        None => false,
    };
    let mut buffer = [0u8; 4096];
    for (i, entry) in plan.entries.iter().enumerate() {
        let Some(target) = staged(&mut buffer, entry.path()) else {
            return Err(FailedStep {
                entry: u16::try_from(i + 1).unwrap_or(u16::MAX),
                errno: libc::ENAMETOOLONG,
            });
        };
        let mut source = [0u8; 32];
        let made = match entry {
            RootEntry::Layer { number, .. } if disk => {
                let layered = make(target, false) && layer(target, fds[i], *number);
                if !layered && built.disk == 0 {
                    built.disk = *libc::__errno_location();
                }
                layered || bind(target, fd_path(&mut source, fds[i]))
            }
            RootEntry::Bind { .. } | RootEntry::Layer { .. } => {
                let file = matches!(entry, RootEntry::Bind { file: true, .. });
                make(target, file) && bind(target, fd_path(&mut source, fds[i]))
            }
            RootEntry::Private { .. } => {
                make(target, false) && tmpfs(target.as_ptr().cast(), PRIVATE_OPTIONS.as_ptr())
            }
            RootEntry::Homes { .. } if disk => {
                let mut homes = [0u8; 64];
                let homes = disk_folder(&mut homes, HOMES.as_bytes(), 0);
                make(target, false)
                    && (libc::mkdir(homes, 0o755) == 0 || *libc::__errno_location() == libc::EEXIST)
                    && libc::chmod(homes, 0o1777) == 0
                    && bind(target, homes)
            }
            RootEntry::Homes { .. } => true,
            RootEntry::Own { sys, .. } => {
                let own = make(target, false)
                    && match sys {
                        true => sysfs(target),
                        false => read_only_layer(target, fds[i]),
                    };
                if !own && built.shared == 0 {
                    built.shared = *libc::__errno_location();
                }
                own || bind(target, fd_path(&mut source, fds[i]))
            }
            RootEntry::Device { rdev, .. } => {
                let own = parents(target)
                    && libc::mknod(target.as_ptr().cast(), libc::S_IFCHR | 0o666, *rdev) == 0
                    && libc::chmod(target.as_ptr().cast(), 0o666) == 0;
                if !own && built.shared == 0 {
                    built.shared = *libc::__errno_location();
                }
                own || (make(target, true) && bind(target, fd_path(&mut source, fds[i])))
            }
            RootEntry::Folder { .. } => make(target, false),
            RootEntry::Link { text, .. } => {
                parents(target) && libc::symlink(text.as_ptr(), target.as_ptr().cast()) == 0
            }
        };
        if !made {
            return Err(fail(i + 1));
        }
    }
    // The bottom layer is held by the overlays; its name is not needed.
    libc::rmdir(EMPTY.as_ptr());
    // The disk stays mounted below the layers and the homes only.
    if disk
        && (libc::umount2(DISK.as_ptr(), libc::MNT_DETACH) != 0 || libc::rmdir(DISK.as_ptr()) != 0)
    {
        return Err(fail(0));
    }
    if libc::chdir(STAGE.as_ptr()) != 0
        || libc::syscall(libc::SYS_pivot_root, c".".as_ptr(), c".".as_ptr()) != 0
        || libc::umount2(c".".as_ptr(), libc::MNT_DETACH) != 0
        || libc::chdir(c"/".as_ptr()) != 0
    {
        return Err(fail(0));
    }
    Ok(built)
}

/// Binds `source` (a NUL-terminated path) at `target`, recursively.
///
/// # Safety
/// As [`build`].
unsafe fn bind(target: &[u8], source: *const libc::c_char) -> bool {
    libc::mount(
        source,
        target.as_ptr().cast(),
        std::ptr::null(),
        libc::MS_BIND | libc::MS_REC,
        std::ptr::null(),
    ) == 0
}

/// Mounts a `tmpfs` with `options` at `target` (both NUL-terminated), no setuid, no devices.
///
/// # Safety
/// As [`build`].
unsafe fn tmpfs(target: *const libc::c_char, options: *const libc::c_char) -> bool {
    let (kind, flags) = (c"tmpfs".as_ptr(), libc::MS_NOSUID | libc::MS_NODEV);
    libc::mount(kind, target, kind, flags, options.cast()) == 0
}

/// Mounts at `target` a read-only overlay of the folder open as `fd` over [`EMPTY`]: the same
/// files as the job's own inodes.
///
/// # Safety
/// As [`build`].
unsafe fn read_only_layer(target: &[u8], fd: i32) -> bool {
    let mut source = [0u8; 32];
    let mut options = [0u8; 128];
    let mut at = 0;
    for part in [
        b"lowerdir=".as_slice(),
        CStr::from_ptr(fd_path(&mut source, fd)).to_bytes(),
        b":",
        EMPTY.to_bytes_with_nul(),
    ] {
        options[at..at + part.len()].copy_from_slice(part);
        at += part.len();
    }
    libc::mount(
        c"overlay".as_ptr(),
        target.as_ptr().cast(),
        c"overlay".as_ptr(),
        libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV,
        options.as_ptr().cast(),
    ) == 0
}

/// Mounts at `target` a `sysfs` of the calling process's network namespace, read only.
///
/// # Safety
/// As [`build`].
unsafe fn sysfs(target: &[u8]) -> bool {
    let flags = libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC;
    let kind = c"sysfs".as_ptr();
    libc::mount(kind, target.as_ptr().cast(), kind, flags, std::ptr::null()) == 0
}

/// Mounts at `target` an overlay of the folder open as `fd`, its changes in the disk's folders
/// `uNUMBER` and `wNUMBER` (made here).
///
/// # Safety
/// As [`build`].
unsafe fn layer(target: &[u8], fd: i32, number: u8) -> bool {
    let (mut upper, mut work) = ([0u8; 64], [0u8; 64]);
    let upper = disk_folder(&mut upper, b"u", number);
    let work = disk_folder(&mut work, b"w", number);
    // The layered folder's top is the upper folder: it takes the grader's folder's owner and
    // mode, which the job's user was given.
    let mut lower: libc::stat = std::mem::zeroed();
    if libc::fstat(fd, &mut lower) != 0
        || libc::mkdir(upper, 0o755) != 0
        || libc::mkdir(work, 0o755) != 0
        || libc::chown(upper, lower.st_uid, lower.st_gid) != 0
        || libc::chmod(upper, lower.st_mode & 0o7777) != 0
    {
        return false;
    }
    let mut source = [0u8; 32];
    let mut options = [0u8; 256];
    let mut at = 0;
    for part in [
        b"lowerdir=".as_slice(),
        CStr::from_ptr(fd_path(&mut source, fd)).to_bytes(),
        b",upperdir=",
        CStr::from_ptr(upper).to_bytes(),
        b",workdir=",
        CStr::from_ptr(work).to_bytes(),
    ] {
        options[at..at + part.len()].copy_from_slice(part);
        at += part.len();
    }
    libc::mount(
        c"overlay".as_ptr(),
        target.as_ptr().cast(),
        c"overlay".as_ptr(),
        libc::MS_NOSUID | libc::MS_NODEV,
        options.as_ptr().cast(),
    ) == 0
}

/// `DISK/NAME` followed by `number` when it is not 0, NUL-terminated, in `buffer` (64 bytes
/// hold any: `name` is a few letters).
fn disk_folder(buffer: &mut [u8; 64], name: &[u8], number: u8) -> *const libc::c_char {
    let mut at = 0;
    let mut put = |bytes: &[u8]| {
        buffer[at..at + bytes.len()].copy_from_slice(bytes);
        at += bytes.len();
    };
    put(DISK.to_bytes());
    put(b"/");
    put(name);
    if number > 0 {
        let digits = [
            b'0' + number / 100,
            b'0' + number / 10 % 10,
            b'0' + number % 10,
        ];
        put(&digits);
    }
    put(&[0]);
    buffer.as_ptr().cast()
}

/// `STAGE` followed by `path`, NUL-terminated, in `buffer`; `None` if it does not fit.
fn staged<'a>(buffer: &'a mut [u8; 4096], path: &CString) -> Option<&'a mut [u8]> {
    let (stage, path) = (STAGE.to_bytes(), path.as_bytes_with_nul());
    let length = stage.len() + path.len();
    if length > buffer.len() {
        return None;
    }
    buffer[..stage.len()].copy_from_slice(stage);
    buffer[stage.len()..length].copy_from_slice(path);
    Some(&mut buffer[..length])
}

/// `/proc/self/fd/FD`, NUL-terminated, written into `buffer` without allocating.
fn fd_path(buffer: &mut [u8; 32], fd: i32) -> *const libc::c_char {
    const PREFIX: &[u8] = b"/proc/self/fd/";
    buffer[..PREFIX.len()].copy_from_slice(PREFIX);
    let mut digits = [0u8; 10];
    let (mut n, mut count) = (fd.unsigned_abs(), 0);
    loop {
        digits[count] = b'0' + (n % 10) as u8;
        count += 1;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for (i, digit) in digits[..count].iter().rev().enumerate() {
        buffer[PREFIX.len() + i] = *digit;
    }
    buffer[PREFIX.len() + count] = 0;
    buffer.as_ptr().cast()
}

/// Makes `target`'s parent folders, then `target` itself: an empty file or a folder.
///
/// # Safety
/// As [`build`]: system calls only. `target` ends with its NUL.
unsafe fn make(target: &mut [u8], file: bool) -> bool {
    if !parents(target) {
        return false;
    }
    if file {
        let fd = libc::open(
            target.as_ptr().cast(),
            libc::O_CREAT | libc::O_WRONLY | libc::O_CLOEXEC,
            0o600,
        );
        fd >= 0 && libc::close(fd) == 0
    } else {
        libc::mkdir(target.as_ptr().cast(), 0o755) == 0 || *libc::__errno_location() == libc::EEXIST
    }
}

/// Makes every folder above `target` (a NUL-terminated path), each `0755`, those that exist
/// kept, by ending the path at each `/` in turn.
///
/// # Safety
/// As [`build`].
unsafe fn parents(target: &mut [u8]) -> bool {
    let end = target.len() - 1;
    for i in 1..end {
        if target[i] != b'/' {
            continue;
        }
        target[i] = 0;
        let made = libc::mkdir(target.as_ptr().cast(), 0o755) == 0
            || *libc::__errno_location() == libc::EEXIST;
        target[i] = b'/';
        if !made {
            return false;
        }
    }
    true
}

/// Puts `socket`, one of the grader's X servers' sockets (in [`X11`]), into the job's tree,
/// where [`X11`] leads to `FOLDER/.X11-unix` (`folder` being the job's scratch folder): a hard
/// link to it there, so that the job can connect to that server and to no other.
pub(super) fn admit(folder: &Path, socket: &Path) -> io::Result<()> {
    let (Some(name), Some(X11_PATH)) = (socket.file_name(), socket.parent().and_then(Path::to_str))
    else {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "{} is not an X server's socket in {X11_PATH}",
                socket.display()
            ),
        ));
    };
    let sockets = folder.join(X11_LINK);
    fs::create_dir_all(&sockets)?;
    let link = sockets.join(name);
    match fs::hard_link(socket, &link) {
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(()),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(plan: &Plan) -> Vec<String> {
        (1..=plan.len() as u16)
            .map(|n| plan.path(n).unwrap().to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn a_path_below_a_bound_one_is_left_out_and_links_come_last() {
        let dir = tempfile::tempdir().unwrap();
        let inside = dir.path().join("target");
        fs::create_dir(&inside).unwrap();
        let plan = Plan::new(
            &[PathBuf::from("/usr"), PathBuf::from("/dev/null")],
            &[],
            &[
                inside.clone(),
                dir.path().to_path_buf(),
                PathBuf::from("/usr/lib"),
            ],
            Some(dir.path()),
            &[],
            None,
            (&[], false),
        );
        let listed = paths(&plan);
        assert!(listed.contains(&dir.path().to_string_lossy().into_owned()));
        assert!(!listed.contains(&inside.to_string_lossy().into_owned()));
        assert!(!listed.contains(&"/usr/lib".to_string()));
        assert_eq!(listed.last().map(String::as_str), Some(X11_PATH));
        let null = plan
            .entries
            .iter()
            .find(|e| e.path().as_bytes() == b"/dev/null");
        assert!(matches!(null, Some(RootEntry::Device { .. })));
    }

    #[test]
    fn with_a_disk_writable_folders_are_layered_and_the_homes_bound_below_the_scratch() {
        let dir = tempfile::tempdir().unwrap();
        let (submission, scratch) = (dir.path().join("ann"), dir.path().join("scratch"));
        fs::create_dir(&submission).unwrap();
        fs::create_dir(&scratch).unwrap();
        let others = [submission.clone(), scratch.clone()];
        let plan = Plan::new(
            &[],
            &[],
            &others,
            Some(&scratch),
            std::slice::from_ref(&submission),
            Some(1 << 20),
            (&[], false),
        );
        let layered: Vec<_> = plan.inside(true).collect();
        let c = |path: &Path| OsStr::new(path.as_os_str()).to_owned();
        assert_eq!(
            layered,
            [
                (c(&submission).as_os_str(), Inside::Written),
                (c(&scratch.join(HOMES)).as_os_str(), Inside::Written)
            ]
        );
        assert_eq!(plan.inside(false).count(), 0);
        assert_eq!(plan.disk.as_deref(), Some(c"mode=0755,size=1048576"));
        let without = Plan::new(
            &[],
            &[],
            &others,
            Some(&scratch),
            &[submission],
            None,
            (&[], false),
        );
        assert!(without.entries.iter().all(|e| matches!(
            e,
            RootEntry::Bind { .. } | RootEntry::Folder { .. } | RootEntry::Link { .. }
        )));
    }

    #[test]
    fn the_disk_folders_are_named_without_allocating() {
        let mut buffer = [0u8; 64];
        for (name, number, expected) in [
            (&b"home"[..], 0, "/tmp/.job-disk/home"),
            (b"u", 7, "/tmp/.job-disk/u007"),
            (b"w", 255, "/tmp/.job-disk/w255"),
        ] {
            let text = disk_folder(&mut buffer, name, number);
            // SAFETY: disk_folder wrote a NUL-terminated string into `buffer`.
            let text = unsafe { CStr::from_ptr(text) };
            assert_eq!(text.to_str().unwrap(), expected);
        }
    }

    #[test]
    fn the_descriptor_path_is_written_without_allocating() {
        let mut buffer = [0u8; 32];
        for fd in [0, 7, 10, 12345, i32::MAX] {
            let text = fd_path(&mut buffer, fd);
            // SAFETY: fd_path wrote a NUL-terminated string into `buffer`.
            let text = unsafe { std::ffi::CStr::from_ptr(text) };
            assert_eq!(text.to_str().unwrap(), format!("/proc/self/fd/{fd}"));
        }
    }
}
