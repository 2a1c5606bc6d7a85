//! The sandbox every student build and program runs in (Linux). Student code is hostile: it may
//! try to read the answers, run the reference, rewrite the results, read another student's
//! work, open connections, fork without end or outlive its case. A [`Sandbox`] describes what a
//! job may reach (plain data); [`Sandbox::prepare`] does, once per job and in the grader, all
//! that allocates or may fail (the Landlock ruleset, the job's namespaces, handing the writable
//! paths to the job's user) and says in [`Protections`] what is in force on this system;
//! [`Prepared::apply`] then sets a `Command` up so that, between fork and exec, the child only
//! makes async-signal-safe system calls with what was prepared:
//!
//! 1. joins the job's user namespace (grader not root), network namespace and mount namespace
//!    (`setns`), whose root holds only the paths the job may reach (`mounts`), and goes back to
//!    its working folder there;
//! 2. sets `RLIMIT_NPROC`, which then counts only this job's processes (its own uid, or its own
//!    user namespace), so a fork loop is stopped at the limit, not counted after;
//! 3. as root, drops every group and switches to the job's unprivileged uid and gid;
//! 4. sets `no_new_privs` and enforces the Landlock ruleset: the system's directories read and
//!    execute only, the listed readable paths likewise, the listed writable ones read-write,
//!    nothing else; no TCP (when the network is not allowed); no signals or abstract sockets out
//!    of the sandbox.
//!
//! At the end of each case or build [`Prepared::kill_survivors`] kills whatever the job left
//! running, double-forked daemons included, and says whether anything survived.
//!
//! Nothing here knows of cases or scores. Its pieces: [`protections`] (the typed report),
//! `filesystem` (Landlock, system paths), `namespaces` (the job's namespaces), `mounts` (the
//! job's own file tree), `survivors` (the sweep), `toolchain` (what a Rust build reads), `user` (the jobs' users).

pub mod cgroup;
mod environment;
mod filesystem;
mod keys;
mod mounts;
mod namespaces;
mod protections;
mod relay;
mod survivors;
#[cfg(test)]
mod tests;
mod toolchain;
mod user;

use std::ffi::{CString, OsStr, OsString};
use std::fs;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

pub use cgroup::Budget;
pub use filesystem::{SandboxError, DEVICES, SHARED, SYSTEM};
pub use mounts::X11_PATH;
pub use protections::{Protection, Protections, Reason, Status};
pub use survivors::{become_subreaper, Survivors, DEADLINE};
pub use toolchain::Toolchain;
pub use user::{User, BASE_UID};

use cgroup::{Control, JobCgroup};
use namespaces::JobNamespaces;
use survivors::Marker;

/// What a job may reach: plain data, see [`Sandbox::prepare`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sandbox {
    /// Read and execute only: the system's directories ([`SYSTEM`], those that exist).
    pub system: Vec<PathBuf>,
    /// Read and write, never execute: [`DEVICES`] and [`SHARED`] that exist.
    pub devices: Vec<PathBuf>,
    /// Read and execute only, beyond the system's: a toolchain, a JDK elsewhere.
    pub readable: Vec<PathBuf>,
    /// Read, write and execute: the submission, a build's cargo home and target directory.
    pub writable: Vec<PathBuf>,
    /// A private scratch directory (also writable): `HOME` and `TMPDIR` point to a fresh folder
    /// in it for each command, and under a job's user it is made `0700`.
    pub scratch: Option<PathBuf>,
    /// Paths that must stay out of reach (the kit, the reference, results, reports, the other
    /// submissions): preparing fails if one lies under an allowed path, where Landlock could not
    /// keep students out.
    pub hidden: Vec<PathBuf>,
    /// Whether the network may be used.
    pub network: bool,
    /// The user to run as when the grader is root.
    pub user: Option<User>,
    /// The most processes (Linux counts threads too) the job may have at once.
    pub processes: Option<u64>,
    /// What the job as a whole may use, in a control group of its own (none: no control group).
    pub budget: Option<Budget>,
    /// Bytes the job may write in all (its writable folders' changes, its homes), on a `tmpfs`
    /// of its own that its writable folders are layered over, so the grader's copies never
    /// change; none: written in place, bounded only per file.
    pub disk: Option<u64>,
}

impl Default for Sandbox {
    fn default() -> Sandbox {
        Sandbox::new()
    }
}

