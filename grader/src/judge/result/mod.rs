//! Results, typed until a reporter renders them: each judged [`Exchange`] with its [`Verdict`],
//! each case's [`CaseResult`] (exchanges, the speed-up measured, credit withheld by a
//! requirement), and each student's [`StudentResult`] with its category scores. A failure keeps
//! its kind ([`FaultKind`]) to the end, so that a class summary can count time-outs and crashes.
//! The scores graders give by hand in the gallery are results too ([`hand`]). A student's result
//! is plain data, kept in the class store (converted to the store's own types) to make its
//! files again without grading again.

use std::time::Duration;

use serde::{Deserialize, Serialize};

pub mod build;
pub mod confinement;
pub mod design;
pub mod hand;
mod not_run;
pub mod speedup;
pub mod style;
pub mod window;

use crate::kit::case::Case;
use crate::kit::style::Language;
use crate::kit::supplied::SuppliedCopy;
use crate::kit::tree::Listing;
use crate::kit::Rubric;
use crate::process::Failure;
use build::Build;
use confinement::Confinement;
use speedup::{Speedup, SpeedupFault, SpeedupOutcome};
use style::Style;
use window::WindowResult;

pub use not_run::NotRun;

/// What one command's answer is judged against.
#[derive(Clone, Debug, PartialEq)]
pub enum Expect {
    /// Any of these answers (compared after [`normalize`]).
    OneOf(Vec<String>),
    /// Anything of this answer's shape: the same mark, words on the first line, and lines.
    Shape(String),
    /// Nothing to compare with; the answer is not judged, for this reason.
    Nothing(Skip),
}

/// The verdict on one answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// The answer was accepted.
    Pass,
    /// It was wrong, or there was none.
    Fail(Fault),
    /// Not judged, because of something earlier.
    Skip(Skip),
}

/// Why an answer was not accepted.
#[derive(Clone, Debug, PartialEq)]
pub enum Fault {
    /// The answer differs from every accepted one.
    WrongAnswer,
    /// The program gave no usable answer.
    Program(Failure),
}

/// Why an answer was not judged.
#[derive(Clone, Debug, PartialEq)]
pub enum Skip {
    /// The program did not start.
    NotStarted(Failure),
    /// The program failed at an earlier line of the script: its number and command.
    AfterFailure(usize, String),
    /// An earlier answer (line and command) put the program's game out of step with the
    /// reference's.
    AfterDivergence(usize, String),
    /// A consistency case's first run (named) gave no answer to compare this one with.
    NoFirstAnswer(String),
}

/// The kind of a failure, as a class summary counts them (and keeps them, beside it, for a
/// class graded again in part).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FaultKind {
    /// An answer differs from the reference's.
    WrongAnswer,
    /// No answer within the time limit.
    TimedOut,
    /// No answer, the machine too busy to give the program its time: not counted.
    Starved,
    /// The program ended (crashed or exited) before answering.
    Crashed,
    /// The program hit one of its resource limits.
    Limit,
    /// The program closed its output (or input) and went on running.
    Closed,
    /// The output was not the protocol's, or too much of it.
    BadOutput,
    /// The case was not run (a failed build, the student's time ran out).
    NotRun,
    /// The answers that must vary did not, or the speed-up fell short.
    Measured,
}

impl FaultKind {
    /// The kind of `failure`.
    pub fn of(failure: &Failure) -> FaultKind {
        match failure {
            Failure::TimedOut { .. } => FaultKind::TimedOut,
            Failure::Starved { .. } => FaultKind::Starved,
            Failure::Ended(ending) if ending.limit.is_some() => FaultKind::Limit,
            Failure::Ended(_) | Failure::Io(_) => FaultKind::Crashed,
            Failure::Closed { .. } => FaultKind::Closed,
            Failure::Garbage(_) | Failure::Flood => FaultKind::BadOutput,
        }
    }
}

