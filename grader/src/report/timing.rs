//! The timed cases' speed-up in words: what the rounds measured and what it earned, or why it
//! earns nothing (no baseline, busy-waiting) or is not counted (too few CPUs, a busy machine);
//! every round's figures, the uneven position, the finding a failed case's detail shows, and
//! the gradebook's word for it. The judge computed every figure ([`Speedup`]); this only says
//! them. The causes and the CPUs are worded beside it, in [`super::threading`].

use super::failure::failure;
use super::numbers::{cpu_count, percent, spoken_list, threads};
use super::starved;
use super::threading::cpus;
use super::verdict::Finding;
use super::workers::design_note;
use crate::judge::result::speedup::{
    Busy, Counting, Measurement, Refusal, Speedup, SpeedupFault, SpeedupOutcome, Uneven, Work,
    CONFIDENCE,
};
use crate::judge::result::{CaseResult, StudentResult};
use crate::process::counters::{Uncounted, MOST_THREADS};

/// One position's rounds: "`scores 8` in 7 rounds: 0.36 s on 1 thread, 0.19 s on 2 threads
/// (the medians of the spans, the searches' times with their waiting for a CPU taken out; by
/// the wall clock 0.37 s and 0.20 s), 1.97 threads at work at once, 0.96x the CPU time on 1
/// thread that it took on 2 threads; speed-up 1.89x (the median of the rounds')".
fn measurement(m: &Measurement, (one, many): (usize, usize)) -> String {
    let (one_span, many_span) = m.spans();
    let (one_wall, many_wall) = m.walls();
    let (one, many) = (threads(one), threads(many));
    format!(
        "`scores {}` in {} rounds: {one_span:.2} s on {one}, {many_span:.2} s on {many} (the \
         medians of the spans, the searches' times with their waiting for a CPU taken out; by the \
         wall clock {one_wall:.2} s and {many_wall:.2} s), {:.2} threads at work at once, {:.2}x \
         the CPU time on {one} that it took on {many}; speed-up {:.2}x (the median of the \
         rounds')",
        m.depth,
        m.rounds(),
        m.at_once(),
        m.work_ratio(),
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
    let figures = |values: &[f64]| {
        let shown: Vec<String> = values.iter().map(|v| format!("{v:.2}")).collect();
        shown.join(" ")
    };
    let unit = match m.in_instructions() {
        true => "instructions retired",
        false => "CPU time",
    };
    let machine = match m.machine_growths() {
        [] => String::new(),
        growths => format!(
            "; the growth of its {unit} on {} over 1 (the machine's share) {}",
            threads(many),
            figures(growths)
        ),
    };
    let counters = match m.counted {
        Some(Counting::Instructions) => " Whether the work grew is measured in the \
            instructions the threads retired in user space, counted by the processor's hardware \
            counters in every search and in the calibration, which a busy host does not stretch."
            .to_string(),
        Some(Counting::CpuTime(why)) => format!(
            " Whether the work grew is measured in the threads' CPU time: {}.",
            uncounted(why)
        ),
        None => String::new(),
    };
    format!(
        "Each round, span/wall clock in seconds: on {} {}; on {} {}; the calibration's ceiling \
         {}{machine}.{counters}",
        threads(one),
        series(&m.one),
        threads(many),
        series(&m.many),
        figures(&m.ceilings)
    )
}

/// Why the instructions were not counted: "this machine offers no hardware counter ...".
fn uncounted(why: Uncounted) -> String {
    match why {
        Uncounted::NoCounter => "this machine offers no hardware counter of instructions \
            retired (no performance unit, as in most virtual machines and containers)"
            .into(),
        Uncounted::Denied => "the kernel refused the grader a counter on the program's \
            threads (`perf_event_paranoid`, or the program runs as another user and the grader \
            lacks `CAP_PERFMON`)"
            .into(),
        Uncounted::NoDescriptors => "the grader had no file descriptor left for a counter".into(),
        Uncounted::NoThreads => "no thread of the program was left to count".into(),
        Uncounted::TooManyThreads => format!(
            "the program had more threads than the grader opens counters on ({MOST_THREADS}: \
             each takes one of its file descriptors)"
        ),
        Uncounted::Failed(Some(errno)) => {
            format!("a counter could not be opened or read (error {errno})")
        }
        Uncounted::Failed(None) => "a counter could not be opened or read".into(),
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
        SpeedupOutcome::Failed(SpeedupFault::Script(_)) => None,
        SpeedupOutcome::Failed(fault) => {
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
        SpeedupOutcome::Refused(m, refusal) => Some(Finding {
            sent: format!("scores {} with {one} and {many} threads", m.depth),
            expected: vec!["the same search split among the threads, which wait for work".into()],
            got: None,
            why: refused(refusal, many),
        }),
        SpeedupOutcome::Judged(m, judged) if judged.credit < 1.0 => Some(Finding {
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

/// Why a speed-up is not counted, in a few words for the score table; `None` when it counts.
pub fn not_counted(speedup: &Speedup) -> Option<String> {
    match &speedup.outcome {
        SpeedupOutcome::TooFewCpus => Some(format!(
            "not judged on {}",
            cpu_count(speedup.cpus.usable())
        )),
        SpeedupOutcome::Busy(_, Busy::Unaccounted) => {
            Some("not judged: the kernel does not account for threads' waiting".into())
        }
        SpeedupOutcome::Busy(..) => Some("the machine was busy: grade again".into()),
        SpeedupOutcome::Failed(_) | SpeedupOutcome::Refused(..) | SpeedupOutcome::Judged(..) => {
            None
        }
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
        SpeedupOutcome::Failed(_) => return None,
        SpeedupOutcome::TooFewCpus => format!(
            "Not judged, and not counted either way: the program could use {}, and the \
             speed-up needs {many}. Grade on a machine with {many} CPUs or more (on Gradescope: \
             see the kit's guide).",
            cpus(&speedup.cpus)
        ),
        SpeedupOutcome::Busy(m, Busy::Unaccounted) => format!(
            "Not judged, and not counted either way: this kernel does not say how long threads \
             wait for a CPU (no /proc/PID/task/TID/schedstat), so a busy machine cannot be told \
             from a slow program. {}.",
            measurement(m, threads)
        ),
        SpeedupOutcome::Busy(m, busy) => {
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
                Busy::Unrepeated(first, second) => format!(
                    "the rounds settled below full credit, but it did not repeat: the first \
                     half of the {} rounds, judged alone, gave {}% credit and the second half \
                     {}%; a deduction is made only on evidence that holds when measured again",
                    m.rounds(),
                    percent(*first),
                    percent(*second)
                ),
                Busy::Waited(waited, allowed) => format!(
                    "the rounds settled below full credit, but the machine kept the program's \
                     threads waiting for a CPU {}% of the time they were ready to run; a \
                     deduction is made only where the threads had CPUs to run on (at most {}% \
                     waiting: the rubric's busy_waiting)",
                    percent(*waited),
                    percent(*allowed)
                ),
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
        SpeedupOutcome::Refused(m, refusal) => format!(
            "No credit: {}. {}.",
            refused(refusal, many),
            measurement(m, threads)
        ),
        SpeedupOutcome::Judged(m, judged) => {
            let gained = match percent(judged.gain) {
                share if share > 0.0 => format!("the program gained {share}% of that"),
                _ => "the program gained nothing".into(),
            };
            let repeated = judged.repeated.map_or(String::new(), |(first, second)| {
                format!(
                    " Measured twice: the first half of the rounds, judged alone, gave {}% and \
                     the second half {}%.",
                    percent(first),
                    percent(second)
                )
            });
            format!(
                "{}. The grader's own work on {many} threads at once: {:.2}x, the most {many} \
                 threads can give on this machine now; {gained}: {}% credit.{repeated}",
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
        Refusal::IgnoresThreads(alone) => format!(
            "on THREADS 1, {alone} threads did the search's work, whatever THREADS says: with \
             no one-thread search to measure it against, there is no speed-up to credit"
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

/// The line on the uneven position: how the work was split, flagged when one thread did it all.
fn uneven_note(uneven: &Uneven, speedup: &Speedup) -> String {
    let many = speedup.threads.1;
    let text = match &uneven.seen {
        Ok(split) => format!(
            "`scores {}` on {}: {} at work, the busiest ran {}% of the {:.2} s of CPU time",
            split.depth,
            threads(many),
            threads(split.work.workers),
            percent(split.work.busiest),
            split.work.cpu.as_secs_f64()
        ),
        Err(fault) => {
            let (sent, why) = speedup_fault(fault);
            format!("not seen: {sent}: {why}")
        }
    };
    let flag = match speedup.design.fixed() {
        true => {
            " FLAG for the hand grader: the columns are divided among the threads in advance \
               instead of handed out as they finish."
        }
        false => "",
    };
    format!(
        "With columns {} full (not scored): {text}.{flag}",
        spoken_list(&uneven.columns)
    )
}

/// The gradebook's words for the speed-up: `1.89x of 1.93x` (`, work grew 1.90x` where it
/// did: not the machine), `failed`, `no baseline`, `busy-waiting`, `ignores THREADS`,
/// `not judged: 1 CPU`, or `machine busy` (the reports say to grade again).
pub fn speedup_word(speedup: &Speedup) -> String {
    match &speedup.outcome {
        SpeedupOutcome::Judged(_, judged) => {
            let grew = judged.grew.map(|g| format!(", work grew {g:.2}x"));
            let (gained, ceiling) = (judged.speedup, judged.ceiling);
            format!("{gained:.2}x of {ceiling:.2}x{}", grew.unwrap_or_default())
        }
        SpeedupOutcome::Failed(_) => "failed".into(),
        SpeedupOutcome::Refused(_, Refusal::NoBaseline(_)) => "no baseline".into(),
        SpeedupOutcome::Refused(_, Refusal::BusyWaiting(_)) => "busy-waiting".into(),
        SpeedupOutcome::Refused(_, Refusal::IgnoresThreads(_)) => "ignores THREADS".into(),
        SpeedupOutcome::TooFewCpus => format!("not judged: {}", cpu_count(speedup.cpus.usable())),
        SpeedupOutcome::Busy(_, Busy::Unaccounted) => "not judged: no schedstat".into(),
        SpeedupOutcome::Busy(..) => "machine busy".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::result::design::{Design, Division};
    use crate::judge::result::speedup::Judged;
    use crate::process::Cpus;
    use std::time::Duration;

    /// A speed-up on 2 threads with `outcome`, the pool seen, on a machine of 2 CPUs.
    fn speedup(outcome: SpeedupOutcome) -> Speedup {
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
            instructions: None,
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
            cpus: Some(2.0),
            machine: Vec::new(),
            counted: None,
            machine_instructions: Vec::new(),
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
            repeated: None,
        };
        let notes = speedup_notes(&speedup(SpeedupOutcome::Judged(measured(), judged)));
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
            speedup_word(&speedup(SpeedupOutcome::Judged(measured(), judged))),
            "1.75x of 1.94x"
        );
        let grew = Judged {
            grew: Some(1.9),
            ..judged
        };
        assert_eq!(
            speedup_word(&speedup(SpeedupOutcome::Judged(measured(), grew))),
            "1.75x of 1.94x, work grew 1.90x"
        );
    }

    #[test]
    fn the_rounds_say_what_the_work_was_measured_in_and_why() {
        let said = |counted, machine_instructions| {
            rounds(
                &Measurement {
                    counted,
                    machine: vec![1.4; 3],
                    machine_instructions,
                    ..measured()
                },
                (1, 2),
            )
        };
        let counted = said(Some(Counting::Instructions), vec![1.01; 3]);
        assert!(
            counted.ends_with(
                "the growth of its instructions retired on 2 threads over 1 (the machine's \
                 share) 1.01 1.01 1.01. Whether the work grew is measured in the instructions \
                 the threads retired in user space, counted by the processor's hardware \
                 counters in every search and in the calibration, which a busy host does not \
                 stretch."
            ),
            "{counted}"
        );
        let no_pmu = said(Some(Counting::CpuTime(Uncounted::NoCounter)), Vec::new());
        assert!(
            no_pmu.ends_with(
                "the growth of its CPU time on 2 threads over 1 (the machine's share) 1.40 1.40 \
                 1.40. Whether the work grew is measured in the threads' CPU time: this machine \
                 offers no hardware counter of instructions retired (no performance unit, as in \
                 most virtual machines and containers)."
            ),
            "{no_pmu}"
        );
        let denied = said(Some(Counting::CpuTime(Uncounted::Denied)), Vec::new());
        assert!(
            denied.contains("CPU time: the kernel refused the grader a counter"),
            "{denied}"
        );
        assert!(said(None, Vec::new()).ends_with("1.40 1.40 1.40."));
    }

    #[test]
    fn a_refused_speedup_says_why_it_earns_nothing() {
        let forged = speedup(SpeedupOutcome::Refused(
            measured(),
            Refusal::NoBaseline(2.03),
        ));
        assert!(speedup_notes(&forged)[0].starts_with(
            "No credit: the search on 1 thread cost 2.03x the CPU work of the same search on 2 \
             threads"
        ));
        assert_eq!(speedup_word(&forged), "no baseline");
        assert_eq!(not_counted(&forged), None);
        let polling = speedup(SpeedupOutcome::Refused(
            measured(),
            Refusal::BusyWaiting(1.93),
        ));
        assert!(speedup_notes(&polling)[0].contains("kept 1.9 threads ready to run"));
        assert_eq!(speedup_word(&polling), "busy-waiting");
        let finding = speedup_finding(&polling).expect("a finding");
        assert!(finding.why.contains("poll for work"), "{}", finding.why);
        let per_column = speedup(SpeedupOutcome::Refused(
            measured(),
            Refusal::IgnoresThreads(7),
        ));
        assert!(speedup_notes(&per_column)[0]
            .starts_with("No credit: on THREADS 1, 7 threads did the search's work"));
        assert_eq!(speedup_word(&per_column), "ignores THREADS");
    }

    #[test]
    fn a_speedup_not_counted_says_why() {
        let busy = speedup(SpeedupOutcome::Busy(measured(), Busy::Unsettled(0.25, 1.0)));
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
        let low = speedup(SpeedupOutcome::Busy(measured(), Busy::Ceiling(1.21)));
        assert!(speedup_notes(&low)[0]
            .contains("the grader's own work on 2 threads at once gained only 1.21x"));
        let kept = speedup(SpeedupOutcome::Busy(measured(), Busy::Waited(0.28, 0.2)));
        assert!(speedup_notes(&kept)[0].ends_with(
            "the machine kept the program's threads waiting for a CPU 28% of the time they were \
             ready to run; a deduction is made only where the threads had CPUs to run on (at \
             most 20% waiting: the rubric's busy_waiting)."
        ));
        let blind = speedup(SpeedupOutcome::Busy(measured(), Busy::Unaccounted));
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
            ..speedup(SpeedupOutcome::TooFewCpus)
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
}
