//! A control group of each grading job (one student's build and every run of their program), so
//! that a student cannot take CPU time, memory of any kind (anonymous, shared mappings, tmpfs
//! pages, pipe buffers) or process-table slots from another student graded beside them or from
//! the grader, as CMS's isolate and nsjail do.
//!
//! [`JobCgroup::create`] finds the cgroup hierarchies in `/proc/self/mountinfo` and the grader's
//! place in each in `/proc/self/cgroup`, and makes the job's cgroup(s) with its [`Budget`]:
//!
//! * cgroup v2 (one unified hierarchy): as root, a leaf `<mount>/connect-four-grade/<name>`
//!   (the folder is shared by every grader and left in place); otherwise a leaf under the
//!   grader's own cgroup, which must be delegated to its user. `memory.max`, `memory.swap.max`
//!   = 0, `memory.oom.group` = 1, `pids.max`, `cpu.weight` = 100, `cpuset.cpus` when asked.
//! * cgroup v1 (a hierarchy per controller): `<mount>/<grader's path there>/<name>` in each of
//!   the memory, pids, cpu, freezer (and, when asked, cpuset) hierarchies.
//!   `memory.limit_in_bytes` and `memory.memsw.limit_in_bytes`, `pids.max`, `cpu.shares` =
//!   1024, `cpuset.cpus` and `cpuset.mems`.
//!
//! What is in force is told by [`JobCgroup::controls`] ([`Controls`], plain data with a typed
//! [`Shortfall`] for what is not); only "no cgroup at all could be made" is an error
//! ([`CgroupError`]). A child joins between fork and exec ([`JobCgroup::join`]: one `write` of
//! `0` to each pre-opened `cgroup.procs`). At the end [`JobCgroup::kill_all`] kills whatever is
//! in the cgroup (a fork loop cannot escape it), and dropping the [`JobCgroup`] removes its
//! directories.

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::ffi::OsStringExt;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use procfs::process::MountInfo;
use procfs::{FromBufRead, FromRead, ProcessCGroup, ProcessCGroups};

use super::survivors::kill_checked;

/// The folder under the cgroup2 mount that holds every job's cgroup when the grader is root
/// (v2). Shared by all graders on the machine, so never removed.
pub const TOP: &str = "connect-four-grade";
/// How long [`JobCgroup::kill_all`] goes on before it reports the processes left.
pub const KILL_DEADLINE: Duration = Duration::from_secs(2);
/// How long removing a directory is retried while the kernel still says it is busy.
const RMDIR_DEADLINE: Duration = Duration::from_secs(1);
/// How long a freeze is waited for before the processes are killed anyway.
const FREEZE_WAIT: Duration = Duration::from_millis(200);
/// How long the processes are waited for after a round of kills, before another round.
const ROUND_WAIT: Duration = Duration::from_millis(50);
/// The pause between two looks at a cgroup.
const PAUSE: Duration = Duration::from_millis(2);
/// `cpu.weight` (v2) of every job: the default, so that jobs share the CPUs equally.
const CPU_WEIGHT: &str = "100";
/// `cpu.shares` (v1) of every job: the default, equal with each job and the grader's group.
const CPU_SHARES: &str = "1024";

/// What one job may use. `None` leaves that resource unlimited (it is still accounted).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Memory of every kind (anonymous, shared, tmpfs, kernel), swap included, in bytes.
    pub memory_bytes: Option<u64>,
    /// Processes and threads at once.
    pub processes: Option<u64>,
    /// The CPUs (numbers as in `/proc/cpuinfo`) the job may run on.
    pub cpus: Option<Vec<usize>>,
}

/// The cgroup version a job's cgroup is made in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Version {
    /// A hierarchy per controller.
    V1,
    /// The unified hierarchy.
    V2,
}

/// A cgroup controller this module uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Controller {
    /// `memory`: the memory budget, OOM kills, the peak.
    Memory,
    /// `pids`: the process limit.
    Pids,
    /// `cpu`: equal CPU time.
    Cpu,
    /// `cpuset`: the CPUs the job may run on.
    Cpuset,
    /// `freezer` (v1): stopping the job while it is killed.
    Freezer,
}

impl Controller {
    /// Its name in the kernel's files.
    pub fn name(self) -> &'static str {
        match self {
            Controller::Memory => "memory",
            Controller::Pids => "pids",
            Controller::Cpu => "cpu",
            Controller::Cpuset => "cpuset",
            Controller::Freezer => "freezer",
        }
    }
}

impl fmt::Display for Controller {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An error number of a system call, kept as plain data (shown as the system's message).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", io::Error::from_raw_os_error(*.0))]
pub struct Errno(pub i32);

impl Errno {
    /// The error number of `error` (`EIO` for an error that has none, such as a short write).
    fn of(error: &io::Error) -> Errno {
        Errno(error.raw_os_error().unwrap_or(libc::EIO))
    }
}

/// Why a control is not (fully) in force.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Shortfall {
    /// No hierarchy has the controller: v1, none is mounted with it; v2, the root's
    /// `cgroup.controllers` lacks it (the kernel has no such controller, or it is in use by v1).
    #[error("no cgroup hierarchy has the {controller} controller on this system")]
    Absent { controller: Controller },
    /// v2: the controller is not delegated to the grader's cgroup (absent from its
    /// `cgroup.controllers`, or enabling it was refused as not available).
    #[error(
        "the {controller} controller is not delegated to the grader's cgroup {}; run grade as \
         root, or under `systemd-run --user --scope -p Delegate=yes grade ...`",
        .cgroup.display()
    )]
    NotDelegated {
        controller: Controller,
        /// The cgroup it was missing in.
        cgroup: PathBuf,
    },
    /// v2: the controller cannot be enabled for the jobs because their parent cgroup has
    /// processes of its own (the "no internal processes" rule): the grader runs in it.
    #[error(
        "the {controller} controller cannot be enabled below {}, which has processes other \
         than the grader's; run grade as root, or in a scope of its own: \
         `systemd-run --user --scope -p Delegate=yes grade ...`",
        .cgroup.display()
    )]
    InternalProcesses {
        controller: Controller,
        /// The parent cgroup.
        cgroup: PathBuf,
    },
    /// The job's cgroup in the controller's hierarchy could not be made or prepared.
    #[error("the job's {controller} cgroup could not be set up: {}: {errno}", .path.display())]
    Setup {
        controller: Controller,
        /// The file or directory that failed.
        path: PathBuf,
        errno: Errno,
    },
    /// The kernel refused a value written to a control file.
    #[error("writing {value:?} to {} failed: {errno}", .path.display())]
    Refused {
        /// The file.
        path: PathBuf,
        /// The value written.
        value: String,
        errno: Errno,
    },
    /// Swap is on and cannot be limited (no `memory.swap.max`, no `memory.memsw.*`: swap
    /// accounting is off), so swapped-out pages extend the memory budget.
    #[error(
        "swap is on and the kernel does not account it per cgroup, so swap extends the memory \
         budget"
    )]
    SwapNotLimited,
    /// The budget asked for an empty list of CPUs.
    #[error("the budget's list of CPUs is empty")]
    NoCpus,
}

/// Whether one control is in force for a job.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Control {
    /// Fully in force.
    InForce,
    /// In force in part; the reason says what is missing.
    Partly(Shortfall),
    /// Not in force; the reason says why.
    Unavailable(Shortfall),
    /// Not asked for by the [`Budget`].
    #[default]
    NotRequested,
}

impl Control {
    /// Whether the control is fully in force.
    pub fn in_force(&self) -> bool {
        matches!(self, Control::InForce)
    }
}

/// What a job's cgroup has in force.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Controls {
    /// The memory budget ([`Budget::memory_bytes`]), swap included.
    pub memory: Control,
    /// The process limit ([`Budget::processes`]).
    pub processes: Control,
    /// CPU time shared equally with every other job (v2 `cpu.weight`, v1 `cpu.shares`).
    pub cpu: Control,
    /// The CPUs the job may run on ([`Budget::cpus`]).
    pub cpus: Control,
}

impl Controls {
    /// Whether every control asked for is fully in force.
    pub fn all_in_force(&self) -> bool {
        [&self.memory, &self.processes, &self.cpu, &self.cpus]
            .iter()
            .all(|c| matches!(c, Control::InForce | Control::NotRequested))
    }
}

