//! Text that a student controls made inert for the people who read the reports: their program's
//! answers and last words, their build's log, their folder's and files' names, their window's
//! title. A terminal takes some characters as commands (ESC starts a sequence that clears the
//! screen, paints text green, sets the window's title or the clipboard; BEL ends one; C1
//! characters such as U+009B start one too), a carriage return writes over a line, and the
//! bidirectional overrides and isolates reorder what is shown ("Trojan source"). Each of them is
//! shown as a visible escape instead, in the forms of a Rust string literal:
//!
//! - `\r` for a carriage return, and in [`line`] (a name, a cell) `\n` and `\t` too;
//! - `\u{HEX}` for any other: every C0 control but the newline and the tab (`\u{1b}` for ESC,
//!   `\u{7}` for BEL), DEL (`\u{7f}`), every C1 control (`\u{9b}`), U+202A..U+202E and
//!   U+2066..U+2069 (`\u{202e}`).
//!
//! A backslash is left alone unless it would read as the start of an escape: a run of
//! backslashes before `n`, `r`, `t`, `u{` or an escaped character is doubled, as in a Rust
//! literal, so that every report can be read back to exactly what the student wrote
//! ([`restore`]), while text without those characters is shown as it is (`C:\Users` stays).
//!
//! Reporters apply it once, where they put a student's text into words; the judge's results
//! stay raw.

use std::fmt::Write;

/// Where a newline and a tab are kept: in text of several lines, not in a name or a cell.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Context {
    Lines,
    Line,
}

/// Whether `c` is shown as an escape in `context`.
fn escaped(c: char, context: Context) -> bool {
    match c {
        '\n' | '\t' => context == Context::Line,
        '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => true,
        // The C0 controls, DEL and the C1 controls.
        c => c.is_control(),
    }
}

/// `c`'s escape.
fn escape(c: char, out: &mut String) {
    match c {
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        c => {
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        }
    }
}

/// Whether `rest` starts with what a backslash before it would make an escape of, in `context`.
fn reads_as_escape(rest: &str, context: Context) -> bool {
    rest.starts_with(['n', 'r', 't'])
        || rest.starts_with("u{")
        || rest.chars().next().is_some_and(|c| escaped(c, context))
}

/// `text` with every character of `context` that is escaped made a visible escape, and the
/// backslashes that would read as one doubled.
fn inert(text: &str, context: Context) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if c == '\\' {
            let run = rest.len() - rest.trim_start_matches('\\').len();
            rest = &rest[run..];
            let doubled = if reads_as_escape(rest, context) { 2 } else { 1 };
            out.push_str(&"\\".repeat(run * doubled));
            continue;
        }
        if escaped(c, context) {
            escape(c, &mut out);
        } else {
            out.push(c);
        }
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// `text` of several lines (an answer, standard error, a build's log) made inert: its lines
/// and tabs kept, every other control character and bidirectional override shown as an escape.
pub fn text(text: &str) -> String {
    inert(text, Context::Lines)
}

/// `text` meant for one line (a name, a file's name, a reason in a sentence) made inert: like
/// [`text`], with newlines and tabs shown as `\n` and `\t` too.
pub fn line(text: &str) -> String {
    inert(text, Context::Line)
}

/// `names` (students', folders') each made inert as [`line`] makes it, joined by commas, for a
/// message: `ann, bob`.
pub fn names<S: AsRef<str>>(names: impl IntoIterator<Item = S>) -> String {
    let inert: Vec<String> = names.into_iter().map(|name| line(name.as_ref())).collect();
    inert.join(", ")
}

/// The characters a spreadsheet reads a formula from when a cell starts with one, and the
/// quote that says a cell is text; a cell starting with any of them gets a `'` first.
const FORMULA: [char; 5] = ['=', '+', '-', '@', '\''];

/// A CSV cell of `text` (a student's name), as people open the gradebook in a spreadsheet: made
/// inert as [`line`] makes it, with a `'` first if it would start a formula (`=HYPERLINK(...)`,
/// `+1`, `-1`, `@SUM(...)`) or with a quote, so that the spreadsheet shows it as text.
pub fn cell(text: &str) -> String {
    let shown = line(text);
    match shown.starts_with(FORMULA) {
        true => format!("'{shown}"),
        false => shown,
    }
}