impl Sandbox {
    /// The system's directories and devices, nothing else, no network, no user, no limit.
    pub fn new() -> Sandbox {
        Sandbox {
            system: filesystem::existing(&SYSTEM),
            devices: filesystem::existing(&DEVICES)
                .into_iter()
                .chain(filesystem::existing(&SHARED))
                .collect(),
            readable: Vec::new(),
            writable: Vec::new(),
            scratch: None,
            hidden: Vec::new(),
            network: false,
            user: None,
            processes: None,
            budget: None,
            disk: None,
        }
    }

    /// Adds a path to read and execute.
    pub fn read(mut self, path: impl Into<PathBuf>) -> Sandbox {
        self.readable.push(path.into());
        self
    }

    /// Adds a path to read, write and execute.
    pub fn write(mut self, path: impl Into<PathBuf>) -> Sandbox {
        self.writable.push(path.into());
        self
    }

    /// Sets the private scratch directory.
    pub fn scratch(mut self, path: impl Into<PathBuf>) -> Sandbox {
        self.scratch = Some(path.into());
        self
    }

    /// Adds a path that must stay out of reach.
    pub fn hide(mut self, path: impl Into<PathBuf>) -> Sandbox {
        self.hidden.push(path.into());
        self
    }

    /// Sets the user to run as when the grader is root.
    pub fn user(mut self, user: User) -> Sandbox {
        self.user = Some(user);
        self
    }

    /// Sets the process limit.
    pub fn processes(mut self, limit: u64) -> Sandbox {
        self.processes = Some(limit);
        self
    }

    /// Puts the job in a control group of its own with `budget`: one memory limit for all its
    /// processes and memory of every kind, a process count, an equal share of the CPUs.
    pub fn budget(mut self, budget: Budget) -> Sandbox {
        self.budget = Some(budget);
        self
    }

    /// Bounds what the job writes in all to `bytes`, on a disk of its own.
    pub fn disk(mut self, bytes: u64) -> Sandbox {
        self.disk = Some(bytes);
        self
    }

    /// The grader's `PATH` with only the folders the job may reach: a shell stops at the first
    /// program of a name it finds, so one it may not run (a Python under `/root/.pyenv`) must not
    /// hide the system's (`/usr/bin/python3`).
    fn search_path(&self, path: &OsStr) -> Option<OsString> {
        let reachable = |dir: &Path| {
            self.system
                .iter()
                .chain(&self.readable)
                .chain(self.all_writable())
                .any(|allowed| dir.starts_with(allowed))
        };
        let kept: Vec<PathBuf> = std::env::split_paths(path)
            .filter(|dir| reachable(dir))
            .collect();
        std::env::join_paths(kept).ok()
    }

    /// Everything a job may write: the writable paths and the scratch directory.
    fn all_writable(&self) -> impl Iterator<Item = &PathBuf> {
        self.writable.iter().chain(&self.scratch)
    }

