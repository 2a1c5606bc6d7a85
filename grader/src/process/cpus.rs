//! The CPUs the grader, and so every program it starts, may use: those its CPU affinity allows
//! (`sched_getaffinity`, which a cpuset or `taskset` narrows) and the CPU quota of its cgroup
//! (cgroup v2's `cpu.max`, or v1's `cpu.cfs_quota_us`), the tightest of its own and those
//! above. A speed-up on two threads means nothing where only one CPU may run them. On a
//! simulated machine (a test's [`super::topology::SIMULATED_CPUS`]), the simulated CPUs, with
//! no quota.

use std::fs;
use std::path::Path;

use super::sandbox::cgroup::{cgroup_mounts, memberships, place};
use super::topology::{affinity, simulated_cpus};

/// What limits the CPUs a program may use.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cpus {
    /// The machine's CPUs online.
    pub online: usize,
    /// Those the CPU affinity allows.
    pub affinity: usize,
    /// The cgroup's CPU quota in CPUs (quota over period), if it has one.
    pub quota: Option<f64>,
}

impl Cpus {
    /// The CPUs of this process: its affinity and its cgroup's quota, or the simulated ones.
    pub fn of_this_process() -> Cpus {
        if let Ok(Some(simulated)) = simulated_cpus() {
            return Cpus {
                online: simulated.iter().max().map_or(1, |&last| last + 1),
                affinity: simulated.len(),
                quota: None,
            };
        }
        // SAFETY: sysconf has no memory effects.
        let online = usize::try_from(unsafe { libc::sysconf(libc::_SC_NPROCESSORS_ONLN) })
            .unwrap_or(1)
            .max(1);
        let cgroup = fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
        let mounts = fs::read_to_string("/proc/self/mountinfo").unwrap_or_default();
        Cpus {
            online,
            affinity: Some(affinity().len()).filter(|&n| n > 0).unwrap_or(online),
            quota: quota(&cgroup, &mounts, |path| fs::read_to_string(path).ok()),
        }
    }

    /// How many CPUs may run at once: the affinity's, or the quota if it is lower.
    pub fn usable(&self) -> f64 {
        let allowed = self.affinity as f64;
        self.quota.map_or(allowed, |quota| quota.min(allowed))
    }
}

/// The tightest CPU quota, in CPUs, over this process's cgroups and those above them, given
/// `/proc/self/cgroup`, `/proc/self/mountinfo` and a way to read a file: v2 `cpu.max`, v1
/// `cpu.cfs_quota_us` over `cpu.cfs_period_us` where the `cpu` controller is mounted.
fn quota(cgroup: &str, mounts: &str, read: impl Fn(&Path) -> Option<String>) -> Option<f64> {
    let (mounts, members) = (cgroup_mounts(mounts), memberships(cgroup));
    let mut tightest: Option<f64> = None;
    for controller in [None, Some("cpu")] {
        let Some(place) = place(&mounts, &members, controller) else {
            continue;
        };
        for dir in place
            .dir
            .ancestors()
            .take_while(|d| d.starts_with(&place.mount_point))
        {
            let found = match controller {
                None => read(&dir.join("cpu.max")).and_then(|t| cpu_max(&t)),
                Some(_) => read(&dir.join("cpu.cfs_quota_us"))
                    .and_then(|q| cfs_quota(&q, &read(&dir.join("cpu.cfs_period_us"))?)),
            };
            if let Some(cpus) = found {
                tightest = Some(tightest.map_or(cpus, |t| t.min(cpus)));
            }
        }
    }
    tightest
}

/// cgroup v2's `cpu.max` (`QUOTA PERIOD`, or `max PERIOD`) in CPUs, if it sets a quota.
fn cpu_max(text: &str) -> Option<f64> {
    let mut fields = text.split_whitespace();
    let quota: f64 = fields.next()?.parse().ok()?;
    let period: f64 = fields.next()?.parse().ok()?;
    (quota > 0.0 && period > 0.0).then(|| quota / period)
}

/// cgroup v1's quota and period (microseconds; a quota of -1: none) in CPUs, if a quota is set.
fn cfs_quota(quota: &str, period: &str) -> Option<f64> {
    let quota: f64 = quota.trim().parse().ok()?;
    let period: f64 = period.trim().parse().ok()?;
    (quota > 0.0 && period > 0.0).then(|| quota / period)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;
    use std::path::PathBuf;

    const MOUNTS: &str = "\
        29 23 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n\
        30 23 0:27 /docker/abc /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu,cpuacct\n\
        31 23 0:28 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n";

    /// A reader of the files in `files`.
    fn files(files: &[(&str, &str)]) -> impl Fn(&Path) -> Option<String> {
        let map: HashMap<PathBuf, String> = files
            .iter()
            .map(|(p, t)| (PathBuf::from(p), t.to_string()))
            .collect();
        move |path| map.get(path).cloned()
    }

    #[test]
    fn the_tightest_v2_quota_up_the_tree_counts() {
        let read = files(&[
            ("/sys/fs/cgroup/grading/job/cpu.max", "max 100000\n"),
            ("/sys/fs/cgroup/grading/cpu.max", "150000 100000\n"),
        ]);
        assert_eq!(quota("0::/grading/job\n", MOUNTS, &read), Some(1.5));
        assert_eq!(quota("0::/elsewhere\n", MOUNTS, &read), None);
    }

    #[test]
    fn a_v1_quota_is_read_where_the_cpu_controller_is_mounted() {
        let read = files(&[
            ("/sys/fs/cgroup/cpu/cpu.cfs_quota_us", "100000\n"),
            ("/sys/fs/cgroup/cpu/cpu.cfs_period_us", "100000\n"),
            ("/sys/fs/cgroup/cpu/job/cpu.cfs_quota_us", "-1\n"),
            ("/sys/fs/cgroup/cpu/job/cpu.cfs_period_us", "100000\n"),
        ]);
        let cgroup = "4:memory:/x\n2:cpu,cpuacct:/docker/abc/job\n";
        assert_eq!(quota(cgroup, MOUNTS, &read), Some(1.0));
    }

    #[test]
    fn no_cgroup_or_no_quota_is_no_quota() {
        assert_eq!(quota("", "", files(&[])), None);
        assert_eq!(cpu_max("max 100000"), None);
        assert_eq!(cpu_max("garbage"), None);
        assert_eq!(cfs_quota("-1", "100000"), None);
        assert_eq!(cpu_max("200000 100000"), Some(2.0));
    }

    #[test]
    fn the_usable_cpus_are_the_tighter_of_affinity_and_quota() {
        let cpus = |affinity, quota| Cpus {
            online: 4,
            affinity,
            quota,
        };
        assert_eq!(cpus(1, None).usable(), 1.0);
        assert_eq!(cpus(4, Some(1.5)).usable(), 1.5);
        assert_eq!(cpus(2, Some(8.0)).usable(), 2.0);
        let here = Cpus::of_this_process();
        assert!(
            here.affinity >= 1 && here.affinity <= here.online,
            "{here:?}"
        );
    }
}
