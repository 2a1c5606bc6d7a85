//! Reports for people: the terminal summary (a score table, the build, the supplied crate check,
//! and every failed case with what was sent, expected and received, as a side-by-side diff, or
//! the last lines of a failed build's log) and the per-student Markdown report, which adds the
//! checklist of the categories graded by hand.

use std::fmt::Write;

use crate::build::Build;
use crate::requirement::NO_CREDIT;
use crate::rubric::Rubric;
use crate::score::{points, CaseResult, Check, StudentResult, Verdict};
use crate::supplied::Comparison;

/// How a report says that the copy differs, before the details.
const SUPPLIED_CHANGED: &str = "The supplied crate was changed";
/// Why a changed supplied crate is only reported, said wherever it is.
const SUPPLIED_NOT_SCORED: &str = "Students must not change it, but the score does not depend \
    on this: a grader decides whether the change matters.";
/// Said when the kit built the program with the course's copy instead of the changed one.
const SUPPLIED_REPLACED: &str = "The program was built with the course's copy; the submitted \
    copy is kept beside it, in";

/// The score table: one line per category, then the automatic total.
fn table(rubric: &Rubric, result: &StudentResult, markdown: bool) -> String {
    let mut out = String::new();
    let row = |out: &mut String, name: &str, score: &str, max: &str| {
        if markdown {
            let _ = writeln!(out, "| {name} | {score} | {max} |");
        } else {
            let _ = writeln!(out, "  {name:<20} {score:>14} / {max:>3}");
        }
    };
    if markdown {
        out.push_str("| Category | Score | Max |\n|---|---:|---:|\n");
    }
    for category in result.categories(rubric) {
        let score = category.earned.map_or("____ (by hand)".to_string(), points);
        row(&mut out, &category.name, &score, &points(category.max));
    }
    let (earned, max) = result.total();
    row(&mut out, "Automatic total", &points(earned), &points(max));
    if !result.not_run.is_empty() {
        let _ = writeln!(
            out,
            "\n  Not run (--skip-timing), not counted: {}",
            result.not_run.join(", ")
        );
    }
    out
}

/// `expected` and `got` side by side, `!` marking the lines that differ.
fn diff(expected: &[String], got: Option<&str>) -> String {
    let Some(got) = got else {
        let shown = match expected {
            [one] => one.replace('\n', "\n          "),
            many => format!("one of: {}", many.join(" | ")),
        };
        return format!("expected: {shown}\ngot:      (nothing)\n");
    };
    match expected {
        [] => format!("got:      {got}\n"),
        [one] if !one.contains('\n') && !got.contains('\n') => {
            format!("expected: {one}\ngot:      {got}\n")
        }
        [one] => {
            let (left, right): (Vec<&str>, Vec<&str>) =
                (one.lines().collect(), got.lines().collect());
            let width = left.iter().map(|l| l.len()).max().unwrap_or(0).max(8);
            let mut out = format!("  {:<width$}   got\n", "expected");
            for i in 0..left.len().max(right.len()) {
                let (l, r) = (
                    left.get(i).copied().unwrap_or(""),
                    right.get(i).copied().unwrap_or(""),
                );
                let mark = if l == r { ' ' } else { '!' };
                let _ = writeln!(out, "{mark} {l:<width$}   {r}");
            }
            out
        }
        many => format!("expected one of: {}\ngot:      {got}\n", many.join(" | ")),
    }
}

/// One check's detail, indented.
fn check_detail(check: &Check, indent: &str) -> String {
    if let (true, Verdict::Fail(why)) = (check.sent.is_empty(), &check.verdict) {
        // Nothing was sent: the case was not run, for this reason.
        return format!("{indent}{why}\n");
    }
    let run = if check.run.is_empty() {
        String::new()
    } else {
        format!(" [{}]", check.run)
    };
    let place = if check.line == 0 {
        String::new()
    } else {
        format!("line {}: ", check.line)
    };
    let mut out = format!("{indent}{place}sent `{}`{run}", check.sent);
    match &check.verdict {
        Verdict::Pass => return String::new(),
        Verdict::Skip(why) => {
            let _ = writeln!(out, " -- skipped: {why}");
            return out;
        }
        Verdict::Fail(why) => {
            let _ = writeln!(out, " -- {why}");
        }
    }
    for line in diff(&check.expected, check.got.as_deref()).lines() {
        let _ = writeln!(out, "{indent}    {line}");
    }
    out
}