    /// Prepares the sandbox for one job, in the grader: checks that no hidden path is under an
    /// allowed one, builds the Landlock ruleset, makes the job's namespaces, and, when the grader
    /// is root and a user is given, hands the writable paths to that user. What cannot be set up
    /// on this system is said in [`Prepared::protections`], never skipped silently; an error
    /// means the description itself cannot be honoured (a missing path, a hidden path exposed).
    pub fn prepare(&self) -> Result<Prepared, SandboxError> {
        // SAFETY: geteuid cannot fail.
        let root = unsafe { libc::geteuid() } == 0;
        let allowed: Vec<PathBuf> = self
            .system
            .iter()
            .chain(&self.devices)
            .chain(&self.readable)
            .chain(self.all_writable())
            .cloned()
            .collect();
        filesystem::check_hidden(&allowed, &self.hidden)?;
        for path in self.readable.iter().chain(self.all_writable()) {
            if !path.exists() {
                return Err(SandboxError::Path(path.clone(), "it does not exist".into()));
            }
        }

        let abi = filesystem::abi_version();
        let switch = match (root, self.user) {
            (true, Some(user)) => Some(user),
            _ => None,
        };
        let user_status = match (root, self.user) {
            (true, Some(_)) => Status::InForce,
            (true, None) => Status::NotRequested,
            (false, _) => Status::Unavailable(Reason::NotRoot),
        };
        if let Some(user) = switch {
            for (path, private) in self
                .writable
                .iter()
                .map(|p| (p, false))
                .chain(self.scratch.iter().map(|p| (p, true)))
            {
                filesystem::hand_over(path, user, private)
                    .map_err(|e| SandboxError::Path(path.clone(), e.to_string()))?;
            }
        }

        // A user namespace when not root (the job's identity, and what lets an unprivileged
        // grader make a network namespace); a network namespace unless the network is allowed.
        let want_user = !root;
        let want_net = !self.network;
        let others: Vec<PathBuf> = self
            .readable
            .iter()
            .chain(self.all_writable())
            .cloned()
            .collect();
        let read_only: Vec<PathBuf> = self.system.iter().chain(&self.readable).cloned().collect();
        let plan = mounts::Plan::new(
            &self.system,
            &self.devices,
            &others,
            self.scratch.as_deref(),
            &self.writable,
            self.disk,
            (&read_only, want_net),
        );
        let made = namespaces::make(want_user, want_net, Some(&plan));
        let namespace_error = made.as_ref().err().map(io::Error::to_string);
        let namespaces = made.unwrap_or_else(|e| JobNamespaces::refused(&e.to_string()));
        let JobNamespaces {
            user: userns,
            net: netns,
            mount: mntns,
            ipc: ipcns,
            pid: init,
            inside,
            disk,
            shared,
            nested_refused: nested,
        } = namespaces;
        // On its own disk the job writes below the scratch folder only in its homes.
        let disk = match (self.disk, disk) {
            (None, _) => Status::NotRequested,
            (Some(_), Ok(())) => Status::InForce,
            (Some(_), Err(why)) => Status::Unavailable(Reason::NoDisk(why)),
        };
        let homes = disk.in_force().then(|| self.scratch.clone()).flatten();
        let writable: Vec<PathBuf> = match &homes {
            Some(_) => self.writable.clone(),
            None => self.all_writable().cloned().collect(),
        };
        let read: Vec<PathBuf> = self
            .system
            .iter()
            .chain(&self.readable)
            .chain(&homes)
            .cloned()
            .collect();
        let ruleset = if abi > 0 {
            filesystem::ruleset(&read, &self.devices, &writable, &inside, self.network)?
        } else {
            None
        };
        let landlock = |needed: i32, missing: &'static str, full: Status| {
            if ruleset.is_none() {
                Status::Unavailable(Reason::NoLandlock)
            } else if abi < needed {
                Status::Partly(Reason::LandlockAbi {
                    kernel: abi,
                    needed,
                    missing,
                })
            } else {
                full
            }
        };
        let filesystem = landlock(3, "refusing to truncate files", Status::InForce);
        let filesystem = match filesystem {
            Status::InForce if abi < 5 => Status::Partly(Reason::LandlockAbi {
                kernel: abi,
                needed: 5,
                missing: "refusing ioctl on devices",
            }),
            other => other,
        };
        let signals = match landlock(6, "scoping signals and sockets", Status::InForce) {
            Status::Partly(reason) => Status::Unavailable(reason),
            other => other,
        };
        let sight = match &init {
            Ok(init) => match &init.proc {
                Ok(()) => Status::InForce,
                Err(why) => Status::Partly(Reason::NoFreshProc(why.clone())),
            },
            Err(why) => Status::Unavailable(Reason::Namespaces(why.clone())),
        };
        let objects = match &ipcns {
            Ok(_) => Status::InForce,
            Err(why) => Status::Unavailable(Reason::Namespaces(why.clone())),
        };
        let (mntns, tree) = match mntns {
            Ok(Some(fd)) => match shared {
                Ok(()) => (Some(fd), Status::InForce),
                Err(why) => (Some(fd), Status::Partly(Reason::Shared(why))),
            },
            Ok(None) => (None, Status::NotRequested),
            Err(why) => (None, Status::Unavailable(Reason::NoOwnTree(why))),
        };
        let network = if self.network {
            Status::NotRequested
        } else if netns.is_some() {
            Status::InForce
        } else {
            let why = namespace_error.clone().unwrap_or_default();
            match landlock(4, "refusing TCP", Status::InForce) {
                Status::InForce => Status::Partly(Reason::Namespaces(format!(
                    "{why}; only TCP is refused (Landlock)"
                ))),
                _ => Status::Unavailable(Reason::Namespaces(why)),
            }
        };
        let identity = match (switch, userns) {
            (Some(user), _) => Identity::Switch(user),
            (None, Some((fd, inode))) => Identity::Namespace { fd, inode },
            (None, None) => Identity::Unchanged,
        };
        let no_identity = || match &namespace_error {
            Some(why) if !root => Reason::Namespaces(why.clone()),
            _ => Reason::NoJobIdentity,
        };
        let processes = match (&identity, self.processes) {
            (_, None) => Status::NotRequested,
            (Identity::Switch(_), Some(_)) => Status::InForce,
            (Identity::Namespace { .. }, Some(_)) => match namespaces::kernel_at_least(5, 14) {
                (_, true) => Status::InForce,
                (release, false) => Status::Unavailable(Reason::OldKernel {
                    release,
                    needed: "5.14",
                }),
            },
            (Identity::Unchanged, Some(_)) => Status::Unavailable(no_identity()),
        };
        let processes_limit = match processes {
            Status::InForce => self.processes,
            _ => None,
        };
        let survivors = match (&identity, nested) {
            (Identity::Switch(_), _) => Status::InForce,
            (Identity::Namespace { .. }, Ok(())) => Status::InForce,
            (Identity::Namespace { .. }, Err(why)) => Status::Partly(Reason::NestedNamespaces(why)),
            (Identity::Unchanged, _) => Status::Unavailable(no_identity()),
        };
        let (cgroup, memory, cpu) = self.control_group();
        let protections = Protections {
            user: user_status,
            filesystem,
            network,
            processes,
            survivors,
            signals,
            tree,
            sight,
            objects,
            memory,
            cpu,
            disk,
        };
        let disk = homes.is_some().then(|| {
            inside
                .into_iter()
                .find(|(_, how)| *how == mounts::Inside::Written)
                .map(|(fd, _)| fd)
        });
        if let Some(user) = switch {
            keys::clear(user);
        }
        Ok(Prepared(Arc::new(Inner {
            ruleset,
            identity,
            netns,
            mntns,
            ipcns: ipcns.ok(),
            init: init.ok(),
            cgroup,
            processes: processes_limit,
            scratch: self.scratch.clone(),
            disk: disk.flatten(),
            runs: AtomicUsize::new(0),
            killed: AtomicBool::new(false),
            path: std::env::var_os("PATH").and_then(|path| self.search_path(&path)),
            protections,
        })))
    }

    /// The job's control group, if one is asked for and can be made, with the status of the
    /// memory and the CPU protections.
    fn control_group(&self) -> (Option<JobCgroup>, Status, Status) {
        static JOBS: AtomicUsize = AtomicUsize::new(0);
        let Some(budget) = &self.budget else {
            return (None, Status::NotRequested, Status::NotRequested);
        };
        let name = format!(
            "job-{}-{}",
            std::process::id(),
            JOBS.fetch_add(1, Ordering::Relaxed)
        );
        match JobCgroup::create(&name, budget) {
            Ok(group) => {
                let status = |control: &Control| match control {
                    Control::InForce => Status::InForce,
                    Control::Partly(why) => Status::Partly(Reason::Cgroup(why.to_string())),
                    Control::Unavailable(why) => {
                        Status::Unavailable(Reason::Cgroup(why.to_string()))
                    }
                    Control::NotRequested => Status::NotRequested,
                };
                let (memory, cpu) = (
                    status(&group.controls().memory),
                    status(&group.controls().cpu),
                );
                (Some(group), memory, cpu)
            }
            Err(e) => {
                let why = Reason::Cgroup(e.to_string());
                (
                    None,
                    Status::Unavailable(why.clone()),
                    Status::Unavailable(why),
                )
            }
        }
    }
}

