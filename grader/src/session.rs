//! Running one case against one student: plays the script through a [`Program`], judges each
//! answer against the solution (or, for consistency cases, against the student's own first run),
//! skips what depends on an earlier failure, and times the speed-up cases.

use std::time::Duration;

use crate::case::{Case, Kind, Speedup, Step};
use crate::rubric::Rubric;
use crate::runner::Program;
use crate::score::{partial_credit, CaseResult, Check, Verdict};
use crate::solution::Solution;
use crate::Student;
use connect_four_supplied::protocol::Command;
use connect_four_supplied::Score;

/// What one command's answer is judged against.
#[derive(Clone, Debug)]
enum Expect {
    /// Any of these answers (compared after [`normalize`]).
    OneOf(Vec<String>),
    /// Anything of this answer's shape: the same mark, words on the first line, and lines.
    Shape(String),
    /// Nothing to compare with; the check is skipped for this reason.
    Nothing(String),
}

/// One run of a script.
struct Run {
    checks: Vec<Check>,
    /// Each step's answer, normalized, if it was accepted.
    answers: Vec<Option<String>>,
    /// The program, if it is still in step with the script.
    program: Option<Program>,
}

/// An answer with its white space and values written canonically: words separated by one
/// space, `+inf` as `inf`, `007` as `7`.
fn normalize(text: &str) -> String {
    text.lines()
        .map(|line| {
            line.split_whitespace()
                .map(|w| w.parse::<Score>().map_or(w.to_string(), |s| s.to_string()))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Whether `got` has `model`'s shape.
fn same_shape(model: &str, got: &str) -> bool {
    let words = |t: &str| t.lines().next().map_or(0, |l| l.split_whitespace().count());
    model.get(..1) == got.get(..1)
        && words(model) == words(got)
        && model.lines().count() == got.lines().count()
}

/// Whether a wrong answer to `step` means the program's game may now differ from the
/// reference's, so that later answers cannot be judged.
fn diverges(step: &Step, expected: &[String], got: &str) -> bool {
    match step.command {
        Ok(Command::New(_) | Command::Genmove) => true,
        Ok(Command::Play(_)) => expected.iter().all(|e| e.get(..1) != got.get(..1)),
        _ => false,
    }
}

/// Plays `case`'s script with `threads` threads, judging step `i` by `expects[i]`.
fn run_script(
    case: &Case,
    threads: usize,
    student: &Student,
    expects: &[Expect],
    run: &str,
) -> Run {
    let mut checks = Vec::new();
    let mut answers = Vec::new();
    let started = Program::start(
        &student.command,
        &case.arguments(threads),
        student.dir.as_deref(),
    );
    let (mut program, mut blocked) = match started {
        Ok(program) => (Some(program), None),
        Err(failure) => (None, Some(format!("the program did not start: {failure}"))),
    };
    for (step, expect) in case.steps.iter().zip(expects) {
        let weight = if step.scored { 1.0 } else { 0.0 };
        let mut check = Check {
            run: run.to_string(),
            line: step.line,
            sent: step.text.clone(),
            expected: match expect {
                Expect::OneOf(list) => list.clone(),
                Expect::Shape(model) => vec![format!("{model}  (or any answer of this form)")],
                Expect::Nothing(_) => Vec::new(),
            },
            got: None,
            verdict: Verdict::Pass,
            weight,
        };
        answers.push(None);
        let Some(live) = program.as_mut().filter(|_| blocked.is_none()) else {
            check.verdict = Verdict::Skip(blocked.clone().unwrap_or_default());
            checks.push(check);
            continue;
        };
        match live.ask(&step.text, case.time_limit) {
            Err(failure) => {
                check.verdict = Verdict::Fail(failure.to_string());
                blocked = Some(format!(
                    "the program failed at line {} ({})",
                    step.line, step.text
                ));
                program = None;
            }
            Ok((lines, _)) => {
                let got = normalize(&lines.join("\n"));
                let accepted = match expect {
                    Expect::OneOf(list) => list.iter().any(|e| normalize(e) == got),
                    Expect::Shape(model) => same_shape(model, &got),
                    Expect::Nothing(reason) => {
                        check.verdict = Verdict::Skip(reason.clone());
                        true
                    }
                };
                if accepted {
                    *answers.last_mut().expect("pushed above") = Some(got.clone());
                } else {
                    check.verdict = Verdict::Fail("wrong answer".into());
                    if diverges(step, &check.expected, &got) {
                        blocked = Some(format!(
                            "depends on line {} ({}), whose answer differs from the reference's",
                            step.line, step.text
                        ));
                    }
                }
                check.got = Some(got);
            }
        }
        // A wrong set-up answer that leaves the game in step costs nothing and is not shown.
        if step.scored || matches!(check.verdict, Verdict::Fail(_)) && blocked.is_some() {
            checks.push(check);
        }
    }
    Run {
        checks,
        answers,
        program: program.filter(|_| blocked.is_none()),
    }
}

/// The solution's answers as expectations.
fn exact(solution: &Solution) -> Vec<Expect> {
    solution
        .answer
        .iter()
        .map(|a| Expect::OneOf(a.accept.clone()))
        .collect()
}

/// Runs one case and scores it.
pub fn run_case(
    case: &Case,
    solution: &Solution,
    student: &Student,
    rubric: &Rubric,
) -> CaseResult {
    let (checks, notes, earned) = match &case.kind {
        Kind::Compare => {
            let mut checks = run_script(case, case.threads, student, &exact(solution), "").checks;
            if case.must_vary {
                checks.extend(variety_check(case, solution, &checks));
            }
            let earned = partial_credit(case.points, &checks);
            (checks, Vec::new(), earned)
        }
        Kind::Consistency(threads) => {
            let checks = consistency(case, solution, student, threads);
            let earned = partial_credit(case.points, &checks);
            (checks, Vec::new(), earned)
        }
        Kind::Timing(speedup) => timing(case, solution, student, rubric, speedup),
    };
    CaseResult {
        name: case.name.clone(),
        category: case.category.clone(),
        description: case.description.clone(),
        hidden: case.hidden,
        points: case.points,
        earned,
        checks,
        notes,
    }
}

/// For `must_vary` cases: a check, worth as much as all the random answers together, that they
/// were not all the same.
fn variety_check(case: &Case, solution: &Solution, checks: &[Check]) -> Option<Check> {
    let random: Vec<&Check> = checks
        .iter()
        .zip(&solution.answer)
        .filter(|(c, a)| a.accept.len() > 1 && c.verdict == Verdict::Pass)
        .map(|(c, _)| c)
        .collect();
    let first = random.first()?.got.clone();
    let varied = random.iter().any(|c| c.got != first);
    Some(Check {
        run: String::new(),
        line: 0,
        sent: format!("the {} random choices of {}", random.len(), case.name),
        expected: vec!["both answers, each sometimes".into()],
        got: first
            .map(|f| format!("{f}, every time"))
            .filter(|_| !varied),
        verdict: if varied {
            Verdict::Pass
        } else {
            Verdict::Fail("the answer never changes: it is not random".into())
        },
        weight: random.len() as f64,
    })
}

/// Runs the script once per thread count: the first run must have the reference's shapes and
/// every later run must repeat the first run's answers.
fn consistency(
    case: &Case,
    solution: &Solution,
    student: &Student,
    threads: &[usize],
) -> Vec<Check> {
    let shapes: Vec<Expect> = case
        .steps
        .iter()
        .zip(&solution.answer)
        .map(|(step, answer)| match step.scored {
            true => Expect::Shape(answer.accept[0].clone()),
            false => Expect::OneOf(answer.accept.clone()),
        })
        .collect();
    let label = |n: usize| format!("threads {n}");
    let first = run_script(case, threads[0], student, &shapes, &label(threads[0]));
    let again: Vec<Expect> = case
        .steps
        .iter()
        .zip(&first.answers)
        .zip(shapes)
        .map(|((step, answer), shape)| match (step.scored, answer) {
            (true, Some(answer)) => Expect::OneOf(vec![answer.clone()]),
            (true, None) => Expect::Nothing(format!(
                "no answer with {} to compare with",
                label(threads[0])
            )),
            (false, _) => shape,
        })
        .collect();
    let mut checks = first.checks;
    for &n in &threads[1..] {
        checks.extend(run_script(case, n, student, &again, &label(n)).checks);
    }
    checks
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

/// The speed-up case: raises the depth until one thread needs `target_seconds`, then times the
/// same `scores` with more threads; credit by the rubric's thresholds, nothing if the answers
/// differ or the program fails.
fn timing(
    case: &Case,
    solution: &Solution,
    student: &Student,
    rubric: &Rubric,
    speedup: &Speedup,
) -> (Vec<Check>, Vec<String>, f64) {
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
        (
            vec![verdict_check(sent, Verdict::Fail(why), got)],
            Vec::new(),
            0.0,
        )
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
        return (one.checks, Vec::new(), 0.0);
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
        return (many.checks, Vec::new(), 0.0);
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
        super::seconds(time_one),
        case.threads,
        super::seconds(time_many),
        speedup.threads,
        (credit * 100.0).round()
    );
    let verdict = if credit >= 1.0 {
        Verdict::Pass
    } else {
        Verdict::Fail(format!("speed-up {ratio:.2}x"))
    };
    let check = verdict_check(sent, verdict, Some(format!("{ratio:.2}x")));
    (vec![check], vec![note], case.points * credit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_compare_after_normalizing_space_and_values() {
        assert_eq!(normalize("=  3 +inf   -  007\n"), "= 3 inf - 7");
        assert_eq!(normalize("=\nR.\n.B"), "=\nR.\n.B");
        assert!(same_shape("= 1 2 -", "= inf 9 -4"));
        assert!(!same_shape("= 1 2 -", "? game over"));
        assert!(!same_shape("= 1 2 -", "= 1 2"));
    }
}