/// Why no cgroup could be made for a job.
#[derive(Debug, thiserror::Error)]
pub enum CgroupError {
    /// The name is not a single path component (empty, `.`, `..`, a `/`, a NUL or newline).
    #[error("{name:?} cannot name a cgroup (one path component is needed)")]
    InvalidName {
        /// The name given.
        name: String,
    },
    /// `/proc/self/mountinfo` or `/proc/self/cgroup` could not be read.
    #[error("cannot read {}: {source}", .path.display())]
    Read {
        /// The file.
        path: PathBuf,
        source: io::Error,
    },
    /// No cgroup hierarchy is mounted in which the grader has a place.
    #[error("no cgroup hierarchy is mounted (none in /proc/self/mountinfo that the grader is in)")]
    NoHierarchy,
    /// v2, not root: the grader's own cgroup is not delegated to its user (a job's cgroup
    /// cannot be made in it).
    #[error(
        "the grader's cgroup {} is not delegated to it ({source}): run grade as root, or \
         under `systemd-run --user --scope -p Delegate=yes grade ...`",
        .cgroup.display()
    )]
    NotDelegated {
        /// The grader's cgroup.
        cgroup: PathBuf,
        /// Why making the job's cgroup in it failed.
        source: io::Error,
    },
    /// No job directory could be made in any hierarchy.
    #[error("no cgroup could be made for the job:{}", attempts_text(.attempts))]
    NothingCreated {
        /// Each directory tried, with why it failed.
        attempts: Vec<(PathBuf, io::Error)>,
    },
}

/// The directories tried for a job's cgroup, each ` PATH: WHY;`.
fn attempts_text(attempts: &[(PathBuf, io::Error)]) -> String {
    attempts
        .iter()
        .map(|(path, error)| format!(" {}: {error};", path.display()))
        .collect()
}

/// One directory of a job's cgroup(s): a single leaf on v2, one per hierarchy on v1.
#[derive(Debug)]
struct JobDir {
    /// The directory.
    path: PathBuf,
    /// The hierarchy's id, as the first field of `/proc/PID/cgroup` (0 on v2).
    id: u32,
    /// The cgroup's path as `/proc/PID/cgroup` shows it.
    proc_path: String,
}

/// How [`JobCgroup::kill_all`] stops the job's processes before and while killing them.
#[derive(Debug)]
enum Halt {
    /// v2 `cgroup.kill` (Linux 5.14): the kernel kills every process at once.
    Kill(PathBuf),
    /// v2 `cgroup.freeze` (Linux 5.2), in this leaf.
    FreezeV2(PathBuf),
    /// v1 freezer, in this directory.
    FreezeV1(PathBuf),
    /// None: SIGKILL to each process, over and over.
    Signals,
}

/// Where the job's memory counters are read.
#[derive(Debug)]
struct Memory {
    /// The job's memory cgroup.
    dir: PathBuf,
    /// v1: whether the memsw (memory + swap) counters exist.
    memsw: bool,
}

/// A job's control group(s): made by [`JobCgroup::create`], joined by the job's processes
/// ([`JobCgroup::join`]), killed and removed when dropped.
#[derive(Debug)]
pub struct JobCgroup {
    version: Version,
    dirs: Vec<JobDir>,
    /// Each directory's `cgroup.procs`, open for writing (same order as `dirs`).
    procs: Vec<OwnedFd>,
    controls: Controls,
    memory: Option<Memory>,
    /// v1: the memory budget, when it is in force, which a peak at it shows was reached.
    limit: Option<u64>,
    stop: Halt,
    /// v2 `memory.peak`, kept open: writing to it (Linux 6.12) resets the peak this descriptor
    /// reads.
    peak: Option<File>,
    /// The OOM-kill count at the last [`JobCgroup::reset`].
    oom_base: AtomicU64,
    /// The limit-hit count at the last [`JobCgroup::reset`].
    hits_base: AtomicU64,
}

impl JobCgroup {
    /// Makes the job's cgroup(s) named `name` (the caller makes it unique per machine, e.g.
    /// `grade-<grader pid>-<uid>`) with `budget`. A controller that is missing or refuses a
    /// value is reported in [`JobCgroup::controls`]; only a job with no cgroup at all is an
    /// error.
    pub fn create(name: &str, budget: &Budget) -> Result<JobCgroup, CgroupError> {
        if !valid_name(name) {
            return Err(CgroupError::InvalidName {
                name: name.to_owned(),
            });
        }
        let mountinfo = read_proc("/proc/self/mountinfo")?;
        let cgroup = read_proc("/proc/self/cgroup")?;
        let mounts = cgroup_mounts(&mountinfo);
        let members = memberships(&cgroup);
        let v2 = place(&mounts, &members, None);
        let v2_count = v2.as_ref().map(|p| {
            let available = words(&p.mount_point.join("cgroup.controllers"));
            WANTED
                .iter()
                .filter(|c| available.contains(c.name()))
                .count()
        });
        let v1_count = WANTED
            .iter()
            .filter(|c| place(&mounts, &members, Some(c.name())).is_some())
            .count();
        let v1_freezer = place(&mounts, &members, Some(Controller::Freezer.name())).is_some();
        match (choose(v2_count, v1_count, v1_freezer), v2) {
            (Some(Version::V2), Some(place)) => {
                create_in(name, budget, &mounts, &members, Some(place))
            }
            (Some(Version::V1), _) => create_in(name, budget, &mounts, &members, None),
            _ => Err(CgroupError::NoHierarchy),
        }
    }

    /// What is in force, with a reason for what is not.
    pub fn controls(&self) -> &Controls {
        &self.controls
    }

    /// Joins the calling process (all its threads) to the job's cgroup(s), with one `write` of
    /// `0` to each pre-opened `cgroup.procs`: no allocation, no lock, nothing but
    /// async-signal-safe system calls. Call it between fork and exec (`pre_exec`), before the
    /// child changes user or namespaces.
    ///
    /// # Safety
    ///
    /// Meant for a forked child: called in the grader, it moves the grader itself into the
    /// job (whose budget and `kill_all` then apply to it). The [`JobCgroup`] must outlive the
    /// call (its descriptors are used).
    pub unsafe fn join(&self) -> io::Result<()> {
        for fd in &self.procs {
            // SAFETY: a write of one byte from a static buffer to a descriptor we own.
            let n = unsafe { libc::write(fd.as_raw_fd(), b"0".as_ptr().cast(), 1) };
            if n < 0 {
                return Err(io::Error::last_os_error());
            }
            if n != 1 {
                return Err(io::Error::from(io::ErrorKind::WriteZero));
            }
        }
        Ok(())
    }

    /// How many processes the kernel's OOM killer killed in the job's cgroup since `create` or
    /// the last [`JobCgroup::reset`]: v2 `memory.events` `oom_kill`, v1 `memory.oom_control`
    /// `oom_kill` (Linux 4.13; before, the times the limit was hit, `failcnt`). 0 without a
    /// memory cgroup.
    pub fn oom_kills(&self) -> u64 {
        self.raw_oom_kills()
            .saturating_sub(self.oom_base.load(Ordering::Relaxed))
    }

    /// How many times the job's memory use reached its budget since `create` or the last
    /// [`JobCgroup::reset`] (reclaim may have made room, or an allocation failed, or a process
    /// was OOM-killed): v2 `memory.events` `max`, v1 `memory.failcnt` + `memory.memsw.failcnt`
    /// (which recent kernels leave at 0: ask [`JobCgroup::limit_reached`]).
    pub fn limit_hits(&self) -> u64 {
        self.raw_limit_hits()
            .saturating_sub(self.hits_base.load(Ordering::Relaxed))
    }

    /// Whether the job's memory use reached its budget since `create` or the last
    /// [`JobCgroup::reset`]: an OOM kill, a counted hit, or (v1, whose counts of hits recent
    /// kernels no longer keep) a peak at the budget. Whether a case failed for lack of memory.
    pub fn limit_reached(&self) -> bool {
        if self.oom_kills() > 0 || self.limit_hits() > 0 {
            return true;
        }
        match (self.version, self.limit, self.peak_memory()) {
            (Version::V1, Some(limit), Some(peak)) => peak >= limit,
            _ => false,
        }
    }

    /// Starts counting [`JobCgroup::oom_kills`] and [`JobCgroup::limit_hits`] afresh, and the
    /// peak where the kernel can reset it (v1; v2 from Linux 6.12): call it before each case to
    /// ask afterwards "did this case hit it?".
    pub fn reset(&self) {
        self.oom_base.store(self.raw_oom_kills(), Ordering::Relaxed);
        self.hits_base
            .store(self.raw_limit_hits(), Ordering::Relaxed);
        if let Some(peak) = &self.peak {
            let _ = (&*peak).write(b"reset");
        }
        if let (Version::V1, Some(memory)) = (self.version, &self.memory) {
            let _ = write_value(&memory.dir.join("memory.max_usage_in_bytes"), "0");
            if memory.memsw {
                let _ = write_value(&memory.dir.join("memory.memsw.max_usage_in_bytes"), "0");
            }
        }
    }

