//! Cases that count only when others pass (`requires = [...]` in a case file). The assignment
//! gives the speed-up its points only when the values are the same for every thread count: a
//! fast program with wrong threading earns nothing for being fast.

use crate::case::Case;
use crate::score::CaseResult;
use crate::KitError;

/// How the note on a case that lost its points to a requirement starts, so reports can show it
/// with the case's failures.
pub const NO_CREDIT: &str = "No credit:";

/// Checks that every case a case requires exists, and is not the case itself.
pub fn check_names(cases: &[Case]) -> Result<(), KitError> {
    for case in cases {
        for name in &case.requires {
            if name == &case.name || !cases.iter().any(|c| &c.name == name) {
                return Err(KitError(format!(
                    "{}: requires `{name}`, which is not another case",
                    case.path.display()
                )));
            }
        }
    }
    Ok(())
}

/// Takes the points away from every result whose case requires a case that did not pass in
/// full, and says why in its notes (also when it had earned nothing anyway, so the reason is
/// never a mystery). `cases` are the kit's cases; `results` those that ran.
pub fn apply<'a>(cases: impl IntoIterator<Item = &'a Case>, results: &mut [CaseResult]) {
    for case in cases {
        let failed: Vec<String> = case
            .requires
            .iter()
            .filter(|name| results.iter().any(|r| &&r.name == name && !r.passed()))
            .cloned()
            .collect();
        let Some(result) = results.iter_mut().find(|r| r.name == case.name) else {
            continue;
        };
        if !failed.is_empty() {
            result.notes.push(format!(
                "{NO_CREDIT} this counts only when {} passed, and {} did not.",
                case.requires.join(", "),
                failed.join(", ")
            ));
            result.earned = 0.0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::{Check, Verdict};

    fn result(name: &str, points: f64, earned: f64, verdict: Verdict) -> CaseResult {
        CaseResult {
            name: name.into(),
            category: "Threading".into(),
            description: String::new(),
            hidden: false,
            points,
            earned,
            checks: vec![Check {
                run: String::new(),
                line: 1,
                sent: "scores".into(),
                expected: vec!["= 1".into()],
                got: Some("= 1".into()),
                verdict,
                weight: 1.0,
            }],
            notes: Vec::new(),
        }
    }

    fn case(name: &str, requires: &[&str]) -> Case {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(format!("{name}.toml"));
        std::fs::write(
            &path,
            format!(
                "category = \"Threading\"\npoints = 1\nrows = 4\ncols = 4\ndepth = 1\n\
                 threads = 1\ntime_limit = 5\nrequires = {requires:?}\nscript = \"new red\"\n"
            ),
        )
        .unwrap();
        crate::case::load(&path, dir.path()).unwrap()
    }

    #[test]
    fn a_failed_requirement_takes_the_points_away_and_says_why() {
        let cases = [
            case("speedup", &["same", "other"]),
            case("same", &[]),
            case("other", &[]),
        ];
        let mut results = vec![
            result("speedup", 10.0, 10.0, Verdict::Pass),
            result("same", 0.0, 0.0, Verdict::Fail("differs".into())),
            result("other", 0.0, 0.0, Verdict::Pass),
        ];
        apply(&cases, &mut results);
        assert_eq!(results[0].earned, 0.0);
        assert!(
            results[0].notes[0].contains("and same did not"),
            "{:?}",
            results[0].notes
        );
        assert!(!results[1].passed(), "a failed 0-point case has not passed");
    }

    #[test]
    fn passed_requirements_leave_the_points() {
        let cases = [case("speedup", &["same"]), case("same", &[])];
        let mut results = vec![
            result("speedup", 10.0, 6.0, Verdict::Fail("1.3x".into())),
            result("same", 0.0, 0.0, Verdict::Pass),
        ];
        apply(&cases, &mut results);
        assert_eq!(results[0].earned, 6.0);
        assert!(results[0].notes.is_empty());
    }

    #[test]
    fn unknown_or_circular_requirements_are_kit_errors() {
        assert!(check_names(&[case("a", &["b"])]).is_err());
        assert!(check_names(&[case("a", &["a"])]).is_err());
        assert!(check_names(&[case("a", &["b"]), case("b", &[])]).is_ok());
    }
}