/// What [`cell`] was given, from the cell it made.
pub fn uncell(cell: &str) -> String {
    restore(cell.strip_prefix('\'').unwrap_or(cell))
}

/// The character of the escape at the start of `rest` (just after its backslash), and the
/// escape's length, if it is one of those [`text`] and [`line`] write.
fn unescape(rest: &str) -> Option<(char, usize)> {
    match rest.chars().next()? {
        'n' => Some(('\n', 1)),
        'r' => Some(('\r', 1)),
        't' => Some(('\t', 1)),
        'u' => {
            let hex = rest.strip_prefix("u{")?;
            let end = hex.find('}')?;
            let c = u32::from_str_radix(&hex[..end], 16)
                .ok()
                .and_then(char::from_u32)?;
            Some((c, end + 3))
        }
        _ => None,
    }
}

/// What [`text`] or [`line`] was given, from what it made: the escapes read back, a doubled run
/// of backslashes halved. Text they did not make is read the same way, never failing: an
/// escape that is not one is kept as it is.
pub fn restore(shown: &str) -> String {
    let mut out = String::with_capacity(shown.len());
    let mut rest = shown;
    while let Some(c) = rest.chars().next() {
        if c != '\\' {
            out.push(c);
            rest = &rest[c.len_utf8()..];
            continue;
        }
        let run = rest.len() - rest.trim_start_matches('\\').len();
        rest = &rest[run..];
        let escape = unescape(rest);
        let starts_escape = escape.is_some() || rest.starts_with("u{");
        if !starts_escape {
            out.push_str(&"\\".repeat(run));
            continue;
        }
        out.push_str(&"\\".repeat(run / 2));
        match escape {
            Some((c, len)) if run % 2 == 1 => {
                out.push(c);
                rest = &rest[len..];
            }
            // An odd run before a `u{` that is no escape: a backslash as it was.
            None if run % 2 == 1 => out.push('\\'),
            _ => {}
        }
    }
    out
}

/// Whether `c` is one that neither [`text`] nor [`line`] leaves in what they write.
#[cfg(test)]
fn forbidden(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || ('\u{202a}'..='\u{202e}').contains(&c)
        || ('\u{2066}'..='\u{2069}').contains(&c)
}

