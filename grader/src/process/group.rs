//! A process group the grader started: one type for a student's build and for their program.
//! The child leads a group of its own, is polled for its end without being reaped (so that its
//! id, and its group's, stay its own until everything it started has been killed), and when the
//! group is dropped every process of its family (the group and whatever was started from it,
//! even in a session of its own) is killed and the leader reaped. Its family is looked for among
//! the processes its sandbox can have ([`processes_of`]), which the program's watches look at too.

use std::io;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, ExitStatus};

use super::procfs::{exit_status, family, kill, process, processes, Process};
use super::sandbox::Prepared;

/// Every process a program in `sandbox` can have: those of the job's control group where it
/// has one (every process of the job is born in it and none can leave it: a handful to read
/// rather than the whole machine; only a relay into the job's PID namespace stays outside, and
/// it leads the program's group), else every process on the machine.
pub(crate) fn processes_of(sandbox: Option<&Prepared>) -> Vec<Process> {
    match sandbox.and_then(Prepared::processes) {
        Some(pids) => pids.into_iter().filter_map(process).collect(),
        None => processes(),
    }
}

/// A running child that leads its own process group.
pub struct Group {
    child: Child,
    /// The child's process id, which is also its group's.
    leader: i32,
    /// The sandbox it runs in (applied to its command), where its family is looked for.
    sandbox: Option<Prepared>,
}

impl Group {
    /// Starts `command` as the leader of a new process group (its pipes, directory, limits
    /// and `sandbox` are the caller's to set first). In a sandbox already killed (a class run
    /// stopped while this command was on its way) the group is killed as soon as it starts:
    /// its caller sees it end by SIGKILL, as it would had it started a moment earlier.
    pub fn start(mut command: Command, sandbox: Option<&Prepared>) -> io::Result<Group> {
        let child = command.process_group(0).spawn()?;
        // `id` is the child's pid_t as a u32: casting it back is exact.
        let leader = child.id() as i32;
        let group = Group {
            child,
            leader,
            sandbox: sandbox.cloned(),
        };
        if sandbox.is_some_and(Prepared::killed) {
            group.kill();
        }
        Ok(group)
    }

    /// The leader's process id, which is also the group's.
    pub fn leader(&self) -> i32 {
        self.leader
    }

    /// The child itself, to take its pipes.
    pub fn child(&mut self) -> &mut Child {
        &mut self.child
    }

    /// How the leader ended, if it has; it stays unreaped.
    pub fn status(&self) -> Option<ExitStatus> {
        exit_status(self.leader)
    }

    /// Kills the whole family: the group, the leader, and every process started from any of
    /// them. Returns the ids it found.
    pub fn kill(&self) -> Vec<i32> {
        let members = family(self.leader, &processes_of(self.sandbox.as_ref()));
        kill(self.leader, &members);
        members
    }

    /// Kills `pids` too (processes found another way, such as holders of the group's pipes).
    pub fn kill_also(&self, pids: &[i32]) {
        kill(self.leader, pids);
    }
}

impl Drop for Group {
    /// Kills the family and reaps the leader (sent SIGKILL itself, so the wait returns).
    fn drop(&mut self) {
        self.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use procfs::process::Stat;
    use procfs::FromRead;
    use std::fs;
    use std::thread;
    use std::time::{Duration, Instant};

    #[test]
    fn dropping_the_group_kills_what_it_started_in_a_session_of_its_own() {
        let dir = tempfile::tempdir().unwrap();
        let pids = dir.path().join("pids");
        let mut command = Command::new("sh");
        command.arg("-c").arg(format!(
            "setsid sleep 61.5 & echo $! > {}; sleep 61.5",
            pids.display()
        ));
        let group = Group::start(command, None).unwrap();
        let started = Instant::now();
        while fs::read_to_string(&pids).map_or(true, |t| t.trim().is_empty()) {
            assert!(started.elapsed() < Duration::from_secs(5), "no pid written");
            thread::sleep(Duration::from_millis(10));
        }
        assert_eq!(group.status(), None, "still running");
        drop(group);
        let escaped = fs::read_to_string(&pids).unwrap();
        thread::sleep(Duration::from_millis(100));
        let stat = Stat::from_file(format!("/proc/{}/stat", escaped.trim()));
        assert!(
            stat.as_ref().map_or(true, |stat| stat.state == 'Z'),
            "killed: {stat:?}"
        );
    }
}
