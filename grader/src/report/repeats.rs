//! Failures that repeat: the failed cases of one student grouped by how they failed, so that
//! the terminal and Markdown reports show a failure once, in full, and name the other cases
//! that failed the same way in one line. The untouched starter panics with the same `todo!()`
//! in every case; its report says so once, not 45 times.
//!
//! Two cases fail the same way when neither was judged on its answers (no wrong answer, no
//! variety or speed-up measured, no credit withheld) and their program failures are the same
//! kinds with the same words once numbers (a thread's id, a time) and the arguments of the
//! command sent are put aside, or when neither was run, for the same reason.

use super::{failure, verdict};
use crate::judge::result::{CaseResult, Exchange, Fault, FaultKind, Skip, Verdict};

/// Failed cases that failed the same way, in the order of the results: the first is shown in
/// full, the others only named.
#[derive(Debug)]
pub(super) struct SameFailure<'a> {
    /// The first case that failed this way.
    pub first: &'a CaseResult,
    /// The later cases that failed the same way.
    pub others: Vec<&'a CaseResult>,
}

impl SameFailure<'_> {
    /// The line naming the other cases, when there are any.
    pub fn same_failure(&self) -> Option<String> {
        let names: Vec<&str> = self.others.iter().map(|c| c.name.as_str()).collect();
        match names.as_slice() {
            [] => None,
            [one] => Some(format!("The same failure in 1 more case: {one}.")),
            many => Some(format!(
                "The same failure in {} more cases: {}.",
                many.len(),
                many.join(", ")
            )),
        }
    }
}

/// How a case failed, with what changes from one case to the next put aside.
#[derive(Debug, PartialEq, Eq)]
enum Signature {
    /// The case was not run, for this reason.
    NotRun(String),
    /// The program failed: each failure's kind and words, in the case's order.
    Failed(Vec<(FaultKind, String)>),
}

/// `failed` (a student's failed cases, in order) grouped by how they failed: one group per
/// case that failed in a way of its own or first failed a way that repeats.
pub(super) fn groups<'a>(failed: &[&'a CaseResult]) -> Vec<SameFailure<'a>> {
    let mut groups: Vec<(Option<Signature>, SameFailure<'a>)> = Vec::new();
    for &case in failed {
        let signature = signature(case);
        let earlier = signature
            .as_ref()
            .and_then(|s| groups.iter_mut().find(|(seen, _)| seen.as_ref() == Some(s)));
        match earlier {
            Some((_, group)) => group.others.push(case),
            None => groups.push((
                signature,
                SameFailure {
                    first: case,
                    others: Vec::new(),
                },
            )),
        }
    }
    groups.into_iter().map(|(_, group)| group).collect()
}

/// How `case` failed, if it is a failure that can repeat: `None` for a case judged on its
/// answers or measurements, whose detail is its own.
fn signature(case: &CaseResult) -> Option<Signature> {
    if let Some(why) = &case.not_run {
        return Some(Signature::NotRun(normalised(&verdict::not_run(why), &[])));
    }
    let kinds = case.kinds();
    let judged = kinds.contains(&FaultKind::WrongAnswer) || kinds.contains(&FaultKind::Measured);
    if judged || case.speedup.is_some() || case.withheld.is_some() {
        return None;
    }
    let failures: Vec<(FaultKind, String)> = case.exchanges.iter().filter_map(failure).collect();
    (!failures.is_empty()).then_some(Signature::Failed(failures))
}

/// An exchange's program failure, its kind and words with the command's arguments and every
/// number put aside.
fn failure(exchange: &Exchange) -> Option<(FaultKind, String)> {
    let failure = match &exchange.verdict {
        Verdict::Fail(Fault::Program(failure)) | Verdict::Skip(Skip::NotStarted(failure)) => {
            failure
        }
        _ => return None,
    };
    let arguments: Vec<&str> = exchange.sent.split_whitespace().skip(1).collect();
    Some((
        FaultKind::of(failure),
        normalised(&failure::failure(failure), &arguments),
    ))
}