    /// The job's peak memory use in bytes, where the kernel tells it: v2 `memory.peak` (Linux
    /// 5.19), v1 `memory.memsw.max_usage_in_bytes` (memory and swap) or
    /// `memory.max_usage_in_bytes`.
    pub fn peak_memory(&self) -> Option<u64> {
        match self.version {
            Version::V2 => {
                let peak = self.peak.as_ref()?;
                let mut buffer = [0u8; 32];
                let n = peak.read_at(&mut buffer, 0).ok()?;
                std::str::from_utf8(&buffer[..n]).ok()?.trim().parse().ok()
            }
            Version::V1 => {
                let memory = self.memory.as_ref()?;
                let file = if memory.memsw {
                    "memory.memsw.max_usage_in_bytes"
                } else {
                    "memory.max_usage_in_bytes"
                };
                number(&memory.dir.join(file))
            }
        }
    }

    /// The processes now in the job's cgroup(s) (host pids, sorted).
    pub fn processes(&self) -> Vec<i32> {
        // Every process joins all of the job's cgroups before it runs (and its children are
        // born in them), so one that can be read lists them all: it is read often (each
        // question asked), the others need not be.
        let listed = self
            .dirs
            .iter()
            .find_map(|dir| fs::read_to_string(dir.path.join("cgroup.procs")).ok());
        let mut pids: Vec<i32> = listed
            .iter()
            .flat_map(|text| text.lines())
            .filter_map(|l| l.trim().parse().ok())
            .collect();
        pids.sort_unstable();
        pids
    }

    /// Whether process `pid` is in the job's cgroup (or below it), as `/proc/PID/cgroup` says.
    pub fn contains(&self, pid: i32) -> bool {
        let Ok(memberships) = ProcessCGroups::from_file(format!("/proc/{pid}/cgroup")) else {
            return false;
        };
        memberships.0.iter().any(|m| {
            self.dirs
                .iter()
                .any(|d| d.id == m.hierarchy && within(&m.pathname, &d.proc_path))
        })
    }

    /// Kills every process in the job's cgroup(s) and waits, up to [`KILL_DEADLINE`], until
    /// none is left: v2 `cgroup.kill` where it exists, else freeze, SIGKILL each, thaw; v1 the
    /// same with the freezer hierarchy, or SIGKILL over and over without one. Returns how many
    /// processes were killed, or those left at the deadline.
    pub fn kill_all(&self) -> Result<usize, Vec<i32>> {
        let deadline = Instant::now() + KILL_DEADLINE;
        let mut killed = BTreeSet::new();
        loop {
            let left = self.processes();
            if left.is_empty() {
                return Ok(killed.len());
            }
            if Instant::now() >= deadline {
                return Err(left);
            }
            killed.extend(left.iter().copied());
            match &self.stop {
                Halt::Kill(file) => {
                    if write_value(file, "1").is_err() {
                        self.signal_each(&mut killed);
                    }
                }
                Halt::FreezeV2(dir) => {
                    let frozen = write_value(&dir.join("cgroup.freeze"), "1").is_ok();
                    if frozen {
                        wait_until(FREEZE_WAIT, || {
                            counter(&dir.join("cgroup.events"), "frozen") == Some(1)
                        });
                    }
                    self.signal_each(&mut killed);
                    if frozen {
                        let _ = write_value(&dir.join("cgroup.freeze"), "0");
                    }
                }
                Halt::FreezeV1(dir) => {
                    let state = dir.join("freezer.state");
                    let frozen = write_value(&state, "FROZEN").is_ok();
                    if frozen {
                        wait_until(FREEZE_WAIT, || {
                            fs::read_to_string(&state).is_ok_and(|s| s.trim() == "FROZEN")
                        });
                    }
                    self.signal_each(&mut killed);
                    if frozen {
                        let _ = write_value(&state, "THAWED");
                    }
                }
                Halt::Signals => self.signal_each(&mut killed),
            }
            let round = ROUND_WAIT.min(deadline.saturating_duration_since(Instant::now()));
            wait_until(round, || self.processes().is_empty());
        }
    }

    /// Sends SIGKILL to each process now in the cgroup, adding it to `killed`. Each is first
    /// held by a pidfd and checked to be still the job's, so a reused pid is never signalled.
    fn signal_each(&self, killed: &mut BTreeSet<i32>) {
        for pid in self.processes() {
            killed.insert(pid);
            let checked = kill_checked(pid, |pid| self.contains(pid));
            // No pidfd (Linux < 5.3, out of descriptors): a plain kill, checked just before.
            if checked.is_err_and(|e| e.raw_os_error() != Some(libc::ESRCH)) && self.contains(pid) {
                // SAFETY: kill with integer arguments.
                unsafe { libc::kill(pid, libc::SIGKILL) };
            }
        }
    }

    fn raw_oom_kills(&self) -> u64 {
        let Some(memory) = &self.memory else { return 0 };
        match self.version {
            Version::V2 => counter(&memory.dir.join("memory.events"), "oom_kill").unwrap_or(0),
            Version::V1 => counter(&memory.dir.join("memory.oom_control"), "oom_kill")
                .unwrap_or_else(|| self.raw_limit_hits()),
        }
    }

    fn raw_limit_hits(&self) -> u64 {
        let Some(memory) = &self.memory else { return 0 };
        match self.version {
            Version::V2 => counter(&memory.dir.join("memory.events"), "max").unwrap_or(0),
            Version::V1 => {
                let plain = number(&memory.dir.join("memory.failcnt")).unwrap_or(0);
                let memsw = if memory.memsw {
                    number(&memory.dir.join("memory.memsw.failcnt")).unwrap_or(0)
                } else {
                    0
                };
                plain.saturating_add(memsw)
            }
        }
    }

    /// Adds a directory made for the job, with its `cgroup.procs` opened; on failure the
    /// directory is removed again.
    fn adopt(&mut self, path: PathBuf, id: u32, proc_path: String) -> io::Result<usize> {
        match open_procs(&path) {
            Ok(fd) => {
                self.dirs.push(JobDir {
                    path,
                    id,
                    proc_path,
                });
                self.procs.push(fd);
                Ok(self.dirs.len() - 1)
            }
            Err(error) => {
                remove_dir(&path);
                Err(error)
            }
        }
    }
}

impl Drop for JobCgroup {
    /// Kills whatever is left in the job's cgroup(s), then removes each directory (the shared
    /// v2 folder [`TOP`] stays). Never panics.
    fn drop(&mut self) {
        let _ = self.kill_all();
        self.procs.clear();
        self.peak = None;
        for dir in self.dirs.iter().rev() {
            remove_dir(&dir.path);
        }
    }
}

/// The controllers counted to choose between v1 and v2 (cpuset only when asked, freezer v1
/// only).
const WANTED: [Controller; 3] = [Controller::Memory, Controller::Pids, Controller::Cpu];

/// Which version to make jobs in: the one with more of [`WANTED`] (v2 on a tie), then any
/// cgroup2 mount (to kill and track, with no limits), then a v1 freezer alone.
fn choose(v2: Option<usize>, v1: usize, v1_freezer: bool) -> Option<Version> {
    match v2 {
        Some(n) if n > 0 && n >= v1 => Some(Version::V2),
        _ if v1 > 0 => Some(Version::V1),
        Some(_) => Some(Version::V2),
        None if v1_freezer => Some(Version::V1),
        None => None,
    }
}