/// Who a job's processes are.
#[derive(Debug)]
enum Identity {
    /// The job's own unprivileged user (the grader is root).
    Switch(User),
    /// The grader's user, in the job's own user namespace.
    Namespace {
        /// The namespace.
        fd: OwnedFd,
        /// Its inode, by which its processes are found.
        inode: u64,
    },
    /// The grader's user, as it is.
    Unchanged,
}

/// A sandbox prepared for one job: apply it to each of the job's commands, kill the survivors
/// after each. Cheap to clone (shared).
#[derive(Clone, Debug)]
pub struct Prepared(Arc<Inner>);

#[derive(Debug)]
struct Inner {
    /// The Landlock ruleset to enforce (none without Landlock).
    ruleset: Option<OwnedFd>,
    identity: Identity,
    /// The network namespace to join (none when the network is allowed or none could be made).
    netns: Option<OwnedFd>,
    /// The mount namespace of the job's own file tree (none if it could not be made).
    mntns: Option<OwnedFd>,
    /// The IPC namespace (none if it could not be made).
    ipcns: Option<OwnedFd>,
    /// The PID namespace's init (none if it could not be made): every command of the job runs
    /// in that namespace, through a relay (see [`relay`]).
    init: Option<namespaces::Init>,
    /// The job's control group (none if not asked for or none could be made).
    cgroup: Option<JobCgroup>,
    /// `RLIMIT_NPROC`, only when it counts the job's processes alone.
    processes: Option<u64>,
    scratch: Option<PathBuf>,
    /// A folder of the job's own disk (when in force), whose file system says how full it is;
    /// the job's homes are then under `scratch`'s [`mounts::HOMES`], made by each command.
    disk: Option<OwnedFd>,
    /// How many commands have been given a home of their own under `scratch`.
    runs: AtomicUsize,
    /// Set by [`Prepared::kill_now`] for good: a command that starts afterwards is killed as it
    /// starts ([`Prepared::killed`]), for the kill can only reach processes already there.
    killed: AtomicBool,
    /// `PATH` with only the folders the job may reach.
    path: Option<OsString>,
    protections: Protections,
}

