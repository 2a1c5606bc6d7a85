//! The per-student Markdown report, for the student and the graders: the build, the supplied
//! crate comparison, the special files, the sandbox, the window observed (when asked for), the score table, the
//! style facts (when gathered), the checklists of the categories graded by hand with blanks to
//! fill, and every failed case in detail (a failure that repeats once, the other cases named).
//! Its parts are the feedback's too ([`super::feedback`]), which gives the checklists with the
//! scores and comments graders typed.

use std::fmt::Write;

use super::comparison::{self, SUPPLIED_CHANGED, SUPPLIED_NOT_SCORED};
use super::detail::{case_detail, notes, table};
use super::inert;
use super::numbers::points;
use super::repeats;
use super::special;
use super::style;
use super::window;
use super::{building, isolation};
use crate::judge::result::hand::Marks;
use crate::judge::result::window::WindowResult;
use crate::judge::result::StudentResult;
use crate::judge::Build;
use crate::kit::supplied::SuppliedCopy;
use crate::kit::Rubric;

/// The supplied crate comparison as a Markdown section, with one changed file a line.
fn supplied_section(comparison: &SuppliedCopy) -> String {
    let folder = inert::line(&comparison.folder);
    if !comparison.changed() {
        return format!(
            "## Supplied crate\n\nThe supplied crate (`{folder}/`) is the course's copy, unchanged.\n\n"
        );
    }
    let mut out = format!(
        "## Supplied crate\n\n**{SUPPLIED_CHANGED}:** {} file(s) of `{folder}/` differ from the \
         course's copy.\n\n",
        comparison.changes.len()
    );
    for change in &comparison.changes {
        let kind = comparison::change_kind(change);
        let _ = writeln!(out, "- {kind} `{}`", inert::line(change.path()));
    }
    let _ = write!(
        out,
        "\n{SUPPLIED_NOT_SCORED}{}\n\n",
        comparison::replaced(comparison)
    );
    out
}

/// The build as a Markdown section, the failed build's last lines as a block.
fn build_section(build: &Build) -> String {
    let mut out = format!("## Build\n\n{}", building::build_headline(build));
    if let Some(log) = build.log.as_ref().and_then(|p| p.file_name()) {
        let _ = write!(out, " Its log: `{}`.", inert::line(&log.to_string_lossy()));
    }
    if !build.succeeded() && !build.tail.is_empty() {
        let _ = write!(
            out,
            "\n\nThe last lines of its log:\n\n```text\n{}\n```",
            inert::text(&build.tail)
        );
    }
    out.push_str("\n\n");
    out
}

/// The window observation as a Markdown section: a bullet per step with its screenshots.
fn window_section(observed: &WindowResult) -> String {
    let mut out = format!("## {}\n\n", window::HEADING);
    let WindowResult::Observed(observation) = observed else {
        for line in window::lines(observed) {
            let _ = writeln!(out, "{line}");
        }
        out.push('\n');
        return out;
    };
    for check in &observation.checks {
        let _ = write!(
            out,
            "- **{}**: {}",
            window::status_word(check.status),
            window::sentence(check, observation)
        );
        let shots = window::screenshots(check);
        if !shots.is_empty() {
            let _ = write!(out, " Screenshots: `{}`.", shots.join("`, `"));
        }
        out.push('\n');
    }
    // The lines after the steps': the supplied window's warning, the sandbox, the folder.
    for line in window::lines(observed)
        .iter()
        .skip(observation.checks.len())
    {
        let _ = write!(out, "\n{line}\n");
    }
    out.push('\n');
    out
}

/// The Markdown report: the build, the supplied crate check, the table, the hand-graded
/// checklists with blanks, and the failures (after a failed build, none: no case was run).
pub fn student(rubric: &Rubric, result: &StudentResult) -> String {
    let mut out = heading(rubric, result);
    out.push_str(&automatic(rubric, result, None));
    out.push_str(&hand(rubric, result, None));
    out.push_str(&failures(result));
    out
}

/// The report's first line: the assignment and the student.
pub(super) fn heading(rubric: &Rubric, result: &StudentResult) -> String {
    format!("# {}: {}\n\n", rubric.title, inert::line(&result.student))
}

