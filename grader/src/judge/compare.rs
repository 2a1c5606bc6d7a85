//! One case against one job, by its kind: a script compared with the reference's answers
//! (and, where the answers are random, a look at whether they vary), a script run with several
//! thread counts that must agree with itself, or the speed-up measured ([`super::speedup`]).

use super::job::Job;
use super::result::{partial_credit, CaseResult, Exchange, Expect, Skip, Variety, Verdict};
use super::script::{exact, run_script};
use super::speedup;
use crate::kit::case::{Case, Kind};
use crate::kit::{Rubric, Solution};

/// Runs one case and scores it.
pub fn run_case(case: &Case, solution: &Solution, job: &Job, rubric: &Rubric) -> CaseResult {
    let mut result = CaseResult::empty(case);
    match &case.kind {
        Kind::Compare => {
            let run = run_script(case, case.threads, job, &exact(solution), "");
            result.variety = case.must_vary.then(|| variety(solution, &run.exchanges));
            result.silent = run.silent;
            result.exchanges = run.exchanges;
        }
        Kind::Consistency(threads) => {
            (result.exchanges, result.silent) = consistency(case, solution, job, threads);
        }
        Kind::Timing(plan) => {
            let (speedup, exchanges) = speedup::measure(case, solution, job, &rubric.speedup, plan);
            result.earned = case.points * speedup.credit().unwrap_or(0.0);
            result.speedup = Some(speedup);
            result.exchanges = exchanges;
            return result;
        }
    }
    result.earned = partial_credit(case.points, &result.exchanges, result.variety.as_ref());
    result
}

/// For `must_vary` cases: how many of the answers with a random choice were accepted, and the
/// one answer they all gave if they never changed.
fn variety(solution: &Solution, exchanges: &[Exchange]) -> Variety {
    let random: Vec<&Exchange> = exchanges
        .iter()
        .filter(|e| e.verdict == Verdict::Pass)
        .filter(|e| {
            solution
                .answer
                .iter()
                .any(|a| a.line == e.line && a.accept.len() > 1)
        })
        .collect();
    let first = random.first().and_then(|e| e.got.clone());
    let varied = random.iter().any(|e| e.got != first);
    Variety {
        count: random.len(),
        always: first.filter(|_| !varied),
    }
}

/// Runs the script once per thread count: the first run must have the reference's shapes and
/// every later run must repeat the first run's answers. Also says whether every run was silent.
fn consistency(
    case: &Case,
    solution: &Solution,
    job: &Job,
    threads: &[usize],
) -> (Vec<Exchange>, bool) {
    let shapes: Vec<Expect> = case
        .script
        .iter()
        .zip(&solution.answer)
        .map(|(step, answer)| match step.scored {
            true => Expect::Shape(answer.accept[0].clone()),
            false => Expect::OneOf(answer.accept.clone()),
        })
        .collect();
    let label = |n: usize| format!("threads {n}");
    let first = run_script(case, threads[0], job, &shapes, &label(threads[0]));
    let again: Vec<Expect> = case
        .script
        .iter()
        .zip(&first.answers)
        .zip(shapes)
        .map(|((step, answer), shape)| match (step.scored, answer) {
            (true, Some(answer)) => Expect::OneOf(vec![answer.clone()]),
            (true, None) => Expect::Nothing(Skip::NoFirstAnswer(label(threads[0]))),
            (false, _) => shape,
        })
        .collect();
    let mut silent = first.silent;
    let mut exchanges = first.exchanges;
    for &n in &threads[1..] {
        let run = run_script(case, n, job, &again, &label(n));
        silent &= run.silent;
        exchanges.extend(run.exchanges);
    }
    (exchanges, silent)
}