impl Prepared {
    /// What is in force.
    pub fn protections(&self) -> &Protections {
        &self.0.protections
    }

    /// The uid the job's processes run as, when they run as a user of their own.
    pub fn user(&self) -> Option<User> {
        match self.0.identity {
            Identity::Switch(user) => Some(user),
            _ => None,
        }
    }

    /// Sets `command` up to run in the sandbox: an environment of a short list (`environment`)
    /// with `HOME` and `TMPDIR` in the scratch directory and `PATH` the folders of the
    /// grader's it may reach, and, between fork and exec, the steps of this module's
    /// description, after which no descriptor but 0, 1 and 2 survives the exec. A step that
    /// fails in the child (none is expected: each was prepared) makes the spawn fail with its
    /// error.
    pub fn apply(&self, command: &mut Command) {
        let home = self.0.scratch.as_deref().map(|s| self.fresh_home(s));
        let mut extra: Vec<(&str, &OsStr)> = Vec::new();
        if let Some(home) = &home {
            extra.extend([("HOME", home.as_os_str()), ("TMPDIR", home.as_os_str())]);
        }
        if let Some(path) = &self.0.path {
            extra.push(("PATH", path));
        }
        environment::clean(command, std::env::vars_os(), &extra);
        // The working folder, to go back to once in the job's file tree (joining its mount
        // namespace puts the process at its root): the command's, which must exist there, else
        // the grader's, if it does.
        let here = std::env::current_dir().unwrap_or_default();
        let folder = Folder {
            path: CString::new(
                here.join(command.get_current_dir().unwrap_or(&here))
                    .into_os_string()
                    .into_vec(),
            )
            .unwrap_or_default(),
            required: command.get_current_dir().is_some(),
            home: match (&self.0.disk, &home) {
                (Some(_), Some(home)) => CString::new(home.as_os_str().as_bytes()).ok(),
                _ => None,
            },
        };
        let inner = Arc::clone(&self.0);
        // SAFETY: `enter` only makes system calls (setns, chdir, setrlimit, setgroups,
        // setresgid, setresuid, prctl, landlock_restrict_self) on values prepared before the
        // fork: no allocation, no lock.
        unsafe {
            command.pre_exec(move || inner.enter(&folder));
        }
    }

    /// Puts `socket`, the socket of an X server the grader started for this job alone (a
    /// window's), into the job's file tree, so that the job can connect to it and to no other.
    /// Nothing to do when the job has no file tree of its own ([`Protections::tree`] says so):
    /// the socket is reachable as it is.
    pub fn admit(&self, socket: &Path) -> io::Result<()> {
        match (&self.0.mntns, &self.0.scratch) {
            (Some(_), Some(scratch)) => mounts::admit(scratch, socket),
            (Some(_), None) => Err(io::Error::other(
                "the sandbox has no scratch folder to put the socket in",
            )),
            (None, _) => Ok(()),
        }
    }

