//! The resource limits a student's program runs under: memory, processes, CPU time and file
//! size, set in `rubric.toml`'s `[limits]` table or on the command line. Three are the kernel's
//! own (`setrlimit` in the child before it runs the program). The process limit is the kernel's
//! too in the sandbox, whose uid or user namespace is the job's alone (see [`super::sandbox`]);
//! everywhere it is also a watch that counts the program's processes in `/proc` (see
//! [`super::watch`]), since outside a sandbox `RLIMIT_NPROC` would count every process of the
//! grader's user and not apply to root at all. Also here: how a limit that was hit is recognised
//! from the way the program ended, as a [`LimitHit`] that the reports put in words.

use std::io;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Command, ExitStatus};

use serde::Deserialize;

/// Bytes in a MiB.
const MIB: u64 = 1 << 20;
/// Seconds of CPU time between the soft limit (`SIGXCPU`, which a program may catch) and the
/// hard one (`SIGKILL`).
const CPU_GRACE: u64 = 5;

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
    /// Memory of the whole job, in MiB: the build's or the program's processes together, and
    /// memory of every kind (shared mappings, `/dev/shm`, pipes, the kernel's for them), in a
    /// control group of the job's own where the system has one.
    pub job_memory_mib: u64,
    /// Everything the whole job may write, in MiB: its build's output, the files its programs
    /// write, their homes; on a disk of the job's own, counted in its memory too.
    pub disk_mib: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            memory_mib: 4096,
            processes: 256,
            cpu_seconds: 600,
            file_size_mib: 64,
            job_memory_mib: 4096,
            disk_mib: 2048,
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
    /// [`Limits::job_memory_mib`].
    JobMemory,
    /// [`Limits::disk_mib`].
    Disk,
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
/// Words that say a process or thread could not be started (`RLIMIT_NPROC` makes `fork` and
/// `clone` fail with `EAGAIN`): `strerror(EAGAIN)` (Python's `BlockingIOError`, C, a shell's
/// `fork: retry`), and Rust's, Java's and Python's own words for a thread that could not start.
const PROCESS_WORDS: [&str; 5] = [
    "resource temporarily unavailable",
    "fork: retry",
    "failed to spawn thread",
    "unable to create native thread",
    "can't start new thread",
];
/// Words that say a write went past the file size limit: `strerror(EFBIG)` (Python and the JVM
/// ignore `SIGXFSZ` and see this error instead), and a shell's report of `SIGXFSZ`.
const FILE_SIZE_WORDS: [&str; 2] = ["file too large", "file size limit exceeded"];

impl Limits {
    /// Checks that every limit is at least 1.
    pub fn validate(&self) -> Result<(), String> {
        let named = [
            ("memory_mib", self.memory_mib),
            ("processes", self.processes),
            ("cpu_seconds", self.cpu_seconds),
            ("file_size_mib", self.file_size_mib),
            ("job_memory_mib", self.job_memory_mib),
            ("disk_mib", self.disk_mib),
        ];
        match named.iter().find(|(_, value)| *value == 0) {
            Some((name, _)) => Err(format!("limits: {name} must be at least 1")),
            None => Ok(()),
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
    /// `counted` processes seen by the [`Watch`](super::watch::Watch) that killed it (0 if it
    /// did not), the job's control group over its memory (`job_memory`), the job's disk full
    /// (`disk_full`), a signal the kernel sends for a limit, or failing that words in the end of
    /// its standard error (then only probably). `None` if nothing points at a limit.
    pub fn diagnose(
        &self,
        status: ExitStatus,
        counted: usize,
        job_memory: bool,
        disk_full: bool,
        stderr: &str,
    ) -> Option<LimitHit> {
        let hit = |limit, evidence| LimitHit {
            limit,
            amount: self.amount(limit),
            evidence,
        };
        if job_memory {
            return Some(hit(Limit::JobMemory, Detection::ControlGroup));
        }
        if counted > 0 {
            return Some(hit(Limit::Processes, Detection::Counted(counted)));
        }
        if disk_full {
            return Some(hit(Limit::Disk, Detection::DiskFull));
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
                let shell = status.signal().is_none().then_some(status);
                return Some(hit(limit, Detection::Signal { name, shell }));
            }
        }
        let lower = stderr.to_lowercase();
        for (limit, words) in [
            (Limit::FileSize, &FILE_SIZE_WORDS[..]),
            (Limit::Memory, &MEMORY_WORDS[..]),
            (Limit::Processes, &PROCESS_WORDS[..]),
        ] {
            let Some(word) = words.iter().find(|w| lower.contains(*w)) else {
                continue;
            };
            let line = stderr
                .lines()
                .find(|l| l.to_lowercase().contains(word))
                .unwrap_or_default()
                .trim()
                .to_string();
            return Some(hit(limit, Detection::Stderr { status, line }));
        }
        None
    }

    /// The value of `limit`: MiB, processes or seconds.
    pub fn amount(&self, limit: Limit) -> u64 {
        match limit {
            Limit::Memory => self.memory_mib,
            Limit::Processes => self.processes,
            Limit::CpuTime => self.cpu_seconds,
            Limit::FileSize => self.file_size_mib,
            Limit::JobMemory => self.job_memory_mib,
            Limit::Disk => self.disk_mib,
        }
    }
}

/// A limit a program hit, its value, and how that is known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LimitHit {
    /// Which limit.
    pub limit: Limit,
    /// Its value: MiB, processes or seconds, as [`Limits::amount`] gives it.
    pub amount: u64,
    /// How the grader knows.
    pub evidence: Detection,
}

