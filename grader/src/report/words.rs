//! The words every report uses for the judge's typed results: why a program failed, which limit
//! it hit, why an answer was skipped or a case not run, how a build went, what was measured of
//! the speed-up (or why it is not counted: the CPUs, a busy machine), the thread design seen,
//! and points and seconds as reports print them. One place, so that the terminal,
//! the Markdown report, the gradebook and Gradescope say the same thing the same way.

use std::time::Duration;

use super::{inert, starved};
use crate::judge::result::design::{Design, Division, Unseen};
use crate::judge::result::speedup::{
    median, Busy, Measurement, Outcome, Refusal, Speedup, SpeedupFault, Uneven, Work, CONFIDENCE,
};
use crate::judge::result::{
    CaseResult, Exchange, Expect, Fault, NotRun, Skip, StudentResult, Variety, Verdict, Withheld,
};
use crate::judge::{Build, Confinement};
use crate::kit::supplied::{Change, Comparison};
use crate::process::logged::{Ended, MAX_LOG};
use crate::process::sandbox::{Protection, Status};
use crate::process::{
    Cpus, Ending, Evidence, Failure, Limit, LimitHit, Stream, MAX_LINE, MAX_OUTPUT,
};

/// How a report says that the copy differs, before the details.
pub const SUPPLIED_CHANGED: &str = "The supplied crate was changed";
/// Why a changed supplied crate is only reported, said wherever it is.
pub const SUPPLIED_NOT_SCORED: &str = "Students must not change it, but the score does not \
    depend on this: a grader decides whether the change matters.";
/// Said when the kit built the program with the course's copy instead of the changed one.
const SUPPLIED_REPLACED: &str = "The program was built with the course's copy, put in its \
    place for the grading; the submitted copy was put back afterwards.";

/// Seconds as the case files and reports write them: `1.25 s`.
pub fn seconds(duration: Duration) -> String {
    format!("{:.2} s", duration.as_secs_f64())
}

/// Points rounded to two decimals, as every report and results.json gives them; never -0.
pub fn rounded(value: f64) -> f64 {
    // Adding 0.0 turns -0 into 0.
    (value * 100.0).round() / 100.0 + 0.0
}