/// What a busy machine could not give its time, so that a case is not counted.
#[derive(Clone, Debug, PartialEq)]
pub enum Starved {
    /// The build.
    Build {
        /// Its time limit.
        limit: Duration,
        /// The time it had.
        had: Duration,
        /// The time it was given on the wall clock.
        wall: Duration,
    },
    /// A command of the case (what was sent).
    Command {
        /// What was sent.
        sent: String,
        /// Its time limit.
        limit: Duration,
        /// The time the program had.
        had: Duration,
        /// The time it was given on the wall clock.
        wall: Duration,
    },
}

/// One command sent and judged.
#[derive(Clone, Debug, PartialEq)]
pub struct Exchange {
    /// The run it belongs to (e.g. `threads 4`), empty when a case has one run.
    pub run: String,
    /// The command's line in the case file.
    pub line: usize,
    /// What was sent.
    pub sent: String,
    /// Lines sent just before it that must get no answer (blank lines, comments).
    pub silent: Vec<String>,
    /// What the answer was judged against.
    pub expected: Expect,
    /// What came back, if anything did (normalized).
    pub got: Option<String>,
    pub verdict: Verdict,
    /// How much it counts towards the case's points; 0 for set-up commands.
    pub weight: f64,
}

/// For a case whose random answers must vary: how many there were, and the one answer they all
/// gave if they never changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variety {
    /// The answers with a random choice that were accepted.
    pub count: usize,
    /// The answer every one of them was, if they were all the same.
    pub always: Option<String>,
}

/// A case's credit taken away because a case it requires did not pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Withheld {
    /// Every case it requires.
    pub requires: Vec<String>,
    /// Those that did not pass in full.
    pub failed: Vec<String>,
}

/// One case's outcome.
#[derive(Clone, Debug, PartialEq)]
pub struct CaseResult {
    /// The case's name.
    pub name: String,
    /// Its rubric category.
    pub category: String,
    /// What it tests.
    pub description: String,
    /// Hidden until after the due date.
    pub hidden: bool,
    pub points: f64,
    /// The points earned.
    pub earned: f64,
    /// Every judged command that counts or that failed.
    pub exchanges: Vec<Exchange>,
    /// Whether the random answers varied, for a case whose answers must.
    pub variety: Option<Variety>,
    /// The speed-up measured, for a timing case.
    pub speedup: Option<Speedup>,
    /// Why it was not run at all, if it was not.
    pub not_run: Option<NotRun>,
    /// Credit withheld because a required case did not pass.
    pub withheld: Option<Withheld>,
    /// The program answered no command of the case at all, and timed out.
    pub silent: bool,
}

impl CaseResult {
    /// `case` with nothing judged yet and nothing earned.
    pub fn empty(case: &Case) -> CaseResult {
        CaseResult {
            description: case.description.clone(),
            hidden: case.hidden,
            ..CaseResult::named(&case.name, &case.category, case.points)
        }
    }

    /// A case called `name` of `category` worth `points`, with nothing judged yet and nothing
    /// earned (no description, not hidden).
    pub fn named(name: &str, category: &str, points: f64) -> CaseResult {
        CaseResult {
            name: name.into(),
            category: category.into(),
            description: String::new(),
            hidden: false,
            points,
            earned: 0.0,
            exchanges: Vec::new(),
            variety: None,
            speedup: None,
            not_run: None,
            withheld: None,
            silent: false,
        }
    }

    /// `case` not run, losing all its points.
    pub fn lost(case: &Case, why: NotRun) -> CaseResult {
        CaseResult {
            not_run: Some(why),
            ..CaseResult::empty(case)
        }
    }

    /// Whether anything of the case failed or went unjudged.
    fn failed_anything(&self) -> bool {
        self.exchanges.iter().any(|e| e.verdict != Verdict::Pass) || !self.kinds().is_empty()
    }

    /// Whether the case counts towards the score: all but a speed-up that the machine could
    /// not judge (too few CPUs, busy) and a case the machine could not give its time
    /// ([`CaseResult::starved`]), which count neither way.
    pub fn counted(&self) -> bool {
        self.speedup.as_ref().is_none_or(|s| s.credit().is_some()) && self.starved().is_none()
    }

