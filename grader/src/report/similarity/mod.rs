//! A similarity check in words: the ranked pairs on the terminal, as a section of the class
//! summary, as a CSV, and as [`page`]s (an index and each pair side by side). Every one of them
//! says the same thing first: a pair is a lead for a person to judge, never a deduction. Names
//! and paths are students' and are made [`inert`] wherever they are shown.

pub mod page;

use std::collections::HashMap;
use std::fmt::Write;

use super::inert;
use super::numbers::counted;
use crate::kit::sources::{SourceError, MAX_FILES};
use crate::kit::style::Language;
use crate::kit::tree::{Cutoff, ReadError};
use crate::similarity::{Comparison, Origin, Pair, Span, Submission, Uncompared, Why};

/// The page of the pair ranked `rank` (from 0), in the pages' folder.
pub fn pair_name(rank: usize) -> String {
    format!("pair-{:03}.html", rank + 1)
}

/// The folder of the pages in a report directory, and the CSV beside it.
pub const FOLDER: &str = "similarity";
/// The CSV of every pair, in the report directory.
pub const CSV: &str = "similarity.csv";

/// What every rendering says first.
pub const LEADS: &str = "Similar pairs are leads for a person to judge, never a deduction: \
    read both submissions side by side before concluding anything.";

/// What the check cannot see, said where its pairs are listed.
pub const LIMITS: &str = "What it cannot see: a program translated into another language (two \
    languages never share a fingerprint); code rewritten so thoroughly that no stretch of a \
    k-gram's length stays the same; and given code that was not named as the base.";

/// What a pair's score is, said wherever it is explained.
pub const SCORE: &str = "the share of the smaller side's own code (given and common code \
    left out) found in the other";

/// The pairs shown on the terminal and in the class summary, at most.
pub const SHOWN: usize = 20;

/// A language's name (`-` for a pair whose submissions have no tokens).
pub fn language(language: Option<Language>) -> &'static str {
    match language {
        Some(Language::Rust) => "Rust",
        Some(Language::Java) => "Java",
        Some(Language::Python) => "Python",
        None => "-",
    }
}

/// A submission's name as the student wrote it: `name`, or `label/name` for an archived one
/// (each rendering makes it inert its own way).
pub fn who(submission: &Submission) -> String {
    match &submission.origin {
        Origin::Class => submission.name.clone(),
        Origin::Archive(label) => format!("{label}/{}", submission.name),
    }
}

/// A similarity as a percentage, rounded down (so that 100% means all of both).
pub fn percent(similarity: f64) -> String {
    format!("{}%", (similarity * 100.0).floor() as u32)
}

/// The lines (first and last, from 1) of `span` in `submission`.
pub fn lines(submission: &Submission, span: &Span) -> (usize, usize) {
    let text = &submission.files[span.file].text;
    let line = |byte: usize| text[..byte.min(text.len())].matches('\n').count() + 1;
    (
        line(span.bytes.start),
        line(span.bytes.end.saturating_sub(1).max(span.bytes.start)),
    )
}

/// Where `span` is: `path:first-last` (the path as the student wrote it).
pub fn place(submission: &Submission, span: &Span) -> String {
    let (first, last) = lines(submission, span);
    let path = &submission.files[span.file].path;
    match first == last {
        true => format!("{path}:{first}"),
        false => format!("{path}:{first}-{last}"),
    }
}

/// The settings, the base, the common code and the score, in a few sentences.
pub fn method(comparison: &Comparison) -> String {
    let settings = comparison.settings;
    let base = match comparison.base_files {
        0 => "no base code was given, so code every student was given counts as shared".into(),
        1 => format!(
            "the 1 source file of given code was left out (every stretch of {} tokens or more \
             found in it)",
            settings.given
        ),
        n => format!(
            "the {n} source files of given code were left out (every stretch of {} tokens or \
             more found in them)",
            settings.given
        ),
    };
    let common = counted(comparison.common, "fingerprint");
    format!(
        "Winnowed fingerprints of syntax tokens (k-grams of {} tokens, windows of {}; names, \
         literals, comments, layout and statements that do nothing ignored); {base}; {common} \
         held by more than {}% of the submissions of their language (and more than {}) left \
         out as common code. A pair's score is {SCORE} (a side counts as at least {} tokens); \
         its fragments run on through whatever both sides hold alike, given code included.",
        settings.k, settings.window, settings.common_percent, settings.common_floor, settings.least
    )
}

/// Each language's baseline in a sentence: what its pairs usually score, to read a pair's
/// score against.
pub fn baseline_lines(comparison: &Comparison) -> Vec<String> {
    comparison
        .baselines()
        .iter()
        .map(|b| {
            format!(
                "{}, {} submissions: the median pair scores {}, the 90th percentile {}.",
                language(Some(b.language)),
                b.submissions,
                percent(b.median),
                percent(b.ninetieth)
            )
        })
        .collect()
}

