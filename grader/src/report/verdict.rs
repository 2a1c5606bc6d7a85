//! An exchange's or a case's verdict in words, for a failed case's detail: what was sent and
//! the answers accepted, why an answer failed or was skipped, why a whole case was not run, a
//! finding about a whole case shown as if it were an exchange ([`Finding`]: answers that were
//! never random), and why a case's credit was withheld.

use super::failure::{failure, fault};
use super::{inert, starved};
use crate::judge::result::{
    CaseResult, Exchange, Expect, NotRun, Skip, Variety, Verdict, Withheld,
};

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

/// Why a case's credit was withheld.
pub fn withheld(withheld: &Withheld) -> String {
    format!(
        "No credit: this counts only when {} passed, and {} did not.",
        withheld.requires.join(", "),
        withheld.failed.join(", ")
    )
}

/// Whether an exchange failed, and why in words; `None` when it passed.
pub fn verdict(verdict: &Verdict) -> Option<String> {
    match verdict {
        Verdict::Pass => None,
        Verdict::Fail(why) => Some(fault(why)),
        Verdict::Skip(why) => Some(format!("skipped: {}", skip(why))),
    }
}
