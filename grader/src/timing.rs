//! The speed-up case: sets a program up with the case's script (through [`crate::session`]),
//! raises the depth of `scores` until one thread needs the case's target time, then times the
//! same `scores` with more threads and gives the credit of the rubric's highest threshold
//! reached. Kept apart from the correctness cases because only it measures time.
//!
//! For the hand grader it also times a second position, where several columns are full (the
//! assignment's example of work that a fixed division of the columns spreads unevenly), and
//! flags a speed-up there well below the plain one. That measurement earns nothing by itself.

use std::time::Duration;

use crate::case::{Case, Speedup};
use crate::rubric::Rubric;
use crate::runner::Program;
use crate::score::{Check, Verdict};
use crate::session::{exact, normalize, run_script, Expect, Outcome};
use crate::solution::Solution;
use crate::Student;

/// An uneven speed-up below this share of the plain one is flagged for the hand grader.
const UNEVEN_FLAG_SHARE: f64 = 0.75;
/// The uneven position is judged only when one thread needs at least this share of the case's
/// target time there: shorter timings are mostly noise.
const UNEVEN_LEAST_SHARE: f64 = 0.5;

/// One `scores DEPTH` timed with one thread and with more, the same answer from both.
struct Measurement {
    depth: u32,
    time_one: Duration,
    time_many: Duration,
}

impl Measurement {
    /// One thread's time over many threads'.
    fn ratio(&self) -> f64 {
        self.time_one.as_secs_f64() / self.time_many.as_secs_f64().max(1e-6)
    }

    /// The measurement in words, for the report.
    fn describe(&self, one: usize, many: usize) -> String {
        format!(
            "`scores {}`: {} with {one} thread(s), {} with {many}: speed-up {:.2}x",
            self.depth,
            crate::seconds(self.time_one),
            crate::seconds(self.time_many),
            self.ratio()
        )
    }
}

/// Why a measurement failed: what was sent, why, and the answer if one matters.
struct Failed {
    sent: String,
    why: String,
    got: Option<String>,
    /// The checks of a script that did not get through, when that is the reason.
    checks: Vec<Check>,
}

/// One timed `scores DEPTH` (the better of two tries) on a program already set up.
fn time_scores(
    program: &mut Program,
    depth: u32,
    limit: Duration,
) -> Result<(String, Duration), String> {
    let command = format!("scores {depth}");
    let mut best: Option<(String, Duration)> = None;
    for _ in 0..2 {
        let (lines, took) = program
            .ask(&command, limit)
            .map_err(|f| format!("`{command}`: {f}"))?;
        let answer = normalize(&lines.join("\n"));
        if best.as_ref().is_none_or(|(_, t)| took < *t) {
            best = Some((answer, took));
        }
    }
    best.ok_or_else(|| "no measurement".into())
}

/// Fills each of `columns` to the top, one `play` at a time; every move must be accepted.
fn fill_columns(program: &mut Program, case: &Case, columns: &[usize]) -> Result<(), String> {
    for &col in columns {
        for _ in 0..case.rows {
            let command = format!("play {col}");
            let (lines, _) = program
                .ask(&command, case.time_limit)
                .map_err(|f| format!("`{command}`: {f}"))?;
            if !lines.first().is_some_and(|l| l.starts_with('=')) {
                return Err(format!("`{command}` was refused: {:?}", lines.join(" ")));
            }
        }
    }
    Ok(())
}

/// Sets the program up with `threads` threads: the case's script, then `fill` filled.
fn set_up(
    case: &Case,
    threads: usize,
    student: &Student,
    expects: &[Expect],
    fill: &[usize],
) -> Result<Program, Failed> {
    let run = run_script(
        case,
        threads,
        student,
        expects,
        &format!("threads {threads}"),
    );
    let Some(mut program) = run.program else {
        return Err(Failed {
            sent: format!("the script with {threads} thread(s)"),
            why: "the script did not get through".into(),
            got: None,
            checks: run.checks,
        });
    };
    fill_columns(&mut program, case, fill).map_err(|why| Failed {
        sent: format!("filling columns {fill:?}"),
        why,
        got: None,
        checks: Vec::new(),
    })?;
    Ok(program)
}