/// Makes the job's cgroup: v1, a directory per hierarchy (`v2` is `None`); v2, a single leaf
/// under [`TOP`] as root, else under the grader's own (delegated) cgroup at `v2`. Then sets it
/// up by `budget`. The versions differ only in their files: those of the other (v2's
/// `memory.oom.group` and `memory.peak`, v1's memsw counters) are looked for and quietly missed.
fn create_in(
    name: &str,
    budget: &Budget,
    mounts: &[MountInfo],
    members: &[ProcessCGroup],
    v2: Option<Place>,
) -> Result<JobCgroup, CgroupError> {
    let cpus = asked_cpus(budget);
    // The freezer is v1's alone: v2 has none to enable (it freezes with `cgroup.freeze`).
    let mut wanted = vec![
        Controller::Memory,
        Controller::Pids,
        Controller::Cpu,
        Controller::Freezer,
    ];
    if matches!(cpus, Some(Ok(_))) {
        wanted.push(Controller::Cpuset);
    }
    // Each controller's directory (an index into job.dirs), or why it has none.
    let mut found: Vec<(Controller, Result<usize, Shortfall>)> = Vec::new();
    // Where to make a directory, and the controllers it serves.
    let mut hierarchies: Vec<(Place, Vec<Controller>)> = Vec::new();
    // v2, not root: the grader's own cgroup, where a refusal means it is not delegated.
    let mut own = None;
    let version = match v2 {
        None => {
            for controller in wanted {
                match place(mounts, members, Some(controller.name())) {
                    None => found.push((controller, Err(Shortfall::Absent { controller }))),
                    Some(place) => match hierarchies.iter_mut().find(|(p, _)| p.id == place.id) {
                        Some((_, controllers)) => controllers.push(controller),
                        None => hierarchies.push((place, vec![controller])),
                    },
                }
            }
            Version::V1
        }
        Some(place) => {
            // The jobs' parent, and the cgroups (from the top) whose subtree_control must
            // enable a controller for the jobs to have it.
            let (parent, chain) = match v2_parent(&place)? {
                Some(top) => (top.clone(), vec![place.mount_point.clone(), top.dir]),
                None => {
                    let (dir, path) = settle(&place);
                    own = Some(dir.clone());
                    let chain = vec![dir.clone()];
                    (Place { dir, path, ..place }, chain)
                }
            };
            let available = words(&chain[0].join("cgroup.controllers"));
            let mut enabled = Vec::new();
            for controller in wanted {
                let result = match &own {
                    _ if available.contains(controller.name()) => chain
                        .iter()
                        .try_for_each(|cgroup| enable(cgroup, controller)),
                    Some(cgroup) => Err(Shortfall::NotDelegated {
                        controller,
                        cgroup: cgroup.clone(),
                    }),
                    None => Err(Shortfall::Absent { controller }),
                };
                match result {
                    Ok(()) => enabled.push(controller),
                    Err(reason) => found.push((controller, Err(reason))),
                }
            }
            hierarchies.push((parent, enabled));
            Version::V2
        }
    };
    // Nothing made yet: what its `Drop` removes if this gives up half-way.
    let mut job = JobCgroup {
        version,
        dirs: Vec::new(),
        procs: Vec::new(),
        controls: Controls::default(),
        memory: None,
        limit: None,
        stop: Halt::Signals,
        peak: None,
        oom_base: AtomicU64::new(0),
        hits_base: AtomicU64::new(0),
    };
    let mut attempts = Vec::new();
    for (place, controllers) in hierarchies {
        let path = place.dir.join(name);
        let made = match make_job_dir(&path) {
            Err(source) if own.is_some() && denied(&source) => {
                return Err(CgroupError::NotDelegated {
                    cgroup: place.dir,
                    source,
                })
            }
            made => made.map_err(|e| (path.clone(), e)),
        }
        .and_then(|()| {
            if place.cpuset {
                // v1 refuses tasks in a cpuset with no CPUs or memory nodes.
                let asked = cpus.as_ref().and_then(|c| c.as_ref().ok());
                fill_cpuset(&place.dir, &path, asked.map(String::as_str)).inspect_err(|_| {
                    remove_dir(&path);
                })
            } else {
                Ok(())
            }
        })
        .and_then(|()| {
            job.adopt(path.clone(), place.id, join_path(&place.path, name))
                .map_err(|e| (path.join("cgroup.procs"), e))
        });
        for &controller in &controllers {
            found.push((
                controller,
                match &made {
                    Ok(index) => Ok(*index),
                    Err((path, error)) => Err(Shortfall::Setup {
                        controller,
                        path: path.clone(),
                        errno: Errno::of(error),
                    }),
                },
            ));
        }
        if let Err(attempt) = made {
            attempts.push(attempt);
        }
    }
    if job.dirs.is_empty() {
        return Err(CgroupError::NothingCreated { attempts });
    }
    let dirs: Vec<PathBuf> = job.dirs.iter().map(|d| d.path.clone()).collect();
    let dir_of = |controller: Controller| -> Result<PathBuf, Shortfall> {
        match found.iter().find(|(c, _)| *c == controller) {
            Some((_, Ok(index))) => Ok(dirs[*index].clone()),
            Some((_, Err(reason))) => Err(reason.clone()),
            None => Err(Shortfall::Absent { controller }),
        }
    };
    if let Ok(dir) = dir_of(Controller::Memory) {
        // An OOM kills the whole job, not one process that a fork loop replaces.
        let _ = set(&dir, "memory.oom.group", "1");
        job.peak = OpenOptions::new()
            .read(true)
            .write(true)
            .open(dir.join("memory.peak"))
            .or_else(|_| File::open(dir.join("memory.peak")))
            .ok();
        job.memory = Some(Memory {
            memsw: dir.join("memory.memsw.failcnt").exists(),
            dir,
        });
    }
    let first = &dirs[0];
    job.stop = if let Ok(dir) = dir_of(Controller::Freezer) {
        Halt::FreezeV1(dir)
    } else if first.join("cgroup.kill").exists() {
        Halt::Kill(first.join("cgroup.kill"))
    } else if first.join("cgroup.freeze").exists() {
        Halt::FreezeV2(first.clone())
    } else {
        Halt::Signals
    };
    job.controls = controls(version, budget, cpus, dir_of);
    if matches!(job.controls.memory, Control::InForce | Control::Partly(_)) {
        job.limit = budget.memory_bytes;
    }
    Ok(job)
}

/// v2 as root: the shared folder [`TOP`] for the jobs, made if need be; `None` where it cannot
/// be used (a user namespace's root, a read-only cgroupfs): the grader's own cgroup then.
fn v2_parent(place: &Place) -> Result<Option<Place>, CgroupError> {
    // SAFETY: geteuid cannot fail.
    if unsafe { libc::geteuid() } != 0 {
        return Ok(None);
    }
    let top = place.mount_point.join(TOP);
    match fs::create_dir(&top) {
        Err(e) if e.kind() != io::ErrorKind::AlreadyExists && !denied(&e) => {
            return Err(CgroupError::NothingCreated {
                attempts: vec![(top, e)],
            })
        }
        _ => {}
    }
    Ok((top.is_dir() && writable(&top)).then(|| Place {
        dir: top,
        path: join_path(&place.mount_path, TOP),
        ..place.clone()
    }))
}

/// Whether making a cgroup directory was refused for want of rights (not delegated, a user
/// namespace's root, a read-only cgroupfs).
fn denied(error: &io::Error) -> bool {
    matches!(
        error.raw_os_error(),
        Some(libc::EACCES | libc::EPERM | libc::EROFS)
    )
}

/// The grader's own cgroup (v2, not root), for its jobs to go in: a cgroup with processes in it
/// cannot give its children controllers (the kernel's "no internal processes" rule), so the
/// grader first moves itself into a leaf of it, `grader-PID`, once (it is then found there, and
/// its parent returned). Where the move is refused (not delegated, or not only the grader's),
/// the cgroup as it is: enabling the controllers then says why.
fn settle(place: &Place) -> (PathBuf, String) {
    let leaf = format!("grader-{}", std::process::id());
    let parent = |dir: &Path, path: &str| {
        let up = path.rsplit_once('/').map_or("/", |(up, _)| up);
        let up = if up.is_empty() { "/" } else { up };
        (dir.parent().unwrap_or(dir).to_path_buf(), up.to_string())
    };
    if place.dir.file_name().is_some_and(|name| *name == *leaf) {
        return parent(&place.dir, &place.path);
    }
    let inner = place.dir.join(&leaf);
    let moved = match fs::create_dir(&inner) {
        Ok(()) => true,
        Err(e) => e.kind() == io::ErrorKind::AlreadyExists,
    } && write_value(&inner.join("cgroup.procs"), &std::process::id().to_string())
        .is_ok();
    if !moved {
        let _ = fs::remove_dir(&inner);
    }
    (place.dir.clone(), place.path.clone())
}

/// Enables `controller` for the children of `cgroup` (v2), unless it already is.
fn enable(cgroup: &Path, controller: Controller) -> Result<(), Shortfall> {
    let file = cgroup.join("cgroup.subtree_control");
    if words(&file).contains(controller.name()) {
        return Ok(());
    }
    let value = format!("+{}", controller.name());
    write_value(&file, &value).map_err(|error| match error.raw_os_error() {
        Some(libc::EBUSY) => Shortfall::InternalProcesses {
            controller,
            cgroup: cgroup.to_path_buf(),
        },
        Some(libc::ENOENT) => Shortfall::NotDelegated {
            controller,
            cgroup: cgroup.to_path_buf(),
        },
        _ => Shortfall::Refused {
            path: file,
            value,
            errno: Errno::of(&error),
        },
    })
}

