//! The style facts in words, for the Programming style grader: the headers' missing items per
//! file, each lint's count (or why it did not run), the longest functions and the thread design
//! the speed-up case saw; as plain text (terminal, Gradescope), as a Markdown section, and as
//! the gradebook's cells. Evidence beside the checklist: never points.

use std::fmt::Write;

use super::inert;
use super::{building, workers};
use crate::judge::result::style::{
    HeaderItem, LintOutcome, LintResult, SourceFile, Style, Unreadable,
};
use crate::judge::result::StudentResult;
use crate::kit::style::Language;

/// Said wherever the facts are shown.
pub const NOT_SCORED: &str = "Style facts (not scored: evidence for the Programming style grader)";

/// A header item as the reports name it.
fn item(item: HeaderItem) -> &'static str {
    match item {
        HeaderItem::Name => "name",
        HeaderItem::Course => "course",
        HeaderItem::Project => "project",
        HeaderItem::Date => "date",
        HeaderItem::Description => "what the file holds",
    }
}

/// A language's name.
fn language(language: Language) -> &'static str {
    match language {
        Language::Rust => "Rust",
        Language::Java => "Java",
        Language::Python => "Python",
    }
}

/// The items of a list, joined with commas.
fn listed<T: Copy>(items: &[T], word: fn(T) -> &'static str) -> String {
    items
        .iter()
        .map(|&i| word(i))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What a file's header lacks: `missing date; placeholder: name` (empty when nothing).
fn gaps(file: &SourceFile) -> String {
    let mut parts = Vec::new();
    if !file.missing.is_empty() {
        parts.push(format!("missing {}", listed(&file.missing, item)));
    }
    if !file.placeholder.is_empty() {
        parts.push(format!(
            "the starter's placeholder for {}",
            listed(&file.placeholder, item)
        ));
    }
    parts.join("; ")
}

/// Why a file was not read.
fn unreadable(why: &Unreadable) -> String {
    match why {
        Unreadable::TooLarge(bytes) => format!("larger than {} KiB", bytes >> 10),
        Unreadable::NotText => "not UTF-8 text".into(),
        Unreadable::NotAFile => "no longer a plain file".into(),
        Unreadable::Io(why) => inert::line(why),
        Unreadable::Unparsed(why) => format!(
            "it does not parse ({}): its functions are not measured",
            inert::line(why)
        ),
    }
}

/// One lint's result in a sentence.
pub fn lint(lint: &LintResult) -> String {
    let how = match &lint.outcome {
        LintOutcome::Counted(count) => format!("{count} {}", lint.counts),
        LintOutcome::Failed { ended, .. } => format!("could not count: {}", building::ended(ended)),
        LintOutcome::NoSandbox(why) => format!(
            "not run: the sandbox could not be set up ({})",
            inert::line(why)
        ),
    };
    let log = lint
        .log
        .as_ref()
        .and_then(|p| p.file_name())
        .map_or(String::new(), |name| {
            format!(" (log: {})", inert::line(&name.to_string_lossy()))
        });
    format!("{}: {how}{log}", lint.name)
}

/// The thread design the speed-up case saw, for the pool item of the checklist.
pub fn pool(result: &StudentResult) -> String {
    let seen = match result.speedup() {
        None => "not seen: the speed-up case was not run".to_string(),
        Some(speedup) => workers::design(speedup.design, speedup.threads.1).unwrap_or_else(|| {
            "not seen: the program did not get as far as two searches on several threads".into()
        }),
    };
    format!("Threads (the speed-up case): {seen}.")
}

/// The headers in lines: how many files give every item, then each that does not.
fn headers(style: &Style) -> Vec<String> {
    let whole = style.files.iter().filter(|f| f.gaps() == 0).count();
    let mut out = vec![format!(
        "Headers: {whole} of {} source files give every item (name, course, project, date, \
         what the file holds).",
        style.files.len()
    )];
    for file in style.files.iter().filter(|f| f.gaps() > 0) {
        out.push(format!("  {}: {}.", inert::line(&file.path), gaps(file)));
    }
    out
}

/// The rest of the facts in lines: files not read, the lints, the longest functions, the pool.
fn others(style: &Style, result: &StudentResult) -> Vec<String> {
    let mut out = Vec::new();
    for file in &style.unread {
        out.push(format!(
            "Not read: {}: {}.",
            inert::line(&file.path),
            unreadable(&file.why)
        ));
    }
    if style.more_files > 0 {
        out.push(format!(
            "{} more source files were not looked at.",
            style.more_files
        ));
    }
    out.extend(style.lints.iter().map(|l| format!("{}.", lint(l))));
    let unlinted = style.unlinted.iter();
    out.extend(unlinted.map(|&l| format!("{}: no lint command is set.", language(l))));
    let longest = style.longest.iter().map(|f| {
        format!(
            "{} lines: {} ({}:{})",
            f.lines,
            inert::line(&f.name),
            inert::line(&f.path),
            f.line
        )
    });
    if !style.longest.is_empty() {
        out.push(format!(
            "Longest functions: {}.",
            longest.collect::<Vec<_>>().join("; ")
        ));
    }
    let unmeasured = style.unmeasured.iter();
    out.extend(unmeasured.map(|&l| format!("{}: functions not measured.", language(l))));
    out.push(pool(result));
    out
}

/// The facts, a line each: the headers (each file that lacks items indented), then the rest.
pub fn lines(style: &Style, result: &StudentResult) -> Vec<String> {
    headers(style)
        .into_iter()
        .chain(others(style, result))
        .collect()
}

/// The facts as plain text, under [`NOT_SCORED`].
pub fn text(style: &Style, result: &StudentResult) -> String {
    format!("{NOT_SCORED}:\n{}", lines(style, result).join("\n"))
}

/// The facts as a Markdown section: a table of the files and their headers, then the rest.
pub fn markdown(style: &Style, result: &StudentResult) -> String {
    let mut out = format!("## {NOT_SCORED}\n\n| File | Lines | Header |\n|---|---:|---|\n");
    for file in &style.files {
        let header = match gaps(file) {
            none if none.is_empty() => "complete".to_string(),
            some => some,
        };
        let _ = writeln!(
            out,
            "| `{}` | {} | {header} |",
            inert::line(&file.path),
            file.lines
        );
    }
    out.push('\n');
    for line in others(style, result) {
        let _ = writeln!(out, "- {line}");
    }
    out.push('\n');
    out
}

/// The gradebook's cells: the header items missing (placeholders included), each lint's count
/// (`cargo clippy 3; cargo fmt --check 0`, `failed` or `not run`), and the longest function's
/// lines; all blank without the facts.
pub fn cells(style: Option<&Style>) -> [String; 3] {
    let Some(style) = style else {
        return Default::default();
    };
    let lints = style
        .lints
        .iter()
        .map(|l| match &l.outcome {
            LintOutcome::Counted(count) => format!("{} {count}", l.name),
            LintOutcome::Failed { .. } => format!("{} failed", l.name),
            LintOutcome::NoSandbox(_) => format!("{} not run", l.name),
        })
        .collect::<Vec<_>>()
        .join("; ");
    let longest = style
        .longest
        .first()
        .map_or(String::new(), |f| f.lines.to_string());
    [style.header_gaps().to_string(), lints, longest]
}

/// Whether the facts show nothing to fix: every header complete, every lint run and clean.
pub fn clean(style: &Style) -> bool {
    style.header_gaps() == 0
        && style.unread.is_empty()
        && style
            .lints
            .iter()
            .all(|l| l.outcome == LintOutcome::Counted(0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::fixtures;
    use crate::judge::result::style::Function;
    use crate::process::logged::Ended;

    fn style() -> Style {
        Style {
            files: vec![
                SourceFile {
                    path: "src/game.rs".into(),
                    language: Language::Rust,
                    lines: 120,
                    missing: vec![],
                    placeholder: vec![],
                },
                SourceFile {
                    path: "src/pool.rs".into(),
                    language: Language::Rust,
                    lines: 80,
                    missing: vec![HeaderItem::Description],
                    placeholder: vec![HeaderItem::Name, HeaderItem::Date],
                },
            ],
            lints: vec![
                LintResult {
                    name: "cargo clippy".into(),
                    counts: "warnings".into(),
                    outcome: LintOutcome::Counted(3),
                    log: None,
                },
                LintResult {
                    name: "cargo fmt --check".into(),
                    counts: "files not formatted".into(),
                    outcome: LintOutcome::Failed {
                        ended: Ended::NotStarted("no cargo".into()),
                        tail: String::new(),
                    },
                    log: None,
                },
            ],
            longest: vec![Function {
                path: "src/game.rs".into(),
                name: "Game::minimax".into(),
                line: 40,
                lines: 52,
            }],
            ..Style::default()
        }
    }

    #[test]
    fn the_gradebook_cells_count_gaps_and_warnings() {
        assert_eq!(
            cells(Some(&style())),
            [
                "3".to_string(),
                "cargo clippy 3; cargo fmt --check failed".into(),
                "52".into()
            ]
        );
        assert_eq!(cells(None), [String::new(), String::new(), String::new()]);
        assert!(!clean(&style()));
    }

    #[test]
    fn the_text_names_each_gap_and_why_a_lint_could_not_count() {
        let result = fixtures::student("ann", Vec::new(), 1);
        let text = text(&style(), &result);
        for part in [
            "1 of 2 source files give every item",
            "src/pool.rs: missing what the file holds; the starter's placeholder for name, date.",
            "cargo fmt --check: could not count: it could not be started: no cargo.",
            "Longest functions: 52 lines: Game::minimax (src/game.rs:40).",
        ] {
            assert!(text.contains(part), "{part:?} not in {text}");
        }
        assert!(
            text.ends_with("not seen: the speed-up case was not run."),
            "{text}"
        );
        let markdown = markdown(&style(), &result);
        for part in [
            "| `src/game.rs` | 120 | complete |",
            "\n- cargo clippy: 3 warnings.\n",
        ] {
            assert!(markdown.contains(part), "{part:?} not in {markdown}");
        }
    }
}