/// `count` students, in words: `1 student`, `3 students`.
pub fn students(count: usize) -> String {
    match count {
        1 => "1 student".into(),
        _ => format!("{count} students"),
    }
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
        Limit::JobMemory => format!("job's memory limit of {}", mib(amount)),
        Limit::Disk => format!("disk limit of {}", mib(amount)),
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
        Evidence::DiskFull => format!(
            "the program filled its {named} (everything the job writes, its build's output \
             included): its writes past it failed"
        ),
        Evidence::ControlGroup => format!(
            "the program exceeded its {named} (all its processes and their memory of every kind \
             together, /dev/shm included): the kernel stopped it"
        ),
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
        NotRun::BuildStarved { limit, had, wall } => format!(
            "not run, and not counted: {}",
            starved::build(*limit, *had, *wall)
        ),
        NotRun::OutOfTime(limit) => format!(
            "not run: the student's overall time limit of {} s ran out",
            limit.as_secs()
        ),
        NotRun::NoSandbox(why) => format!(
            "not run: the sandbox could not be set up: {}",
            inert::line(why)
        ),
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

/// The random answers' finding, when they never varied: it says that this voids the case.
pub fn variety(case: &CaseResult, variety: &Variety) -> Option<Finding> {
    let always = variety.always.as_ref()?;
    Some(Finding {
        sent: format!("the {} random choices of {}", variety.count, case.name),
        expected: vec!["the accepted answers, not always the same one".into()],
        got: Some(format!("{always}, every time")),
        why: "the answer never changes: it is not random, so the case earns no points, \
              however many of its answers were accepted"
            .into(),
    })
}

/// CPUs as reports write them: `1 CPU`, `1.5 CPUs`.
fn cpu_count(count: f64) -> String {
    match points(count).as_str() {
        "1" => "1 CPU".into(),
        shown => format!("{shown} CPUs"),
    }
}

/// What limits the CPUs the program could use, in words: "1 CPU (1 of the machine's 2, by the
/// grader's CPU affinity)".
pub fn cpus(cpus: &Cpus) -> String {
    let usable = cpu_count(cpus.usable());
    match cpus.quota {
        Some(quota) if quota < cpus.affinity as f64 => format!(
            "{usable} (the CPU quota of the grader's cgroup, on a machine with {})",
            cpu_count(cpus.online as f64)
        ),
        _ if cpus.affinity < cpus.online => format!(
            "{usable} ({} of the machine's {}, by the grader's CPU affinity)",
            cpus.affinity, cpus.online
        ),
        _ => format!("{usable} (all the machine has)"),
    }
}

/// `1 thread`, `2 threads`.
fn threads(count: usize) -> String {
    match count {
        1 => "1 thread".into(),
        n => format!("{n} threads"),
    }
}

/// One position's rounds: "`scores 8` in 7 rounds: 0.36 s on 1 thread, 0.19 s on 2 threads
/// (the medians of the spans, the searches' times with their waiting for a CPU taken out; by
/// the wall clock 0.37 s and 0.20 s), 1.97 threads at work at once, 0.96x the CPU time on 1
/// thread that it took on 2 threads; speed-up 1.89x (the median of the rounds')".
fn measurement(m: &Measurement, (one, many): (usize, usize)) -> String {
    let medians =
        |works: &[Work], of: fn(&Work) -> f64| median(&works.iter().map(of).collect::<Vec<f64>>());
    let span = |w: &Work| w.span.as_secs_f64();
    let wall = |w: &Work| w.wall.as_secs_f64();
    format!(
        "`scores {}` in {} rounds: {:.2} s on {}, {:.2} s on {} (the medians of the spans, the \
         searches' times with their waiting for a CPU taken out; by the wall clock {:.2} s and \
         {:.2} s), {:.2} threads at work at once, {:.2}x the CPU time on {} that it took on {}; \
         speed-up {:.2}x (the median of the rounds')",
        m.depth,
        m.rounds(),
        medians(&m.one, span),
        threads(one),
        medians(&m.many, span),
        threads(many),
        medians(&m.one, wall),
        medians(&m.many, wall),
        medians(&m.many, Work::at_once),
        median(&m.work_ratios()),
        threads(one),
        threads(many),
        m.speedup()
    )
}

/// Every round's figures, so that the noise shows: "Each round, span/wall clock in seconds: on
/// 1 thread 0.361/0.370 0.352/0.360; on 2 threads 0.190/0.201 0.188/0.190; the calibration's
/// ceiling 1.90 1.85."
fn rounds(m: &Measurement, (one, many): (usize, usize)) -> String {
    let series = |works: &[Work]| {
        let shown: Vec<String> = works
            .iter()
            .map(|w| format!("{:.3}/{:.3}", w.span.as_secs_f64(), w.wall.as_secs_f64()))
            .collect();
        shown.join(" ")
    };
    let ceilings: Vec<String> = m.ceilings.iter().map(|c| format!("{c:.2}")).collect();
    format!(
        "Each round, span/wall clock in seconds: on {} {}; on {} {}; the calibration's ceiling \
         {}.",
        threads(one),
        series(&m.one),
        threads(many),
        series(&m.many),
        ceilings.join(" ")
    )
}

/// `1, 3 and 5`.
fn spoken_list(numbers: &[usize]) -> String {
    let words: Vec<String> = numbers.iter().map(usize::to_string).collect();
    match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => words.join(""),
    }
}

/// What a measurement that failed was doing, and why it failed.
fn speedup_fault(fault: &SpeedupFault) -> (String, String) {
    match fault {
        SpeedupFault::Script(n) => (
            format!("the script with {}", threads(*n)),
            "the script did not get through".into(),
        ),
        SpeedupFault::Program {
            command,
            threads: n,
            failure: f,
        } => (
            format!("{command} with {}", threads(*n)),
            format!("`{command}`: {}", failure(f)),
        ),
        SpeedupFault::Refused(command, answer) => (
            command.clone(),
            format!("`{command}` was refused: {answer:?}"),
        ),
        SpeedupFault::Differ {
            depth,
            one,
            other,
            threads: n,
        } => (
            format!("scores {depth} with {}", threads(*n)),
            format!(
                "the answer differs from the first one on 1 thread: {one:?} then {other:?} with \
                 {}",
                threads(*n)
            ),
        ),
    }
}

