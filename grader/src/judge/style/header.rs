//! A source file's header: the comments (or Python docstring) it opens with, and which of the
//! items the assignment asks for they give. A labelled line (`Name: Ann Lee`) gives its item,
//! unless its value is empty (missing) or the starter's placeholder (`YOUR NAME`); the other
//! words of the header say what the file holds.

use crate::judge::result::style::HeaderItem;
use crate::kit::style::Language;

/// The fewest words that say what a file holds.
const DESCRIPTION_WORDS: usize = 3;

/// The labels that give each item, lowercase.
const LABELS: [(&str, HeaderItem); 7] = [
    ("name", HeaderItem::Name),
    ("author", HeaderItem::Name),
    ("student", HeaderItem::Name),
    ("course", HeaderItem::Course),
    ("project", HeaderItem::Project),
    ("assignment", HeaderItem::Project),
    ("date", HeaderItem::Date),
];

/// The header items that `source` lacks and those it leaves as placeholders.
pub(super) fn items(source: &str, language: Language) -> (Vec<HeaderItem>, Vec<HeaderItem>) {
    let lines = header(source, language);
    let mut given = Vec::new();
    let mut placeholder = Vec::new();
    let mut words = 0;
    for line in &lines {
        match labelled(line) {
            Some((item, value)) if is_placeholder(value) => placeholder.push(item),
            Some((item, _)) => given.push(item),
            None => words += line.split_whitespace().count(),
        }
    }
    if words >= DESCRIPTION_WORDS {
        given.push(HeaderItem::Description);
    }
    placeholder.retain(|item| !given.contains(item));
    placeholder.dedup();
    let missing = HeaderItem::ALL
        .into_iter()
        .filter(|item| !given.contains(item) && !placeholder.contains(item))
        .collect();
    (missing, placeholder)
}

/// The item a header line gives and its value: `Name: Ann`, `@author Ann`.
fn labelled(line: &str) -> Option<(HeaderItem, &str)> {
    let (label, value) = match line.strip_prefix("@author") {
        Some(value) => ("author", value),
        None => line.split_once(':')?,
    };
    let label = label.trim().to_lowercase();
    LABELS
        .iter()
        .find(|(name, _)| *name == label)
        .map(|&(_, item)| (item, value.trim()))
}

/// Whether a labelled line's value names nothing: empty, or the starter's capitals
/// (`YOUR NAME`, `THE DATE`).
fn is_placeholder(value: &str) -> bool {
    let capitals = !value.chars().any(char::is_lowercase);
    value.is_empty() || (capitals && (value.starts_with("YOUR") || value.starts_with("THE ")))
}

/// The text of the comments `source` opens with, one trimmed line each, markers removed: `//`
/// lines (`//!`, `///`) and `/* */` blocks, and for Python `#` lines and a docstring.
fn header(source: &str, language: Language) -> Vec<String> {
    let python = language == Language::Python;
    let mut lines = Vec::new();
    // The closing marker of the block comment or docstring being read.
    let mut open: Option<&str> = None;
    for raw in source.lines() {
        let line = raw.trim();
        if let Some(close) = open {
            let (text, closed) = match line.split_once(close) {
                Some((text, _)) => (text, true),
                None => (line, false),
            };
            lines.push(text.trim_start_matches('*').trim().to_string());
            if closed {
                open = None;
            }
            continue;
        }
        let comment = match python {
            true if line.starts_with("#!") || line.starts_with("# -*-") => continue,
            true => line.strip_prefix('#'),
            false => line.strip_prefix("//"),
        };
        if line.is_empty() {
            continue;
        } else if let Some(text) = comment {
            lines.push(text.trim_start_matches(['!', '/']).trim().to_string());
        } else if let Some((start, close)) = opening(line, python) {
            let rest = &line[start.len()..];
            match rest.split_once(close) {
                Some((text, _)) => lines.push(text.trim().to_string()),
                None => {
                    lines.push(rest.trim_start_matches(['*', '!']).trim().to_string());
                    open = Some(close);
                }
            }
        } else {
            break;
        }
    }
    lines
}

/// The block comment or docstring `line` opens, if it opens one: its opening and closing
/// markers.
fn opening(line: &str, python: bool) -> Option<(&'static str, &'static str)> {
    let markers: &[(&str, &str)] = match python {
        true => &[("\"\"\"", "\"\"\""), ("'''", "'''")],
        false => &[("/*", "*/")],
    };
    markers
        .iter()
        .find(|(start, _)| line.starts_with(start))
        .copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use HeaderItem::*;

    #[test]
    fn the_starter_s_header_filled_in_gives_every_item() {
        let filled = "//! The thread pool: workers created once.\n//!\n//! Name: Ann Lee\n\
                      //! Course: CS 101\n//! Project: Connect Four\n//! Date: 2026-11-22\n\n\
                      use std::thread;\n// Name: not the header\n";
        assert_eq!(items(filled, Language::Rust), (vec![], vec![]));
    }

    #[test]
    fn the_starter_s_placeholders_and_lines_left_out_are_told_apart() {
        let starter = "//! The pool.\n//!\n//! Name: YOUR NAME\n//! Course: YOUR COURSE\n\
                       //! Date: THE DATE\nuse std::thread;\n";
        assert_eq!(
            items(starter, Language::Rust),
            (vec![Description, Project], vec![Name, Course, Date])
        );
        assert_eq!(
            items("fn main() {}\n// Name: Ann\n", Language::Rust).0,
            HeaderItem::ALL
        );
    }

    #[test]
    fn java_block_comments_and_python_docstrings_are_headers() {
        let java = "/**\n * Board.java: the board and its rules.\n * @author Ann Lee\n \
                    * Course: CS 101\n * Project: Connect Four\n * Date: today\n */\nclass B {}\n";
        assert_eq!(items(java, Language::Java), (vec![], vec![]));
        let python = "#!/usr/bin/env python3\n\"\"\"The game of Connect Four.\n\nName: Ann\n\
                      Course: CS 101\n\"\"\"\nimport sys\n";
        assert_eq!(items(python, Language::Python).0, [Project, Date]);
        let one_line = "'''Name: Ann'''\nimport sys\n# Course: CS\n";
        assert_eq!(
            items(one_line, Language::Python).0,
            [Description, Course, Project, Date]
        );
    }
}
