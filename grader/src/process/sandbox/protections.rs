//! What a prepared sandbox has in force, as data: one [`Status`] for each [`Protection`], and
//! for every protection that is not (fully) in force the [`Reason`] why. Reporters render it
//! (the terminal, the Markdown report, results.json); nothing here is worded for students
//! beyond the `Display` of a reason. A protection is never left out: the report always has
//! every one.

use std::fmt;

/// One of the things the sandbox protects against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Protection {
    /// The program runs as an unprivileged user of its own (only when the grader is root).
    User,
    /// Landlock: only the system's directories, the listed readable paths and the listed
    /// writable ones can be reached; the kit, the reference and the results cannot.
    Filesystem,
    /// No network: a network namespace of the job's own (only a loopback, down), and Landlock's
    /// TCP rules where the kernel has them.
    Network,
    /// The process limit is enforced by the kernel (`RLIMIT_NPROC` counting only this job's
    /// processes), before it is exceeded.
    Processes,
    /// Everything the job started, double-forked daemons included, can be found and killed.
    Survivors,
    /// Landlock's scopes: signals and abstract UNIX sockets cannot reach processes outside the
    /// sandbox (the grader, the instructor's other processes).
    Signals,
    /// A file tree of the job's own (a mount namespace): only the paths the sandbox allows
    /// exist, so no named socket, FIFO or device elsewhere (the grading user's tmux, D-Bus,
    /// ssh-agent, X server, a Docker socket) can be reached, and `/dev/shm` is the job's own.
    Tree,
    /// Processes of its own: a PID namespace with a fresh `/proc`, so no process outside the
    /// job (the grader, the TA's shell and its command lines, other students) can be seen.
    Sight,
    /// Kernel objects of its own: an IPC namespace (System V shared memory, semaphores, message
    /// queues, POSIX message queues) and keyrings, gone when the job ends.
    Objects,
    /// One memory limit for the whole job (a control group): every kind of memory (its
    /// processes together, shared mappings, `/dev/shm`, pipes), past which the kernel stops it.
    Memory,
    /// A fair share of the CPUs (a control group): a job's busy processes cannot take CPU time
    /// from another job or from the grader.
    Cpu,
    /// A disk of its own: everything the job writes (its build's output, its files, its homes)
    /// goes to a `tmpfs` of a bounded size layered over the submission, gone with the job; the
    /// submission folder never changes.
    Disk,
}

impl Protection {
    /// Every protection, in the order reports list them.
    pub const ALL: [Protection; 12] = [
        Protection::User,
        Protection::Filesystem,
        Protection::Tree,
        Protection::Sight,
        Protection::Objects,
        Protection::Memory,
        Protection::Cpu,
        Protection::Disk,
        Protection::Network,
        Protection::Processes,
        Protection::Survivors,
        Protection::Signals,
    ];
}

impl fmt::Display for Protection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Protection::User => "unprivileged user",
            Protection::Filesystem => "filesystem",
            Protection::Network => "network",
            Protection::Processes => "process limit",
            Protection::Survivors => "no survivors",
            Protection::Signals => "signals and abstract sockets",
            Protection::Tree => "own file tree (no outside sockets)",
            Protection::Sight => "own processes (nothing else in /proc)",
            Protection::Objects => "own IPC objects and keyrings",
            Protection::Memory => "memory limit of the whole job",
            Protection::Cpu => "fair share of the CPUs",
            Protection::Disk => "disk of its own, bounded",
        })
    }
}

/// Whether a protection is in force.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Fully in force.
    InForce,
    /// In force in part; the reason says what is missing.
    Partly(Reason),
    /// Not in force on this system; the reason says why.
    Unavailable(Reason),
    /// Not asked for by the sandbox's description (network allowed, no process limit, no user
    /// given).
    NotRequested,
}

impl Status {
    /// Whether the protection is fully in force.
    pub fn in_force(&self) -> bool {
        matches!(self, Status::InForce)
    }
}