/// What the kit found, up to the hand-graded checklists: the build, the supplied crate check,
/// the special files, the sandbox, the window, the score table (with the hand-graded parts'
/// points once `marks` score them) and its notes, the style facts.
pub(super) fn automatic(rubric: &Rubric, result: &StudentResult, marks: Option<&Marks>) -> String {
    let mut out = String::new();
    if let Some(build) = &result.build {
        out.push_str(&build_section(build));
    }
    if let Some(comparison) = &result.supplied {
        out.push_str(&supplied_section(comparison));
    }
    if special::any(&result.special) {
        let _ = write!(out, "## {}\n\n{}\n\n", special::HEADING, special::WHY);
        for line in special::lines(&result.special) {
            let _ = writeln!(out, "- {line}");
        }
        out.push('\n');
    }
    let _ = write!(
        out,
        "## Sandbox\n\n{}\n\n",
        isolation::confinement(&result.confinement)
    );
    if let Some(observed) = &result.window {
        out.push_str(&window_section(observed));
    }
    out.push_str("## Scores\n\n");
    out.push_str(&table(rubric, result, true, marks));
    for note in notes(result) {
        let _ = writeln!(out, "\n- {note}");
    }
    if let Some(facts) = &result.style {
        out.push('\n');
        out.push_str(&style::markdown(facts, result));
    }
    out
}

/// Each category graded by hand, its checklist and the grader's comment. Without `marks` (the
/// report written when grading) every score is a blank to fill: `- [ ] (3) A grid`; with them
/// (the feedback returned) each item scored says its score, `- [x] 2.5 / 3 A grid`, one not
/// scored yet a blank, `- [ ] ____ / 3 A grid`, and the category's points once all are. Each
/// item is worded for the language of `result`'s submission.
pub(super) fn hand(rubric: &Rubric, result: &StudentResult, marks: Option<&Marks>) -> String {
    let mut out = String::new();
    for category in rubric.categories.iter().filter(|c| !c.manual.is_empty()) {
        let given = marks.map(|m| m.get(&category.name));
        let sum = given
            .flatten()
            .and_then(|g| g.sum())
            .map_or(BLANK.into(), points);
        let _ = writeln!(
            out,
            "\n## {} (graded by hand): {sum} / {}\n",
            category.name,
            points(category.manual_points())
        );
        let items = category.items(result.language);
        let Some(given) = given else {
            for (most, text) in items {
                let _ = writeln!(out, "- [ ] ({}) {text}", points(most));
            }
            out.push_str("\nComments:\n\n");
            continue;
        };
        for (index, (most, text)) in items.into_iter().enumerate() {
            let score = given.and_then(|g| g.items.get(index).copied().flatten());
            let (mark, score) = score.map_or((' ', BLANK.into()), |s| ('x', points(s)));
            let _ = writeln!(out, "- [{mark}] {score} / {} {text}", points(most));
        }
        let comment = given.map_or("", |g| g.comment.trim());
        if !comment.is_empty() {
            out.push_str("\nComments:\n\n");
            for line in inert::text(comment).lines() {
                let _ = writeln!(out, "> {line}");
            }
        }
    }
    out
}

/// A blank for a score not given yet.
const BLANK: &str = "____";

/// Every failed case in detail; nothing after a failed build (no case was run).
pub(super) fn failures(result: &StudentResult) -> String {
    let mut out = String::new();
    if result.failed_build().is_some() {
        return out;
    }
    out.push_str("\n## Failed cases\n");
    let failed = result.failed();
    if failed.is_empty() {
        out.push_str("\nEvery case passed.\n");
    }
    for group in repeats::groups(&failed) {
        let case = group.first;
        let _ = writeln!(
            out,
            "\n### {} ({}): {} of {} points\n\n{}\n\n```text\n{}```",
            case.name,
            case.category,
            points(case.earned),
            points(case.points),
            case.description,
            case_detail(case, "")
        );
        if let Some(same) = group.same_failure() {
            let _ = writeln!(out, "\n{same}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::fixtures::{self, hand_rubric, hostile_student, HOSTILE};
    use crate::judge::result::{CaseResult, Verdict};
    use crate::report::inert::assert_inert;

    #[test]
    fn what_a_student_printed_reaches_the_markdown_report_escaped() {
        let rubric = hand_rubric();
        for build_failed in [false, true] {
            assert_inert(&student(&rubric, &hostile_student(build_failed)));
        }
        // As an instructor reads it: one answer with a terminal's commands in it.
        let answered = format!("= 3\n{HOSTILE}");
        let case = CaseResult {
            exchanges: vec![fixtures::exchange(
                "scores 1",
                "= 3",
                Some(&answered),
                Verdict::Fail(crate::judge::result::Fault::WrongAnswer),
            )],
            ..fixtures::case_result("scores", "AI", 1.0)
        };
        let report = student(&rubric, &fixtures::student("ann", vec![case], 1));
        let failed = report.split("## Failed cases").nth(1).unwrap();
        insta::assert_snapshot!(failed);
    }

    #[test]
    fn a_failure_that_repeats_is_shown_once_with_the_other_cases_named() {
        let report = student(&hand_rubric(), &crate::report::repeats::tests::starter());
        let failed = report.split("## Failed cases").nth(1).unwrap();
        assert_eq!(failed.matches("clear the board").count(), 1);
        insta::assert_snapshot!(failed);
    }
}
