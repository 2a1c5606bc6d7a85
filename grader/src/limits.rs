//! The resource limits a student's program runs under: memory, processes, CPU time and file
//! size, set in `rubric.toml`'s `[limits]` table or on the command line. Three are the kernel's
//! own (`setrlimit` in the child before it runs the program); the process limit is a watch that
//! counts the program's processes in `/proc`, because `RLIMIT_NPROC` counts every process of
//! the user (the grader's own and other students' among them) and does not apply to root at
//! all. Also here: how a limit that was hit is recognised from the way the program ended.

use std::collections::HashSet;
use std::fs;
use std::io;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Command, ExitStatus};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::Duration;

use crossbeam::channel::{bounded, RecvTimeoutError, Sender};
use serde::Deserialize;

/// Bytes in a MiB.
const MIB: u64 = 1 << 20;
/// Seconds of CPU time between the soft limit (`SIGXCPU`, which a program may catch) and the
/// hard one (`SIGKILL`).
const CPU_GRACE: u64 = 5;
/// How often the process watch counts.
const WATCH_TICK: Duration = Duration::from_millis(100);

/// The limits of every student program; the defaults are far above what a correct solution
/// needs.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, default)]
pub struct Limits {
    /// Writable memory of each process, in MiB: heap, anonymous mappings, thread stacks
    /// (`RLIMIT_DATA`; unlike `RLIMIT_AS` it leaves out the address space that a JVM or glibc
    /// reserves without using).
    pub memory_mib: u64,
    /// Processes running at once in the program's process group or started from it.
    pub processes: u64,
    /// CPU time of each process, all its threads together, in seconds (`RLIMIT_CPU`).
    pub cpu_seconds: u64,
    /// The largest file the program may write, in MiB (`RLIMIT_FSIZE`).
    pub file_size_mib: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            memory_mib: 4096,
            processes: 256,
            cpu_seconds: 600,
            file_size_mib: 64,
        }
    }
}

/// One of the limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// [`Limits::memory_mib`].
    Memory,
    /// [`Limits::processes`].
    Processes,
    /// [`Limits::cpu_seconds`].
    CpuTime,
    /// [`Limits::file_size_mib`].
    FileSize,
}

/// MiB as reports write them: whole GiB as GiB.
fn mib(n: u64) -> String {
    if n % 1024 == 0 {
        format!("{} GiB", n / 1024)
    } else {
        format!("{n} MiB")
    }
}

/// Words in a program's standard error that say an allocation failed (compared in lower case):
/// Rust, Python, Java (its heap, then the JVM's own memory in two wordings), C++, C and Go,
/// `strerror(ENOMEM)`.
const MEMORY_WORDS: [&str; 8] = [
    "memory allocation of",
    "memoryerror",
    "outofmemoryerror",
    "insufficient memory",
    "not enough space",
    "bad_alloc",
    "out of memory",
    "cannot allocate memory",
];
/// Words that say a write went past the file size limit: `strerror(EFBIG)` (Python and the JVM
/// ignore `SIGXFSZ` and see this error instead), and a shell's report of `SIGXFSZ`.
const FILE_SIZE_WORDS: [&str; 2] = ["file too large", "file size limit exceeded"];

impl Limits {
    /// Checks that every limit is at least 1.
    pub fn check(&self) -> Result<(), String> {
        let named = [
            ("memory_mib", self.memory_mib),
            ("processes", self.processes),
            ("cpu_seconds", self.cpu_seconds),
            ("file_size_mib", self.file_size_mib),
        ];
        match named.iter().find(|(_, value)| *value == 0) {
            Some((name, _)) => Err(format!("limits: {name} must be at least 1")),
            None => Ok(()),
        }
    }

    /// How reports name `limit`: "memory limit of 4 GiB".
    pub fn describe(&self, limit: Limit) -> String {
        match limit {
            Limit::Memory => format!("memory limit of {}", mib(self.memory_mib)),
            Limit::Processes => format!("process limit of {}", self.processes),
            Limit::CpuTime => format!("CPU time limit of {} s", self.cpu_seconds),
            Limit::FileSize => format!("file size limit of {}", mib(self.file_size_mib)),
        }
    }

