//! The words every report uses for the judge's typed results: why a program failed, which limit
//! it hit, why an answer was skipped or a case not run, how a build went, what was measured of
//! the speed-up, and points and seconds as reports print them. One place, so that the terminal,
//! the Markdown report, the gradebook and Gradescope say the same thing the same way.

use std::time::Duration;

use crate::judge::result::speedup::{Evenness, Measurement, Speedup, SpeedupFault, Uneven};
use crate::judge::result::{
    CaseResult, Exchange, Expect, Fault, NotRun, Skip, Variety, Verdict, Withheld,
};
use crate::judge::{Build, Confinement};
use crate::kit::supplied::{Change, Comparison};
use crate::process::logged::{Ended, MAX_LOG};
use crate::process::sandbox::{Protection, Status};
use crate::process::{Ending, Evidence, Failure, Limit, LimitHit, Stream, MAX_LINE, MAX_OUTPUT};

/// How a report says that the copy differs, before the details.
pub const SUPPLIED_CHANGED: &str = "The supplied crate was changed";
/// Why a changed supplied crate is only reported, said wherever it is.
pub const SUPPLIED_NOT_SCORED: &str = "Students must not change it, but the score does not \
    depend on this: a grader decides whether the change matters.";
/// Said when the kit built the program with the course's copy instead of the changed one.
const SUPPLIED_REPLACED: &str = "The program was built with the course's copy; the submitted \
    copy is kept beside it, in";

/// Seconds as the case files and reports write them: `1.25 s`.
pub fn seconds(duration: Duration) -> String {
    format!("{:.2} s", duration.as_secs_f64())
}

/// Points rounded to two decimals, as every report and results.json gives them; never -0.
pub fn rounded(value: f64) -> f64 {
    // Adding 0.0 turns -0 into 0.
    (value * 100.0).round() / 100.0 + 0.0
}

/// Points as reports print them: at most two decimals, no trailing zeros.
pub fn points(value: f64) -> String {
    let text = format!("{:.2}", rounded(value));
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

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
    }
}

/// A limit hit, with how it is known.
pub fn limit_hit(hit: &LimitHit) -> String {
    let named = limit(hit.limit, hit.amount);
    match &hit.evidence {
        Evidence::Counted(count) => format!(
            "the program exceeded its {named}: the grader counted {count} of its processes \
             running at once, and killed them all"
        ),
        Evidence::Signal { name, shell: None } => {
            format!("the program exceeded its {named} (it was stopped by {name})")
        }
        Evidence::Signal {
            name,
            shell: Some(status),
        } => format!(
            "the program exceeded its {named} ({status}, a shell's way of saying {name} stopped it)"
        ),
        Evidence::Stderr { status, line } => {
            let what = match hit.limit {
                Limit::FileSize => "a write too large",
                Limit::Processes => "a process or thread that could not be started",
                Limit::Memory | Limit::CpuTime => "a failed allocation",
            };
            format!(
                "the program probably exceeded its {named}: it ended ({status}) and its standard \
                 error reports {what}: {line:?}"
            )
        }
    }
}

/// `; standard error ends: TAIL`, or nothing if `tail` is empty.
fn stderr_note(tail: &str) -> String {
    if tail.is_empty() {
        String::new()
    } else {
        format!("; standard error ends: {tail}")
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
        Failure::Io(why) => format!("cannot talk to the program: {why}"),
    }
}

/// Why an answer was not accepted.
pub fn fault(fault: &Fault) -> String {
    match fault {
        Fault::WrongAnswer => "wrong answer".into(),
        Fault::Program(f) => failure(f),
    }
}

/// Why an answer was not judged.
pub fn skip(skip: &Skip) -> String {
    match skip {
        Skip::NotStarted(f) => format!("the program did not start: {}", failure(f)),
        Skip::AfterFailure(line, command) => {
            format!("the program failed at line {line} ({command})")
        }
        Skip::AfterDivergence(line, command) => {
            format!("depends on line {line} ({command}), whose answer differs from the reference's")
        }
        Skip::NoFirstAnswer(run) => format!("no answer with {run} to compare with"),
    }
}

/// Why a whole case was not run.
pub fn not_run(why: &NotRun) -> String {
    match why {
        NotRun::BuildFailed => "not run: the build failed".into(),
        NotRun::BuildTimedOut(limit) => {
            format!("not run: the build timed out after {} s", limit.as_secs())
        }
        NotRun::OutOfTime(limit) => format!(
            "not run: the student's overall time limit of {} s ran out",
            limit.as_secs()
        ),
        NotRun::NoSandbox(why) => format!("not run: the sandbox could not be set up: {why}"),
        NotRun::Unresponsive(cases) => format!(
            "not run: the program answered nothing in {cases} cases in a row, each of which \
             timed out"
        ),
    }
}

