//! The speed-up case: sets a program up with the case's script (through [`crate::session`]),
//! raises the depth of `scores` until one thread needs the case's target time, then times the
//! same `scores` with more threads and gives the credit of the rubric's highest threshold
//! reached. Kept apart from the correctness cases because only it measures time.

use std::time::Duration;

use crate::case::{Case, Speedup};
use crate::rubric::Rubric;
use crate::runner::Program;
use crate::score::{Check, Verdict};
use crate::session::{exact, normalize, run_script, Outcome};
use crate::solution::Solution;
use crate::Student;

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

/// The speed-up case: raises the depth until one thread needs `target_seconds`, then times the
/// same `scores` with more threads; credit by the rubric's thresholds, nothing if the answers
/// differ or the program fails.
pub(crate) fn measure(
    case: &Case,
    solution: &Solution,
    student: &Student,
    rubric: &Rubric,
    speedup: &Speedup,
) -> Outcome {
    let expects = exact(solution);
    let verdict_check = |sent: String, verdict: Verdict, got: Option<String>| Check {
        run: String::new(),
        line: 0,
        sent,
        expected: vec![format!(
            "a speed-up of at least {}x",
            rubric
                .speedup
                .iter()
                .map(|t| t.at_least)
                .fold(0.0, f64::max)
        )],
        got,
        verdict,
        weight: 1.0,
    };
    let failed = |sent: String, why: String, got: Option<String>| {
        Outcome::nothing(vec![verdict_check(sent, Verdict::Fail(why), got)])
    };
    let set_up = |threads: usize| {
        run_script(
            case,
            threads,
            student,
            &expects,
            &format!("threads {threads}"),
        )
    };
    let one = set_up(case.threads);
    let Some(mut program) = one.program else {
        return Outcome::nothing(one.checks);
    };
    let mut depth = speedup.start_depth;
    let (answer_one, time_one) = loop {
        match time_scores(&mut program, depth, case.time_limit) {
            Err(why) => {
                let sent = format!("scores {depth} with {} thread(s)", case.threads);
                return failed(sent, why, None);
            }
            Ok((answer, took))
                if took.as_secs_f64() >= speedup.target_seconds || depth >= speedup.max_depth =>
            {
                break (answer, took)
            }
            Ok(_) => depth += 1,
        }
    };
    drop(program);
    let many = set_up(speedup.threads);
    let Some(mut program) = many.program else {
        return Outcome::nothing(many.checks);
    };
    let sent = format!(
        "scores {depth} with {} and {} threads",
        case.threads, speedup.threads
    );
    let (answer_many, time_many) = match time_scores(&mut program, depth, case.time_limit) {
        Ok(measured) => measured,
        Err(why) => return failed(sent, why, None),
    };
    if answer_one != answer_many || !answer_one.starts_with("= ") {
        let why = format!(
            "the answers differ or failed: {answer_one:?} with 1 thread, {answer_many:?} with more"
        );
        return failed(sent, why, Some(answer_many));
    }
    let ratio = time_one.as_secs_f64() / time_many.as_secs_f64().max(1e-6);
    let credit = rubric.speedup_credit(ratio);
    let note = format!(
        "`scores {depth}`: {} with {} thread(s), {} with {}: speed-up {ratio:.2}x, {}% credit",
        crate::seconds(time_one),
        case.threads,
        crate::seconds(time_many),
        speedup.threads,
        (credit * 100.0).round()
    );
    let verdict = if credit >= 1.0 {
        Verdict::Pass
    } else {
        Verdict::Fail(format!("speed-up {ratio:.2}x"))
    };
    let check = verdict_check(sent, verdict, Some(format!("{ratio:.2}x")));
    Outcome {
        checks: vec![check],
        notes: vec![note],
        earned: case.points * credit,
    }
}