/// The speed-up's finding when it earned less than full credit (for a measurement that failed
/// because the script did not get through, the script's exchanges say why instead).
pub fn speedup_finding(speedup: &Speedup) -> Option<Finding> {
    let (one, many) = speedup.threads;
    match &speedup.outcome {
        Outcome::Failed(SpeedupFault::Script(_)) => None,
        Outcome::Failed(fault) => {
            let (sent, why) = speedup_fault(fault);
            let got = match fault {
                SpeedupFault::Differ { other, .. } => Some(other.clone()),
                _ => None,
            };
            Some(Finding {
                sent,
                expected: vec!["the same values on any number of threads".into()],
                got,
                why,
            })
        }
        Outcome::Refused(m, refusal) => Some(Finding {
            sent: format!("scores {} with {one} and {many} threads", m.depth),
            expected: vec!["the same search split among the threads, which wait for work".into()],
            got: None,
            why: refused(refusal, many),
        }),
        Outcome::Judged(m, judged) if judged.credit < 1.0 => Some(Finding {
            sent: format!("scores {} with {one} and {many} threads", m.depth),
            expected: vec![format!(
                "a speed-up of {:.2}x, which earns full credit where {many} threads can give \
                 {:.2}x",
                judged.full_at, judged.ceiling
            )],
            got: Some(format!("{:.2}x", judged.speedup)),
            why: format!(
                "speed-up {:.2}x: {}% of what {many} threads can gain here",
                judged.speedup,
                percent(judged.gain)
            ),
        }),
        _ => None,
    }
}

/// A share as a whole percentage.
fn percent(share: f64) -> f64 {
    (share * 100.0).round() + 0.0
}

/// Why a speed-up is not counted, in a few words for the score table; `None` when it counts.
pub fn not_counted(speedup: &Speedup) -> Option<String> {
    match &speedup.outcome {
        Outcome::TooFewCpus => Some(format!(
            "not judged on {}",
            cpu_count(speedup.cpus.usable())
        )),
        Outcome::Busy(_, Busy::Unaccounted) => {
            Some("not judged: the kernel does not account for threads' waiting".into())
        }
        Outcome::Busy(..) => Some("the machine was busy: grade again".into()),
        Outcome::Failed(_) | Outcome::Refused(..) | Outcome::Judged(..) => None,
    }
}

/// Why `case` is not counted (the machine could not give it its time, or judge its speed-up);
/// `None` when it counts.
pub fn case_not_counted(case: &CaseResult) -> Option<String> {
    match case.starved() {
        Some(starved) => Some(starved::not_counted(&starved)),
        None => case.speedup.as_ref().and_then(not_counted),
    }
}

/// Why the speed-ups of `result`'s cases in `category` were not counted, `; ` between them;
/// `None` when every case of it counts.
pub fn category_not_counted(result: &StudentResult, category: &str) -> Option<String> {
    let why: Vec<String> = result
        .not_counted()
        .filter(|case| case.category == category)
        .filter_map(case_not_counted)
        .collect();
    (!why.is_empty()).then(|| why.join("; "))
}

/// The plain position's line: what was measured and what it earned, or why it is not counted.
fn outcome_note(speedup: &Speedup) -> Option<String> {
    let threads = speedup.threads;
    let many = threads.1;
    let note = match &speedup.outcome {
        Outcome::Failed(_) => return None,
        Outcome::TooFewCpus => format!(
            "Not judged, and not counted either way: the program could use {}, and the \
             speed-up needs {many}. Grade on a machine with {many} CPUs or more (on Gradescope: \
             see the kit's guide).",
            cpus(&speedup.cpus)
        ),
        Outcome::Busy(m, Busy::Unaccounted) => format!(
            "Not judged, and not counted either way: this kernel does not say how long threads \
             wait for a CPU (no /proc/PID/task/TID/schedstat), so a busy machine cannot be told \
             from a slow program. {}.",
            measurement(m, threads)
        ),
        Outcome::Busy(m, busy) => {
            let why = match busy {
                Busy::Unsettled(least, most) => {
                    let (slowest, fastest) = m.speedup_range();
                    let (lowest, highest) = m.ceiling_range();
                    format!(
                        "the rounds disagreed: after {} of them the medians could still be \
                         anywhere in their ranges ({}% sure: the speed-up {slowest:.2}x to \
                         {fastest:.2}x, the ceiling {lowest:.2}x to {highest:.2}x), which allow \
                         anything from {}% to {}% credit",
                        m.rounds(),
                        percent(CONFIDENCE),
                        percent(*least),
                        percent(*most)
                    )
                }
                Busy::Ceiling(ceiling) => format!(
                    "the grader's own work on {many} threads at once gained only {ceiling:.2}x, \
                     where {many} CPUs of their own give nearly {many}x"
                ),
                Busy::Unaccounted => unreachable!("worded above"),
            };
            format!(
                "Not counted: the machine was busy: grade again. {}; {why}.",
                measurement(m, threads)
            )
        }
        Outcome::Refused(m, refusal) => format!(
            "No credit: {}. {}.",
            refused(refusal, many),
            measurement(m, threads)
        ),
        Outcome::Judged(m, judged) => {
            let gained = match percent(judged.gain) {
                share if share > 0.0 => format!("the program gained {share}% of that"),
                _ => "the program gained nothing".into(),
            };
            format!(
                "{}. The grader's own work on {many} threads at once: {:.2}x, the most {many} \
                 threads can give on this machine now; {gained}: {}% credit.",
                measurement(m, threads),
                judged.ceiling,
                percent(judged.credit)
            )
        }
    };
    Some(note)
}

