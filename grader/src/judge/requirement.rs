//! Cases that count only when others pass (`requires = [...]` in a case file). The assignment
//! gives the speed-up its points only when the values are the same for every thread count: a
//! fast program with wrong threading earns nothing for being fast.

use super::result::{CaseResult, Withheld};
use crate::kit::Case;

/// Takes the points away from every result whose case requires a case that did not pass in
/// full, and records why (also when it had earned nothing anyway, so the reason is never a
/// mystery), unless the case was not run at all, which says why itself. `cases` are the kit's
/// cases; `results` those that ran.
pub fn apply<'a>(cases: impl IntoIterator<Item = &'a Case>, results: &mut [CaseResult]) {
    for case in cases {
        let failed: Vec<String> = case
            .requires
            .iter()
            .filter(|name| results.iter().any(|r| &&r.name == name && !r.passed()))
            .cloned()
            .collect();
        let Some(result) = results
            .iter_mut()
            .find(|r| r.name == case.name && r.not_run.is_none())
        else {
            continue;
        };
        if !failed.is_empty() {
            result.withheld = Some(Withheld {
                requires: case.requires.clone(),
                failed,
            });
            result.earned = 0.0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::fixtures;
    use crate::judge::result::{Fault, NotRun, Verdict};

    /// The result of case `name` worth `points`, earning `earned`, with one exchange judged
    /// `verdict`.
    fn result(name: &str, points: f64, earned: f64, verdict: Verdict) -> CaseResult {
        CaseResult {
            points,
            earned,
            exchanges: vec![fixtures::exchange("scores", "= 1", Some("= 1"), verdict)],
            ..CaseResult::empty(&fixtures::case(name, &[]))
        }
    }

    #[test]
    fn a_failed_requirement_takes_the_points_away_and_says_why() {
        let cases = [
            fixtures::case("speedup", &["same", "other"]),
            fixtures::case("same", &[]),
            fixtures::case("other", &[]),
        ];
        let mut results = vec![
            result("speedup", 10.0, 10.0, Verdict::Pass),
            result("same", 0.0, 0.0, Verdict::Fail(Fault::WrongAnswer)),
            result("other", 0.0, 0.0, Verdict::Pass),
        ];
        apply(&cases, &mut results);
        assert_eq!(results[0].earned, 0.0);
        assert_eq!(
            results[0].withheld,
            Some(Withheld {
                requires: vec!["same".into(), "other".into()],
                failed: vec!["same".into()],
            })
        );
        assert!(!results[1].passed(), "a failed 0-point case has not passed");
    }

    #[test]
    fn a_case_not_run_says_why_itself_not_that_its_requirements_failed() {
        let cases = [
            fixtures::case("speedup", &["same"]),
            fixtures::case("same", &[]),
        ];
        let mut results = vec![
            CaseResult::lost(&cases[0], NotRun::BuildFailed),
            CaseResult::lost(&cases[1], NotRun::BuildFailed),
        ];
        apply(&cases, &mut results);
        assert_eq!(results[0].withheld, None);
    }

    #[test]
    fn passed_requirements_leave_the_points() {
        let cases = [
            fixtures::case("speedup", &["same"]),
            fixtures::case("same", &[]),
        ];
        let mut results = vec![
            result("speedup", 10.0, 6.0, Verdict::Fail(Fault::WrongAnswer)),
            result("same", 0.0, 0.0, Verdict::Pass),
        ];
        apply(&cases, &mut results);
        assert_eq!(results[0].earned, 6.0);
        assert_eq!(results[0].withheld, None);
    }
}