    /// A folder of its own under `scratch` for the next command (`run-N`, handed to the job's
    /// user), so that two runs of the job's programs, a copy on one thread and a copy on two
    /// say, do not meet in `HOME` or `TMPDIR`; `scratch` itself if it cannot be made. On the
    /// job's own disk, `scratch/home/run-N`, which the command makes itself (see [`Folder`]).
    fn fresh_home(&self, scratch: &Path) -> PathBuf {
        let run = self.0.runs.fetch_add(1, Ordering::Relaxed);
        if self.0.disk.is_some() {
            return scratch.join(mounts::HOMES).join(format!("run-{run}"));
        }
        let home = scratch.join(format!("run-{run}"));
        let made = fs::create_dir(&home).and_then(|()| match self.user() {
            Some(user) => filesystem::hand_over(&home, user, true),
            None => Ok(()),
        });
        match made {
            Ok(()) => home,
            Err(_) => scratch.to_path_buf(),
        }
    }

    /// Kills every process the job left running (call it at the end of each case and build,
    /// once the grader has waited for the children it started) and returns how many there were;
    /// `Err` lists those still running after [`DEADLINE`]: then nothing the job did may be
    /// trusted yet. `Ok(0)` without doing anything when the job's processes cannot be told
    /// apart ([`Protections::survivors`] says so).
    pub fn kill_survivors(&self) -> Result<usize, Survivors> {
        let swept = match self.job() {
            Some(job) => survivors::sweep(job, DEADLINE)?,
            None => 0,
        };
        // Whatever is still in the job's control group escaped the sweep (a nested namespace).
        match self.0.cgroup.as_ref().map(JobCgroup::kill_all) {
            Some(Err(pids)) => Err(Survivors { pids }),
            Some(Ok(killed)) => Ok(swept + killed),
            None => Ok(swept),
        }
    }

    /// Whether the job's own disk is full (what it wrote reached [`Sandbox::disk`]); false
    /// without one.
    pub fn disk_full(&self) -> bool {
        self.0.disk.as_ref().is_some_and(|fd| {
            // SAFETY: fstatfs writes only the struct it is given.
            let mut stats: libc::statfs = unsafe { std::mem::zeroed() };
            let read = unsafe { libc::fstatfs(fd.as_raw_fd(), &mut stats) };
            read == 0 && stats.f_bavail == 0
        })
    }

    /// Whether the job's processes together went over the job's memory budget since the last
    /// [`Prepared::watch_memory`] (the kernel stopped one of them); false without a control
    /// group.
    pub fn memory_exceeded(&self) -> bool {
        self.0.cgroup.as_ref().is_some_and(JobCgroup::limit_reached)
    }

    /// Every process of the job, from its control group; `None` without one.
    pub fn processes(&self) -> Option<Vec<i32>> {
        self.0.cgroup.as_ref().map(JobCgroup::processes)
    }

    /// Starts watching the job's memory afresh, for a new command.
    pub fn watch_memory(&self) {
        if let Some(group) = &self.0.cgroup {
            group.reset();
        }
    }

    /// Kills every process of the job once, now, reaping none: to stop a job from another
    /// thread while its commands are still being waited for. Does nothing when the job's
    /// processes cannot be told apart ([`Protections::survivors`] says so).
    pub fn kill_now(&self) {
        // Before the processes are looked for: a command whose start ends after this is seen
        // by `killed`, one whose start ended before it is found by the kill.
        self.0.killed.store(true, Ordering::SeqCst);
        if let Some(job) = self.job() {
            survivors::kill_once(job);
        }
    }

    /// Whether [`Prepared::kill_now`] was called: a command started in the job now is to be
    /// killed at once by whoever started it.
    pub fn killed(&self) -> bool {
        self.0.killed.load(Ordering::SeqCst)
    }

    /// Whether process `pid` is one of the job's; `None` when the job's processes cannot be
    /// told apart ([`Protections::survivors`] says so).
    pub fn holds(&self, pid: i32) -> Option<bool> {
        let grouped = self.0.cgroup.as_ref().map(|group| group.contains(pid));
        match (self.job().map(|job| survivors::belongs(job, pid)), grouped) {
            (Some(true), _) | (_, Some(true)) => Some(true),
            (None, None) => None,
            _ => Some(false),
        }
    }

    /// How the job's processes are recognised, if they can be.
    fn job(&self) -> Option<Marker> {
        match &self.0.identity {
            Identity::Switch(user) => Some(Marker::Uid(user.uid)),
            Identity::Namespace { inode, .. } => Some(Marker::UserNamespace {
                inode: *inode,
                init: self.0.init.as_ref().map_or(0, |init| init.pid),
            }),
            Identity::Unchanged => None,
        }
    }