/// `text` with every word equal to one of `arguments` (whatever its case: `red` is `Red` in a
/// message) replaced by `<arg>` and every run of digits by `#`.
fn normalised(text: &str, arguments: &[&str]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        if arguments.iter().any(|a| a.eq_ignore_ascii_case(word)) {
            out.push_str("<arg>");
        } else {
            let mut digits = false;
            for c in word.chars() {
                match (c.is_ascii_digit(), digits) {
                    (true, true) => {}
                    (true, false) => out.push('#'),
                    (false, _) => out.push(c),
                }
                digits = c.is_ascii_digit();
            }
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_alphanumeric() || c == '_' {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

#[cfg(test)]
pub(super) mod tests {
    use std::os::unix::process::ExitStatusExt;
    use std::process::ExitStatus;
    use std::time::Duration;

    use super::*;
    use crate::judge::fixtures::{case_result, exchange, student};
    use crate::judge::result::{NotRun, StudentResult};
    use crate::process::{Ending, Failure};

    /// A case `name` whose program, sent `sent`, panicked with `message` (as thread `thread`).
    fn panicked(name: &str, sent: &str, thread: u32, message: &str) -> CaseResult {
        let stderr = format!("thread 'main' ({thread}) panicked at src/game.rs:64:9:\n{message}");
        let failure = Failure::Ended(Ending {
            status: ExitStatus::from_raw(101 << 8),
            limit: None,
            escaped: 0,
            stderr,
        });
        CaseResult {
            exchanges: vec![exchange(
                sent,
                "= red",
                None,
                Verdict::Fail(Fault::Program(failure)),
            )],
            ..case_result(name, "AI", 1.0)
        }
    }

    /// A student like the untouched starter: five cases panic with the same `todo!()` (with
    /// other thread ids and commands), one with another, one answers wrong, one is not run.
    pub(in crate::report) fn starter() -> StudentResult {
        let todo = "not yet implemented: clear the board";
        let wrong = CaseResult {
            exchanges: vec![exchange(
                "scores 1",
                "= 3",
                Some("= 4"),
                Verdict::Fail(Fault::WrongAnswer),
            )],
            ..case_result("scores", "AI", 1.0)
        };
        let cases = vec![
            panicked("new/red", "new red", 30456, todo),
            panicked("new/yellow", "new yellow", 30470, todo),
            panicked("play/column", "new 7 6", 31002, todo),
            panicked(
                "heuristic",
                "heuristic",
                31010,
                "not yet implemented: score a row",
            ),
            wrong,
            panicked("play/full", "new 4 4", 31200, todo),
            CaseResult {
                not_run: Some(NotRun::OutOfTime(Duration::from_secs(300))),
                ..case_result("genmove/late", "AI", 1.0)
            },
            panicked("play/win", "new red", 31300, todo),
        ];
        student("ann", cases, 1)
    }

    #[test]
    fn the_same_panic_with_other_numbers_and_arguments_is_one_group() {
        let result = starter();
        let failed = result.failed();
        let groups = groups(&failed);
        let shown: Vec<(&str, Vec<&str>)> = groups
            .iter()
            .map(|g| {
                let others = g.others.iter().map(|c| c.name.as_str()).collect();
                (g.first.name.as_str(), others)
            })
            .collect();
        assert_eq!(
            shown,
            [
                (
                    "new/red",
                    vec!["new/yellow", "play/column", "play/full", "play/win"]
                ),
                ("heuristic", vec![]),
                ("scores", vec![]),
                ("genmove/late", vec![]),
            ]
        );
        assert_eq!(
            groups[0].same_failure().unwrap(),
            "The same failure in 4 more cases: new/yellow, play/column, play/full, play/win."
        );
        assert_eq!(groups[1].same_failure(), None);
    }

    #[test]
    fn wrong_answers_are_never_grouped() {
        let wrong = |name| CaseResult {
            exchanges: vec![exchange(
                "scores 1",
                "= 3",
                Some("= 4"),
                Verdict::Fail(Fault::WrongAnswer),
            )],
            ..case_result(name, "AI", 1.0)
        };
        let (a, b) = (wrong("a"), wrong("b"));
        assert_eq!(groups(&[&a, &b]).len(), 2);
    }

    #[test]
    fn numbers_and_arguments_are_put_aside() {
        assert_eq!(
            normalised(
                "thread 'main' (30456) at game.rs:64:9: column 7 of red",
                &["red"]
            ),
            "thread 'main' (#) at game.rs:#:#: column # of <arg>"
        );
        assert_eq!(normalised("reds x2", &["red"]), "reds x#");
        assert_eq!(
            normalised("Some(Red) moves first", &["red"]),
            normalised("Some(Black) moves first", &["black"])
        );
    }
}
