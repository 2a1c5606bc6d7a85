//! Why a program failed, in words: the limit it hit and how that is known, how it ended and
//! what it left behind, why a command got no usable answer, and why an answer was not
//! accepted. The exchanges' details, the window, the matchup and the speed-up all say a
//! [`Failure`] this way.

use super::numbers::seconds;
use super::{inert, starved};
use crate::judge::result::Fault;
use crate::process::{Detection, Ending, Failure, Limit, LimitHit, Stream, MAX_LINE, MAX_OUTPUT};

/// MiB as reports write them: whole GiB as GiB.
fn mib(n: u64) -> String {
    if n % 1024 == 0 {
        format!("{} GiB", n / 1024)
    } else {
        format!("{n} MiB")
    }
}

/// A limit and its value: "memory limit of 4 GiB".
pub fn limit(limit: Limit, amount: u64) -> String {
    match limit {
        Limit::Memory => format!("memory limit of {}", mib(amount)),
        Limit::Processes => format!("process limit of {amount}"),
        Limit::CpuTime => format!("CPU time limit of {amount} s"),
        Limit::FileSize => format!("file size limit of {}", mib(amount)),
        Limit::JobMemory => format!("job's memory limit of {}", mib(amount)),
        Limit::Disk => format!("disk limit of {}", mib(amount)),
    }
}

/// A limit hit, with how it is known.
pub fn limit_hit(hit: &LimitHit) -> String {
    let named = limit(hit.limit, hit.amount);
    match &hit.evidence {
        Detection::Counted(count) => format!(
            "the program exceeded its {named}: the grader counted {count} of its processes \
             running at once, and killed them all"
        ),
        Detection::Signal { name, shell: None } => {
            format!("the program exceeded its {named} (it was stopped by {name})")
        }
        Detection::DiskFull => format!(
            "the program filled its {named} (everything the job writes, its build's output \
             included): its writes past it failed"
        ),
        Detection::ControlGroup => format!(
            "the program exceeded its {named} (all its processes and their memory of every kind \
             together, /dev/shm included): the kernel stopped it"
        ),
        Detection::Signal {
            name,
            shell: Some(status),
        } => format!(
            "the program exceeded its {named} ({status}, a shell's way of saying {name} stopped it)"
        ),
        Detection::Stderr { status, line } => {
            let what = match hit.limit {
                Limit::FileSize => "a write too large",
                Limit::Processes => "a process or thread that could not be started",
                Limit::Memory | Limit::JobMemory | Limit::CpuTime | Limit::Disk => {
                    "a failed allocation"
                }
            };
            format!(
                "the program probably exceeded its {named}: it ended ({status}) and its standard \
                 error reports {what}: {line:?}"
            )
        }
    }
}

/// `; standard error ends: TAIL` (made inert), or nothing if `tail` is empty.
fn stderr_note(tail: &str) -> String {
    if tail.is_empty() {
        String::new()
    } else {
        format!("; standard error ends: {}", inert::text(tail))
    }
}

/// How a program ended: its status or the limit it hit, what it left behind, its last words.
fn ending(ending: &Ending) -> String {
    let left = match ending.escaped {
        0 => String::new(),
        n => format!("; it left {n} process(es) running that held its output, now killed"),
    };
    let note = stderr_note(&ending.stderr);
    match &ending.limit {
        Some(hit) => format!("{}{left}{note}", limit_hit(hit)),
        None => format!("the program exited: {}{left}{note}", ending.status),
    }
}

/// Why a command got no usable answer.
pub fn failure(failure: &Failure) -> String {
    match failure {
        Failure::TimedOut { limit, first: None } => {
            format!("no answer within the time limit of {}", seconds(*limit))
        }
        Failure::TimedOut {
            limit,
            first: Some(first),
        } => format!(
            "the answer starting {first:?} was not ended by an empty line within {}",
            seconds(*limit)
        ),
        Failure::Starved { limit, had, wall } => starved::command(*limit, *had, *wall),
        Failure::Ended(end) => ending(end),
        Failure::Closed { stream, stderr } => {
            let stream = match stream {
                Stream::Input => "standard input",
                Stream::Output => "standard output",
            };
            format!(
                "the program closed its {stream} but went on running{}",
                stderr_note(stderr)
            )
        }
        Failure::Garbage(line) => {
            format!("not a protocol response (a line must start with `= ` or `? `): {line:?}")
        }
        Failure::Flood => {
            format!("too much output (over {MAX_OUTPUT} bytes, or a line over {MAX_LINE} bytes)")
        }
        Failure::Io(why) => format!("cannot talk to the program: {}", inert::line(why)),
    }
}

/// Why an answer was not accepted.
pub fn fault(fault: &Fault) -> String {
    match fault {
        Fault::WrongAnswer => "wrong answer".into(),
        Fault::Program(f) => failure(f),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::ExitStatusExt;
    use std::process::ExitStatus;

    #[test]
    fn limits_are_named_with_how_they_are_known() {
        let hit = |limit, amount, evidence| {
            limit_hit(&LimitHit {
                limit,
                amount,
                evidence,
            })
        };
        assert_eq!(
            hit(Limit::Processes, 50, Detection::Counted(51)),
            "the program exceeded its process limit of 50: the grader counted 51 of its \
             processes running at once, and killed them all"
        );
        let signal = |shell| Detection::Signal {
            name: "SIGXCPU",
            shell,
        };
        assert_eq!(
            hit(Limit::CpuTime, 1, signal(None)),
            "the program exceeded its CPU time limit of 1 s (it was stopped by SIGXCPU)"
        );
        let status = ExitStatus::from_raw((128 + libc::SIGXCPU) << 8);
        assert!(hit(Limit::CpuTime, 1, signal(Some(status))).contains("a shell's way"));
        let stderr = Detection::Stderr {
            status: ExitStatus::from_raw(1 << 8),
            line: "MemoryError".into(),
        };
        assert_eq!(
            hit(Limit::Memory, 4096, stderr),
            "the program probably exceeded its memory limit of 4 GiB: it ended (exit status: 1) \
             and its standard error reports a failed allocation: \"MemoryError\""
        );
    }

    #[test]
    fn a_program_that_ended_says_how_and_what_it_left() {
        let ended = Failure::Ended(Ending {
            status: ExitStatus::from_raw(0),
            limit: None,
            escaped: 1,
            stderr: "bye".into(),
        });
        assert_eq!(
            failure(&ended),
            "the program exited: exit status: 0; it left 1 process(es) running that held its \
             output, now killed; standard error ends: bye"
        );
    }
}
