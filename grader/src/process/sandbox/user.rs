//! The jobs' users: when the grader is root, each job runs as an unprivileged user of its own,
//! which the sandbox's files, keys and sweeps are given to.

/// The first uid (and gid) of the jobs' users: job `n` runs as `BASE_UID + n`. No passwd entry
/// is needed (root can switch to any number); none of these uids may own anything else.
pub const BASE_UID: u32 = 61000;

/// The unprivileged user a job runs as when the grader is root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct User {
    pub uid: u32,
    pub gid: u32,
}

impl User {
    /// The user of job `job` (a worker's slot: two jobs running at once must differ), counting
    /// from `base` ([`BASE_UID`] unless configured).
    pub fn for_job(base: u32, job: u32) -> User {
        User {
            uid: base + job,
            gid: base + job,
        }
    }
}
