//! Running one case against one student: plays the script through a [`Program`], judges each
//! answer against the solution (or, for consistency cases, against the student's own first run)
//! and skips what depends on an earlier failure. The speed-up cases are timed by
//! the `timing` module on runs set up here.

use crate::case::{Case, Kind, Step};
use crate::rubric::Rubric;
use crate::runner::Program;
use crate::score::{partial_credit, CaseResult, Check, Verdict};
use crate::solution::Solution;
use crate::{timing, Student};
use connect_four_supplied::protocol::Command;
use connect_four_supplied::Score;

/// What one command's answer is judged against.
#[derive(Clone, Debug)]
pub(crate) enum Expect {
    /// Any of these answers (compared after [`normalize`]).
    OneOf(Vec<String>),
    /// Anything of this answer's shape: the same mark, words on the first line, and lines.
    Shape(String),
    /// Nothing to compare with; the check is skipped for this reason.
    Nothing(String),
}

/// One run of a script.
pub(crate) struct Run {
    /// The checks shown and scored.
    pub(crate) checks: Vec<Check>,
    /// Each step's answer, normalized, if it was accepted.
    answers: Vec<Option<String>>,
    /// The program, if it is still in step with the script (a timing case goes on with it).
    pub(crate) program: Option<Program>,
}

/// Where a run of a script stands.
enum State {
    /// The program is running and in step with the script.
    Running(Program),
    /// The rest of the script is skipped, for this reason: the program did not start or failed,
    /// or an answer put its game out of step with the reference's.
    Blocked(String),
}

/// What a case earned, before it is labelled with the case's name and category.
pub(crate) struct Outcome {
    /// Every judged command.
    pub(crate) checks: Vec<Check>,
    /// Measurements and remarks (the speed-up).
    pub(crate) notes: Vec<String>,
    /// The points earned.
    pub(crate) earned: f64,
}

impl Outcome {
    /// `checks` scored by partial credit out of `points`, with no notes.
    fn credited(points: f64, checks: Vec<Check>) -> Outcome {
        let earned = partial_credit(points, &checks);
        Outcome {
            checks,
            notes: Vec::new(),
            earned,
        }
    }

    /// `checks` that earn nothing, with no notes: a run that could not be measured.
    pub(crate) fn nothing(checks: Vec<Check>) -> Outcome {
        Outcome {
            checks,
            notes: Vec::new(),
            earned: 0.0,
        }
    }
}

/// An answer with its white space and values written canonically: words separated by one
/// space, `+inf` as `inf`, `007` as `7`.
pub(crate) fn normalize(text: &str) -> String {
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
pub(crate) fn run_script(
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
        &student.limits,
    );
    let mut state = match started {
        Ok(program) => State::Running(program),
        Err(failure) => State::Blocked(format!("the program did not start: {failure}")),
    };
    for (step, expect) in case.steps.iter().zip(expects) {
        let weight = if step.scored { 1.0 } else { 0.0 };
        let mut check = Check {
            run: run.to_string(),
            line: step.line,
            sent: if step.before.is_empty() {
                step.text.clone()
            } else {
                format!(
                    "{} (after {} line(s) that must get no answer: {:?})",
                    step.text,
                    step.before.len(),
                    step.before
                )
            },
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
        let live = match &mut state {
            State::Running(program) => program,
            State::Blocked(why) => {
                check.verdict = Verdict::Skip(why.clone());
                checks.push(check);
                continue;
            }
        };
        // Lines that get no answer go with the command, so its answer must come first.
        let sent: Vec<&str> = step.before.iter().map(String::as_str).collect();
        let text = [sent.as_slice(), &[step.text.as_str()]].concat().join("\n");
        match live.ask(&text, case.time_limit) {
            Err(failure) => {
                check.verdict = Verdict::Fail(failure.to_string());
                state = State::Blocked(format!(
                    "the program failed at line {} ({})",
                    step.line, step.text
                ));
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
                        state = State::Blocked(format!(
                            "depends on line {} ({}), whose answer differs from the reference's",
                            step.line, step.text
                        ));
                    }
                }
                check.got = Some(got);
            }
        }
        // A wrong set-up answer that leaves the game in step costs nothing and is not shown.
        if step.scored
            || matches!(check.verdict, Verdict::Fail(_)) && matches!(state, State::Blocked(_))
        {
            checks.push(check);
        }
    }
    Run {
        checks,
        answers,
        program: match state {
            State::Running(program) => Some(program),
            State::Blocked(_) => None,
        },
    }
}

/// The solution's answers as expectations.
pub(crate) fn exact(solution: &Solution) -> Vec<Expect> {
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
    let outcome = match &case.kind {
        Kind::Compare => {
            let mut checks = run_script(case, case.threads, student, &exact(solution), "").checks;
            if case.must_vary {
                checks.extend(variety_check(case, solution, &checks));
            }
            Outcome::credited(case.points, checks)
        }
        Kind::Consistency(threads) => {
            Outcome::credited(case.points, consistency(case, solution, student, threads))
        }
        Kind::Timing(speedup) => timing::measure(case, solution, student, rubric, speedup),
    };
    CaseResult::of(case, outcome.earned, outcome.checks, outcome.notes)
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
