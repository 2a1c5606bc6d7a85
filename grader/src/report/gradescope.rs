//! Gradescope's `results.json`: the automatic score, one test per case with its failures as
//! output (a speed-up the machine could not judge shown as the course chose, [`NotCountedAs`]:
//! by default 0 of its points, pending, with the total flagged), and each case's visibility
//! (hidden cases show only after the due date). The overall output is the summary, without any
//! case's detail, so that it reveals nothing of a hidden case. The build, when there was a
//! build step, comes first as a visible test worth no points (a failed one with the last lines
//! of its log, the compiler's errors, and every case at 0), then the supplied crate
//! comparison, when there was one, likewise, the submission's special files, when it has any
//! (failed unless each is a link that stays inside the submission), the sandbox the student's code ran in (failed
//! when it could not be set up or a process outlived grading), and, when the window was
//! observed, what was seen of it, for the GUI's hand grading. After the cases come the thread
//! design the speed-up case saw, for the pool's hand grading (failed unless a pool), and the
//! style facts, when gathered, in the Programming style category (failed when a header lacks
//! an item or a lint did not come out clean).

use std::str::FromStr;

use serde_json::{json, Value};

use super::numbers::{points, rounded};
use super::{building, comparison, isolation, timing, workers};
use super::{special, style, terminal, window};
use crate::judge::result::window::{StepResult, WindowResult};
use crate::judge::result::{CaseResult, StudentResult};
use crate::judge::Confinement;
use crate::kit::Rubric;

/// What `results.json` gives a case whose speed-up the machine could not judge (too few CPUs,
/// busy), which the grader's own reports count neither way: the course's choice, the
/// Gradescope kit's `not-counted` setting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum NotCountedAs {
    /// 0 of its points for now, said to be pending: the instructor grades it again; the
    /// overall output says that the score leaves them out.
    #[default]
    Pending,
    /// All of its points, said to be given so.
    Full,
    /// 0 of its points, said to be the course's rule.
    Zero,
}

impl NotCountedAs {
    /// The settings' names, as the command line and the Gradescope kit write them.
    pub const NAMES: [&'static str; 3] = ["pending", "full", "zero"];
    /// Each setting, in the order of [`NotCountedAs::NAMES`].
    const ALL: [NotCountedAs; 3] = [
        NotCountedAs::Pending,
        NotCountedAs::Full,
        NotCountedAs::Zero,
    ];

    /// The share of a not-counted case's points it gives.
    fn share(self) -> f64 {
        match self {
            NotCountedAs::Full => 1.0,
            NotCountedAs::Pending | NotCountedAs::Zero => 0.0,
        }
    }

    /// The line before a not-counted case's detail: what it is given, and why.
    fn case_note(self, case: &CaseResult, why: &str) -> String {
        let worth = points(case.points);
        match self {
            NotCountedAs::Pending => format!(
                "Not counted yet ({why}): 0 of its {worth} points until your instructor grades \
                 it again."
            ),
            NotCountedAs::Full => format!(
                "Not counted ({why}): given all its {worth} points, as this course gives a \
                 speed-up the grading machine could not judge."
            ),
            NotCountedAs::Zero => format!(
                "Not counted ({why}): 0 of its {worth} points, as this course gives a speed-up \
                 the grading machine could not judge."
            ),
        }
    }

    /// The line before the overall output when a case was not counted: what the score does
    /// with it.
    fn total_note(self, case: &CaseResult, why: &str) -> String {
        let worth = points(case.points);
        let name = format!("{}: {}", case.category, case.name);
        match self {
            NotCountedAs::Pending => format!(
                "PENDING: the score leaves out the {worth} points of {name}, which the grading \
                 machine could not judge ({why}); your instructor will grade it again."
            ),
            NotCountedAs::Full => format!(
                "The score gives all {worth} points of {name}, which the grading machine could \
                 not judge ({why}), as this course does."
            ),
            NotCountedAs::Zero => format!(
                "The score gives 0 of the {worth} points of {name}, which the grading machine \
                 could not judge ({why}), as this course does."
            ),
        }
    }
}

impl FromStr for NotCountedAs {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        Self::NAMES
            .iter()
            .zip(Self::ALL)
            .find_map(|(known, setting)| (*known == name).then_some(setting))
            .ok_or_else(|| {
                format!(
                    "{name:?} is not a setting for a speed-up not counted: {}",
                    Self::NAMES.join(", ")
                )
            })
    }
}