/// v1: gives a new cpuset directory its memory nodes (the parent's) and CPUs (`cpus`, else
/// the parent's), without which no task may join it.
fn fill_cpuset(parent: &Path, dir: &Path, cpus: Option<&str>) -> Result<(), (PathBuf, io::Error)> {
    for (file, value) in [("cpuset.mems", None), ("cpuset.cpus", cpus)] {
        let value = match value {
            Some(v) => v.to_owned(),
            None => fs::read_to_string(parent.join(file))
                .map_err(|e| (parent.join(file), e))?
                .trim()
                .to_owned(),
        };
        write_value(&dir.join(file), &value).map_err(|e| (dir.join(file), e))?;
    }
    Ok(())
}

/// The CPU list asked for, as the kernel reads it (`0,2,3`), or why it cannot be used.
fn asked_cpus(budget: &Budget) -> Option<Result<String, Shortfall>> {
    let cpus = budget.cpus.as_ref()?;
    if cpus.is_empty() {
        return Some(Err(Shortfall::NoCpus));
    }
    let list: Vec<String> = cpus.iter().map(usize::to_string).collect();
    Some(Ok(list.join(",")))
}

/// A numeric limit (`pids.max`): not requested, unavailable, or written.
fn limit(value: Option<u64>, dir: &Result<PathBuf, Shortfall>, file: &str) -> Control {
    match (value, dir) {
        (None, _) => Control::NotRequested,
        (Some(_), Err(reason)) => Control::Unavailable(reason.clone()),
        (Some(value), Ok(dir)) => status(set(dir, file, &value.to_string())),
    }
}

/// What `budget` (its CPUs asked for as `cpus`) puts in force in the job's cgroup(s) of
/// `version`, each controller's directory as `dir` gives it (or why it has none).
fn controls(
    version: Version,
    budget: &Budget,
    cpus: Option<Result<String, Shortfall>>,
    dir: impl Fn(Controller) -> Result<PathBuf, Shortfall>,
) -> Controls {
    let (cpu_file, share) = match version {
        Version::V1 => ("cpu.shares", CPU_SHARES),
        Version::V2 => ("cpu.weight", CPU_WEIGHT),
    };
    Controls {
        memory: memory_limit(version, budget.memory_bytes, &dir(Controller::Memory)),
        processes: limit(budget.processes, &dir(Controller::Pids), "pids.max"),
        cpu: match dir(Controller::Cpu) {
            Ok(dir) => status(set(&dir, cpu_file, share)),
            Err(reason) => Control::Unavailable(reason),
        },
        cpus: match (cpus, dir(Controller::Cpuset)) {
            (None, _) => Control::NotRequested,
            (Some(Err(reason)), _) | (Some(Ok(_)), Err(reason)) => Control::Unavailable(reason),
            // v1 wrote the list when it made the directory.
            (Some(Ok(_)), Ok(_)) if version == Version::V1 => Control::InForce,
            (Some(Ok(list)), Ok(dir)) => status(set(&dir, "cpuset.cpus", &list)),
        },
    }
}

/// The memory budget of `bytes` in `dir`: the limit, then swap's (v1 memory and swap together,
/// which may never be below the plain limit, so written after it; v2 no swap at all).
fn memory_limit(version: Version, bytes: Option<u64>, dir: &Result<PathBuf, Shortfall>) -> Control {
    let both = bytes.unwrap_or_default().to_string();
    let (file, swap_file, swap) = match version {
        Version::V1 => (
            "memory.limit_in_bytes",
            "memory.memsw.limit_in_bytes",
            &*both,
        ),
        Version::V2 => ("memory.max", "memory.swap.max", "0"),
    };
    match (limit(bytes, dir, file), dir) {
        (Control::InForce, Ok(dir)) => match set(dir, swap_file, swap) {
            Ok(()) => Control::InForce,
            Err(Shortfall::Refused { errno, .. }) if errno.0 == libc::ENOENT => {
                swap_gap(Shortfall::SwapNotLimited)
            }
            Err(reason) => swap_gap(reason),
        },
        (control, _) => control,
    }
}

/// The control a single write gives.
fn status(result: Result<(), Shortfall>) -> Control {
    match result {
        Ok(()) => Control::InForce,
        Err(reason) => Control::Unavailable(reason),
    }
}

/// The memory budget when swap cannot be limited: fully in force if no swap is on.
fn swap_gap(reason: Shortfall) -> Control {
    let swap_on = fs::read_to_string("/proc/swaps").map_or(true, |s| s.lines().count() > 1);
    if swap_on {
        Control::Partly(reason)
    } else {
        Control::InForce
    }
}

/// Writes `value` to control file `file` of `dir`, as a typed refusal on failure.
fn set(dir: &Path, file: &str, value: &str) -> Result<(), Shortfall> {
    let path = dir.join(file);
    write_value(&path, value).map_err(|error| Shortfall::Refused {
        errno: Errno::of(&error),
        path,
        value: value.to_owned(),
    })
}

/// Writes `value` to a cgroup file in one `write(2)`, as cgroup files require.
fn write_value(path: &Path, value: &str) -> io::Result<()> {
    let mut file = OpenOptions::new().write(true).open(path)?;
    let n = file.write(value.as_bytes())?;
    if n != value.len() {
        return Err(io::Error::from(io::ErrorKind::WriteZero));
    }
    Ok(())
}

/// Opens a directory's `cgroup.procs` for writing (close-on-exec).
fn open_procs(dir: &Path) -> io::Result<OwnedFd> {
    let file = OpenOptions::new()
        .write(true)
        .open(dir.join("cgroup.procs"))?;
    Ok(OwnedFd::from(file))
}

/// Makes a job's directory. One left by a grader that died (same name, no process left) is
/// removed and made again; one still in use is an error (`EEXIST`). Beside it, the empty
/// directories of graders no longer running (`job-PID-N` whose PID is gone: one killed before
/// it could remove them) are removed first.
fn make_job_dir(path: &Path) -> io::Result<()> {
    if let Some(parent) = path.parent() {
        remove_stale(parent);
    }
    match fs::create_dir(path) {
        Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {
            if fs::remove_dir(path).is_err() {
                return Err(error);
            }
            fs::create_dir(path)
        }
        other => other,
    }
}

/// Removes the directories in `parent` named `job-PID-N` (a job's) or `grader-PID` (where an
/// unprivileged grader moved itself, see [`settle`]) whose grader (PID) is no longer running and
/// that hold no process (the kernel refuses to remove any other).
fn remove_stale(parent: &Path) {
    for entry in fs::read_dir(parent).into_iter().flatten().flatten() {
        let name = entry.file_name();
        let owner = name
            .to_str()
            .and_then(|n| n.strip_prefix("job-").or_else(|| n.strip_prefix("grader-")))
            .and_then(|rest| rest.split('-').next())
            .and_then(|pid| pid.parse::<u32>().ok());
        if owner.is_some_and(|pid| !Path::new(&format!("/proc/{pid}")).exists()) {
            let _ = fs::remove_dir(entry.path());
        }
    }
}

/// Removes a job's directory, retrying while the kernel says it is busy (processes still
/// exiting); gives up quietly after [`RMDIR_DEADLINE`].
fn remove_dir(path: &Path) {
    let deadline = Instant::now() + RMDIR_DEADLINE;
    loop {
        match fs::remove_dir(path) {
            Err(error)
                if error.raw_os_error() == Some(libc::EBUSY) && Instant::now() < deadline =>
            {
                thread::sleep(PAUSE * 5);
            }
            _ => return,
        }
    }
}

/// Whether the calling user may make entries in `dir`.
fn writable(dir: &Path) -> bool {
    let Ok(path) = std::ffi::CString::new(dir.as_os_str().as_encoded_bytes()) else {
        return false;
    };
    // SAFETY: access on a NUL-terminated path.
    unsafe { libc::access(path.as_ptr(), libc::W_OK | libc::X_OK) == 0 }
}

/// Polls `done` every [`PAUSE`] for up to `limit`; whether it became true.
fn wait_until(limit: Duration, mut done: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + limit;
    loop {
        if done() {
            return true;
        }
        if Instant::now() >= deadline {
            return false;
        }
        thread::sleep(PAUSE);
    }
}

/// The whitespace-separated words of a file (`cgroup.controllers`, `cgroup.subtree_control`);
/// none if it cannot be read.
fn words(path: &Path) -> BTreeSet<String> {
    fs::read_to_string(path)
        .map(|s| s.split_whitespace().map(str::to_owned).collect())
        .unwrap_or_default()
}

/// The number a file holds.
fn number(path: &Path) -> Option<u64> {
    fs::read_to_string(path).ok()?.trim().parse().ok()
}