    /// Makes `command`'s child set the kernel's limits before it runs the program, each at most
    /// the grader's own hard limit (which an unprivileged grader cannot raise); no core files.
    pub(crate) fn apply(&self, command: &mut Command) {
        // Worked out here: between fork and exec the child may only make system calls.
        let capped = |resource, soft: u64, hard: u64| {
            let mut current = libc::rlimit {
                rlim_cur: 0,
                rlim_max: libc::RLIM_INFINITY,
            };
            // SAFETY: getrlimit writes only the struct it is given.
            unsafe { libc::getrlimit(resource, &mut current) };
            let hard = hard.min(current.rlim_max);
            let limit = libc::rlimit {
                rlim_cur: soft.min(hard),
                rlim_max: hard,
            };
            (resource, limit)
        };
        let memory = self.memory_mib.saturating_mul(MIB);
        let file_size = self.file_size_mib.saturating_mul(MIB);
        let cpu = self.cpu_seconds;
        let plan = [
            capped(libc::RLIMIT_DATA, memory, memory),
            capped(libc::RLIMIT_CPU, cpu, cpu.saturating_add(CPU_GRACE)),
            capped(libc::RLIMIT_FSIZE, file_size, file_size),
            // A program stopped by SIGXCPU, SIGXFSZ or an abort would otherwise dump up to its
            // memory limit into the submission's directory.
            capped(libc::RLIMIT_CORE, 0, 0),
        ];
        // SAFETY: the closure only calls setrlimit (async-signal-safe) on values computed
        // above, and builds its error from errno without allocating.
        unsafe {
            command.pre_exec(move || {
                for (resource, limit) in &plan {
                    if libc::setrlimit(*resource, limit) != 0 {
                        return Err(io::Error::last_os_error());
                    }
                }
                Ok(())
            });
        }
    }

    /// Which limit a program that ended with `status` most likely hit, and how that is known:
    /// `crowd` processes counted by the [`Watch`] that killed it (0 if it did not), a signal
    /// the kernel sends for a limit, or failing that words in the end of its standard error
    /// (then only probably). `None` if nothing points at a limit.
    pub fn diagnose(&self, status: ExitStatus, crowd: usize, stderr: &str) -> Option<String> {
        let exceeded = |limit| format!("the program exceeded its {}", self.describe(limit));
        if crowd > 0 {
            return Some(format!(
                "{}: the grader counted {crowd} of its processes running at once, and killed them all",
                exceeded(Limit::Processes)
            ));
        }
        // A shell that runs the program as its child reports a signal as 128 + its number.
        let signal = status
            .signal()
            .or_else(|| status.code().filter(|c| *c > 128).map(|c| c - 128));
        for (limit, number, name) in [
            (Limit::CpuTime, libc::SIGXCPU, "SIGXCPU"),
            (Limit::FileSize, libc::SIGXFSZ, "SIGXFSZ"),
        ] {
            if signal == Some(number) {
                let how = match status.signal() {
                    Some(_) => format!("it was stopped by {name}"),
                    None => format!("{status}, a shell's way of saying {name} stopped it"),
                };
                return Some(format!("{} ({how})", exceeded(limit)));
            }
        }
        let lower = stderr.to_lowercase();
        for (limit, words, what) in [
            (Limit::FileSize, &FILE_SIZE_WORDS[..], "a write too large"),
            (Limit::Memory, &MEMORY_WORDS[..], "a failed allocation"),
        ] {
            let Some(word) = words.iter().find(|w| lower.contains(*w)) else {
                continue;
            };
            let line = stderr
                .lines()
                .find(|l| l.to_lowercase().contains(word))
                .unwrap_or_default()
                .trim();
            return Some(format!(
                "the program probably exceeded its {}: it ended ({status}) and its standard \
                 error reports {what}: {line:?}",
                self.describe(limit)
            ));
        }
        None
    }
}

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

/// Every process on the machine, from `/proc` (none where there is no `/proc`).
pub(crate) fn processes() -> Vec<Process> {
    let Ok(entries) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<i32>().ok())
        .filter_map(|pid| {
            let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            // `PID (COMMAND) STATE PPID PGRP ...`: the command may hold spaces and parentheses.
            let (_, rest) = stat.rsplit_once(')')?;
            let mut fields = rest.split_whitespace().skip(1);
            let parent = fields.next()?.parse().ok()?;
            let group = fields.next()?.parse().ok()?;
            Some(Process { pid, parent, group })
        })
        .collect()
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

/// The process limit: a thread that counts the program's processes ([`family`]) every
/// [`WATCH_TICK`] and kills them all when there are more than the limit. A burst between two
/// looks can briefly pass the limit; it is stopped at the next look. Dropping the watch stops
/// it, after its current look at most.
pub(crate) struct Watch {
    stop: Option<Sender<()>>,
    thread: Option<JoinHandle<()>>,
    crowd: Arc<AtomicUsize>,
}

impl Watch {
    /// Watches the program led by `leader`, which must stay unreaped while the watch runs.
    pub(crate) fn start(leader: i32, limit: u64) -> Watch {
        let (stop, stopped) = bounded::<()>(0);
        let crowd = Arc::new(AtomicUsize::new(0));
        let seen = Arc::clone(&crowd);
        let thread = thread::spawn(move || {
            while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(WATCH_TICK) {
                let members = family(leader, &processes());
                if members.len() as u64 > limit {
                    seen.store(members.len(), Ordering::SeqCst);
                    kill(leader, &members);
                    return;
                }
            }
        });
        Watch {
            stop: Some(stop),
            thread: Some(thread),
            crowd,
        }
    }