    /// The scratch directory, if there is one.
    pub fn scratch(&self) -> Option<&Path> {
        self.0.scratch.as_deref()
    }
}

impl Drop for Inner {
    /// Clears the keyrings the job's user leaves behind, so that the next job under the same
    /// uid, or anyone after the grader, finds none of its keys.
    fn drop(&mut self) {
        if let Identity::Switch(user) = self.identity {
            keys::clear(user);
        }
    }
}

/// A command's working folder, as a path to `chdir` to between fork and exec (a path with a
/// NUL byte, which cannot exist, becomes empty).
struct Folder {
    path: CString,
    /// Set on the command, so it must exist in the job's tree; else the grader's own, kept if
    /// the tree has it, or the process starts at the root.
    required: bool,
    /// The command's home, to make as the job's user (on the job's own disk, which only the
    /// job's tree has).
    home: Option<CString>,
}

impl Inner {
    /// The child's half, between fork and exec: async-signal-safe system calls only.
    fn enter(&self, folder: &Folder) -> io::Result<()> {
        fn check(result: libc::c_long) -> io::Result<()> {
            if result < 0 {
                Err(io::Error::last_os_error())
            } else {
                Ok(())
            }
        }
        // SAFETY (every block): plain system calls on descriptors this sandbox owns and on
        // integers; the child is single-threaded, as setns into a user namespace requires.
        environment::inherit_none();
        if let Identity::Namespace { fd, .. } = &self.identity {
            check(unsafe { libc::setns(fd.as_raw_fd(), libc::CLONE_NEWUSER) }.into())?;
        }
        if let Some(net) = &self.netns {
            check(unsafe { libc::setns(net.as_raw_fd(), libc::CLONE_NEWNET) }.into())?;
        }
        if let Some(mnt) = &self.mntns {
            check(unsafe { libc::setns(mnt.as_raw_fd(), libc::CLONE_NEWNS) }.into())?;
            let moved = unsafe { libc::chdir(folder.path.as_ptr()) };
            if folder.required {
                check(moved.into())?;
            }
        }
        if let Some(ipc) = &self.ipcns {
            check(unsafe { libc::setns(ipc.as_raw_fd(), libc::CLONE_NEWIPC) }.into())?;
        }
        if let Some(init) = &self.init {
            check(unsafe { libc::setns(init.namespace.as_raw_fd(), libc::CLONE_NEWPID) }.into())?;
            // SAFETY: between fork and exec, as `relay` requires.
            unsafe { relay::split() }?;
        }
        if let Some(group) = &self.cgroup {
            // SAFETY: between fork and exec: writes on descriptors opened before the fork.
            unsafe { group.join() }?;
        }
        if let Some(limit) = self.processes {
            let limit = libc::rlimit {
                rlim_cur: limit,
                rlim_max: limit,
            };
            check(unsafe { libc::setrlimit(libc::RLIMIT_NPROC, &limit) }.into())?;
        }
        if let Identity::Switch(user) = self.identity {
            check(unsafe { libc::setgroups(0, std::ptr::null()) }.into())?;
            check(unsafe { libc::setresgid(user.gid, user.gid, user.gid) }.into())?;
            check(unsafe { libc::setresuid(user.uid, user.uid, user.uid) }.into())?;
        }
        if let Some(home) = &folder.home {
            // Made by the job's user; a full disk leaves it missing, which the program meets.
            unsafe { libc::mkdir(home.as_ptr(), 0o700) };
        }
        // A session keyring of its own, or it would possess the grader's keys; refused where
        // keyrings are (a container's seccomp filter), and then none can be shared either.
        unsafe { libc::syscall(libc::SYS_keyctl, keys::JOIN_SESSION_KEYRING, 0) };
        if self.init.is_some() {
            // The relay is outside the job's namespace: if it dies, so does the program.
            check(unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) }.into())?;
        }
        check(unsafe { libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) }.into())?;
        if let Some(ruleset) = &self.ruleset {
            // The crate's `restrict_self` consumes the ruleset and may allocate on its error
            // paths; the system call itself is all the child needs.
            check(unsafe {
                libc::syscall(libc::SYS_landlock_restrict_self, ruleset.as_raw_fd(), 0)
            })?;
        }
        Ok(())
    }
}