/// What was sent, with the lines before it that must get no answer.
pub fn sent(exchange: &Exchange) -> String {
    if exchange.silent.is_empty() {
        exchange.sent.clone()
    } else {
        format!(
            "{} (after {} line(s) that must get no answer: {:?})",
            exchange.sent,
            exchange.silent.len(),
            exchange.silent
        )
    }
}

/// The accepted answers, as a list to show.
pub fn expected(expect: &Expect) -> Vec<String> {
    match expect {
        Expect::OneOf(list) => list.clone(),
        Expect::Shape(model) => vec![format!("{model}  (or any answer of this form)")],
        Expect::Nothing(_) => Vec::new(),
    }
}

/// A finding about a whole case shown as if it were an exchange: what was "sent", what was
/// expected, what came, and the verdict in words (`None`: it passed).
pub struct Finding {
    /// What was looked at.
    pub sent: String,
    /// What it should have been.
    pub expected: Vec<String>,
    /// What it was.
    pub got: Option<String>,
    /// Why it failed.
    pub why: String,
}

/// The random answers' finding, when they never varied.
pub fn variety(case: &CaseResult, variety: &Variety) -> Option<Finding> {
    let always = variety.always.as_ref()?;
    Some(Finding {
        sent: format!("the {} random choices of {}", variety.count, case.name),
        expected: vec!["the accepted answers, not always the same one".into()],
        got: Some(format!("{always}, every time")),
        why: "the answer never changes: it is not random".into(),
    })
}

/// One position's measurement: "`scores 7`: 1.00 s with 1 thread(s), 0.52 s with 2: speed-up
/// 1.92x".
fn measurement(m: &Measurement, (one, many): (usize, usize)) -> String {
    format!(
        "`scores {}`: {} with {one} thread(s), {} with {many}: speed-up {:.2}x",
        m.depth,
        seconds(m.time_one),
        seconds(m.time_many),
        m.ratio()
    )
}

/// What a measurement that failed was doing, and why it failed.
fn speedup_fault(fault: &SpeedupFault, threads: (usize, usize)) -> (String, String) {
    match fault {
        SpeedupFault::Script(n) => (
            format!("the script with {n} thread(s)"),
            "the script did not get through".into(),
        ),
        SpeedupFault::Program {
            command,
            threads,
            failure: f,
        } => (
            format!("{command} with {threads} thread(s)"),
            format!("`{command}`: {}", failure(f)),
        ),
        SpeedupFault::Refused(command, answer) => (
            command.clone(),
            format!("`{command}` was refused: {answer:?}"),
        ),
        SpeedupFault::Differ { depth, one, many } => (
            format!(
                "scores {depth} with {} and {} threads",
                threads.0, threads.1
            ),
            format!("the answers differ or failed: {one:?} with 1 thread, {many:?} with more"),
        ),
    }
}

/// The speed-up's finding when it earned less than full credit (for a measurement that failed
/// because the script did not get through, the script's exchanges say why instead).
pub fn speedup_finding(speedup: &Speedup) -> Option<Finding> {
    let expected = vec![format!("a speed-up of at least {}x", speedup.best)];
    match &speedup.plain {
        Err(SpeedupFault::Script(_)) => None,
        Err(fault) => {
            let (sent, why) = speedup_fault(fault, speedup.threads);
            let got = match fault {
                SpeedupFault::Differ { many, .. } => Some(many.clone()),
                _ => None,
            };
            Some(Finding {
                sent,
                expected,
                got,
                why,
            })
        }
        Ok(m) if speedup.credit < 1.0 => Some(Finding {
            sent: format!(
                "scores {} with {} and {} threads",
                m.depth, speedup.threads.0, speedup.threads.1
            ),
            expected,
            got: Some(format!("{:.2}x", m.ratio())),
            why: format!("speed-up {:.2}x", m.ratio()),
        }),
        Ok(_) => None,
    }
}

/// The speed-up's measurements, one line each: the plain position with its credit, and the
/// uneven one (not scored) with its flag.
pub fn speedup_notes(speedup: &Speedup) -> Vec<String> {
    let Ok(plain) = &speedup.plain else {
        return Vec::new();
    };
    let mut notes = vec![format!(
        "{}, {}% credit",
        measurement(plain, speedup.threads),
        (speedup.credit * 100.0).round()
    )];
    if let Some(uneven) = &speedup.uneven {
        notes.push(uneven_note(uneven, plain.ratio(), speedup.threads));
    }
    notes
}

