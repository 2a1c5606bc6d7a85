//! What `/proc` and the kernel tell about processes: every process with its parent and group,
//! the family of a program (its process group and everything started from it, even in a
//! session of its own), whether a child has ended without reaping it, who holds a pipe, and
//! killing them. Linux only; the rest of the process layer is built on it.

use std::collections::HashSet;
use std::fs;
use std::os::unix::process::ExitStatusExt;
use std::path::PathBuf;
use std::process::ExitStatus;

use procfs::process::Stat;
use procfs::FromRead;

/// One process, as `/proc/PID/stat` describes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Process {
    /// Its id.
    pub(crate) pid: i32,
    /// Its parent's id.
    pub(crate) parent: i32,
    /// Its process group's id.
    group: i32,
}

/// The id of every process on the machine, from `/proc`'s folder names alone (none where there
/// is no `/proc`): nothing opened per process, as the sweeps for survivors list them often.
pub(crate) fn pids() -> Vec<i32> {
    fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse().ok())
        .collect()
}

/// Every process on the machine, from `/proc` (none where there is no `/proc`).
pub(crate) fn processes() -> Vec<Process> {
    pids().into_iter().filter_map(process).collect()
}

/// Process `pid`, if it is there.
pub(crate) fn process(pid: i32) -> Option<Process> {
    let stat = Stat::from_file(format!("/proc/{pid}/stat")).ok()?;
    Some(Process {
        pid,
        parent: stat.ppid,
        group: stat.pgrp,
    })
}

/// The program led by `leader` (its process group's id): the leader, the members of its group,
/// and every process started from any of them, such as one in a session of its own.
pub(crate) fn family(leader: i32, processes: &[Process]) -> Vec<i32> {
    let mut members: HashSet<i32> = processes
        .iter()
        .filter(|p| p.pid == leader || p.group == leader)
        .map(|p| p.pid)
        .collect();
    loop {
        let before = members.len();
        for process in processes {
            if members.contains(&process.parent) {
                members.insert(process.pid);
            }
        }
        if members.len() == before {
            return members.into_iter().collect();
        }
    }
}

/// How our child `pid` ended, if it has. It is left unreaped, so that its id, and its group's,
/// stay its own until what is left of it has been killed.
pub(crate) fn exit_status(pid: i32) -> Option<ExitStatus> {
    // SAFETY: a zeroed siginfo_t is valid; waitid writes only into it and, with WNOWAIT, leaves
    // the child to be reaped by `Child::wait`.
    unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        let flags = libc::WEXITED | libc::WNOHANG | libc::WNOWAIT;
        if libc::waitid(libc::P_PID, pid as libc::id_t, &mut info, flags) != 0 || info.si_pid() == 0
        {
            return None;
        }
        let value = info.si_status();
        let raw = match info.si_code {
            libc::CLD_EXITED => (value & 0xff) << 8,
            libc::CLD_KILLED => value & 0x7f,
            libc::CLD_DUMPED => (value & 0x7f) | 0x80,
            _ => return None,
        };
        Some(ExitStatus::from_raw(raw))
    }
}

/// Sends SIGKILL to the process group `leader` leads, to the leader itself (should it have left
/// its group), and to each of `pids`.
pub(crate) fn kill(leader: i32, pids: &[i32]) {
    // SAFETY: kill(2) has no memory effects. The caller has not reaped the leader, so its id
    // (and the group's) cannot have been reused.
    unsafe {
        libc::kill(-leader, libc::SIGKILL);
        libc::kill(leader, libc::SIGKILL);
        for &pid in pids {
            libc::kill(pid, libc::SIGKILL);
        }
    }
}

/// Every process `among` but the grader and its own children (which hold copies of the
/// grader's pipes for an instant, between fork and exec) that has one of `pipes` open.
pub(crate) fn holders(pipes: &[PathBuf], among: Vec<Process>) -> Vec<i32> {
    // Casting back the pid_t that `id` turned into a u32 is exact.
    let me = std::process::id() as i32;
    let holds = |pid: i32| {
        fs::read_dir(format!("/proc/{pid}/fd"))
            .into_iter()
            .flatten()
            .flatten()
            .any(|fd| fs::read_link(fd.path()).is_ok_and(|target| pipes.contains(&target)))
    };
    among
        .into_iter()
        .filter(|p| p.pid != me && p.parent != me && holds(p.pid))
        .map(|p| p.pid)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::CommandExt;
    use std::process::{Command, Stdio};
    use std::thread;
    use std::time::{Duration, Instant};

    #[test]
    fn the_family_is_the_group_and_what_it_started() {
        let mut child = Command::new("sh")
            .args(["-c", "sleep 30 & setsid sleep 30 & wait"])
            .stdout(Stdio::null())
            .process_group(0)
            .spawn()
            .unwrap();
        let leader = child.id() as i32;
        let started = Instant::now();
        let mut members = Vec::new();
        while members.len() < 3 && started.elapsed() < Duration::from_secs(5) {
            thread::sleep(Duration::from_millis(20));
            members = family(leader, &processes());
        }
        kill(leader, &members);
        let _ = child.wait();
        assert_eq!(members.len(), 3, "sh, sleep, and sleep in its own session");
        assert!(members.contains(&leader));
    }
}