/// Why a measured speed-up earns nothing, on `many` threads.
fn refused(refusal: &Refusal, many: usize) -> String {
    match refusal {
        Refusal::NoBaseline(extra) => format!(
            "the search on 1 thread cost {extra:.2}x the CPU work of the same search on {many} \
             threads, where the same work split among threads costs about the same: a \
             one-thread run that does more than the search is no baseline to measure a \
             speed-up against"
        ),
        Refusal::BusyWaiting(idle) => format!(
            "between commands, with nothing to do, the program's workers kept {idle:.1} \
             threads ready to run (a pool whose workers wait on a condition variable keeps \
             none): they poll for work instead of waiting for it, taking CPUs that other \
             programs need"
        ),
    }
}

/// The speed-up's notes, one line each: the plain position with its credit or why it is not
/// counted, every round's figures, the uneven position, and the thread design seen.
pub fn speedup_notes(speedup: &Speedup) -> Vec<String> {
    let mut notes: Vec<String> = outcome_note(speedup).into_iter().collect();
    notes.extend(super::threading::cause_note(speedup));
    if speedup.outcome.measurement().is_some() {
        notes.extend(speedup.chosen.as_ref().map(super::threading::chosen_note));
    }
    notes.extend(super::threading::scaling_note(&speedup.scaling));
    if let Some(m) = speedup.outcome.measurement() {
        notes.push(rounds(m, speedup.threads));
    }
    notes.extend(speedup.uneven.as_ref().map(|u| uneven_note(u, speedup)));
    notes.extend(design_note(speedup));
    notes
}

/// The line on the thread design seen, for the hand grader; none when the program did not
/// search on several threads.
pub fn design_note(speedup: &Speedup) -> Option<String> {
    let seen = design(speedup.design, speedup.threads.1)?;
    Some(format!("Thread design seen (for the hand grader): {seen}."))
}

/// The line on the uneven position: how the work was split, flagged when one thread did it all.
fn uneven_note(uneven: &Uneven, speedup: &Speedup) -> String {
    let many = speedup.threads.1;
    let text = match &uneven.seen {
        Ok(split) => format!(
            "`scores {}` on {}: {} at work, the busiest ran {}% of the {:.2} s of CPU time",
            split.depth,
            threads(many),
            match split.work.workers {
                1 => "1 thread".to_string(),
                n => format!("{n} threads"),
            },
            percent(split.work.busiest),
            split.work.cpu.as_secs_f64()
        ),
        Err(fault) => {
            let (sent, why) = speedup_fault(fault);
            format!("not seen: {sent}: {why}")
        }
    };
    let flag = match speedup.design {
        Design::Pool {
            division: Division::Fixed(_),
            ..
        }
        | Design::PerSearch {
            division: Division::Fixed(_),
            ..
        } => {
            " FLAG for the hand grader: the columns are divided among the threads in advance \
               instead of handed out as they finish."
        }
        _ => "",
    };
    format!(
        "With columns {} full (not scored): {text}.{flag}",
        spoken_list(&uneven.columns)
    )
}