/// The detail of one case that lost points: its failures, then one line for the skipped checks.
fn case_detail(case: &CaseResult, indent: &str) -> String {
    let mut out = String::new();
    let mut skipped = 0;
    let mut skip_reason = String::new();
    for check in &case.checks {
        match &check.verdict {
            Verdict::Skip(why) => {
                skipped += 1;
                skip_reason.clone_from(why);
            }
            Verdict::Fail(_) => out.push_str(&check_detail(check, indent)),
            Verdict::Pass => {}
        }
    }
    if skipped > 0 {
        let _ = writeln!(
            out,
            "{indent}{skipped} more command(s) skipped: {skip_reason}"
        );
    }
    // A case can lose its points with every check passed (a requirement failed): say why.
    for note in case.notes.iter().filter(|n| n.starts_with(NO_CREDIT)) {
        let _ = writeln!(out, "{indent}{note}");
    }
    out
}

/// The notes of every case (speed-up measurements), one per line.
fn notes(result: &StudentResult) -> Vec<String> {
    result
        .cases
        .iter()
        .flat_map(|c| c.notes.iter().map(move |n| format!("{}: {n}", c.name)))
        .collect()
}

/// The supplied crate check as plain text: that the copy is the course's, or every change and
/// why it is not scored.
pub fn supplied(comparison: &Comparison) -> String {
    let folder = &comparison.folder;
    if !comparison.changed() {
        return format!("The supplied crate ({folder}/) is the course's copy, unchanged.");
    }
    let changes: Vec<String> = comparison.changes.iter().map(|c| c.to_string()).collect();
    format!(
        "{SUPPLIED_CHANGED}: {} file(s) of {folder}/ differ from the course's copy: {}.\n\
         {SUPPLIED_NOT_SCORED}{}",
        changes.len(),
        changes.join(", "),
        replaced(comparison)
    )
}

/// The sentence on the course's copy having been built instead, if it was; else nothing.
fn replaced(comparison: &Comparison) -> String {
    if comparison.replaced {
        format!(" {SUPPLIED_REPLACED} {}.submitted/.", comparison.folder)
    } else {
        String::new()
    }
}

/// The supplied crate check as a Markdown section, with one changed file a line.
fn supplied_markdown(comparison: &Comparison) -> String {
    let folder = &comparison.folder;
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
        let _ = writeln!(out, "- {} `{}`", change.kind(), change.path());
    }
    let _ = write!(out, "\n{SUPPLIED_NOT_SCORED}{}\n\n", replaced(comparison));
    out
}

