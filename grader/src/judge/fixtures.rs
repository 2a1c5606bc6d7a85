//! Small cases, exchanges and students for the unit tests of the judge and the reports: one
//! place that builds them, so that every test speaks of the same shapes.

use std::time::Duration;

use super::result::confinement::Confinement;
use super::result::{CaseResult, Exchange, Expect, StudentResult, Verdict};

use crate::kit::tree::Listing;
use crate::kit::Case;

/// A case `name` of the Threading category, requiring `requires`, loaded from a case file
/// written for it (so that it is checked as the kit checks one).
pub(crate) fn case(name: &str, requires: &[&str]) -> Case {
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
    crate::kit::case::load(&path, dir.path()).unwrap()
}

/// `sent` on line 3, expected to answer `expected`, answered `got`, judged `verdict`.
pub(crate) fn exchange(
    sent: &str,
    expected: &str,
    got: Option<&str>,
    verdict: Verdict,
) -> Exchange {
    Exchange {
        run: String::new(),
        line: 3,
        sent: sent.into(),
        silent: Vec::new(),
        expected: Expect::OneOf(vec![expected.into()]),
        got: got.map(String::from),
        verdict,
        weight: 1.0,
    }
}

/// A case result of `category` worth `points`, with nothing judged.
pub(crate) fn case_result(name: &str, category: &str, points: f64) -> CaseResult {
    CaseResult {
        description: format!("what {name} tests"),
        ..CaseResult::named(name, category, points)
    }
}

/// A student named `name` with these case results, graded in `seconds`.
pub(crate) fn student(name: &str, cases: Vec<CaseResult>, seconds: u64) -> StudentResult {
    StudentResult {
        student: name.into(),
        cases,
        left_out: Vec::new(),
        elapsed: Duration::from_secs(seconds),
        build: None,
        supplied: None,
        special: Listing::default(),
        confinement: Confinement::Off,
        style: None,
        window: None,
    }
}

/// A rubric of an automatic category (`AI`, 1 point) and one graded by hand (`GUI`, 5 points: a
/// checklist of `(3) A <grid>` and `(2) A dialog`).
pub(crate) fn hand_rubric() -> crate::kit::Rubric {
    toml::from_str(
        "title = \"Connect Four\"\n[[category]]\nname = \"AI\"\npoints = 1\n\
         [[category]]\nname = \"GUI\"\npoints = 5\nmanual = [\"(3) A <grid>\", \"(2) A dialog\"]\n\
         [speedup]\nfull_gain = 0.5\nno_gain = 0.2\nbusy_ceiling = 0.5\nbusy_credit_range = 0.2\n",
    )
    .unwrap()
}

/// A timing case of `category` worth `points` whose speed-up the machine could not judge: the
/// program could use one CPU of two, so it counts neither way.
pub(crate) fn not_counted(name: &str, category: &str, points: f64) -> CaseResult {
    use super::result::design::{Design, Unseen};
    use super::result::speedup::{Outcome, Speedup};
    CaseResult {
        speedup: Some(Speedup {
            threads: (1, 2),
            cpus: crate::process::Cpus {
                online: 2,
                affinity: 1,
                quota: None,
            },
            outcome: Outcome::TooFewCpus,
            uneven: None,
            design: Design::Unseen(Unseen::NotSearched),
        }),
        ..case_result(name, category, points)
    }
}