/// How a program used `threads` threads, in the handout's words; `None` when it did not get
/// as far as searching on them.
pub fn design(design: Design, threads: usize) -> Option<String> {
    let shared = |division: Division| match division {
        Division::Shared(busiest) => format!(
            "; with some columns full they still shared the work (the busiest ran {}% of it)",
            percent(busiest)
        ),
        Division::Fixed(busiest) => format!(
            ", but with some columns full one of them ran {}% of the work: the columns are \
             divided among the threads in advance",
            percent(busiest)
        ),
        Division::Unknown => String::new(),
    };
    Some(match design {
        Design::Pool {
            workers,
            division: division @ Division::Fixed(_),
        } => format!(
            "a pool with a fixed division of the columns: the same {workers} threads searched \
             both times, created once and reused{}",
            shared(division)
        ),
        Design::Pool { workers, division } => format!(
            "a pool: the same {workers} threads searched both times, created once and reused, \
             waiting between commands{}",
            shared(division)
        ),
        Design::PerSearch {
            workers,
            new,
            division: division @ Division::Fixed(_),
        } => format!(
            "threads started for every search with a fixed division of the columns ({new} of \
             the {workers} that searched the second time were new){}: not a pool",
            shared(division)
        ),
        Design::PerSearch {
            workers,
            new,
            division,
        } => format!(
            "a pool created anew for every search ({new} of the {workers} threads that searched \
             the second time were new){}: not created once",
            shared(division)
        ),
        Design::IgnoresThreads { workers, alone } => format!(
            "a thread per root column whatever THREADS says: {workers} threads worked with \
             THREADS {threads}, and {alone} with THREADS 1"
        ),
        Design::BusyWaiting { workers, idle } => format!(
            "a busy-waiting pool: the same {workers} threads searched both times, but between \
             commands they kept {idle:.1} threads ready to run with nothing to do, polling for \
             work instead of waiting for it"
        ),
        Design::TakingTurns { workers, at_once } => format!(
            "workers taking turns: {workers} threads searched, but {at_once:.2} of them were at \
             work at once: each task holds one lock for its whole search (a `synchronized \
             run()`), so the others wait for it"
        ),
        Design::Polling { workers, wakeups } => format!(
            "a pool polling with sleeps: the same {workers} threads searched both times, but \
             between commands each was woken {wakeups:.0} times a second with nothing to do, \
             sleeping a moment between looks for work instead of waiting to be notified"
        ),
        Design::Duplicated { workers, work } => format!(
            "work beside the search: {workers} threads worked, and with all of them on one CPU \
             the program on THREADS {threads} ran {work:.2}x the CPU time of its search on 1 \
             thread: a thread burning CPU beside the search, or threads that each search \
             everything"
        ),
        Design::OneWorker => {
            format!("one thread did all the work with THREADS {threads}, as with no threads")
        }
        Design::Unseen(Unseen::TooQuick) => {
            "not seen: the searches were too short to tell the threads apart".into()
        }
        Design::Unseen(Unseen::NotSearched) => return None,
    })
}

/// The gradebook's word for the thread design, or nothing when the program did not search on
/// several threads.
pub fn design_word(design: Design) -> &'static str {
    let fixed = |division| matches!(division, Division::Fixed(_));
    match design {
        Design::Pool { division, .. } if fixed(division) => "pool, fixed division",
        Design::Pool { .. } => "pool",
        Design::PerSearch { division, .. } if fixed(division) => {
            "threads per search, fixed division"
        }
        Design::PerSearch { .. } => "pool per search",
        Design::IgnoresThreads { .. } => "thread per column",
        Design::BusyWaiting { .. } => "busy-waiting pool",
        Design::TakingTurns { .. } => "workers taking turns",
        Design::Polling { .. } => "pool polling with sleeps",
        Design::Duplicated { .. } => "work beside the search",
        Design::OneWorker => "one worker",
        Design::Unseen(Unseen::TooQuick) => "not seen",
        Design::Unseen(Unseen::NotSearched) => "",
    }
}

/// The gradebook's words for the speed-up: `1.89x of 1.93x`, `failed`, `no baseline`,
/// `busy-waiting`, `not judged: 1 CPU`, or `machine busy` (the reports say to grade again).
pub fn speedup_word(speedup: &Speedup) -> String {
    match &speedup.outcome {
        Outcome::Judged(_, judged) => format!("{:.2}x of {:.2}x", judged.speedup, judged.ceiling),
        Outcome::Failed(_) => "failed".into(),
        Outcome::Refused(_, Refusal::NoBaseline(_)) => "no baseline".into(),
        Outcome::Refused(_, Refusal::BusyWaiting(_)) => "busy-waiting".into(),
        Outcome::TooFewCpus => format!("not judged: {}", cpu_count(speedup.cpus.usable())),
        Outcome::Busy(_, Busy::Unaccounted) => "not judged: no schedstat".into(),
        Outcome::Busy(..) => "machine busy".into(),
    }
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
        Ended::Starved { .. } => "machine busy",
        _ => "failed",
    }
}