    /// The first failure of the case that was the machine's, not the program's: a command or
    /// the build that a busy machine could not give its time.
    pub fn starved(&self) -> Option<Starved> {
        if let Some(NotRun::BuildStarved { limit, had, wall }) = self.not_run {
            return Some(Starved::Build { limit, had, wall });
        }
        self.exchanges.iter().find_map(|e| match &e.verdict {
            Verdict::Fail(Fault::Program(Failure::Starved { limit, had, wall }))
            | Verdict::Skip(Skip::NotStarted(Failure::Starved { limit, had, wall })) => {
                Some(Starved::Command {
                    sent: e.sent.clone(),
                    limit: *limit,
                    had: *had,
                    wall: *wall,
                })
            }
            _ => None,
        })
    }

    /// Whether the case earned all its points, or does not count; a case worth nothing (a
    /// requirement of another) passes only if nothing of it failed.
    pub fn passed(&self) -> bool {
        !self.counted()
            || (self.earned >= self.points - 1e-9 && (self.points > 0.0 || !self.failed_anything()))
    }

    /// The kinds of every failure in the case, each once, in order of [`FaultKind`].
    pub fn kinds(&self) -> Vec<FaultKind> {
        let mut kinds: Vec<FaultKind> = self
            .exchanges
            .iter()
            .filter_map(|e| match &e.verdict {
                Verdict::Fail(Fault::WrongAnswer) => Some(FaultKind::WrongAnswer),
                Verdict::Fail(Fault::Program(failure))
                | Verdict::Skip(Skip::NotStarted(failure)) => Some(FaultKind::of(failure)),
                _ => None,
            })
            .collect();
        if self.not_run.is_some() {
            kinds.push(FaultKind::NotRun);
        }
        if self.variety.as_ref().is_some_and(|v| v.always.is_some()) {
            kinds.push(FaultKind::Measured);
        }
        match self.speedup.as_ref().map(|s| &s.outcome) {
            Some(SpeedupOutcome::Failed(SpeedupFault::Program { failure, .. })) => {
                kinds.push(FaultKind::of(failure))
            }
            Some(SpeedupOutcome::Failed(SpeedupFault::Script(_))) => {}
            Some(SpeedupOutcome::Failed(_)) => kinds.push(FaultKind::WrongAnswer),
            Some(SpeedupOutcome::Judged(_, judged)) if judged.credit < 1.0 => {
                kinds.push(FaultKind::Measured)
            }
            Some(SpeedupOutcome::Refused(..)) => kinds.push(FaultKind::Measured),
            _ => {}
        }
        kinds.sort();
        kinds.dedup();
        kinds
    }
}

/// The points that `exchanges` earn out of `points`: the weighted share of accepted answers. A
/// case whose random answers must vary and never did ([`Variety::always`]) earns nothing, however
/// many of them were accepted: each answer alone is one the reference could give, so only their
/// variety shows the choice is random, and it is what the case is for.
pub fn partial_credit(points: f64, exchanges: &[Exchange], variety: Option<&Variety>) -> f64 {
    if variety.is_some_and(|v| v.always.is_some()) {
        return 0.0;
    }
    let total: f64 = exchanges.iter().map(|e| e.weight).sum();
    if total <= 0.0 {
        let failed = exchanges.iter().any(|e| e.verdict != Verdict::Pass);
        return if failed { 0.0 } else { points };
    }
    let passed: f64 = exchanges
        .iter()
        .filter(|e| e.verdict == Verdict::Pass)
        .map(|e| e.weight)
        .sum();
    points * passed / total
}

/// A category's score.
#[derive(Clone, Debug, PartialEq)]
pub struct CategoryScore {
    /// The category (or its automatic or hand-graded part).
    pub name: String,
    /// Points earned; `None` for a part graded by hand.
    pub earned: Option<f64>,
    /// Points possible (of the cases run and counted, for an automatic part).
    pub max: f64,
    /// The rubric's points for the part: more than `max` when some of its cases were left out
    /// (`--skip-timing`) or not counted (a speed-up not judged).
    pub possible: f64,
}