/// Why a protection is not (fully) in force.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Reason {
    /// The grader is not root, so it cannot switch to an unprivileged user.
    #[error("the grader does not run as root, so student code runs as the grader's user")]
    NotRoot,
    /// The kernel has no Landlock, or it is disabled at boot.
    #[error("the kernel has no Landlock (or it is disabled)")]
    NoLandlock,
    /// The kernel's Landlock is older than what a part of the protection needs.
    #[error("the kernel's Landlock is version {kernel}; {missing} needs version {needed}")]
    LandlockAbi {
        /// The kernel's Landlock ABI version.
        kernel: i32,
        /// The version that brings what is missing.
        needed: i32,
        /// What is missing.
        missing: &'static str,
    },
    /// The job's namespaces could not be made (user namespaces disabled, or not permitted).
    #[error("no namespaces for the job: {0}")]
    Namespaces(String),
    /// Processes cannot be told apart by user or namespace: neither a dedicated user (root) nor a
    /// user namespace of the job's own is available.
    #[error(
        "student processes cannot be told apart from the grader's: no dedicated user and no \
         user namespace"
    )]
    NoJobIdentity,
    /// The job's user namespace could not be kept from making nested ones, in which a process
    /// could hide from the search for survivors.
    #[error("nested user namespaces, where a process could hide, cannot be refused: {0}")]
    NestedNamespaces(String),
    /// The job's own file tree could not be made (no mount namespace: not permitted, as in a
    /// container without `CAP_SYS_ADMIN`; or a path could not be bound into it).
    #[error(
        "{0}; a named socket, FIFO or device elsewhere that the job's user may open stays \
         reachable"
    )]
    NoOwnTree(String),
    /// Some of the system's folders or devices are the grader's, bound as they are (an overlay,
    /// a `sysfs` or a device node refused): jobs graded at once reach the same files there.
    #[error(
        "some system folders or devices are shared with the other jobs ({0}): two jobs graded \
         at once could signal each other through locks on them"
    )]
    Shared(String),
    /// The job has its own PID namespace but not a fresh `/proc` to see it through: the
    /// machine's processes stay visible there.
    #[error(
        "no fresh /proc ({0}): the machine's other processes and their command lines stay \
         visible"
    )]
    NoFreshProc(String),
    /// Results written by an older grader, which did not have this protection.
    #[error("not recorded by the grader that wrote these results")]
    NotKnown,
    /// The job's control group could not be made, or lacks this controller.
    #[error("no control group for it: {0}")]
    Cgroup(String),
    /// The job's disk could not be made or layered over its writable folders (no file tree of
    /// its own; overlays in a user namespace need Linux 5.11): the job writes in place, each
    /// file bounded by the file size limit, their number not.
    #[error(
        "no disk of its own ({0}): the job writes into the submission and its scratch folder, \
         each file bounded, their sum not"
    )]
    NoDisk(String),
    /// The kernel is too old for this (`RLIMIT_NPROC` per user namespace needs Linux 5.14).
    #[error("the kernel is {release}; this needs Linux {needed}")]
    OldKernel {
        /// The kernel's release.
        release: String,
        /// The release needed.
        needed: &'static str,
    },
}

/// What a prepared sandbox has in force: a status for each [`Protection`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Protections {
    /// [`Protection::User`].
    pub user: Status,
    /// [`Protection::Filesystem`].
    pub filesystem: Status,
    /// [`Protection::Network`].
    pub network: Status,
    /// [`Protection::Processes`].
    pub processes: Status,
    /// [`Protection::Survivors`].
    pub survivors: Status,
    /// [`Protection::Signals`].
    pub signals: Status,
    /// [`Protection::Tree`].
    pub tree: Status,
    /// [`Protection::Sight`] (absent from results written before it existed).
    pub sight: Status,
    /// [`Protection::Objects`] (absent from results written before it existed).
    pub objects: Status,
    /// [`Protection::Memory`] (absent from results written before it existed).
    pub memory: Status,
    /// [`Protection::Cpu`] (absent from results written before it existed).
    pub cpu: Status,
    /// [`Protection::Disk`] (absent from results written before it existed).
    pub disk: Status,
}

impl Protections {
    /// The status of one protection.
    pub fn get(&self, protection: Protection) -> &Status {
        match protection {
            Protection::User => &self.user,
            Protection::Filesystem => &self.filesystem,
            Protection::Network => &self.network,
            Protection::Processes => &self.processes,
            Protection::Survivors => &self.survivors,
            Protection::Signals => &self.signals,
            Protection::Tree => &self.tree,
            Protection::Sight => &self.sight,
            Protection::Objects => &self.objects,
            Protection::Memory => &self.memory,
            Protection::Cpu => &self.cpu,
            Protection::Disk => &self.disk,
        }
    }

    /// Every protection with its status, in [`Protection::ALL`]'s order.
    pub fn iter(&self) -> impl Iterator<Item = (Protection, &Status)> {
        Protection::ALL.into_iter().map(|p| (p, self.get(p)))
    }

    /// Whether every protection asked for is fully in force.
    pub fn all_in_force(&self) -> bool {
        self.iter()
            .all(|(_, s)| matches!(s, Status::InForce | Status::NotRequested))
    }
}