/// How a limit hit is known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Detection {
    /// The process watch counted this many processes running at once, and killed them all.
    Counted(usize),
    /// The kernel's signal for the limit stopped it; `shell` is the exit status when a shell
    /// reported the signal as 128 + its number rather than the program being killed by it.
    Signal {
        /// The signal's name (`SIGXCPU`, `SIGXFSZ`).
        name: &'static str,
        /// The shell's exit status, when the signal was reported that way.
        shell: Option<ExitStatus>,
    },
    /// The job's control group counted its memory past the job's limit, and the kernel
    /// stopped a process of the job.
    ControlGroup,
    /// The job's own disk was full when the program ended: its writes past the bound failed.
    DiskFull,
    /// Only probably: the program ended with `status` and this line of its standard error
    /// reports a failed allocation or a write too large.
    Stderr {
        /// How it ended.
        status: ExitStatus,
        /// The line that names the failure.
        line: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> Limits {
        Limits {
            memory_mib: 512,
            processes: 50,
            cpu_seconds: 600,
            file_size_mib: 16,
            job_memory_mib: 1024,
            disk_mib: 512,
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
        assert_eq!(some.validate(), Ok(()));
        let zero = Limits {
            processes: 0,
            ..some
        };
        assert_eq!(
            zero.validate(),
            Err("limits: processes must be at least 1".into())
        );
        assert_eq!(Limits::default().amount(Limit::Memory), 4096);
    }

    #[test]
    fn limits_are_recognised_by_signal_watch_or_standard_error() {
        let l = limits();
        let signal = |n: i32| ExitStatus::from_raw(n);
        let code = |n: i32| ExitStatus::from_raw(n << 8);
        let evidence = |status, counted, stderr| {
            let hit = l.diagnose(status, counted, false, false, stderr).unwrap();
            assert_eq!(hit.amount, l.amount(hit.limit));
            (hit.limit, hit.evidence)
        };
        assert_eq!(
            evidence(signal(libc::SIGKILL), 51, ""),
            (Limit::Processes, Detection::Counted(51))
        );
        assert_eq!(
            evidence(signal(libc::SIGXCPU), 0, ""),
            (
                Limit::CpuTime,
                Detection::Signal {
                    name: "SIGXCPU",
                    shell: None
                }
            )
        );
        let shell = code(128 + libc::SIGXFSZ);
        assert_eq!(
            evidence(shell, 0, ""),
            (
                Limit::FileSize,
                Detection::Signal {
                    name: "SIGXFSZ",
                    shell: Some(shell)
                }
            )
        );
        let stderr = |line: &str| Detection::Stderr {
            status: code(1),
            line: line.into(),
        };
        assert_eq!(
            evidence(code(1), 0, "Traceback:\n  x\nMemoryError\n"),
            (Limit::Memory, stderr("MemoryError"))
        );
        let rust = l.diagnose(
            signal(libc::SIGABRT),
            0,
            false,
            false,
            "memory allocation of 64 bytes failed",
        );
        assert_eq!(rust.map(|hit| hit.limit), Some(Limit::Memory));
        assert_eq!(
            evidence(code(1), 0, "OSError: [Errno 27] File too large"),
            (
                Limit::FileSize,
                stderr("OSError: [Errno 27] File too large")
            )
        );
        assert_eq!(
            evidence(
                code(1),
                0,
                "BlockingIOError: [Errno 11] Resource temporarily unavailable"
            ),
            (
                Limit::Processes,
                stderr("BlockingIOError: [Errno 11] Resource temporarily unavailable")
            )
        );
        assert_eq!(
            l.diagnose(code(1), 0, false, false, "IndexError: oops"),
            None
        );
        assert_eq!(l.diagnose(signal(libc::SIGKILL), 0, false, false, ""), None);
        let hit = l
            .diagnose(signal(libc::SIGKILL), 0, true, false, "")
            .unwrap();
        assert_eq!(
            (hit.limit, hit.evidence),
            (Limit::JobMemory, Detection::ControlGroup)
        );
        let full = l.diagnose(code(1), 0, false, true, "OSError: No space left on device");
        let full = full.unwrap();
        assert_eq!(
            (full.limit, full.evidence),
            (Limit::Disk, Detection::DiskFull)
        );
    }
}