/// The terminal's account: what was compared, the first [`SHOWN`] pairs ranked, and the files
/// not compared.
pub fn terminal(comparison: &Comparison) -> String {
    let mut out = format!("{LEADS}\n{}\n", method(comparison));
    let class = comparison
        .submissions
        .iter()
        .filter(|s| s.origin == Origin::Class)
        .count();
    let archived = comparison.submissions.len() - class;
    let _ = write!(out, "Compared {class} submissions");
    match archived {
        0 => {}
        1 => out.push_str(" with each other and with 1 archived one"),
        n => {
            let _ = write!(out, " with each other and with {n} archived ones");
        }
    }
    let _ = match comparison.pairs.len() {
        0 => writeln!(out, ": no two share anything."),
        1 => writeln!(out, ": 1 pair shares something."),
        n => writeln!(out, ": {n} pairs share something."),
    };
    for line in baseline_lines(comparison) {
        let _ = writeln!(out, "{line}");
    }
    if !comparison.pairs.is_empty() {
        let _ = writeln!(
            out,
            "\n{:>4}  {:<8}  {:>5}  {:>16}  pair",
            "rank", "language", "score", "longest fragment"
        );
    }
    for (rank, pair) in comparison.pairs.iter().take(SHOWN).enumerate() {
        let (left, right) = sides(comparison, pair);
        let _ = writeln!(
            out,
            "{:>4}  {:<8}  {:>5}  {:>16}  {} ~ {}{}",
            rank + 1,
            language(pair.language),
            percent(pair.score),
            format!("{} tokens", pair.longest),
            inert::line(&who(left)),
            inert::line(&who(right)),
            longest_places(comparison, pair)
                .map(|(l, r)| format!("  ({} ~ {})", inert::line(&l), inert::line(&r)))
                .unwrap_or_default()
        );
    }
    if comparison.pairs.len() > SHOWN {
        let _ = writeln!(
            out,
            "... and {} more pairs.",
            comparison.pairs.len() - SHOWN
        );
    }
    let unread = unread_lines(comparison);
    if !unread.is_empty() {
        let _ = writeln!(out, "\n{}", unread.join("\n"));
    }
    out
}

/// The two submissions of `pair`.
pub fn sides<'a>(comparison: &'a Comparison, pair: &Pair) -> (&'a Submission, &'a Submission) {
    (
        &comparison.submissions[pair.left],
        &comparison.submissions[pair.right],
    )
}

/// Where the pair's longest fragment is on each side.
pub fn longest_places(comparison: &Comparison, pair: &Pair) -> Option<(String, String)> {
    let (left, right) = sides(comparison, pair);
    let fragment = pair.fragments.first()?;
    Some((place(left, &fragment.left), place(right, &fragment.right)))
}

/// A line per file not compared: whose, which and why.
pub fn unread_lines(comparison: &Comparison) -> Vec<String> {
    comparison
        .submissions
        .iter()
        .flat_map(|s| s.unread.iter().map(move |unread| (s, unread)))
        .map(|(submission, unread)| format!("Not compared: {}", unread_line(submission, unread)))
        .collect()
}

/// Which file of `submission` was not compared, and why.
pub(super) fn unread_line(submission: &Submission, unread: &Uncompared) -> String {
    let path = inert::line(&unread.path);
    let whose = inert::line(&who(submission));
    match &unread.why {
        Why::TooMany(more) => {
            format!("{whose}: {more} more source files (the most read is {MAX_FILES})")
        }
        Why::Tokens(_) => format!("{whose}: {path} (it could not be parsed)"),
        Why::Unlisted => format!("{whose}: the folder {path}/ (it could not be listed)"),
        Why::Stopped(Cutoff::TooMany(most)) => {
            format!("{whose}: files past the first {most} entries (the most looked at)")
        }
        Why::Stopped(Cutoff::TooDeep(folder)) => format!(
            "{whose}: {} (deeper than the deepest folder looked in)",
            inert::line(folder)
        ),
        Why::Source(error) => format!("{whose}: {path} ({})", source_error(error)),
    }
}

/// Why a source file could not be read, in words.
fn source_error(error: &SourceError) -> String {
    match error {
        SourceError::NotText => "it is not UTF-8 text".into(),
        SourceError::Read(ReadError::TooLarge(cap)) => {
            format!("it is larger than {} KiB", cap / 1024)
        }
        SourceError::Read(ReadError::Io(why)) => inert::line(why),
        SourceError::Read(_) => "it is no longer a plain file".into(),
    }
}

/// The class summary's section: the first pairs ranked, with a link to the pages.
pub fn markdown(comparison: &Comparison) -> String {
    let mut out = format!(
        "## Similar pairs\n\n{LEADS} {} {LIMITS}\n\n",
        method(comparison)
    );
    for line in baseline_lines(comparison) {
        let _ = writeln!(out, "- {line}");
    }
    out.push('\n');
    if comparison.pairs.is_empty() {
        out.push_str("No two submissions share a fingerprint.\n");
        return out;
    }
    out.push_str(
        "| Rank | Language | Score | Longest fragment | Pair | Longest fragment is at |\n",
    );
    out.push_str("|---:|---|---:|---:|---|---|\n");
    for (rank, pair) in comparison.pairs.iter().take(SHOWN).enumerate() {
        let (left, right) = sides(comparison, pair);
        let at = longest_places(comparison, pair)
            .map(|(l, r)| {
                format!(
                    "{} ~ {}",
                    table_text(&inert::line(&l)),
                    table_text(&inert::line(&r))
                )
            })
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} tokens | [{} ~ {}]({FOLDER}/{}) | {} |",
            rank + 1,
            language(pair.language),
            percent(pair.score),
            pair.longest,
            table_text(&inert::line(&who(left))),
            table_text(&inert::line(&who(right))),
            pair_name(rank),
            at
        );
    }
    let _ = writeln!(
        out,
        "\nEvery pair: [{FOLDER}/index.html]({FOLDER}/index.html) and {CSV}."
    );
    for line in unread_lines(comparison) {
        let _ = writeln!(out, "\n{}", table_text(&line));
    }
    out
}

