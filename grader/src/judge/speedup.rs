//! The speed-up case: sets a program up with the case's script (through [`super::script`]),
//! raises the depth of `scores` until one thread needs the case's target time, then times the
//! same `scores` with more threads and gives the credit of the rubric's highest threshold
//! reached. Kept apart from the correctness cases because only it measures time.
//!
//! For the hand grader it also times a second position, where several columns are full (the
//! assignment's example of work that a fixed division of the columns spreads unevenly), and
//! flags a speed-up there well below the plain one. That measurement earns nothing by itself.

use std::time::Duration;

use super::job::Job;
use super::result::speedup::{Evenness, Measurement, Speedup, SpeedupFault, Uneven};
use super::result::{Exchange, Expect};
use super::script::{exact, normalize, run_script};
use crate::kit::case::{Case, SpeedupPlan};
use crate::kit::{Rubric, Solution};
use crate::process::Program;

/// An uneven speed-up below this share of the plain one is flagged for the hand grader.
pub const UNEVEN_FLAG_SHARE: f64 = 0.75;
/// The uneven position is judged only when one thread needs at least this share of the case's
/// target time there: shorter timings are mostly noise.
pub const UNEVEN_LEAST_SHARE: f64 = 0.5;

/// One timed `scores DEPTH` (the better of two tries) on a program already set up.
fn time_scores(
    program: &mut Program,
    depth: u32,
    case: &Case,
    threads: usize,
) -> Result<(String, Duration), SpeedupFault> {
    let command = format!("scores {depth}");
    let mut best: Option<(String, Duration)> = None;
    for _ in 0..2 {
        let (lines, took) =
            program
                .ask(&command, case.time_limit)
                .map_err(|failure| SpeedupFault::Program {
                    command: command.clone(),
                    threads,
                    failure,
                })?;
        let answer = normalize(&lines.join("\n"));
        if best.as_ref().is_none_or(|(_, t)| took < *t) {
            best = Some((answer, took));
        }
    }
    Ok(best.expect("two tries"))
}

/// Fills each of `columns` to the top, one `play` at a time; every move must be accepted.
fn fill_columns(
    program: &mut Program,
    case: &Case,
    threads: usize,
    columns: &[usize],
) -> Result<(), SpeedupFault> {
    for &col in columns {
        for _ in 0..case.rows {
            let command = format!("play {col}");
            let (lines, _) = program.ask(&command, case.time_limit).map_err(|failure| {
                SpeedupFault::Program {
                    command: command.clone(),
                    threads,
                    failure,
                }
            })?;
            if !lines.first().is_some_and(|l| l.starts_with('=')) {
                return Err(SpeedupFault::Refused(command, lines.join(" ")));
            }
        }
    }
    Ok(())
}

/// Sets the program up with `threads` threads: the case's script, then `fill` filled. A script
/// that does not get through leaves its exchanges in `failed`.
fn set_up(
    case: &Case,
    threads: usize,
    job: &Job,
    expects: &[Expect],
    fill: &[usize],
    failed: &mut Vec<Exchange>,
) -> Result<Program, SpeedupFault> {
    let run = run_script(case, threads, job, expects, &format!("threads {threads}"));
    let Some(mut program) = run.program else {
        *failed = run.exchanges;
        return Err(SpeedupFault::Script(threads));
    };
    fill_columns(&mut program, case, threads, fill)?;
    Ok(program)
}

/// Raises the depth until one thread needs `target_seconds` (or `max_depth`), then times the
/// same `scores` with `plan.threads`; the answers must agree.
fn measure_position(
    case: &Case,
    job: &Job,
    expects: &[Expect],
    plan: &SpeedupPlan,
    fill: &[usize],
    max_depth: u32,
    failed: &mut Vec<Exchange>,
) -> Result<Measurement, SpeedupFault> {
    let mut program = set_up(case, case.threads, job, expects, fill, failed)?;
    let mut depth = plan.start_depth;
    let (answer_one, time_one) = loop {
        let (answer, took) = time_scores(&mut program, depth, case, case.threads)?;
        if took.as_secs_f64() >= plan.target_seconds || depth >= max_depth {
            break (answer, took);
        }
        depth += 1;
    };
    drop(program);
    let mut program = set_up(case, plan.threads, job, expects, fill, failed)?;
    let (answer_many, time_many) = time_scores(&mut program, depth, case, plan.threads)?;
    if answer_one != answer_many || !answer_one.starts_with("= ") {
        return Err(SpeedupFault::Differ {
            depth,
            one: answer_one,
            many: answer_many,
        });
    }
    Ok(Measurement {
        depth,
        time_one,
        time_many,
    })
}

/// The speed-up case: credit by the rubric's thresholds for the plain position, nothing if the
/// answers differ or the program fails; the uneven position, if the case has one, is only
/// measured (and flagged when its speed-up is well below the plain one). Also returns the
/// exchanges of a script that did not get through.
pub(crate) fn measure(
    case: &Case,
    solution: &Solution,
    job: &Job,
    rubric: &Rubric,
    plan: &SpeedupPlan,
) -> (Speedup, Vec<Exchange>) {
    let expects = exact(solution);
    let mut failed = Vec::new();
    let plain = measure_position(case, job, &expects, plan, &[], plan.max_depth, &mut failed);
    let credit = plain
        .as_ref()
        .map_or(0.0, |m| rubric.speedup_credit(m.ratio()));
    let uneven = match &plain {
        Ok(measured) if !plan.uneven_columns.is_empty() => {
            Some(uneven(case, job, &expects, plan, measured.ratio()))
        }
        _ => None,
    };
    let speedup = Speedup {
        threads: (case.threads, plan.threads),
        best: rubric
            .speedup
            .iter()
            .map(|t| t.at_least)
            .fold(0.0, f64::max),
        plain,
        credit,
        uneven,
    };
    (speedup, failed)
}

/// The uneven position measured, and judged against the `plain` speed-up.
fn uneven(case: &Case, job: &Job, expects: &[Expect], plan: &SpeedupPlan, plain: f64) -> Uneven {
    let full = &plan.uneven_columns;
    // Fewer open cells: the search may go as deep as the game itself, to take long enough.
    let empty = case.rows * (case.cols - full.len());
    let deepest = plan.max_depth.max(u32::try_from(empty).unwrap_or(u32::MAX));
    let mut ignored = Vec::new();
    let measured = measure_position(case, job, expects, plan, full, deepest, &mut ignored);
    let evenness = match &measured {
        Err(_) => Evenness::Unknown,
        Ok(m) if m.time_one.as_secs_f64() < UNEVEN_LEAST_SHARE * plan.target_seconds => {
            Evenness::TooQuick
        }
        Ok(m) if m.ratio() < UNEVEN_FLAG_SHARE * plain => Evenness::Flagged,
        Ok(_) => Evenness::Even,
    };
    Uneven {
        columns: full.clone(),
        measured,
        evenness,
    }
}