/// The line on the uneven position, flagged when its speed-up is well below the `plain` one.
fn uneven_note(uneven: &Uneven, plain: f64, threads: (usize, usize)) -> String {
    let text = match &uneven.measured {
        Ok(m) => measurement(m, threads),
        Err(fault) => {
            let (sent, why) = speedup_fault(fault, threads);
            format!("not measured: {sent}: {why}")
        }
    };
    let flag = match uneven.evenness {
        Evenness::TooQuick => {
            " Too quick to judge: one thread needed less than half the target time.".to_string()
        }
        Evenness::Flagged => format!(
            " FLAG for the hand grader: well below the plain {plain:.2}x, as when the columns \
             are divided among the threads in advance instead of handed out by a pool"
        ),
        Evenness::Even | Evenness::Unknown => String::new(),
    };
    format!(
        "With columns {:?} full (not scored): {text}.{flag}",
        uneven.columns
    )
}

/// Why a case's credit was withheld.
pub fn withheld(withheld: &Withheld) -> String {
    format!(
        "No credit: this counts only when {} passed, and {} did not.",
        withheld.requires.join(", "),
        withheld.failed.join(", ")
    )
}

/// The gradebook's word for a build: `ok`, `failed` or `timed out`.
pub fn build_word(build: &Build) -> &'static str {
    match build.ended {
        Ended::Succeeded => "ok",
        Ended::TimedOut(_) => "timed out",
        _ => "failed",
    }
}

/// One sentence for the reports: how a build ended and, if it failed, what that costs.
pub fn build_headline(build: &Build) -> String {
    const COST: &str = "no case was run, and every automatic category scores 0";
    let took = seconds(build.elapsed);
    let how = match &build.ended {
        Ended::Succeeded => return format!("The build succeeded in {took}."),
        Ended::TimedOut(limit) => {
            return format!("The build timed out after {} s: {COST}.", limit.as_secs())
        }
        Ended::Failed(status) => status.to_string(),
        Ended::Flooded => format!("its output passed {} MiB", MAX_LOG >> 20),
        Ended::NotStarted(why) => format!("it could not be started: {why}"),
        Ended::NoLog(why) => format!("its log cannot be written: {why}"),
    };
    let offline = if build.offline {
        format!(" {OFFLINE}")
    } else {
        String::new()
    };
    format!("The build failed ({how}) after {took}: {COST}.{offline}")
}

/// Said after a build that cargo stopped for want of a crate it could not download.
const OFFLINE: &str = "The build runs offline, in the sandbox: the grading machine has the \
     crates of the course's starter, at the versions its Cargo.lock locks, and no others.";

/// The build as plain text: how it went and, if it failed, the last lines of its log.
pub fn build(build: &Build) -> String {
    if build.succeeded() {
        build_headline(build)
    } else if build.tail.is_empty() {
        format!("{}\nIts log is empty.", build_headline(build))
    } else {
        format!(
            "{}\nThe last lines of its log:\n\n{}",
            build_headline(build),
            build.tail
        )
    }
}

/// What became of a changed file: `changed`, `added` or `removed`.
pub fn change_kind(change: &Change) -> &'static str {
    match change {
        Change::Changed(_) => "changed",
        Change::Added(_) => "added",
        Change::Removed(_) => "removed",
    }
}

/// One changed file: `changed src/lib.rs`.
fn change(change: &Change) -> String {
    format!("{} {}", change_kind(change), change.path())
}

/// The supplied crate comparison as plain text: that the copy is the course's, or every change
/// and why it is not scored.
pub fn supplied(comparison: &Comparison) -> String {
    let folder = &comparison.folder;
    if !comparison.changed() {
        return format!("The supplied crate ({folder}/) is the course's copy, unchanged.");
    }
    let changes: Vec<String> = comparison.changes.iter().map(change).collect();
    format!(
        "{SUPPLIED_CHANGED}: {} file(s) of {folder}/ differ from the course's copy: {}.\n\
         {SUPPLIED_NOT_SCORED}{}",
        changes.len(),
        changes.join(", "),
        replaced(comparison)
    )
}

/// The sentence on the course's copy having been built instead, if it was; else nothing.
pub fn replaced(comparison: &Comparison) -> String {
    if comparison.replaced {
        format!(" {SUPPLIED_REPLACED} {}.submitted/.", comparison.folder)
    } else {
        String::new()
    }
}

/// Whether an exchange failed, and why in words; `None` when it passed.
pub fn verdict(verdict: &Verdict) -> Option<String> {
    match verdict {
        Verdict::Pass => None,
        Verdict::Fail(why) => Some(fault(why)),
        Verdict::Skip(why) => Some(format!("skipped: {}", skip(why))),
    }
}