/// `text` safe in a Markdown table cell: its bars and the characters Markdown reads escaped.
fn table_text(text: &str) -> String {
    text.chars()
        .flat_map(|c| match c {
            '|' | '[' | ']' | '*' | '_' | '`' | '<' | '>' | '\\' => vec!['\\', c],
            c => vec![c],
        })
        .collect()
}

/// Every pair as CSV: rank (overall and in its language), its language, the two names (and
/// where the right one is from), the score, the share of both sides' fingerprints shared and
/// how many, the longest fragment's own tokens and where it is on each side.
pub fn csv(comparison: &Comparison) -> Vec<Vec<String>> {
    let mut rows = vec![[
        "rank",
        "language",
        "rank in language",
        "left",
        "right",
        "right from",
        "score %",
        "both sides' fingerprints shared %",
        "shared fingerprints",
        "longest fragment (tokens not given)",
        "longest fragment, left",
        "longest fragment, right",
    ]
    .map(String::from)
    .to_vec()];
    let mut in_language: HashMap<Option<Language>, usize> = HashMap::new();
    for (rank, pair) in comparison.pairs.iter().enumerate() {
        let (left, right) = sides(comparison, pair);
        let (at_left, at_right) = longest_places(comparison, pair).unwrap_or_default();
        let from = match &right.origin {
            Origin::Class => "class".to_string(),
            Origin::Archive(label) => label.clone(),
        };
        let within = in_language.entry(pair.language).or_default();
        *within += 1;
        rows.push(vec![
            (rank + 1).to_string(),
            language(pair.language).to_string(),
            within.to_string(),
            inert::cell(&left.name),
            inert::cell(&right.name),
            inert::cell(&from),
            format!("{:.1}", pair.score * 100.0),
            format!("{:.1}", pair.fingerprints_shared * 100.0),
            pair.shared.to_string(),
            pair.longest.to_string(),
            inert::cell(&at_left),
            inert::cell(&at_right),
        ]);
    }
    rows
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::similarity::{compare, Base, File, Settings};

    /// A small class compared: two students who share a function (one of them named to break
    /// a spreadsheet and a page), one who shares nothing, an archived copy, and a file that is
    /// not text.
    pub(crate) fn compared() -> Comparison {
        let shared =
            "def score(board, col):\n    total = 0\n    for row in range(len(board)):\n        \
                      if board[row][col] == 1:\n            total += row * 4\n    return total\n";
        let file = |path: &str, text: &str| File {
            path: path.into(),
            language: Language::Python,
            text: text.into(),
        };
        let submission = |name: &str, origin: Origin, files: Vec<File>| Submission {
            name: name.into(),
            origin,
            files,
            unread: Vec::new(),
        };
        let mut ann = submission(
            "ann",
            Origin::Class,
            vec![file("game.py", &format!("import sys\n\n{shared}"))],
        );
        ann.unread.push(Uncompared {
            path: "notes.py".into(),
            why: Why::Source(SourceError::NotText),
        });
        let class = vec![
            ann,
            submission(
                "=HYPERLINK(\"x\")<b>",
                Origin::Class,
                vec![file("a/<i>.py", &shared.replace("total", "t\u{202e}"))],
            ),
            submission("cy", Origin::Class, vec![file("main.py", "print(1)\n")]),
        ];
        let archive = vec![submission(
            "old",
            Origin::Archive("2024".into()),
            vec![file("game.py", shared)],
        )];
        let settings = Settings {
            k: 6,
            given: 6,
            window: 3,
            least: 20,
            ..Settings::default()
        };
        compare(class, archive, &Base::default(), settings)
    }

    #[test]
    fn the_terminal_ranks_the_pairs_after_saying_they_are_leads() {
        insta::assert_snapshot!(terminal(&compared()));
    }

    #[test]
    fn the_summary_section_links_each_pair_to_its_page() {
        insta::assert_snapshot!(markdown(&compared()));
    }

    #[test]
    fn the_csv_has_every_pair_and_no_formula() {
        let rows = csv(&compared());
        assert_eq!(rows.len(), 4, "{rows:?}");
        assert!(rows.iter().flatten().all(|cell| !cell.starts_with('=')));
        assert!(rows[1..]
            .iter()
            .any(|row| row[4] == "old" && row[5] == "2024" && row[1] == "Python"));
    }
}