/// A test of Gradescope's worth no points, shown to the student: `name`, passed or failed,
/// with `output`.
fn unscored(name: &str, passed: bool, output: String) -> Value {
    json!({
        "name": name,
        "score": 0.0,
        "max_score": 0.0,
        "status": if passed { "passed" } else { "failed" },
        "output": output,
        "visibility": "visible",
    })
}

/// The `results.json` document for `result`, a speed-up the machine could not judge shown as
/// `not_counted` says.
pub fn results(rubric: &Rubric, result: &StudentResult, not_counted: NotCountedAs) -> Value {
    let build = result
        .build
        .as_ref()
        .map(|build| unscored("Build", build.succeeded(), building::build(build)));
    let supplied = result.supplied.as_ref().map(|comparison| {
        unscored(
            "Supplied crate (not scored)",
            !comparison.changed(),
            comparison::supplied(comparison),
        )
    });
    // Failed when anything but a link that stays inside the submission is there.
    let special = special::any(&result.special).then(|| {
        unscored(
            "Special files (not scored)",
            special::harmless(&result.special),
            format!(
                "{}\n{}",
                special::WHY,
                special::lines(&result.special).join("\n")
            ),
        )
    });
    // Passed when the student's code ran in a sandbox and nothing of it outlived grading; which
    // protections this system allowed is the output's to say (not the student's doing).
    let safe = match &result.confinement {
        Confinement::On { swept, .. } => swept.is_ok(),
        Confinement::Off | Confinement::Failed(_) => false,
    };
    let sandbox = unscored(
        "Sandbox (not scored)",
        safe,
        isolation::confinement(&result.confinement),
    );
    // The window's observation, for the GUI's hand grading: failed when a step was not seen
    // (the supplied window included) or nothing could be observed.
    let window = result.window.as_ref().map(|observed| {
        let seen = match observed {
            WindowResult::Observed(observation) => observation
                .checks
                .iter()
                .all(|check| check.status != StepResult::Fail),
            WindowResult::Unobserved(_) => false,
        };
        unscored(
            "GUI (graded by hand): the window observed",
            seen,
            window::lines(observed).join("\n"),
        )
    });
    // The thread design seen by the speed-up case, for the pool's hand grading: failed unless
    // it was a pool.
    let design = result.speedup().and_then(|speedup| {
        Some(unscored(
            "Threading (graded by hand): the thread design seen",
            speedup.design.is_pool(),
            workers::design_note(speedup)?,
        ))
    });
    let facts = result.style.as_ref().map(|facts| {
        unscored(
            "Programming style: facts (not scored)",
            style::clean(facts),
            style::text(facts, result),
        )
    });
    let cases = result.cases.iter().map(|case| {
        let detail = terminal::case(case);
        let detail = match case.description.is_empty() {
            true => detail,
            false => format!("{}\n{detail}", case.description),
        };
        let (score, status, output) = match timing::case_not_counted(case) {
            None => (case.earned, case.passed(), detail),
            Some(why) => (
                not_counted.share() * case.points,
                not_counted == NotCountedAs::Full,
                format!("{}\n{detail}", not_counted.case_note(case, &why)),
            ),
        };
        json!({
            "name": format!("{}: {}", case.category, case.name),
            "score": rounded(score),
            "max_score": rounded(case.points),
            "status": if status { "passed" } else { "failed" },
            "output": output,
            "visibility": if case.hidden { "after_due_date" } else { "visible" },
        })
    });
    let tests: Vec<Value> = build
        .into_iter()
        .chain(supplied)
        .chain(special)
        .chain([sandbox])
        .chain(window)
        .chain(cases)
        .chain(design)
        .chain(facts)
        .collect();
    let (earned, max) = result.total();
    let missing: f64 = result.not_counted().map(|case| case.points).sum();
    let notes: Vec<String> = result
        .not_counted()
        .filter_map(|case| Some(not_counted.total_note(case, &timing::case_not_counted(case)?)))
        .collect();
    let output = match notes.is_empty() {
        true => terminal::brief(rubric, result),
        false => format!(
            "{}\n\n{}",
            notes.join("\n"),
            terminal::brief(rubric, result)
        ),
    };
    json!({
        "score": rounded(earned + not_counted.share() * missing),
        "max_score": rounded(max + missing),
        "execution_time": result.elapsed.as_secs_f64().round(),
        "output": output,
        "tests": tests,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::fixtures;
    use crate::report::inert::assert_inert;

    #[test]
    fn what_a_student_printed_reaches_results_json_as_visible_text() {
        let rubric = fixtures::hand_rubric();
        for build_failed in [false, true] {
            let json = results(
                &rubric,
                &fixtures::hostile_student(build_failed),
                NotCountedAs::Pending,
            );
            let text = json.to_string();
            // JSON's own escapes of controls (\u001b) are what Gradescope's page would act on.
            assert!(!text.contains("\\u00"), "{text}");
            let Value::Object(fields) = &json else {
                panic!("{json}");
            };
            assert_inert(fields["output"].as_str().unwrap());
            assert_inert(&text.replace("\\\\", "\\"));
        }
    }

    /// A student with 1 point of 1 in AI and a speed-up of 2 points not counted, as
    /// results.json shows it under `setting`: the total's score, maximum and output, and the
    /// speed-up's test.
    fn shown(setting: &str) -> (f64, f64, String, Value) {
        let rubric = fixtures::hand_rubric();
        let ai = CaseResult {
            earned: 1.0,
            ..fixtures::case_result("a", "AI", 1.0)
        };
        let result = fixtures::student(
            "ann",
            vec![ai, fixtures::not_counted("speedup", "AI", 2.0)],
            1,
        );
        let json = results(&rubric, &result, setting.parse().unwrap());
        let test = json["tests"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == "AI: speedup")
            .unwrap()
            .clone();
        let number = |key: &str| json[key].as_f64().unwrap();
        let output = json["output"].as_str().unwrap().to_string();
        (number("score"), number("max_score"), output, test)
    }

    #[test]
    fn a_speedup_not_counted_is_pending_by_default_with_the_total_flagged() {
        assert_eq!(NotCountedAs::default(), "pending".parse().unwrap());
        let (score, max, output, test) = shown("pending");
        assert_eq!((score, max), (1.0, 3.0));
        assert!(
            output.starts_with(
                "PENDING: the score leaves out the 2 points of AI: speedup, which the grading \
                 machine could not judge (not judged on 1 CPU); your instructor will grade it \
                 again.\n\n"
            ),
            "{output}"
        );
        assert_eq!(
            (&test["score"], &test["max_score"], &test["status"]),
            (&0.0.into(), &2.0.into(), &"failed".into())
        );
        assert!(test["output"].as_str().unwrap().starts_with(
            "Not counted yet (not judged on 1 CPU): 0 of its 2 points until your instructor \
             grades it again.\nwhat speedup tests\n"
        ));
    }

    #[test]
    fn a_speedup_not_counted_can_be_given_in_full_or_as_zero() {
        let (score, max, output, test) = shown("full");
        assert_eq!((score, max), (3.0, 3.0));
        assert!(output.starts_with("The score gives all 2 points of AI: speedup"));
        assert_eq!(
            (&test["score"], &test["status"]),
            (&2.0.into(), &"passed".into())
        );
        let (score, max, output, test) = shown("zero");
        assert_eq!((score, max), (1.0, 3.0));
        assert!(output.starts_with("The score gives 0 of the 2 points of AI: speedup"));
        assert!(test["output"]
            .as_str()
            .unwrap()
            .starts_with("Not counted (not judged on 1 CPU): 0 of its 2 points, as this course"));
        assert_eq!(
            "later".parse::<NotCountedAs>(),
            Err(
                "\"later\" is not a setting for a speed-up not counted: pending, full, zero".into()
            )
        );
    }
}