/// What a protection is called in reports.
fn protection(protection: Protection) -> &'static str {
    match protection {
        Protection::User => "own unprivileged user",
        Protection::Filesystem => "filesystem (only the submission and a scratch folder)",
        Protection::Network => "no network",
        Protection::Processes => "process limit (enforced by the kernel)",
        Protection::Survivors => "nothing outlives grading",
        Protection::Signals => "no signals or sockets out of the sandbox",
    }
}

/// The sandbox a student's code ran in: which protections were in force, which were not and
/// why, and whether anything outlived the student's last case. One paragraph.
pub fn confinement(confinement: &Confinement) -> String {
    let (protections, uid, swept) = match confinement {
        Confinement::Off => {
            return "Sandbox: off (--no-sandbox): the student's code ran with the grader's \
                    rights and could read everything the grader can."
                .into()
        }
        Confinement::Failed(why) => {
            return format!("Sandbox: could not be set up, so no student code was run: {why}.")
        }
        Confinement::On {
            protections,
            uid,
            swept,
        } => (protections, uid, swept),
    };
    let mut on = Vec::new();
    let mut off = Vec::new();
    for (which, status) in protections.iter() {
        let name = match (which, uid) {
            (Protection::User, Some(uid)) => format!("{} (uid {uid})", protection(which)),
            _ => protection(which).to_string(),
        };
        match status {
            Status::InForce => on.push(name),
            Status::Partly(why) => off.push(format!("{name} only in part: {why}")),
            Status::Unavailable(why) => off.push(format!("{name}: not in force, {why}")),
            Status::NotRequested => off.push(format!("{name}: not asked for")),
        }
    }
    let mut out = format!("Sandbox: in force: {}.", on.join("; "));
    if !off.is_empty() {
        out.push_str(&format!(" Not in force: {}.", off.join("; ")));
    }
    match swept {
        Ok(0) => {}
        Ok(n) => out.push_str(&format!(
            " {n} process(es) still running after the last case were killed."
        )),
        Err(survivors) => out.push_str(&format!(
            " WARNING: {} process(es) of the student's outlived grading (ids {:?}): do not \
             trust this result until they are gone.",
            survivors.pids.len(),
            survivors.pids
        )),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::ExitStatusExt;
    use std::process::ExitStatus;

    #[test]
    fn points_print_short() {
        assert_eq!(points(2.5), "2.5");
        assert_eq!(points(3.0), "3");
        assert_eq!(points(-0.0), "0");
        assert_eq!(points(1.0 / 3.0), "0.33");
        assert!(rounded(-0.0).is_sign_positive() && rounded(-0.001).is_sign_positive());
    }

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
            hit(Limit::Processes, 50, Evidence::Counted(51)),
            "the program exceeded its process limit of 50: the grader counted 51 of its \
             processes running at once, and killed them all"
        );
        let signal = |shell| Evidence::Signal {
            name: "SIGXCPU",
            shell,
        };
        assert_eq!(
            hit(Limit::CpuTime, 1, signal(None)),
            "the program exceeded its CPU time limit of 1 s (it was stopped by SIGXCPU)"
        );
        let status = ExitStatus::from_raw((128 + libc::SIGXCPU) << 8);
        assert!(hit(Limit::CpuTime, 1, signal(Some(status))).contains("a shell's way"));
        let stderr = Evidence::Stderr {
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

    #[test]
    fn the_sandbox_says_what_was_in_force_and_what_survived() {
        use crate::process::sandbox::{Protections, Reason, Survivors};
        let protections = Protections {
            user: Status::Unavailable(Reason::NotRoot),
            filesystem: Status::InForce,
            network: Status::InForce,
            processes: Status::InForce,
            survivors: Status::InForce,
            signals: Status::Partly(Reason::NoLandlock),
        };
        let on = |swept| Confinement::On {
            protections: Box::new(protections.clone()),
            uid: None,
            swept,
        };
        assert_eq!(
            confinement(&on(Ok(2))),
            "Sandbox: in force: filesystem (only the submission and a scratch folder); no \
             network; process limit (enforced by the kernel); nothing outlives grading. Not in \
             force: own unprivileged user: not in force, the grader does not run as root, so \
             student code runs as the grader's user; no signals or sockets out of the sandbox \
             only in part: the kernel has no Landlock (or it is disabled). 2 process(es) still \
             running after the last case were killed."
        );
        let survived = confinement(&on(Err(Survivors { pids: vec![41, 42] })));
        assert!(
            survived.ends_with(
                "WARNING: 2 process(es) of the student's outlived grading (ids \
                 [41, 42]): do not trust this result until they are gone."
            ),
            "{survived}"
        );
        assert!(confinement(&Confinement::Off).starts_with("Sandbox: off (--no-sandbox)"));
        assert_eq!(
            confinement(&Confinement::Failed("the kit is inside".into())),
            "Sandbox: could not be set up, so no student code was run: the kit is inside."
        );
    }
}