/// A file name for `student`'s files (`<name>.md`, `<name>.build.log`): letters, digits and
/// `-_.` kept, anything else made `_`.
pub fn file_name(student: &str) -> String {
    student
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// `result`'s build, if it failed.
fn failed_build(result: &StudentResult) -> Option<&Build> {
    result.build.as_ref().filter(|b| b.failure().is_some())
}

/// The build as plain text: how it went and, if it failed, the last lines of its log.
pub fn build(build: &Build) -> String {
    match build.failure() {
        None => build.headline(),
        Some(_) if build.tail.is_empty() => format!("{}\nIts log is empty.", build.headline()),
        Some(_) => format!(
            "{}\nThe last lines of its log:\n\n{}",
            build.headline(),
            build.tail
        ),
    }
}

/// The build as a Markdown section, the failed build's last lines as a block.
fn build_markdown(build: &Build) -> String {
    let mut out = format!("## Build\n\n{}", build.headline());
    if let Some(log) = build.log.as_ref().and_then(|p| p.file_name()) {
        let _ = write!(out, " Its log: `{}`.", log.to_string_lossy());
    }
    if build.failure().is_some() && !build.tail.is_empty() {
        let _ = write!(
            out,
            "\n\nThe last lines of its log:\n\n```text\n{}\n```",
            build.tail
        );
    }
    out.push_str("\n\n");
    out
}

/// The score table, the build, the supplied crate check and the measurements, without any
/// case's detail.
pub fn summary(rubric: &Rubric, result: &StudentResult) -> String {
    let mut out = format!("{}: {}\n\n", rubric.title, result.student);
    out.push_str(&table(rubric, result, false));
    if let Some(build) = &result.build {
        let _ = writeln!(out, "\n  {}", build.headline());
    }
    if let Some(comparison) = &result.supplied {
        let _ = writeln!(out, "\n  {}", supplied(comparison).replace('\n', "\n  "));
    }
    for note in notes(result) {
        let _ = writeln!(out, "\n  {note}");
    }
    out
}

/// One case's detail on its own: its failures, or that it passed.
pub fn terminal_case(case: &CaseResult) -> String {
    if case.passed() {
        "Passed.".to_string()
    } else {
        case_detail(case, "")
    }
}

/// The terminal report: the summary and every failed case, or the last lines of a failed build.
pub fn terminal(rubric: &Rubric, result: &StudentResult) -> String {
    let mut out = summary(rubric, result);
    if let Some(build) = failed_build(result) {
        let _ = writeln!(
            out,
            "\nThe last lines of the build's log:\n\n  {}",
            build.tail.replace('\n', "\n  ")
        );
        return out;
    }
    let failed = result.failed();
    if failed.is_empty() {
        out.push_str("\nEvery case passed.\n");
    } else {
        let _ = writeln!(
            out,
            "\nFailed cases ({} of {}):",
            failed.len(),
            result.cases.len()
        );
        for case in failed {
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
        }
    }
    out
}

/// The Markdown report: the build, the supplied crate check, the table, the hand-graded
/// checklists with blanks, and the failures (after a failed build, none: no case was run).
pub fn markdown(rubric: &Rubric, result: &StudentResult) -> String {
    let mut out = format!("# {}: {}\n\n", rubric.title, result.student);
    if let Some(build) = &result.build {
        out.push_str(&build_markdown(build));
    }
    if let Some(comparison) = &result.supplied {
        out.push_str(&supplied_markdown(comparison));
    }
    out.push_str("## Scores\n\n");
    out.push_str(&table(rubric, result, true));
    for note in notes(result) {
        let _ = writeln!(out, "\n- {note}");
    }
    for category in rubric.categories.iter().filter(|c| !c.manual.is_empty()) {
        let _ = writeln!(
            out,
            "\n## {} (graded by hand): ____ / {}\n",
            category.name,
            points(category.manual_points())
        );
        for item in &category.manual {
            let _ = writeln!(out, "- [ ] {item}");
        }
        out.push_str("\nComments:\n\n");
    }
    if failed_build(result).is_some() {
        return out;
    }
    out.push_str("\n## Failed cases\n");
    let failed = result.failed();
    if failed.is_empty() {
        out.push_str("\nEvery case passed.\n");
    }
    for case in failed {
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
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::supplied::Change;

    #[test]
    fn a_changed_supplied_crate_is_listed_and_said_not_to_be_scored() {
        let mut comparison = Comparison {
            folder: "supplied".into(),
            changes: Vec::new(),
            replaced: false,
        };
        assert_eq!(
            supplied(&comparison),
            "The supplied crate (supplied/) is the course's copy, unchanged."
        );
        comparison.changes = vec![
            Change::Added("src/extra.rs".into()),
            Change::Removed("tests/window.rs".into()),
        ];
        let text = supplied(&comparison);
        assert!(
            text.starts_with(
                "The supplied crate was changed: 2 file(s) of supplied/ differ from the \
                 course's copy: added src/extra.rs, removed tests/window.rs.\n"
            ) && text.contains("a grader decides"),
            "{text}"
        );
        assert!(!text.contains("built with the course's copy"), "{text}");
        comparison.replaced = true;
        assert!(
            supplied(&comparison).ends_with(
                "The program was built with the course's copy; the submitted copy is kept \
                 beside it, in supplied.submitted/."
            ),
            "{}",
            supplied(&comparison)
        );
        let section = supplied_markdown(&comparison);
        assert!(
            section.contains("\n- added `src/extra.rs`\n- removed `tests/window.rs`\n"),
            "{section}"
        );
    }

    #[test]
    fn boards_are_shown_side_by_side_with_marks() {
        let text = diff(&["=\n..\nR.".into()], Some("=\n..\n.R"));
        assert_eq!(
            text,
            "  expected   got\n  =          =\n  ..         ..\n! R.         .R\n"
        );
        assert_eq!(
            diff(&["= 3".into()], Some("= 4")),
            "expected: = 3\ngot:      = 4\n"
        );
        assert!(diff(&["= 1".into(), "= 2".into()], None).contains("one of: = 1 | = 2"));
        assert_eq!(
            diff(&["=\n..".into()], None),
            "expected: =\n          ..\ngot:      (nothing)\n"
        );
    }
}