/// The value of `key` in a flat-keyed file (`memory.events`, `memory.oom_control`).
fn counter(path: &Path, key: &str) -> Option<u64> {
    let text = fs::read_to_string(path).ok()?;
    text.lines().find_map(|line| {
        let (k, v) = line.split_once(' ')?;
        (k == key).then(|| v.trim().parse().ok())?
    })
}

/// Reads a file of `/proc`, as a typed error.
fn read_proc(path: &str) -> Result<String, CgroupError> {
    fs::read_to_string(path).map_err(|source| CgroupError::Read {
        path: PathBuf::from(path),
        source,
    })
}

/// Whether `name` is one path component that a cgroup may have.
fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name != "."
        && name != ".."
        && name.len() <= 255
        && !name.contains(['/', '\0', '\n'])
}

/// `name` below the cgroup at `base` (paths as `/proc/PID/cgroup` shows them).
fn join_path(base: &str, name: &str) -> String {
    format!("{}/{name}", base.strip_suffix('/').unwrap_or(base))
}

/// Whether cgroup path `path` is `base` or below it.
fn within(path: &str, base: &str) -> bool {
    base == "/"
        || path == base
        || path
            .strip_prefix(base)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// The cgroup filesystems (v1 and v2) of a `/proc/PID/mountinfo`, their root (the cgroup at
/// the mount's root, as `/proc/PID/cgroup` paths go) and mount point unescaped: the crate leaves
/// them as mountinfo writes them.
pub(crate) fn cgroup_mounts(text: &str) -> Vec<MountInfo> {
    text.lines()
        .filter_map(|line| MountInfo::from_line(line).ok())
        .filter(|m| m.fs_type == "cgroup" || m.fs_type == "cgroup2")
        .map(|mut m| {
            m.root = String::from_utf8_lossy(&unescape(&m.root)).into_owned();
            let point = unescape(&m.mount_point.to_string_lossy());
            m.mount_point = PathBuf::from(OsString::from_vec(point));
            m
        })
        .collect()
}

/// Undoes mountinfo's octal escapes (`\040` for a space, `\134` for a backslash).
fn unescape(field: &str) -> Vec<u8> {
    let bytes = field.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let octal = bytes
            .get(i + 1..i + 4)
            .filter(|d| bytes[i] == b'\\' && d.iter().all(|b| (b'0'..=b'7').contains(b)));
        match octal {
            Some(d) => {
                let value = d.iter().fold(0u32, |v, b| v * 8 + u32::from(b - b'0'));
                out.push(u8::try_from(value).unwrap_or(b'?'));
                i += 4;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    out
}

/// The lines of a `/proc/PID/cgroup` (none if it cannot be parsed).
pub(crate) fn memberships(text: &str) -> Vec<ProcessCGroup> {
    ProcessCGroups::from_buf_read(text.as_bytes()).map_or(Vec::new(), |c| c.0)
}

/// Where the grader is in one hierarchy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Place {
    /// The hierarchy's id in `/proc/PID/cgroup` (0 for v2).
    id: u32,
    /// The grader's cgroup directory.
    pub(crate) dir: PathBuf,
    /// The grader's cgroup as `/proc/PID/cgroup` shows it.
    path: String,
    /// Where the hierarchy is mounted.
    pub(crate) mount_point: PathBuf,
    /// The mount's root cgroup as `/proc/PID/cgroup` paths go.
    mount_path: String,
    /// v1: whether the hierarchy has the cpuset controller.
    cpuset: bool,
}

/// The grader's place in the v1 hierarchy that has `controller`, or (`None`) in the v2 one:
/// among the hierarchy's mounts, the one whose root holds its cgroup (the widest such, usually
/// `/`), else the first (a cgroup namespace's view).
pub(crate) fn place(
    mounts: &[MountInfo],
    members: &[ProcessCGroup],
    controller: Option<&str>,
) -> Option<Place> {
    let member = members.iter().find(|m| match controller {
        Some(c) => m.hierarchy != 0 && m.controllers.iter().any(|name| name == c),
        None => m.hierarchy == 0 && m.controllers.is_empty(),
    })?;
    let candidates = mounts.iter().filter(|m| match controller {
        Some(c) => m.fs_type == "cgroup" && m.super_options.contains_key(c),
        None => m.fs_type == "cgroup2",
    });
    let path = &member.pathname;
    let mount = candidates
        .clone()
        .filter(|m| within(path, &m.root))
        .min_by_key(|m| m.root.len())
        .or_else(|| candidates.clone().next())?;
    let relative = if within(path, &mount.root) && mount.root != "/" {
        &path[mount.root.len()..]
    } else {
        path.as_str()
    };
    let relative = relative.trim_start_matches('/');
    let dir = if relative.is_empty() {
        mount.mount_point.clone()
    } else {
        mount.mount_point.join(relative)
    };
    let mount_path = if mount.root.starts_with("/..") {
        "/".to_owned()
    } else {
        mount.root.clone()
    };
    Some(Place {
        id: member.hierarchy,
        dir,
        path: path.clone(),
        mount_point: mount.mount_point.clone(),
        mount_path,
        cpuset: mount.fs_type == "cgroup" && mount.super_options.contains_key("cpuset"),
    })
}

#[cfg(test)]
mod tests {
    //! Parsers and choices on strings (any machine); real job cgroups on this kind of machine
    //! (root, cgroups mounted): these fail, not pass, where cgroups cannot be made.

    use std::os::unix::process::{CommandExt, ExitStatusExt};
    use std::process::{Child, Command, Stdio};
    use std::sync::Arc;

    use super::*;

    const MIB: u64 = 1 << 20;

    /// A v1 machine's mountinfo (this kind of machine: v1 controllers, an empty cgroup2).
    const V1_MOUNTINFO: &str = "\
31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,relatime - cgroup cgroup rw,cpu,cpuacct
34 31 0:31 / /sys/fs/cgroup/cpuset rw,relatime - cgroup cgroup rw,cpuset
35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
37 31 0:34 / /sys/fs/cgroup/freezer rw,relatime - cgroup cgroup rw,freezer
39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
40 31 0:37 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,xattr,name=systemd
41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
50 23 0:40 / /tmp/with\\040space rw - ext4 /dev/sda1 rw";

    const V1_CGROUP: &str = "\
9:name=systemd:/
8:pids:/
6:freezer:/
4:memory:/process_api/5717d04072e5adb6c699ed3c352d023f
3:cpuset:/
2:cpu,cpuacct:/
0::/";

    /// A v2-only machine (systemd): the grader in a login session.
    const V2_MOUNTINFO: &str = "22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw
35 24 0:30 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot";
    const V2_CGROUP: &str = "0::/user.slice/user-1000.slice/session-2.scope\n";

    #[test]
    fn finds_the_graders_places_on_a_v1_machine() {
        let mounts = cgroup_mounts(V1_MOUNTINFO);
        assert_eq!(mounts.len(), 7, "the cgroup mounts alone: {mounts:?}");
        let members = memberships(V1_CGROUP);
        let memory = place(&mounts, &members, Some("memory")).unwrap();
        assert_eq!(memory.id, 4);
        assert_eq!(
            memory.dir,
            Path::new("/sys/fs/cgroup/memory/process_api/5717d04072e5adb6c699ed3c352d023f")
        );
        assert_eq!(memory.path, "/process_api/5717d04072e5adb6c699ed3c352d023f");
        assert_eq!(
            join_path(&memory.path, "job"),
            "/process_api/5717d04072e5adb6c699ed3c352d023f/job"
        );
        let cpu = place(&mounts, &members, Some("cpu")).unwrap();
        assert_eq!(cpu.dir, Path::new("/sys/fs/cgroup/cpu,cpuacct"));
        assert_eq!(join_path(&cpu.path, "job"), "/job");
        assert!(!cpu.cpuset && place(&mounts, &members, Some("cpuset")).unwrap().cpuset);
        assert!(place(&mounts, &members, Some("cpuacct")).is_some());
        // name=systemd is no controller; "cpuacct" is not "cpu".
        assert!(place(&mounts, &members, Some("systemd")).is_none());
        assert!(place(&mounts, &members, Some("blkio")).is_none());
        // The empty cgroup2 of a hybrid machine.
        let v2 = place(&mounts, &members, None).unwrap();
        assert_eq!(v2.dir, Path::new("/sys/fs/cgroup/unified"));
        assert_eq!(choose(Some(0), 3, true), Some(Version::V1));
    }

    #[test]
    fn finds_the_graders_place_on_a_v2_machine() {
        let mounts = cgroup_mounts(V2_MOUNTINFO);
        let members = memberships(V2_CGROUP);
        let v2 = place(&mounts, &members, None).unwrap();
        assert_eq!(
            v2.dir,
            Path::new("/sys/fs/cgroup/user.slice/user-1000.slice/session-2.scope")
        );
        assert_eq!(v2.mount_point, Path::new("/sys/fs/cgroup"));
        assert_eq!(join_path(&v2.mount_path, TOP), "/connect-four-grade");
        assert!(place(&mounts, &members, Some("memory")).is_none());
        assert_eq!(choose(Some(3), 0, false), Some(Version::V2));
        assert_eq!(choose(Some(0), 0, false), Some(Version::V2));
        assert_eq!(choose(None, 0, true), Some(Version::V1));
        assert_eq!(choose(None, 0, false), None);
    }

    #[test]
    fn maps_a_mount_whose_root_is_not_the_hierarchy_root() {
        // A container's cgroupfs bound from the host's `/docker/abc`.
        let mounts = cgroup_mounts(
            "60 50 0:32 /docker/abc /sys/fs/cgroup/memory ro - cgroup cgroup rw,memory",
        );
        let members = memberships("4:memory:/docker/abc/inner\n");
        let place = place(&mounts, &members, Some("memory")).unwrap();
        assert_eq!(place.dir, Path::new("/sys/fs/cgroup/memory/inner"));
        assert_eq!(place.path, "/docker/abc/inner");
        assert!(within("/docker/abc/inner/job", "/docker/abc/inner"));
        assert!(!within("/docker/abc/inner-2", "/docker/abc/inner"));
    }

    #[test]
    fn unescapes_mount_points() {
        let mounts = cgroup_mounts(
            "70 31 0:50 / /mnt/a\\040b\\134c rw - cgroup2 cgroup2 rw\nnot a mountinfo line",
        );
        assert_eq!(mounts.len(), 1);
        assert_eq!(mounts[0].mount_point, Path::new("/mnt/a b\\c"));
        assert_eq!(unescape("\\04"), b"\\04");
    }

    #[test]
    fn rejects_names_that_are_not_one_component() {
        for name in ["", ".", "..", "a/b", "a\nb"] {
            assert!(
                matches!(
                    JobCgroup::create(name, &Budget::default()),
                    Err(CgroupError::InvalidName { .. })
                ),
                "{name:?}"
            );
        }
    }

    #[test]
    fn controls_explain() {
        let controls = Controls {
            memory: Control::Partly(Shortfall::SwapNotLimited),
            processes: Control::Unavailable(Shortfall::InternalProcesses {
                controller: Controller::Pids,
                cgroup: "/sys/fs/cgroup/a".into(),
            }),
            cpu: Control::Unavailable(Shortfall::Refused {
                path: "/x/cpu.weight".into(),
                value: "100".into(),
                errno: Errno(libc::EACCES),
            }),
            cpus: Control::NotRequested,
        };
        assert!(!controls.all_in_force());
        let Control::Unavailable(refused) = &controls.cpu else {
            unreachable!()
        };
        assert!(
            refused.to_string().contains("Permission denied"),
            "{refused}"
        );
        let error = CgroupError::NotDelegated {
            cgroup: "/sys/fs/cgroup/user.slice".into(),
            source: io::Error::from_raw_os_error(libc::EACCES),
        };
        assert!(error
            .to_string()
            .contains("systemd-run --user --scope -p Delegate=yes"));
    }

    // ---- Real cgroups (root, this kind of machine). ----

    fn require_root() {
        // SAFETY: geteuid cannot fail.
        let euid = unsafe { libc::geteuid() };
        assert_eq!(
            euid, 0,
            "these tests make cgroups, which needs root (as in CI)"
        );
    }

    /// A name no other test (or test run) uses.
    fn unique(tag: &str) -> String {
        format!("cgroup-test-{}-{tag}", std::process::id())
    }

    /// A job cgroup with the tests' budget (64 MiB, 16 processes), every control in force.
    fn job(tag: &str, cpus: Option<Vec<usize>>) -> Arc<JobCgroup> {
        require_root();
        let budget = Budget {
            memory_bytes: Some(64 * MIB),
            processes: Some(16),
            cpus,
        };
        let cgroup = JobCgroup::create(&unique(tag), &budget)
            .unwrap_or_else(|e| panic!("no job cgroup: {e}"));
        assert!(cgroup.controls().all_in_force(), "{:?}", cgroup.controls());
        Arc::new(cgroup)
    }

    /// Starts `program` in the job's cgroup (joined between fork and exec).
    fn spawn_in(cgroup: &Arc<JobCgroup>, program: &str, args: &[&str], stdout: Stdio) -> Child {
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(Stdio::null())
            .stdout(stdout)
            .stderr(Stdio::null());
        let joined = Arc::clone(cgroup);
        // SAFETY: join only writes to pre-opened descriptors (async-signal-safe).
        unsafe {
            command.pre_exec(move || joined.join());
        }
        command
            .spawn()
            .expect("the child starts in the job's cgroup")
    }

    /// Whether process `pid` exists and is not a zombie.
    fn alive(pid: i32) -> bool {
        procfs::process::Stat::from_file(format!("/proc/{pid}/stat"))
            .is_ok_and(|stat| !matches!(stat.state, 'Z' | 'X'))
    }

    #[test]
    fn a_shared_mapping_beyond_the_budget_is_oom_killed() {
        let cgroup = job("shared-map", None);
        assert_eq!(cgroup.oom_kills(), 0);
        let script = "import mmap\nm = mmap.mmap(-1, 200 << 20)\n\
                      for i in range(0, 200 << 20, 4096):\n    m[i] = 1\n";
        let status = spawn_in(&cgroup, "python3", &["-c", script], Stdio::null())
            .wait()
            .unwrap();
        assert_eq!(status.signal(), Some(libc::SIGKILL), "{status:?}");
        assert!(cgroup.oom_kills() >= 1, "oom kills {}", cgroup.oom_kills());
        assert!(cgroup.limit_reached());
        let peak = cgroup.peak_memory().expect("the kernel tells the peak");
        assert!((32 * MIB..=64 * MIB).contains(&peak), "peak {peak}");
        cgroup.reset();
        assert_eq!(cgroup.oom_kills(), 0);
        assert_eq!(cgroup.limit_hits(), 0);
        assert!(!cgroup.limit_reached());
    }

    #[test]
    fn tmpfs_pages_count_against_the_budget() {
        let cgroup = job("tmpfs", None);
        let file = PathBuf::from(format!("/dev/shm/{}", unique("tmpfs")));
        let script = format!(
            "f = open({:?}, 'wb')\nb = b'x' * (1 << 20)\nfor _ in range(200):\n    f.write(b)\nf.close()\n",
            file.display().to_string()
        );
        let status = spawn_in(&cgroup, "python3", &["-c", &script], Stdio::null())
            .wait()
            .unwrap();
        let size = fs::metadata(&file).map(|m| m.len()).unwrap_or(0);
        let _ = fs::remove_file(&file);
        assert!(!status.success(), "200 MiB written to tmpfs: {status:?}");
        assert!(size <= 64 * MIB, "{size} bytes written");
        assert!(cgroup.limit_reached(), "the budget was not hit");
    }

    /// A fork loop that outlives failed forks (Python catches them), each child a `sleep`.
    const FORK_LOOP: &str = "import os\nwhile True:\n    try:\n        if os.fork() == 0:\n            \
                             os.execvp('sleep', ['sleep', '10'])\n    except OSError:\n        pass\n";

    /// Runs [`FORK_LOOP`] in a job whose `kill_all` stops it by `stop` (the job's own way when
    /// `None`), and checks that it stays within the limit and nothing of it survives.
    fn kill_a_fork_loop(tag: &str, stop: Option<fn(&Path) -> Halt>) {
        let mut cgroup = Arc::into_inner(job(tag, None)).expect("the only reference");
        if let Some(stop) = stop {
            cgroup.stop = stop(&cgroup.dirs[0].path);
        }
        let cgroup = Arc::new(cgroup);
        let mut child = spawn_in(&cgroup, "python3", &["-c", FORK_LOOP], Stdio::null());
        let full = wait_until(Duration::from_secs(3), || cgroup.processes().len() == 16);
        let mut most = 0;
        for _ in 0..20 {
            most = most.max(cgroup.processes().len());
            thread::sleep(Duration::from_millis(5));
        }
        assert!(full && most == 16, "{most} processes");
        let killed = cgroup.kill_all().expect("nothing survives");
        assert!(killed >= 16, "{killed} killed");
        assert_eq!(cgroup.processes(), Vec::<i32>::new());
        assert_eq!(child.wait().unwrap().signal(), Some(libc::SIGKILL));
    }

    #[test]
    fn a_persistent_fork_loop_is_killed_by_the_default_way() {
        kill_a_fork_loop("loop-default", None);
    }

    #[test]
    fn a_persistent_fork_loop_is_killed_by_signals_alone() {
        kill_a_fork_loop("loop-signals", Some(|_| Halt::Signals));
    }

    #[test]
    fn a_v2_leaf_tracks_kills_and_is_removed() {
        // This machine's cgroup2 (hybrid: `unified`, no controllers) or a v2 machine's.
        require_root();
        let mounts = cgroup_mounts(&fs::read_to_string("/proc/self/mountinfo").unwrap());
        let members = memberships(&fs::read_to_string("/proc/self/cgroup").unwrap());
        let place = place(&mounts, &members, None).expect("a cgroup2 mount");
        let available = words(&place.mount_point.join("cgroup.controllers"));
        for way in ["kill", "freeze"] {
            let budget = Budget {
                memory_bytes: Some(64 * MIB),
                processes: None,
                cpus: None,
            };
            let mut cgroup = create_in(
                &unique(&format!("v2-{way}")),
                &budget,
                &mounts,
                &members,
                Some(place.clone()),
            )
            .expect("a v2 leaf");
            let leaf = cgroup.dirs[0].path.clone();
            let top = place.mount_point.join(TOP);
            assert_eq!(leaf.parent(), Some(top.as_path()));
            assert_eq!(cgroup.version, Version::V2);
            for (controller, control) in [
                (Controller::Memory, &cgroup.controls().memory),
                (Controller::Cpu, &cgroup.controls().cpu),
            ] {
                if available.contains(controller.name()) {
                    assert_eq!(control, &Control::InForce);
                } else {
                    assert_eq!(
                        control,
                        &Control::Unavailable(Shortfall::Absent { controller })
                    );
                }
            }
            assert_eq!(cgroup.controls().processes, Control::NotRequested);
            assert!(matches!(cgroup.stop, Halt::Kill(_)), "{:?}", cgroup.stop);
            if way == "freeze" {
                cgroup.stop = Halt::FreezeV2(leaf.clone());
            }
            let cgroup = Arc::new(cgroup);
            let mut child = spawn_in(
                &cgroup,
                "sh",
                &["-c", "for i in 1 2 3 4 5; do sleep 30 & done; wait"],
                Stdio::null(),
            );
            let pid = i32::try_from(child.id()).unwrap();
            assert!(wait_until(Duration::from_secs(2), || cgroup
                .processes()
                .len()
                == 6));
            assert!(cgroup.contains(pid));
            assert!(!cgroup.contains(i32::try_from(std::process::id()).unwrap()));
            assert_eq!(cgroup.kill_all(), Ok(6));
            assert_eq!(child.wait().unwrap().signal(), Some(libc::SIGKILL));
            drop(Arc::into_inner(cgroup).expect("the only reference"));
            assert!(!leaf.exists(), "{} is left", leaf.display());
            assert!(top.is_dir(), "the shared folder stays");
        }
    }

    #[test]
    fn tells_its_processes_from_others() {
        let cgroup = job("contains", None);
        let mut child = spawn_in(&cgroup, "sleep", &["30"], Stdio::null());
        let pid = i32::try_from(child.id()).unwrap();
        assert!(cgroup.contains(pid));
        assert!(!cgroup.contains(i32::try_from(std::process::id()).unwrap()));
        assert_eq!(cgroup.processes(), vec![pid]);
        assert_eq!(cgroup.kill_all(), Ok(1));
        assert!(child.wait().unwrap().signal() == Some(libc::SIGKILL));
        assert!(!cgroup.contains(pid));
        assert_eq!(cgroup.kill_all(), Ok(0));
    }

    #[test]
    fn drop_kills_and_removes_every_directory() {
        let cgroup = job("drop", None);
        let dirs: Vec<PathBuf> = cgroup.dirs.iter().map(|d| d.path.clone()).collect();
        let expected = match cgroup.version {
            Version::V1 => 4, // memory, pids, cpu, freezer
            Version::V2 => 1,
        };
        assert_eq!(dirs.len(), expected, "{dirs:?}");
        assert!(dirs.iter().all(|d| d.is_dir()));
        let mut child = spawn_in(
            &cgroup,
            "sh",
            &["-c", "for i in 1 2 3 4 5; do sleep 30 & done; wait"],
            Stdio::null(),
        );
        let six = wait_until(Duration::from_secs(2), || cgroup.processes().len() == 6);
        let pids = cgroup.processes();
        assert!(six, "{pids:?}");
        let cgroup = Arc::into_inner(cgroup).expect("the only reference");
        drop(cgroup);
        for dir in &dirs {
            assert!(!dir.exists(), "{} is left", dir.display());
        }
        assert_eq!(child.wait().unwrap().signal(), Some(libc::SIGKILL));
        let living: Vec<&i32> = pids.iter().filter(|&&pid| alive(pid)).collect();
        assert!(living.is_empty(), "{living:?} still run");
        if let Some(top) = dirs[0].parent().filter(|p| p.ends_with(TOP)) {
            assert!(top.is_dir(), "the shared folder stays");
        }
    }

    #[test]
    fn the_empty_directories_of_a_grader_no_longer_running_are_removed() {
        let first = job("stale-first", None);
        let parents: Vec<PathBuf> = first
            .dirs
            .iter()
            .filter_map(|d| d.path.parent())
            .map(Path::to_path_buf)
            .collect();
        let mut gone = Command::new("true").spawn().unwrap();
        let dead = gone.id();
        gone.wait().unwrap();
        let own = std::process::id();
        for parent in &parents {
            fs::create_dir_all(parent.join(format!("job-{dead}-0"))).unwrap();
            fs::create_dir_all(parent.join(format!("grader-{dead}"))).unwrap();
            fs::create_dir_all(parent.join(format!("job-{own}-9999"))).unwrap();
        }
        let _second = job("stale-second", None);
        for parent in &parents {
            for stale in [format!("job-{dead}-0"), format!("grader-{dead}")] {
                assert!(!parent.join(stale).exists(), "{}", parent.display());
            }
            let live = parent.join(format!("job-{own}-9999"));
            assert!(live.is_dir(), "a running grader's is kept");
            fs::remove_dir(live).unwrap();
        }
    }

    #[test]
    fn an_unprivileged_grader_goes_into_a_leaf_of_its_cgroup_once_and_its_jobs_beside_it() {
        let dir = tempfile::tempdir().unwrap();
        let place = |dir: PathBuf, path: &str| Place {
            id: 0,
            dir,
            path: path.into(),
            mount_point: PathBuf::from("/sys/fs/cgroup"),
            mount_path: "/".into(),
            cpuset: false,
        };
        let scope = dir.path().join("grade.scope");
        fs::create_dir(&scope).unwrap();
        // Not a cgroup: the move is refused, and the jobs go in the cgroup as it is.
        let here = place(scope.clone(), "/user.slice/grade.scope");
        assert_eq!(
            settle(&here),
            (scope.clone(), "/user.slice/grade.scope".into())
        );
        assert_eq!(
            fs::read_dir(&scope).unwrap().count(),
            0,
            "the leaf tried is removed"
        );
        // Moved already: the jobs go beside the grader's leaf.
        let leaf = format!("grader-{}", std::process::id());
        let inside = place(
            scope.join(&leaf),
            &format!("/user.slice/grade.scope/{leaf}"),
        );
        assert_eq!(settle(&inside), (scope, "/user.slice/grade.scope".into()));
        let top = place(dir.path().join(&leaf), &format!("/{leaf}"));
        assert_eq!(settle(&top), (dir.path().to_path_buf(), "/".into()));
    }

    #[test]
    fn a_cpu_list_confines_the_job() {
        let cgroup = job("cpuset", Some(vec![0]));
        assert_eq!(cgroup.controls().cpus, Control::InForce);
        let child = spawn_in(
            &cgroup,
            "sh",
            &["-c", "grep Cpus_allowed_list /proc/self/status"],
            Stdio::piped(),
        );
        let output = child.wait_with_output().unwrap();
        let text = String::from_utf8_lossy(&output.stdout);
        assert_eq!(text.split_whitespace().nth(1), Some("0"), "{text}");
    }

    #[test]
    fn an_empty_cpu_list_is_reported_not_fatal() {
        require_root();
        let budget = Budget {
            memory_bytes: None,
            processes: None,
            cpus: Some(vec![]),
        };
        let cgroup = JobCgroup::create(&unique("no-cpus"), &budget).expect("a job cgroup");
        assert_eq!(
            cgroup.controls().cpus,
            Control::Unavailable(Shortfall::NoCpus)
        );
        assert_eq!(cgroup.controls().memory, Control::NotRequested);
        assert_eq!(cgroup.controls().cpu, Control::InForce);
    }
}