/// One student's outcome.
#[derive(Clone, Debug, PartialEq)]
pub struct StudentResult {
    /// The student's name.
    pub student: String,
    /// Every case run.
    pub cases: Vec<CaseResult>,
    /// Cases left out (timing cases with `--skip-timing`), not counted either way.
    pub left_out: Vec<String>,
    /// How long grading took, the build included.
    pub elapsed: Duration,
    /// The build, when there was a build step.
    pub build: Option<Build>,
    /// The submission's copy of the supplied crate compared with the course's (not scored);
    /// `None` when it has none or the course's copy was not found.
    pub supplied: Option<SuppliedCopy>,
    /// The submission's special entries (links, FIFOs, sockets, devices), never read, listed
    /// for the graders (not scored).
    pub special: Listing,
    /// The sandbox the student's processes ran in.
    pub confinement: Confinement,
    /// The style facts, when asked for (`--style`).
    pub style: Option<Style>,
    /// Their window as observed under Xvfb, when asked for (`--window`).
    pub window: Option<WindowResult>,
    /// The language most of their source files are in, if any: what the checklist's wording
    /// for each language ([`Category::items`]) is chosen by. None in a result kept before it
    /// was recorded.
    ///
    /// [`Category::items`]: crate::kit::rubric::Category::items
    pub language: Option<Language>,
}

impl StudentResult {
    /// Every part of every category of the rubric with its score, in rubric order: a category
    /// both scored by the cases and graded by hand gives two (see [`Category::parts`]).
    ///
    /// [`Category::parts`]: crate::kit::rubric::Category::parts
    pub fn categories(&self, rubric: &Rubric) -> Vec<CategoryScore> {
        let mut scores = Vec::new();
        for category in &rubric.categories {
            for part in category.parts() {
                let (earned, max) = match part.automatic {
                    true => {
                        let cases = self.cases.iter().filter(|c| c.category == category.name);
                        let (earned, max) = sum(cases);
                        (Some(earned), max)
                    }
                    false => (None, part.points),
                };
                scores.push(CategoryScore {
                    name: part.name,
                    earned,
                    max,
                    possible: part.points,
                });
            }
        }
        scores
    }

    /// Why none of the student's code was run, when their sandbox could not be set up: they
    /// are not graded, and their zeros are no grade.
    pub fn ungraded(&self) -> Option<&str> {
        match &self.confinement {
            Confinement::Failed(why) => Some(why),
            Confinement::Off | Confinement::On { .. } => None,
        }
    }

    /// The automatic points earned and possible.
    pub fn total(&self) -> (f64, f64) {
        sum(&self.cases)
    }

    /// The automatic points earned, once they are known: none for a student not graded, or
    /// with a case not counted (see [`StudentResult::not_counted`]), until graded again.
    pub fn automatic_total(&self) -> Option<f64> {
        let known = self.ungraded().is_none() && self.not_counted().next().is_none();
        known.then(|| self.total().0)
    }

    /// The cases that lost points, in order.
    pub fn failed(&self) -> Vec<&CaseResult> {
        self.cases.iter().filter(|c| !c.passed()).collect()
    }

    /// The cases that count neither way because the machine could not judge their speed-up
    /// (too few CPUs, busy): their points are missing until the student is graded again.
    pub fn not_counted(&self) -> impl Iterator<Item = &CaseResult> {
        self.cases.iter().filter(|c| !c.counted())
    }

    /// The speed-up measured, if a timing case ran.
    pub fn speedup(&self) -> Option<&Speedup> {
        self.cases.iter().find_map(|c| c.speedup.as_ref())
    }

    /// The build, if there was one and it failed.
    pub fn failed_build(&self) -> Option<&Build> {
        self.build.as_ref().filter(|b| !b.succeeded())
    }
}

