//! Gradescope's `results.json`: the automatic score, one test per case with its failures as
//! output (a speed-up the machine could not judge worth nothing either way, with why), and
//! each case's visibility (hidden cases show only after the due date). The overall
//! output is the summary, without any case's detail, so that it reveals nothing of a hidden
//! case. The build, when there was a build step, comes first as a visible test worth no points
//! (a failed one with the last lines of its log, the compiler's errors, and every case at 0),
//! then the supplied crate comparison, when there was one, likewise, the sandbox the
//! student's code ran in (failed when it could not be set up or a process outlived grading),
//! and, when the window was observed, what was seen of it, for the GUI's hand grading. After
//! the cases come the thread design the speed-up case saw, for the pool's hand grading (failed
//! unless a pool), and the style facts, when gathered, in the Programming style category
//! (failed when a header lacks an item or a lint did not come out clean).

use serde_json::{json, Value};

use super::words::{self, rounded};
use super::{style, terminal, window};
use crate::judge::result::window::{Status, WindowResult};
use crate::judge::result::StudentResult;
use crate::judge::Confinement;
use crate::kit::Rubric;

/// The `results.json` document for `result`.
pub fn results(rubric: &Rubric, result: &StudentResult) -> Value {
    let build = result.build.as_ref().map(|build| {
        json!({
            "name": "Build",
            "score": 0.0,
            "max_score": 0.0,
            "status": if build.succeeded() { "passed" } else { "failed" },
            "output": words::build(build),
            "visibility": "visible",
        })
    });
    let supplied = result.supplied.as_ref().map(|comparison| {
        json!({
            "name": "Supplied crate (not scored)",
            "score": 0.0,
            "max_score": 0.0,
            "status": if comparison.changed() { "failed" } else { "passed" },
            "output": words::supplied(comparison),
            "visibility": "visible",
        })
    });
    // Passed when the student's code ran in a sandbox and nothing of it outlived grading; which
    // protections this system allowed is the output's to say (not the student's doing).
    let safe = match &result.confinement {
        Confinement::On { swept, .. } => swept.is_ok(),
        Confinement::Off | Confinement::Failed(_) => false,
    };
    let sandbox = json!({
        "name": "Sandbox (not scored)",
        "score": 0.0,
        "max_score": 0.0,
        "status": if safe { "passed" } else { "failed" },
        "output": words::confinement(&result.confinement),
        "visibility": "visible",
    });
    // The window's observation, for the GUI's hand grading: failed when a step was not seen
    // (the supplied window included) or nothing could be observed.
    let window = result.window.as_ref().map(|observed| {
        let seen = match observed {
            WindowResult::Observed(observation) => observation
                .checks
                .iter()
                .all(|check| check.status != Status::Fail),
            WindowResult::Unobserved(_) => false,
        };
        json!({
            "name": "GUI (graded by hand): the window observed",
            "score": 0.0,
            "max_score": 0.0,
            "status": if seen { "passed" } else { "failed" },
            "output": window::lines(observed).join("\n"),
            "visibility": "visible",
        })
    });
    // The thread design seen by the speed-up case, for the pool's hand grading: failed unless
    // it was a pool.
    let design = result.speedup().and_then(|speedup| {
        let note = words::design_note(speedup)?;
        let pool = speedup.design.is_pool();
        Some(json!({
            "name": "Threading (graded by hand): the thread design seen",
            "score": 0.0,
            "max_score": 0.0,
            "status": if pool { "passed" } else { "failed" },
            "output": note,
            "visibility": "visible",
        }))
    });
    let facts = result.style.as_ref().map(|facts| {
        json!({
            "name": "Programming style: facts (not scored)",
            "score": 0.0,
            "max_score": 0.0,
            "status": if style::clean(facts) { "passed" } else { "failed" },
            "output": style::text(facts, result),
            "visibility": "visible",
        })
    });
    let cases = result.cases.iter().map(|case| {
        let detail = terminal::case(case);
        json!({
            "name": format!("{}: {}", case.category, case.name),
            "score": rounded(case.earned),
            "max_score": if case.counted() { rounded(case.points) } else { 0.0 },
            "status": if case.passed() { "passed" } else { "failed" },
            "output": if case.description.is_empty() { detail } else { format!("{}\n{detail}", case.description) },
            "visibility": if case.hidden { "after_due_date" } else { "visible" },
        })
    });
    let tests: Vec<Value> = build
        .into_iter()
        .chain(supplied)
        .chain([sandbox])
        .chain(window)
        .chain(cases)
        .chain(design)
        .chain(facts)
        .collect();
    let (earned, max) = result.total();
    json!({
        "score": rounded(earned),
        "max_score": rounded(max),
        "execution_time": result.elapsed.as_secs_f64().round(),
        "output": terminal::brief(rubric, result),
        "tests": tests,
    })
}
