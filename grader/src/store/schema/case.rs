//! A case's outcome as a record stores it: each command judged with its verdict, the variety
//! of its random answers, the credit a requirement withheld, and why it was not run.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::each::{all, back};
use super::process::Failure;
use super::speedup::Speedup;
use crate::judge::result as judge;

/// [`judge::CaseResult`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub struct CaseResult {
    name: String,
    category: String,
    description: String,
    hidden: bool,
    points: f64,
    earned: f64,
    exchanges: Vec<Exchange>,
    variety: Option<Variety>,
    speedup: Option<Speedup>,
    not_run: Option<NotRun>,
    withheld: Option<Withheld>,
    silent: bool,
}

impl From<&judge::CaseResult> for CaseResult {
    fn from(case: &judge::CaseResult) -> CaseResult {
        CaseResult {
            name: case.name.clone(),
            category: case.category.clone(),
            description: case.description.clone(),
            hidden: case.hidden,
            points: case.points,
            earned: case.earned,
            exchanges: all(&case.exchanges),
            variety: case.variety.as_ref().map(|variety| Variety {
                count: variety.count,
                always: variety.always.clone(),
            }),
            speedup: case.speedup.as_ref().map(Into::into),
            not_run: case.not_run.as_ref().map(Into::into),
            withheld: case.withheld.as_ref().map(|withheld| Withheld {
                requires: withheld.requires.clone(),
                failed: withheld.failed.clone(),
            }),
            silent: case.silent,
        }
    }
}

impl From<CaseResult> for judge::CaseResult {
    fn from(case: CaseResult) -> judge::CaseResult {
        judge::CaseResult {
            name: case.name,
            category: case.category,
            description: case.description,
            hidden: case.hidden,
            points: case.points,
            earned: case.earned,
            exchanges: back(case.exchanges),
            variety: case.variety.map(|variety| judge::Variety {
                count: variety.count,
                always: variety.always,
            }),
            speedup: case.speedup.map(Into::into),
            not_run: case.not_run.map(Into::into),
            withheld: case.withheld.map(|withheld| judge::Withheld {
                requires: withheld.requires,
                failed: withheld.failed,
            }),
            silent: case.silent,
        }
    }
}

/// [`judge::Variety`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub struct Variety {
    count: usize,
    always: Option<String>,
}

/// [`judge::Withheld`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub struct Withheld {
    requires: Vec<String>,
    failed: Vec<String>,
}

/// [`judge::Exchange`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub struct Exchange {
    run: String,
    line: usize,
    sent: String,
    silent: Vec<String>,
    expected: Expect,
    got: Option<String>,
    verdict: Verdict,
    weight: f64,
}

impl From<&judge::Exchange> for Exchange {
    fn from(exchange: &judge::Exchange) -> Exchange {
        Exchange {
            run: exchange.run.clone(),
            line: exchange.line,
            sent: exchange.sent.clone(),
            silent: exchange.silent.clone(),
            expected: (&exchange.expected).into(),
            got: exchange.got.clone(),
            verdict: (&exchange.verdict).into(),
            weight: exchange.weight,
        }
    }
}

impl From<Exchange> for judge::Exchange {
    fn from(exchange: Exchange) -> judge::Exchange {
        judge::Exchange {
            run: exchange.run,
            line: exchange.line,
            sent: exchange.sent,
            silent: exchange.silent,
            expected: exchange.expected.into(),
            got: exchange.got,
            verdict: exchange.verdict.into(),
            weight: exchange.weight,
        }
    }
}

/// [`judge::Expect`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub enum Expect {
    OneOf(Vec<String>),
    Shape(String),
    Nothing(Skip),
}

impl From<&judge::Expect> for Expect {
    fn from(expect: &judge::Expect) -> Expect {
        match expect {
            judge::Expect::OneOf(answers) => Expect::OneOf(answers.clone()),
            judge::Expect::Shape(answer) => Expect::Shape(answer.clone()),
            judge::Expect::Nothing(skip) => Expect::Nothing(skip.into()),
        }
    }
}

impl From<Expect> for judge::Expect {
    fn from(expect: Expect) -> judge::Expect {
        match expect {
            Expect::OneOf(answers) => judge::Expect::OneOf(answers),
            Expect::Shape(answer) => judge::Expect::Shape(answer),
            Expect::Nothing(skip) => judge::Expect::Nothing(skip.into()),
        }
    }
}