/// The points earned and possible of those of `cases` that count.
fn sum<'a>(cases: impl IntoIterator<Item = &'a CaseResult>) -> (f64, f64) {
    cases
        .into_iter()
        .filter(|c| c.counted())
        .fold((0.0, 0.0), |(e, m), c| (e + c.earned, m + c.points))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::process::Failure;

    fn exchange(verdict: Verdict, weight: f64) -> Exchange {
        Exchange {
            run: String::new(),
            line: 1,
            sent: "turn".into(),
            silent: Vec::new(),
            expected: Expect::OneOf(vec!["= red".into()]),
            got: None,
            verdict,
            weight,
        }
    }

    #[test]
    fn credit_is_the_weighted_share_of_passes_and_set_up_does_not_count() {
        let exchanges = [
            exchange(Verdict::Pass, 1.0),
            exchange(Verdict::Fail(Fault::WrongAnswer), 1.0),
            exchange(Verdict::Skip(Skip::AfterFailure(1, "x".into())), 2.0),
            exchange(Verdict::Fail(Fault::WrongAnswer), 0.0),
        ];
        assert_eq!(partial_credit(4.0, &exchanges, None), 1.0);
        assert_eq!(partial_credit(4.0, &exchanges[3..], None), 0.0);
        assert_eq!(partial_credit(4.0, &[], None), 4.0);
    }

    #[test]
    fn answers_that_never_vary_void_the_case() {
        let passes = [exchange(Verdict::Pass, 1.0), exchange(Verdict::Pass, 1.0)];
        let same = Variety {
            count: 2,
            always: Some("= red".into()),
        };
        assert_eq!(partial_credit(4.0, &passes, Some(&same)), 0.0);
        let varied = Variety {
            always: None,
            ..same
        };
        assert_eq!(partial_credit(4.0, &passes, Some(&varied)), 4.0);
        let half = [
            passes[0].clone(),
            exchange(Verdict::Fail(Fault::WrongAnswer), 1.0),
        ];
        assert_eq!(partial_credit(4.0, &half, Some(&varied)), 2.0);
    }

    #[test]
    fn a_failure_keeps_its_kind() {
        let case = |verdict| CaseResult {
            exchanges: vec![exchange(verdict, 1.0)],
            ..CaseResult::named("c", "Rules", 1.0)
        };
        let timed_out = Failure::TimedOut {
            limit: Duration::from_secs(1),
            first: None,
        };
        assert_eq!(
            case(Verdict::Fail(Fault::Program(timed_out))).kinds(),
            [FaultKind::TimedOut]
        );
        assert_eq!(
            case(Verdict::Fail(Fault::Program(Failure::Flood))).kinds(),
            [FaultKind::BadOutput]
        );
        assert_eq!(
            case(Verdict::Fail(Fault::WrongAnswer)).kinds(),
            [FaultKind::WrongAnswer]
        );
        assert!(case(Verdict::Pass).kinds().is_empty());
    }

    #[test]
    fn what_a_busy_machine_starved_counts_neither_way() {
        let (limit, had, wall) = (
            Duration::from_secs(5),
            Duration::from_secs(1),
            Duration::from_secs(15),
        );
        let starved = Failure::Starved { limit, had, wall };
        let case = CaseResult {
            earned: 0.0,
            exchanges: vec![
                exchange(Verdict::Pass, 1.0),
                exchange(Verdict::Fail(Fault::Program(starved)), 1.0),
            ],
            ..CaseResult::named("c", "AI", 2.0)
        };
        assert!(!case.counted());
        assert!(case.passed(), "not counted, so not failed");
        assert_eq!(case.kinds(), [FaultKind::Starved]);
        assert_eq!(
            case.starved(),
            Some(Starved::Command {
                sent: "turn".into(),
                limit,
                had,
                wall
            })
        );
        let build = CaseResult {
            not_run: Some(NotRun::BuildStarved { limit, had, wall }),
            ..CaseResult::named("d", "AI", 2.0)
        };
        assert!(!build.counted());
        assert_eq!(build.starved(), Some(Starved::Build { limit, had, wall }));
        let result = crate::judge::fixtures::student(
            "ann",
            vec![
                case,
                build,
                CaseResult {
                    earned: 1.0,
                    ..CaseResult::named("e", "AI", 1.0)
                },
            ],
            1,
        );
        assert_eq!(result.total(), (1.0, 1.0), "only the case that counts");
        assert_eq!(result.not_counted().count(), 2);
    }
}
