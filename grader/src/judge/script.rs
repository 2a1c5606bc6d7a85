//! Playing a case's script against a student's program: each command sent through a
//! [`Program`], each answer judged by what it is expected to be (the solution's answers, or for
//! consistency cases the student's own first run), and what depends on an earlier failure
//! skipped. The program is handed back while it is still in step, for the speed-up to go on
//! with.

use super::job::Job;
use super::result::{Exchange, Expect, Fault, Skip, Verdict};
use crate::kit::case::{Case, ScriptLine};
use crate::kit::Solution;
use crate::process::{Failure, Program};
use connect_four_supplied::protocol::Command;
use connect_four_supplied::Score;

/// One run of a script.
pub(crate) struct Run {
    /// The exchanges shown and scored.
    pub(crate) exchanges: Vec<Exchange>,
    /// Each line's answer, normalized, if it was accepted.
    pub(crate) answers: Vec<Option<String>>,
    /// The program, if it is still in step with the script (a timing case goes on with it).
    pub(crate) program: Option<Program>,
    /// The program answered no command at all, and one of them timed out.
    pub(crate) silent: bool,
}

/// Where a run of a script stands.
enum State {
    /// The program is running and in step with the script.
    Running(Program),
    /// The rest of the script is skipped, for this reason: the program did not start or failed,
    /// or an answer put its game out of step with the reference's.
    Blocked(Skip),
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
fn diverges(step: &ScriptLine, expected: &Expect, got: &str) -> bool {
    match step.command {
        Ok(Command::New(_) | Command::Genmove) => true,
        Ok(Command::Play(_)) => match expected {
            Expect::OneOf(list) => list.iter().all(|e| e.get(..1) != got.get(..1)),
            Expect::Shape(model) => model.get(..1) != got.get(..1),
            Expect::Nothing(_) => false,
        },
        _ => false,
    }
}

/// Plays `case`'s script with `threads` threads, judging line `i` by `expects[i]`; `run` names
/// the run in the exchanges.
pub(crate) fn run_script(
    case: &Case,
    threads: usize,
    job: &Job,
    expects: &[Expect],
    run: &str,
) -> Run {
    let mut exchanges = Vec::new();
    let mut answers = Vec::new();
    let (mut answered, mut timed_out) = (false, false);
    let started = job.start(&case.arguments(threads));
    let mut state = match started {
        Ok(program) => State::Running(program),
        Err(failure) => State::Blocked(Skip::NotStarted(failure)),
    };
    for (step, expect) in case.script.iter().zip(expects) {
        let mut exchange = Exchange {
            run: run.to_string(),
            line: step.line,
            sent: step.text.clone(),
            silent: step.before.clone(),
            expected: expect.clone(),
            got: None,
            verdict: Verdict::Pass,
            weight: if step.scored { 1.0 } else { 0.0 },
        };
        answers.push(None);
        let live = match &mut state {
            State::Running(program) => program,
            State::Blocked(why) => {
                exchange.verdict = Verdict::Skip(why.clone());
                exchanges.push(exchange);
                continue;
            }
        };
        // Lines that get no answer go with the command, so its answer must come first.
        let sent: Vec<&str> = step.before.iter().map(String::as_str).collect();
        let text = [sent.as_slice(), &[step.text.as_str()]].concat().join("\n");
        match live.ask(&text, case.time_limit) {
            Err(failure) => {
                timed_out |= matches!(failure, Failure::TimedOut { first: None, .. });
                exchange.verdict = Verdict::Fail(Fault::Program(failure));
                state = State::Blocked(Skip::AfterFailure(step.line, step.text.clone()));
            }
            Ok((lines, _)) => {
                answered = true;
                let got = normalize(&lines.join("\n"));
                let accepted = match expect {
                    Expect::OneOf(list) => list.iter().any(|e| normalize(e) == got),
                    Expect::Shape(model) => same_shape(model, &got),
                    Expect::Nothing(why) => {
                        exchange.verdict = Verdict::Skip(why.clone());
                        true
                    }
                };
                if accepted {
                    *answers.last_mut().expect("pushed above") = Some(got.clone());
                } else {
                    exchange.verdict = Verdict::Fail(Fault::WrongAnswer);
                    if diverges(step, expect, &got) {
                        state = State::Blocked(Skip::AfterDivergence(step.line, step.text.clone()));
                    }
                }
                exchange.got = Some(got);
            }
        }
        // A wrong set-up answer that leaves the game in step costs nothing and is not shown.
        if step.scored
            || matches!(exchange.verdict, Verdict::Fail(_)) && matches!(state, State::Blocked(_))
        {
            exchanges.push(exchange);
        }
    }
    Run {
        exchanges,
        answers,
        silent: timed_out && !answered,
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