/// [`judge::Verdict`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub enum Verdict {
    Pass,
    Fail(Fault),
    Skip(Skip),
}

impl From<&judge::Verdict> for Verdict {
    fn from(verdict: &judge::Verdict) -> Verdict {
        use judge::{Fault as F, Verdict as V};
        match verdict {
            V::Pass => Verdict::Pass,
            V::Fail(F::WrongAnswer) => Verdict::Fail(Fault::WrongAnswer),
            V::Fail(F::Program(failure)) => Verdict::Fail(Fault::Program(failure.into())),
            V::Skip(skip) => Verdict::Skip(skip.into()),
        }
    }
}

impl From<Verdict> for judge::Verdict {
    fn from(verdict: Verdict) -> judge::Verdict {
        use judge::{Fault as F, Verdict as V};
        match verdict {
            Verdict::Pass => V::Pass,
            Verdict::Fail(Fault::WrongAnswer) => V::Fail(F::WrongAnswer),
            Verdict::Fail(Fault::Program(failure)) => V::Fail(F::Program(failure.into())),
            Verdict::Skip(skip) => V::Skip(skip.into()),
        }
    }
}

/// [`judge::Fault`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub enum Fault {
    WrongAnswer,
    Program(Failure),
}

/// [`judge::Skip`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub enum Skip {
    NotStarted(Failure),
    AfterFailure(usize, String),
    AfterDivergence(usize, String),
    NoFirstAnswer(String),
}

impl From<&judge::Skip> for Skip {
    fn from(skip: &judge::Skip) -> Skip {
        use judge::Skip as S;
        match skip {
            S::NotStarted(failure) => Skip::NotStarted(failure.into()),
            S::AfterFailure(line, sent) => Skip::AfterFailure(*line, sent.clone()),
            S::AfterDivergence(line, sent) => Skip::AfterDivergence(*line, sent.clone()),
            S::NoFirstAnswer(first) => Skip::NoFirstAnswer(first.clone()),
        }
    }
}

impl From<Skip> for judge::Skip {
    fn from(skip: Skip) -> judge::Skip {
        use judge::Skip as S;
        match skip {
            Skip::NotStarted(failure) => S::NotStarted(failure.into()),
            Skip::AfterFailure(line, sent) => S::AfterFailure(line, sent),
            Skip::AfterDivergence(line, sent) => S::AfterDivergence(line, sent),
            Skip::NoFirstAnswer(first) => S::NoFirstAnswer(first),
        }
    }
}

/// [`judge::NotRun`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub enum NotRun {
    BuildFailed,
    BuildTimedOut(Duration),
    BuildStarved {
        limit: Duration,
        had: Duration,
        wall: Duration,
    },
    OutOfTime(Duration),
    NoSandbox(String),
    Unresponsive(usize),
}

impl From<&judge::NotRun> for NotRun {
    fn from(why: &judge::NotRun) -> NotRun {
        use judge::NotRun as N;
        match why.clone() {
            N::BuildFailed => NotRun::BuildFailed,
            N::BuildTimedOut(limit) => NotRun::BuildTimedOut(limit),
            N::BuildStarved { limit, had, wall } => NotRun::BuildStarved { limit, had, wall },
            N::OutOfTime(limit) => NotRun::OutOfTime(limit),
            N::NoSandbox(why) => NotRun::NoSandbox(why),
            N::Unresponsive(count) => NotRun::Unresponsive(count),
        }
    }
}

impl From<NotRun> for judge::NotRun {
    fn from(why: NotRun) -> judge::NotRun {
        use judge::NotRun as N;
        match why {
            NotRun::BuildFailed => N::BuildFailed,
            NotRun::BuildTimedOut(limit) => N::BuildTimedOut(limit),
            NotRun::BuildStarved { limit, had, wall } => N::BuildStarved { limit, had, wall },
            NotRun::OutOfTime(limit) => N::OutOfTime(limit),
            NotRun::NoSandbox(why) => N::NoSandbox(why),
            NotRun::Unresponsive(count) => N::Unresponsive(count),
        }
    }
}