/// Checks that a report of [`hostile_student`](crate::judge::fixtures::hostile_student) shows
/// none of the characters a terminal or a page would act on, and shows them escaped instead.
#[cfg(test)]
pub(crate) fn assert_inert(shown: &str) {
    let left: Vec<char> = shown.chars().filter(|&c| forbidden(c)).collect();
    assert!(left.is_empty(), "{left:?} left in {shown}");
    for escaped in ["\\u{1b}[2J", "\\u{7}", "\\u{9b}1m", "\\u{202e}"] {
        assert!(shown.contains(escaped), "no {escaped} in {shown}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_terminal_s_commands_are_shown_as_escapes() {
        let hostile = "\x1b[2J\x1b[32mAll 75 of 75 points\x1b[0m\x1b]0;title\x07\
                       \x1b]52;c;cm0gLXJmIH4=\x07\u{9b}31m\x7f\0";
        assert_eq!(
            text(hostile),
            "\\u{1b}[2J\\u{1b}[32mAll 75 of 75 points\\u{1b}[0m\\u{1b}]0;title\\u{7}\
             \\u{1b}]52;c;cm0gLXJmIH4=\\u{7}\\u{9b}31m\\u{7f}\\u{0}"
        );
        assert_eq!(
            line("ann\u{202e}fdp.exe\u{2066}"),
            "ann\\u{202e}fdp.exe\\u{2066}"
        );
    }

    #[test]
    fn lines_and_tabs_are_kept_in_text_and_escaped_in_a_line() {
        assert_eq!(text("a\tb\nc\r\nd"), "a\tb\nc\\r\nd");
        assert_eq!(line("a\tb\nc\r\nd"), "a\\tb\\nc\\r\\nd");
    }

    #[test]
    fn a_backslash_is_doubled_only_where_it_would_read_as_an_escape() {
        assert_eq!(text("C:\\Users\\ann"), "C:\\Users\\ann");
        assert_eq!(text("\\\\server\\share"), "\\\\server\\share");
        assert_eq!(text("printf(\"\\n\")"), "printf(\"\\\\n\")");
        assert_eq!(text("\\u{1b}"), "\\\\u{1b}");
        assert_eq!(text("\\\x1b"), "\\\\\\u{1b}");
        assert_eq!(text("\\\n"), "\\\n");
        assert_eq!(line("\\\n"), "\\\\\\n");
    }

    #[test]
    fn restore_reads_back_and_keeps_what_is_no_escape() {
        assert_eq!(restore("\\u{1b}[2J\\\\n\\r"), "\x1b[2J\\n\r");
        assert_eq!(
            restore("\\u{zz} \\\\u{zz} \\x \\u{110000}"),
            "\\u{zz} \\u{zz} \\x \\u{110000}"
        );
        assert_eq!(restore("\\"), "\\");
    }

    #[test]
    fn a_cell_never_starts_a_formula() {
        assert_eq!(cell("=HYPERLINK(\"x\")"), "'=HYPERLINK(\"x\")");
        assert_eq!(cell("+1"), "'+1");
        assert_eq!(cell("-1"), "'-1");
        assert_eq!(cell("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(cell("'quoted"), "''quoted");
        assert_eq!(cell("\tx"), "\\tx");
        assert_eq!(cell("ann-lee"), "ann-lee");
        for name in ["=1", "'=1", "''", "ann", "\x1b", ""] {
            assert_eq!(uncell(&cell(name)), name);
        }
    }

    /// The deliberately simple implementation: each character on its own, every backslash
    /// kept as it is (which is right for text without backslashes).
    fn simple(text: &str, one_line: bool) -> String {
        text.chars()
            .map(|c| match c {
                '\n' if one_line => "\\n".to_string(),
                '\t' if one_line => "\\t".to_string(),
                '\n' | '\t' => c.to_string(),
                '\r' => "\\r".to_string(),
                c if forbidden(c) => c.escape_unicode().to_string(),
                c => c.to_string(),
            })
            .collect()
    }

    /// Text with controls, bidirectional overrides, backslashes and the letters of escapes
    /// more often than chance would give them.
    fn hostile() -> impl Strategy<Value = String> {
        let piece = prop_oneof![
            any::<char>().prop_map(String::from),
            prop::sample::select(vec![
                "\\", "\\\\", "n", "r", "t", "u{", "u{1b}", "}", "\x1b", "\x07", "\n", "\t", "\r",
                "\u{9b}", "\u{7f}", "\u{202e}", "\u{2069}", "'", "=", "a",
            ])
            .prop_map(String::from),
        ];
        prop::collection::vec(piece, 0..24).prop_map(|pieces| pieces.concat())
    }

    proptest! {
        #[test]
        fn nothing_forbidden_is_left_and_every_text_reads_back(s in hostile()) {
            let (shown, one) = (text(&s), line(&s));
            prop_assert!(!shown.chars().any(forbidden), "{shown:?}");
            prop_assert!(!one.chars().any(|c| forbidden(c) || c == '\n' || c == '\t'));
            prop_assert_eq!(restore(&shown), s.clone());
            prop_assert_eq!(restore(&one), s.clone());
            prop_assert_eq!(uncell(&cell(&s)), s.clone());
            prop_assert!(!cell(&s).starts_with(['=', '+', '-', '@']));
        }

        #[test]
        fn without_backslashes_it_is_the_simple_escape(s in hostile()) {
            let s = s.replace('\\', "");
            prop_assert_eq!(text(&s), simple(&s, false));
            prop_assert_eq!(line(&s), simple(&s, true));
        }

        #[test]
        fn plain_text_is_unchanged_and_printable_characters_are_kept(s in hostile()) {
            let plain: String = s.chars().filter(|&c| !forbidden(c) && c != '\\').collect();
            prop_assert_eq!(text(&plain), plain.clone());
            // Every character that is not escaped comes out, in its order.
            let kept: String = s.chars().filter(|&c| !forbidden(c)).collect();
            let shown = text(&s);
            let mut left = shown.chars();
            prop_assert!(kept.chars().all(|c| left.any(|d| d == c)), "{kept:?} in {shown:?}");
        }
    }
}
