//! The terminal report: in brief (a score table, the build, the supplied crate comparison,
//! the special files, the speed-up measured, the style facts and the window observed) and, in full, every failed
//! case with what was sent, expected and received, or the last lines of a failed build's log.

use std::fmt::Write;

use super::detail::{case_detail, notes, table};
use super::inert;
use super::numbers::points;
use super::repeats;
use super::special;
use super::style;
use super::window;
use super::{building, comparison, isolation, timing};
use crate::judge::result::{CaseResult, StudentResult};
use crate::kit::Rubric;

/// The score table, the build, the supplied crate comparison and the measurements, without any
/// case's detail.
pub fn brief(rubric: &Rubric, result: &StudentResult) -> String {
    let mut out = format!("{}: {}\n\n", rubric.title, inert::line(&result.student));
    out.push_str(&table(rubric, result, false, None));
    if let Some(build) = &result.build {
        let _ = writeln!(out, "\n  {}", building::build_headline(build));
    }
    let _ = writeln!(out, "\n  {}", isolation::confinement(&result.confinement));
    if let Some(comparison) = &result.supplied {
        let _ = writeln!(
            out,
            "\n  {}",
            comparison::supplied(comparison).replace('\n', "\n  ")
        );
    }
    if special::any(&result.special) {
        let _ = writeln!(out, "\n  {}: {}", special::HEADING, special::WHY);
        for line in special::lines(&result.special) {
            let _ = writeln!(out, "    {line}");
        }
    }
    for note in notes(result) {
        let _ = writeln!(out, "\n  {note}");
    }
    if let Some(facts) = &result.style {
        let _ = writeln!(
            out,
            "\n  {}",
            style::text(facts, result).replace('\n', "\n  ")
        );
    }
    if let Some(observed) = &result.window {
        let _ = writeln!(out, "\n  {}:", window::HEADING);
        for line in window::lines(observed) {
            let _ = writeln!(out, "    {line}");
        }
    }
    out
}

/// One case's detail on its own: its failures, or that it passed, and what a speed-up case
/// measured (or why it is not counted).
pub fn case(case: &CaseResult) -> String {
    let mut out = match (case.passed(), case.counted()) {
        (false, _) => case_detail(case, ""),
        (true, true) => "Passed.".to_string(),
        (true, false) => String::new(),
    };
    for note in case.speedup.iter().flat_map(timing::speedup_notes) {
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(&note);
    }
    out
}

/// The whole terminal report: the brief one and every failed case (a failure that repeats in
/// full once, then the other cases named), or the last lines of a failed build.
pub fn full(rubric: &Rubric, result: &StudentResult) -> String {
    let mut out = brief(rubric, result);
    if let Some(build) = result.failed_build() {
        let _ = writeln!(
            out,
            "\nThe last lines of the build's log:\n\n  {}",
            inert::text(&build.tail).replace('\n', "\n  ")
        );
        return out;
    }
    let failed = result.failed();
    if failed.is_empty() {
        out.push_str(match result.not_counted().next() {
            Some(_) => "\nEvery case that counts passed.\n",
            None => "\nEvery case passed.\n",
        });
    } else {
        let _ = writeln!(
            out,
            "\nFailed cases ({} of {}):",
            failed.len(),
            result.cases.len()
        );
        for group in repeats::groups(&failed) {
            let case = group.first;
            let _ = writeln!(
                out,
                "\n[{}] {} ({} of {} points){}",
                case.category,
                case.name,
                points(case.earned),
                points(case.points),
                if case.description.is_empty() {
                    String::new()
                } else {
                    format!(": {}", case.description)
                }
            );
            out.push_str(&case_detail(case, "  "));
            if let Some(same) = group.same_failure() {
                let _ = writeln!(out, "  {same}");
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::fixtures::{hand_rubric, hostile_student};
    use crate::report::inert::assert_inert;

    #[test]
    fn what_a_student_printed_reaches_the_terminal_escaped() {
        let rubric = hand_rubric();
        for build_failed in [false, true] {
            assert_inert(&full(&rubric, &hostile_student(build_failed)));
        }
        let result = hostile_student(false);
        assert_inert(&case(&result.cases[0]));
        assert!(full(&rubric, &result)
            .starts_with("Connect Four: ann\\u{1b}[2J\\u{1b}[32mAll 75 of 75 points\\u{1b}[0m"));
    }

    #[test]
    fn a_failure_that_repeats_is_shown_once_with_the_other_cases_named() {
        let report = full(&hand_rubric(), &crate::report::repeats::tests::starter());
        let failed = report.split("Failed cases").nth(1).unwrap();
        assert_eq!(failed.matches("clear the board").count(), 1);
        insta::assert_snapshot!(failed);
    }

    #[test]
    fn what_a_busy_machine_starved_is_not_counted_and_is_graded_again() {
        use crate::judge::fixtures::{case_result, exchange, student};
        use crate::judge::result::{Fault, Verdict};
        use crate::process::Failure;
        use std::time::Duration;

        let starved = Failure::Starved {
            limit: Duration::from_secs(5),
            had: Duration::from_millis(1250),
            wall: Duration::from_secs(15),
        };
        let case = CaseResult {
            exchanges: vec![exchange(
                "scores 9",
                "= 1 2 3",
                None,
                Verdict::Fail(Fault::Program(starved)),
            )],
            ..case_result("deep", "AI", 1.0)
        };
        let report = full(&hand_rubric(), &student("ann", vec![case], 20));
        insta::assert_snapshot!(report);
    }
}
