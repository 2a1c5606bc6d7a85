//! What the terminal and the Markdown reports both show of one student: the score table, a
//! failed case's detail (each failed exchange with what was sent, expected and received, as a
//! side-by-side diff; skipped ones counted; findings about the whole case), and the notes of
//! the speed-up measured.

use std::fmt::Write;

use super::inert;
use super::numbers::points;
use super::timing;
use super::verdict::{self, Finding};
use crate::judge::result::hand::Marks;
use crate::judge::result::{CaseResult, Exchange, StudentResult, Verdict};
use crate::kit::Rubric;

/// The score table: one line per category, then the automatic total. A part graded by hand
/// shows its points once `marks` score each of its items, else a blank to fill. A part whose
/// cases were left out or not counted shows what was counted of the rubric's points, `not
/// counted` when nothing was, and the notes under the table say what that means for the total.
pub(super) fn table(
    rubric: &Rubric,
    result: &StudentResult,
    markdown: bool,
    marks: Option<&Marks>,
) -> String {
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
    // The hand-graded parts' points, in the order `categories` gives those parts.
    let mut by_hand = rubric
        .categories
        .iter()
        .filter(|c| !c.manual.is_empty())
        .map(|c| marks.and_then(|m| m.get(&c.name)).and_then(|g| g.sum()));
    let mut short = false;
    for category in result.categories(rubric) {
        let partial = category.max + 1e-9 < category.possible;
        short |= partial;
        let score = match category.earned {
            Some(_) if partial && category.max < 1e-9 => NOT_COUNTED.to_string(),
            Some(earned) => points(earned),
            None => by_hand
                .next()
                .flatten()
                .map_or("____ (by hand)".to_string(), points),
        };
        let mut max = points(category.max);
        if partial {
            max = format!("{max} (of {})", points(category.possible));
        }
        row(&mut out, &category.name, &score, &max);
    }
    let (earned, max) = result.total();
    row(&mut out, "Automatic total", &points(earned), &points(max));
    let indent = if markdown { "" } else { "  " };
    if !result.left_out.is_empty() {
        let _ = writeln!(
            out,
            "\n{indent}Not measured in this grading, which left out the timed cases \
             (--skip-timing): {}.",
            result.left_out.join(", ")
        );
    }
    for case in &result.cases {
        if let Some(why) = timing::case_not_counted(case) {
            let _ = writeln!(out, "\n{indent}Not counted: {} ({why})", case.name);
        }
    }
    if short {
        let possible: f64 = result
            .categories(rubric)
            .iter()
            .filter(|c| c.earned.is_some())
            .map(|c| c.possible)
            .sum();
        let _ = writeln!(
            out,
            "\n{indent}What was not counted is neither given nor taken: the automatic total is \
             out of the {} points graded, not {}. If those points count in your grade, your \
             instructor grades them apart from this report.",
            points(max),
            points(possible)
        );
    }
    out
}

/// The score of a part of which nothing was counted.
const NOT_COUNTED: &str = "not counted";

/// `expected` and `got` (what the program answered, made inert here) side by side, `!` marking
/// the lines that differ.
fn diff(expected: &[String], got: Option<&str>) -> String {
    let Some(got) = got.map(inert::text) else {
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

/// One failed exchange's detail, indented: its line, what was sent and why it failed, then the
/// expected and received answers side by side.
fn exchange_detail(exchange: &Exchange, indent: &str) -> String {
    let run = match exchange.run.as_str() {
        "" => String::new(),
        run => format!(" [{run}]"),
    };
    let Some(why) = verdict::verdict(&exchange.verdict) else {
        return String::new();
    };
    // A reason of several lines (a program's last words) keeps to the detail's indentation.
    let why = why.replace('\n', &format!("\n{indent}    "));
    let mut out = format!(
        "{indent}line {}: sent `{}`{run} -- {why}\n",
        exchange.line,
        verdict::sent(exchange)
    );
    let expected = verdict::expected(&exchange.expected);
    for line in diff(&expected, exchange.got.as_deref()).lines() {
        let _ = writeln!(out, "{indent}    {line}");
    }
    out
}

/// A finding about the whole case, in the shape of an exchange's detail.
fn finding_detail(finding: &Finding, indent: &str) -> String {
    let mut out = format!("{indent}sent `{}` -- {}\n", finding.sent, finding.why);
    for line in diff(&finding.expected, finding.got.as_deref()).lines() {
        let _ = writeln!(out, "{indent}    {line}");
    }
    out
}

/// The detail of one case that lost points: why it was not run, or its failures, one line for
/// the skipped exchanges, and why credit was withheld.
pub(super) fn case_detail(case: &CaseResult, indent: &str) -> String {
    if let Some(why) = &case.not_run {
        return format!("{indent}{}\n", verdict::not_run(why));
    }
    let mut out = String::new();
    let mut skipped = 0;
    let mut skip_reason = String::new();
    for exchange in &case.exchanges {
        match &exchange.verdict {
            Verdict::Skip(why) => {
                skipped += 1;
                skip_reason = verdict::skip(why);
            }
            Verdict::Fail(_) => out.push_str(&exchange_detail(exchange, indent)),
            Verdict::Pass => {}
        }
    }
    let findings = [
        case.variety
            .as_ref()
            .and_then(|v| verdict::variety(case, v)),
        case.speedup.as_ref().and_then(timing::speedup_finding),
    ];
    for finding in findings.iter().flatten() {
        out.push_str(&finding_detail(finding, indent));
    }
    if skipped > 0 {
        let _ = writeln!(
            out,
            "{indent}{skipped} more command(s) skipped: {skip_reason}"
        );
    }
    // A case can lose its points with every exchange passed (a requirement failed): say why.
    if let Some(withheld) = &case.withheld {
        let _ = writeln!(out, "{indent}{}", verdict::withheld(withheld));
    }
    out
}

/// The notes of every case (the speed-up measured, why credit was withheld), one per line,
/// each after its case's name.
pub(super) fn notes(result: &StudentResult) -> Vec<String> {
    let notes = result.cases.iter().flat_map(|case| {
        let speedup = case.speedup.iter().flat_map(timing::speedup_notes);
        let withheld = case.withheld.iter().map(verdict::withheld);
        speedup
            .chain(withheld)
            .map(move |n| format!("{}: {n}", case.name))
    });
    notes.collect()
}

#[cfg(test)]
mod tests {
    use super::*;

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
