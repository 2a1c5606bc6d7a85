//! Results and points: the verdict on each command, each case's points with partial credit, and
//! each category's total by the rubric.

use std::time::Duration;

use crate::build::Build;
use crate::case::Case;
use crate::rubric::Rubric;
use crate::supplied::Comparison;

/// The verdict on one answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// The answer was accepted.
    Pass,
    /// It was wrong, or there was none; why.
    Fail(String),
    /// Not judged because of an earlier failure; which.
    Skip(String),
}

/// One judged command.
#[derive(Clone, Debug, PartialEq)]
pub struct Check {
    /// The run it belongs to (e.g. `threads 4`), empty when a case has one run.
    pub run: String,
    /// The command's line in the case file (0 for a check about the whole run).
    pub line: usize,
    /// What was sent.
    pub sent: String,
    /// The accepted answers.
    pub expected: Vec<String>,
    /// What came back, if anything did.
    pub got: Option<String>,
    /// The verdict.
    pub verdict: Verdict,
    /// How much it counts towards the case's points; 0 for set-up commands.
    pub weight: f64,
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
    /// Its points.
    pub points: f64,
    /// The points earned.
    pub earned: f64,
    /// Every judged command.
    pub checks: Vec<Check>,
    /// Measurements and remarks (the speed-up).
    pub notes: Vec<String>,
}

impl CaseResult {
    /// What `case` earned, labelled with the case's name, category and points.
    pub fn of(case: &Case, earned: f64, checks: Vec<Check>, notes: Vec<String>) -> CaseResult {
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

    /// `case` not run, losing all its points: one failed check says `why` (a failed build, the
    /// student's time running out).
    pub fn lost(case: &Case, why: String) -> CaseResult {
        let check = Check {
            run: String::new(),
            line: 0,
            sent: String::new(),
            expected: Vec::new(),
            got: None,
            verdict: Verdict::Fail(why),
            weight: 1.0,
        };
        CaseResult::of(case, 0.0, vec![check], Vec::new())
    }

    /// Whether the case earned all its points; a case worth nothing (a requirement of another)
    /// passes only if none of its checks failed.
    pub fn passed(&self) -> bool {
        self.earned >= self.points - 1e-9
            && (self.points > 0.0 || self.checks.iter().all(|c| c.verdict == Verdict::Pass))
    }
}

/// The points that `checks` earn out of `points`: the weighted share of accepted answers.
pub fn partial_credit(points: f64, checks: &[Check]) -> f64 {
    let total: f64 = checks.iter().map(|c| c.weight).sum();
    let failed = checks.iter().any(|c| !matches!(c.verdict, Verdict::Pass));
    if total <= 0.0 {
        return if failed { 0.0 } else { points };
    }
    let passed: f64 = checks
        .iter()
        .filter(|c| c.verdict == Verdict::Pass)
        .map(|c| c.weight)
        .sum();
    points * passed / total
}

/// A category's score.
#[derive(Clone, Debug, PartialEq)]
pub struct CategoryScore {
    /// The category.
    pub name: String,
    /// Points earned; `None` for a category graded by hand.
    pub earned: Option<f64>,
    /// Points possible (of the cases run, for an automatic category).
    pub max: f64,
}

/// One student's outcome.
#[derive(Clone, Debug, PartialEq)]
pub struct StudentResult {
    /// The student's name.
    pub student: String,
    /// Every case run.
    pub cases: Vec<CaseResult>,
    /// Cases left out (timing cases with `--skip-timing`).
    pub not_run: Vec<String>,
    /// How long grading took, the build included.
    pub elapsed: Duration,
    /// The build, when there was a build step.
    pub build: Option<Build>,
    /// The submission's copy of the supplied crate compared with the course's (not scored);
    /// `None` when it has none or the course's copy was not found.
    pub supplied: Option<Comparison>,
}

impl StudentResult {
    /// Every part of every category of the rubric with its score, in rubric order: a category
    /// both scored by the cases and graded by hand gives two (see [`Category::parts`]).
    ///
    /// [`Category::parts`]: crate::rubric::Category::parts
    pub fn categories(&self, rubric: &Rubric) -> Vec<CategoryScore> {
        let mut scores = Vec::new();
        for category in &rubric.categories {
            for part in category.parts() {
                scores.push(if part.automatic {
                    let (earned, max) =
                        sum(self.cases.iter().filter(|c| c.category == category.name));
                    CategoryScore {
                        name: part.name,
                        earned: Some(earned),
                        max,
                    }
                } else {
                    CategoryScore {
                        name: part.name,
                        earned: None,
                        max: part.points,
                    }
                });
            }
        }
        scores
    }

    /// The automatic points earned and possible.
    pub fn total(&self) -> (f64, f64) {
        sum(&self.cases)
    }

    /// The cases that lost points, in order.
    pub fn failed(&self) -> Vec<&CaseResult> {
        self.cases.iter().filter(|c| !c.passed()).collect()
    }
}

/// The points earned and possible of `cases`.
fn sum<'a>(cases: impl IntoIterator<Item = &'a CaseResult>) -> (f64, f64) {
    cases
        .into_iter()
        .fold((0.0, 0.0), |(e, m), c| (e + c.earned, m + c.points))
}

/// Points rounded to two decimals, as every report and results.json gives them; never -0.
pub fn rounded(value: f64) -> f64 {
    // Adding 0.0 turns -0 into 0.
    (value * 100.0).round() / 100.0 + 0.0
}

/// Points as reports print them: at most two decimals, no trailing zeros.
pub fn points(value: f64) -> String {
    let text = format!("{:.2}", rounded(value));
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(verdict: Verdict, weight: f64) -> Check {
        Check {
            run: String::new(),
            line: 1,
            sent: "turn".into(),
            expected: vec!["= red".into()],
            got: None,
            verdict,
            weight,
        }
    }

    #[test]
    fn credit_is_the_weighted_share_of_passes_and_set_up_does_not_count() {
        let checks = [
            check(Verdict::Pass, 1.0),
            check(Verdict::Fail("wrong".into()), 1.0),
            check(Verdict::Skip("after".into()), 2.0),
            check(Verdict::Fail("set-up".into()), 0.0),
        ];
        assert_eq!(partial_credit(4.0, &checks), 1.0);
        assert_eq!(partial_credit(4.0, &checks[3..]), 0.0);
        assert_eq!(partial_credit(4.0, &[]), 4.0);
    }

    #[test]
    fn points_print_short() {
        assert_eq!(points(2.5), "2.5");
        assert_eq!(points(3.0), "3");
        assert_eq!(points(-0.0), "0");
        assert_eq!(points(1.0 / 3.0), "0.33");
        assert!(rounded(-0.0).is_sign_positive() && rounded(-0.001).is_sign_positive());
    }
}
