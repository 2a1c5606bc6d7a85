//! Gradescope's `results.json`: the automatic score, one test per case with its failures as
//! output, and each case's visibility (hidden cases show only after the due date). The overall
//! output is the score table only, so that it reveals nothing of a hidden case.

use serde_json::{json, Value};

use crate::report;
use crate::rubric::Rubric;
use crate::score::StudentResult;

/// The `results.json` document for `result`.
pub fn results(rubric: &Rubric, result: &StudentResult) -> Value {
    let tests: Vec<Value> = result
        .cases
        .iter()
        .map(|case| {
            let detail = report::terminal_case(case);
            json!({
                "name": format!("{}: {}", case.category, case.name),
                "score": round(case.earned),
                "max_score": case.points,
                "status": if case.passed() { "passed" } else { "failed" },
                "output": if case.description.is_empty() { detail } else { format!("{}\n{detail}", case.description) },
                "visibility": if case.hidden { "after_due_date" } else { "visible" },
            })
        })
        .collect();
    let (earned, max) = result.total();
    json!({
        "score": round(earned),
        "max_score": max,
        "execution_time": result.elapsed.as_secs_f64().round(),
        "output": report::summary(rubric, result),
        "tests": tests,
    })
}

/// `value` to two decimals.
fn round(value: f64) -> f64 {
    (value * 100.0).round() / 100.0
}