    /// How many processes the program had when the watch killed it; 0 if it has not.
    pub(crate) fn crowd(&self) -> usize {
        self.crowd.load(Ordering::SeqCst)
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        self.stop = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rubric::Rubric;
    use std::path::Path;
    use std::process::Stdio;
    use std::time::Instant;

    fn limits() -> Limits {
        Limits {
            memory_mib: 512,
            processes: 50,
            cpu_seconds: 600,
            file_size_mib: 16,
        }
    }

    #[test]
    fn the_table_may_give_some_limits_and_not_zero() {
        let some: Limits = toml::from_str("memory_mib = 512\n").unwrap();
        assert_eq!(
            some,
            Limits {
                memory_mib: 512,
                ..Limits::default()
            }
        );
        assert!(toml::from_str::<Limits>("memory = 512\n").is_err());
        assert_eq!(some.check(), Ok(()));
        let zero = Limits {
            processes: 0,
            ..some
        };
        assert_eq!(
            zero.check(),
            Err("limits: processes must be at least 1".into())
        );
        assert_eq!(
            Limits::default().describe(Limit::Memory),
            "memory limit of 4 GiB"
        );
    }

    #[test]
    fn the_kit_gives_the_defaults_and_refuses_a_zero() {
        let kit = Path::new(env!("CARGO_MANIFEST_DIR")).join("../grading/rubric.toml");
        assert_eq!(Rubric::load(&kit).unwrap().limits, Limits::default());
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("rubric.toml");
        let text = "title = \"t\"\nspeedup = []\n[[category]]\nname = \"AI\"\npoints = 1\n";
        fs::write(&path, text).unwrap();
        assert_eq!(Rubric::load(&path).unwrap().limits, Limits::default());
        fs::write(&path, format!("{text}[limits]\ncpu_seconds = 0\n")).unwrap();
        let error = Rubric::load(&path).unwrap_err().0;
        assert!(
            error.ends_with("limits: cpu_seconds must be at least 1"),
            "{error}"
        );
    }

    #[test]
    fn limits_are_recognised_by_signal_watch_or_standard_error() {
        let l = limits();
        let signal = |n: i32| ExitStatus::from_raw(n);
        let code = |n: i32| ExitStatus::from_raw(n << 8);
        let diagnose = |status, crowd, stderr| l.diagnose(status, crowd, stderr).unwrap();
        assert_eq!(
            diagnose(signal(libc::SIGKILL), 51, ""),
            "the program exceeded its process limit of 50: the grader counted 51 of its processes \
             running at once, and killed them all"
        );
        let cpu = diagnose(signal(libc::SIGXCPU), 0, "");
        assert!(
            cpu.starts_with("the program exceeded its CPU time limit of 600 s (it was stopped"),
            "{cpu}"
        );
        let file = diagnose(code(128 + libc::SIGXFSZ), 0, "");
        assert!(
            file.contains("file size limit of 16 MiB") && file.contains("a shell's way"),
            "{file}"
        );
        let python = diagnose(code(1), 0, "Traceback:\n  x\nMemoryError\n");
        assert!(
            python.starts_with("the program probably exceeded its memory limit of 512 MiB")
                && python.ends_with("\"MemoryError\""),
            "{python}"
        );
        let rust = diagnose(
            signal(libc::SIGABRT),
            0,
            "memory allocation of 64 bytes failed",
        );
        assert!(rust.contains("memory limit"), "{rust}");
        let efbig = diagnose(code(1), 0, "OSError: [Errno 27] File too large");
        assert!(
            efbig.contains("probably exceeded its file size limit"),
            "{efbig}"
        );
        assert_eq!(l.diagnose(code(1), 0, "IndexError: oops"), None);
        assert_eq!(l.diagnose(signal(libc::SIGKILL), 0, ""), None);
    }

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

    #[test]
    fn the_watch_kills_a_program_with_too_many_processes() {
        let mut child = Command::new("sh")
            .args(["-c", "for i in 1 2 3 4 5 6; do sleep 30 & done; wait"])
            .process_group(0)
            .spawn()
            .unwrap();
        let started = Instant::now();
        let watch = Watch::start(child.id() as i32, 4);
        let status = child.wait().unwrap();
        assert!(started.elapsed() < Duration::from_secs(5));
        assert_eq!(status.signal(), Some(libc::SIGKILL));
        assert!(watch.crowd() > 4, "{}", watch.crowd());
    }
}