/// Raises the depth until one thread needs `target_seconds` (or `max_depth`), then times the
/// same `scores` with `speedup.threads`; the answers must agree.
fn measure_position(
    case: &Case,
    student: &Student,
    expects: &[Expect],
    speedup: &Speedup,
    fill: &[usize],
    max_depth: u32,
) -> Result<Measurement, Failed> {
    let failed = |sent: String, why: String| Failed {
        sent,
        why,
        got: None,
        checks: Vec::new(),
    };
    let mut program = set_up(case, case.threads, student, expects, fill)?;
    let mut depth = speedup.start_depth;
    let (answer_one, time_one) = loop {
        match time_scores(&mut program, depth, case.time_limit) {
            Err(why) => {
                let sent = format!("scores {depth} with {} thread(s)", case.threads);
                return Err(failed(sent, why));
            }
            Ok((answer, took))
                if took.as_secs_f64() >= speedup.target_seconds || depth >= max_depth =>
            {
                break (answer, took)
            }
            Ok(_) => depth += 1,
        }
    };
    drop(program);
    let mut program = set_up(case, speedup.threads, student, expects, fill)?;
    let sent = format!(
        "scores {depth} with {} and {} threads",
        case.threads, speedup.threads
    );
    let (answer_many, time_many) = time_scores(&mut program, depth, case.time_limit)
        .map_err(|why| failed(sent.clone(), why))?;
    if answer_one != answer_many || !answer_one.starts_with("= ") {
        let why = format!(
            "the answers differ or failed: {answer_one:?} with 1 thread, {answer_many:?} with more"
        );
        return Err(Failed {
            got: Some(answer_many),
            ..failed(sent, why)
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
/// reported (and flagged when its speed-up is well below the plain one).
pub(crate) fn measure(
    case: &Case,
    solution: &Solution,
    student: &Student,
    rubric: &Rubric,
    speedup: &Speedup,
) -> Outcome {
    let expects = exact(solution);
    let best = rubric
        .speedup
        .iter()
        .map(|t| t.at_least)
        .fold(0.0, f64::max);
    let check = |sent: String, verdict: Verdict, got: Option<String>| Check {
        run: String::new(),
        line: 0,
        sent,
        expected: vec![format!("a speed-up of at least {best}x")],
        got,
        verdict,
        weight: 1.0,
    };
    let plain = match measure_position(case, student, &expects, speedup, &[], speedup.max_depth) {
        Ok(plain) => plain,
        // A script that did not get through is its own reason.
        Err(failed) if !failed.checks.is_empty() => return Outcome::nothing(failed.checks),
        Err(failed) => {
            let verdict = Verdict::Fail(failed.why);
            return Outcome::nothing(vec![check(failed.sent, verdict, failed.got)]);
        }
    };
    let ratio = plain.ratio();
    let credit = rubric.speedup_credit(ratio);
    let mut notes = vec![format!(
        "{}, {}% credit",
        plain.describe(case.threads, speedup.threads),
        (credit * 100.0).round()
    )];
    if !speedup.uneven_columns.is_empty() {
        notes.push(uneven_note(case, student, &expects, speedup, ratio));
    }
    let verdict = if credit >= 1.0 {
        Verdict::Pass
    } else {
        Verdict::Fail(format!("speed-up {ratio:.2}x"))
    };
    let sent = format!(
        "scores {} with {} and {} threads",
        plain.depth, case.threads, speedup.threads
    );
    Outcome {
        checks: vec![check(sent, verdict, Some(format!("{ratio:.2}x")))],
        notes,
        earned: case.points * credit,
    }
}

/// The report's line on the uneven position, flagged when its speed-up is well below `plain`.
fn uneven_note(
    case: &Case,
    student: &Student,
    expects: &[Expect],
    speedup: &Speedup,
    plain: f64,
) -> String {
    let full = &speedup.uneven_columns;
    // Fewer open cells: the search may go as deep as the game itself, to take long enough.
    let empty = case.rows * (case.cols - full.len());
    let deepest = speedup
        .max_depth
        .max(u32::try_from(empty).unwrap_or(u32::MAX));
    let measured = measure_position(case, student, expects, speedup, full, deepest);
    let text = match &measured {
        Ok(uneven) => uneven.describe(case.threads, speedup.threads),
        Err(failed) => format!("not measured: {}: {}", failed.sent, failed.why),
    };
    let long_enough = |uneven: &Measurement| {
        uneven.time_one.as_secs_f64() >= UNEVEN_LEAST_SHARE * speedup.target_seconds
    };
    let flag = match &measured {
        Ok(uneven) if !long_enough(uneven) => {
            " Too quick to judge: one thread needed less than half the target time.".to_string()
        }
        Ok(uneven) if uneven.ratio() < UNEVEN_FLAG_SHARE * plain => format!(
            " FLAG for the hand grader: well below the plain {plain:.2}x, as when the columns \
             are divided among the threads in advance instead of handed out by a pool"
        ),
        _ => String::new(),
    };
    format!("With columns {full:?} full (not scored): {text}.{flag}")
}