/// How a logged command (a build, a lint) ended, in a few words: `exit status: 101`, `it
/// timed out after 600 s`.
pub fn ended(ended: &Ended) -> String {
    match ended {
        Ended::Succeeded => "it succeeded".into(),
        Ended::TimedOut(limit) => format!("it timed out after {} s", limit.as_secs()),
        Ended::Starved { limit, had, wall } => starved::build(*limit, *had, *wall),
        Ended::Failed(status) => status.to_string(),
        Ended::DiskFull(status) => format!(
            "{status}, its disk full: all a student's job may write, its build's output \
             included (disk_mib in rubric.toml's [limits])"
        ),
        Ended::Flooded => format!("its output passed {} MiB", MAX_LOG >> 20),
        Ended::NotStarted(why) => format!("it could not be started: {}", inert::line(why)),
        Ended::NoLog(why) => format!("its log cannot be written: {}", inert::line(why)),
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
        Ended::Starved { limit, had, wall } => {
            return format!(
                "The build was stopped: {}. No case was run, and nothing is counted: grade \
                 again on a quieter machine.",
                starved::build(*limit, *had, *wall)
            )
        }
        ended => self::ended(ended),
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

/// The build as plain text: how it went and, if it failed, the last lines of its log (made
/// inert).
pub fn build(build: &Build) -> String {
    if build.succeeded() {
        build_headline(build)
    } else if build.tail.is_empty() {
        format!("{}\nIts log is empty.", build_headline(build))
    } else {
        format!(
            "{}\nThe last lines of its log:\n\n{}",
            build_headline(build),
            inert::text(&build.tail)
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
    format!("{} {}", change_kind(change), inert::line(change.path()))
}

/// The supplied crate comparison as plain text: that the copy is the course's, or every change
/// and why it is not scored.
pub fn supplied(comparison: &Comparison) -> String {
    let folder = inert::line(&comparison.folder);
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

/// The sentence on the course's copy having been built instead, if it was (and where the
/// submitted copy is, if it could not be put back); else nothing.
pub fn replaced(comparison: &Comparison) -> String {
    match (&comparison.not_put_back, comparison.replaced) {
        (Some((why, kept)), _) => format!(
            " The program was built with the course's copy, put in its place for the grading; \
             the submitted copy could not be put back ({}): it is in {}/.",
            inert::line(why),
            inert::line(kept)
        ),
        (None, true) => format!(" {SUPPLIED_REPLACED}"),
        (None, false) => String::new(),
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
        Protection::Signals => "no signals or abstract sockets out of the sandbox",
        Protection::Tree => "own file tree (no named socket, FIFO or device outside it)",
        Protection::Sight => "own processes (no other process of the machine visible)",
        Protection::Objects => "own IPC objects and keyrings (none left for the next student)",
        Protection::Memory => "one memory limit for the whole job (all its processes and memory)",
        Protection::Cpu => "a fair share of the CPUs (no neighbour slowed down)",
        Protection::Disk => "a disk of its own, bounded (the submission folder left as it was)",
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
            return format!(
                "Sandbox: could not be set up, so no student code was run: {}.",
                inert::line(why)
            )
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
    use crate::judge::result::speedup::Judged;
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
    fn a_replaced_copy_is_said_put_back_or_where_it_was_left() {
        let comparison = Comparison {
            folder: "supplied".into(),
            changes: vec![Change::Changed("src/lib.rs".into())],
            replaced: true,
            not_put_back: None,
        };
        let said = supplied(&comparison);
        assert!(
            said.contains("changed src/lib.rs") && said.contains("was put back afterwards"),
            "{said}"
        );
        let left = Comparison {
            not_put_back: Some((
                "cannot move back".into(),
                ".grade-supplied-x/supplied".into(),
            )),
            ..comparison
        };
        let said = supplied(&left);
        assert!(
            said.contains(
                "could not be put back (cannot move back): it is in \
                 .grade-supplied-x/supplied/."
            ),
            "{said}"
        );
        assert_eq!(
            replaced(&Comparison {
                replaced: false,
                not_put_back: None,
                ..left
            }),
            ""
        );
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

    /// A speed-up on 2 threads with `outcome`, the pool seen, on a machine of 2 CPUs.
    fn speedup(outcome: Outcome) -> Speedup {
        Speedup {
            threads: (1, 2),
            cpus: Cpus {
                online: 2,
                affinity: 2,
                quota: None,
            },
            chosen: None,
            scaling: Vec::new(),
            outcome,
            uneven: None,
            design: Design::Pool {
                workers: 2,
                division: Division::Unknown,
            },
        }
    }

    /// A search whose span was `span` ms and wall-clock time `wall` ms, with 2 threads' CPU.
    fn search(span: u64, wall: u64, at_once: u64) -> Work {
        Work {
            wall: Duration::from_millis(wall),
            cpu: Duration::from_millis(span * at_once),
            ready: Duration::from_millis(wall * at_once),
            span: Duration::from_millis(span),
            workers: at_once as usize,
            busiest: 1.0 / at_once as f64,
            accounted: true,
        }
    }

    /// Rounds of 0.35 s on one thread, 0.2 s on two, on a machine that kept them waiting a
    /// little, and a ceiling of 1.94x.
    fn measured() -> Measurement {
        Measurement {
            depth: 8,
            one: vec![search(350, 360, 1); 3],
            many: vec![search(200, 205, 2); 3],
            ceilings: vec![1.94; 3],
        }
    }

    #[test]
    fn a_judged_speedup_says_what_it_measured_and_earned() {
        let judged = Judged {
            speedup: 1.75,
            ceiling: 1.94,
            gain: 0.8,
            full_at: 1.52,
            credit: 1.0,
            grew: None,
            unsettled: None,
        };
        let notes = speedup_notes(&speedup(Outcome::Judged(measured(), judged)));
        assert_eq!(
            notes,
            [
                "`scores 8` in 3 rounds: 0.35 s on 1 thread, 0.20 s on 2 threads (the medians of \
                 the spans, the searches' times with their waiting for a CPU taken out; by the \
                 wall clock 0.36 s and 0.20 s), 2.00 threads at work at once, 0.87x the CPU time \
                 on 1 thread that it took on 2 threads; speed-up 1.75x (the median of the \
                 rounds'). The grader's own work on 2 threads at once: 1.94x, \
                 the most 2 threads can give on this machine now; the program gained 80% of \
                 that: 100% credit.",
                "Each round, span/wall clock in seconds: on 1 thread 0.350/0.360 0.350/0.360 \
                 0.350/0.360; on 2 threads 0.200/0.205 0.200/0.205 0.200/0.205; the \
                 calibration's ceiling 1.94 1.94 1.94.",
                "Thread design seen (for the hand grader): a pool: the same 2 threads searched \
                 both times, created once and reused, waiting between commands.",
            ]
        );
        assert_eq!(
            speedup_word(&speedup(Outcome::Judged(measured(), judged))),
            "1.75x of 1.94x"
        );
    }

    #[test]
    fn a_refused_speedup_says_why_it_earns_nothing() {
        let forged = speedup(Outcome::Refused(measured(), Refusal::NoBaseline(2.03)));
        assert!(speedup_notes(&forged)[0].starts_with(
            "No credit: the search on 1 thread cost 2.03x the CPU work of the same search on 2 \
             threads"
        ));
        assert_eq!(speedup_word(&forged), "no baseline");
        assert_eq!(not_counted(&forged), None);
        let polling = speedup(Outcome::Refused(measured(), Refusal::BusyWaiting(1.93)));
        assert!(speedup_notes(&polling)[0].contains("kept 1.9 threads ready to run"));
        assert_eq!(speedup_word(&polling), "busy-waiting");
        let finding = speedup_finding(&polling).expect("a finding");
        assert!(finding.why.contains("poll for work"), "{}", finding.why);
    }

    #[test]
    fn a_speedup_not_counted_says_why() {
        let busy = speedup(Outcome::Busy(measured(), Busy::Unsettled(0.25, 1.0)));
        assert_eq!(
            not_counted(&busy).as_deref(),
            Some("the machine was busy: grade again")
        );
        assert!(speedup_notes(&busy)[0].starts_with(
            "Not counted: the machine was busy: grade again. `scores 8` in 3 rounds: 0.35 s on 1 \
             thread"
        ));
        assert!(speedup_notes(&busy)[0].ends_with(
            "the rounds disagreed: after 3 of them the medians could still be anywhere in their \
             ranges (80% sure: the speed-up 1.75x to 1.75x, the ceiling 1.94x to 1.94x), which \
             allow anything from 25% to 100% credit."
        ));
        let low = speedup(Outcome::Busy(measured(), Busy::Ceiling(1.21)));
        assert!(speedup_notes(&low)[0]
            .contains("the grader's own work on 2 threads at once gained only 1.21x"));
        let blind = speedup(Outcome::Busy(measured(), Busy::Unaccounted));
        assert_eq!(
            not_counted(&blind).as_deref(),
            Some("not judged: the kernel does not account for threads' waiting")
        );
        let quota = Speedup {
            cpus: Cpus {
                online: 4,
                affinity: 4,
                quota: Some(1.5),
            },
            ..speedup(Outcome::TooFewCpus)
        };
        assert_eq!(
            cpus(&quota.cpus),
            "1.5 CPUs (the CPU quota of the grader's cgroup, on a machine with 4 CPUs)"
        );
        assert_eq!(speedup_word(&quota), "not judged: 1.5 CPUs");
        assert_eq!(
            not_counted(&quota).as_deref(),
            Some("not judged on 1.5 CPUs")
        );
    }

    #[test]
    fn the_thread_designs_are_named_as_the_handout_names_them() {
        let named = |d: Design| (design(d, 2).unwrap(), design_word(d));
        let (text, word) = named(Design::PerSearch {
            workers: 2,
            new: 2,
            division: Division::Shared(0.55),
        });
        assert_eq!(
            text,
            "a pool created anew for every search (2 of the 2 threads that searched the second \
             time were new); with some columns full they still shared the work (the busiest \
             ran 55% of it): not created once"
        );
        assert_eq!(word, "pool per search");
        let (text, word) = named(Design::PerSearch {
            workers: 2,
            new: 2,
            division: Division::Fixed(1.0),
        });
        assert!(text.starts_with("threads started for every search with a fixed division"));
        assert_eq!(word, "threads per search, fixed division");
        let (text, word) = named(Design::Pool {
            workers: 2,
            division: Division::Fixed(0.99),
        });
        assert!(text.contains("one of them ran 99% of the work"), "{text}");
        assert_eq!(word, "pool, fixed division");
        let (text, word) = named(Design::IgnoresThreads {
            workers: 7,
            alone: 7,
        });
        assert_eq!(
            text,
            "a thread per root column whatever THREADS says: 7 threads worked with THREADS 2, \
             and 7 with THREADS 1"
        );
        assert_eq!(word, "thread per column");
        let (text, word) = named(Design::BusyWaiting {
            workers: 2,
            idle: 1.96,
        });
        assert!(text.contains("kept 2.0 threads ready to run"), "{text}");
        assert_eq!(word, "busy-waiting pool");
        assert_eq!(
            named(Design::OneWorker),
            (
                "one thread did all the work with THREADS 2, as with no threads".to_string(),
                "one worker"
            )
        );
        assert_eq!(design(Design::Unseen(Unseen::NotSearched), 2), None);
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
            tree: Status::InForce,
            sight: Status::InForce,
            objects: Status::InForce,
            memory: Status::InForce,
            cpu: Status::InForce,
            disk: Status::InForce,
        };
        let on = |swept| Confinement::On {
            protections: Box::new(protections.clone()),
            uid: None,
            swept,
        };
        assert_eq!(
            confinement(&on(Ok(2))),
            "Sandbox: in force: filesystem (only the submission and a scratch folder); own file \
             tree (no named socket, FIFO or device outside it); own processes (no other process \
             of the machine visible); own IPC objects and keyrings (none left for the next \
             student); one memory limit for the whole job (all its processes and memory); a fair \
             share of the CPUs (no neighbour slowed down); a disk of its own, bounded (the \
             submission folder left as it was); no network; process limit \
             (enforced by the kernel); nothing outlives grading. Not in force: own unprivileged \
             user: not in force, the grader does not run as root, so student code runs as the \
             grader's user; no signals or abstract sockets out of the sandbox only in part: the kernel has no Landlock (or it is disabled). 2 process(es) still \
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
