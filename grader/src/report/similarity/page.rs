//! The similarity check's pages, self-contained HTML (inline style, no script, no link out):
//! the index of the ranked pairs, and a page per pair with the two submissions side by side,
//! line numbered, each fragment they share highlighted in the same colour on both sides and
//! listed with links to where it is. What students wrote is escaped, and each page's content
//! security policy (the feedback pages', with their head) refuses any markup that escaping
//! ever missed.

use std::fmt::Write;
use std::ops::Range;

use super::{baseline_lines, language, longest_places, method, percent, sides, who, LEADS, LIMITS};
use crate::report::feedback::self_contained_head;
use crate::report::gallery::escape;
use crate::report::inert;
use crate::similarity::{Comparison, Pair, Submission};

/// The pairs given a page (and a row on the index), at most: the rest are in the CSV.
pub const PAGES: usize = 100;

/// The highlight colours, one per fragment in turn.
const COLOURS: usize = 6;

/// The pages' style.
const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:1em 2em;color:#222}\
    .leads{background:#fff4d6;border-left:4px solid #d9a400;padding:.5em 1em}\
    table{border-collapse:collapse;margin:1em 0}th,td{border:1px solid #ccc;padding:.2em .6em;\
    text-align:left}td.n{text-align:right}\
    .sides{display:grid;grid-template-columns:1fr 1fr;gap:1.5em}.side{min-width:0}\
    pre{background:#f7f7f7;padding:.5em;overflow-x:auto;font-size:.85em;line-height:1.35}\
    .ln{display:inline-block;width:3.5em;color:#999;user-select:none}\
    mark{color:inherit}.c0{background:#ffd6d6}.c1{background:#d6ecff}.c2{background:#d9f5d0}\
    .c3{background:#f3dcff}.c4{background:#ffe9c7}.c5{background:#d0f2f0}";

/// The page of the pair ranked `rank` (from 0), in the pages' folder.
pub fn pair_name(rank: usize) -> String {
    format!("pair-{:03}.html", rank + 1)
}

/// A page's head and the start of its body.
fn head(title: &str) -> String {
    self_contained_head(title, STYLE)
}

/// `text` (a student's name or path) escaped for the page, its control characters shown.
fn shown(text: &str) -> String {
    escape(&inert::line(text))
}

/// A piece of a student's source escaped for the page, its control characters and
/// bidirectional overrides shown as escapes (so that what is shown is what the compiler reads).
fn source(text: &str) -> String {
    escape(&inert::text(text))
}

/// The index: the method, and the first [`PAGES`] pairs ranked, each linked to its page.
pub fn index(comparison: &Comparison) -> String {
    let mut out = head("Similar pairs");
    let _ = write!(
        out,
        "<header>\n<h1>Similar pairs</h1>\n<p class=\"leads\">{}</p>\n<p>{}</p>\n<p>{}</p>\n<ul>\n",
        escape(LEADS),
        escape(&method(comparison)),
        escape(LIMITS)
    );
    for line in baseline_lines(comparison) {
        let _ = writeln!(out, "<li>{}</li>", escape(&line));
    }
    out.push_str("</ul>\n</header>\n<main>\n");
    if comparison.pairs.is_empty() {
        out.push_str("<p>No two submissions share a fingerprint.</p>\n");
    } else {
        out.push_str(
            "<table>\n<thead><tr><th>Rank</th><th>Language</th><th>Score</th>\
             <th>Longest run</th><th>Pair</th><th>Longest run is at</th></tr></thead>\n<tbody>\n",
        );
        for (rank, pair) in comparison.pairs.iter().take(PAGES).enumerate() {
            let (left, right) = sides(comparison, pair);
            let at = longest_places(comparison, pair)
                .map(|(l, r)| format!("{} ~ {}", shown(&l), shown(&r)))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "<tr><td class=\"n\">{}</td><td>{}</td><td class=\"n\">{}</td>\
                 <td class=\"n\">{} tokens</td><td><a href=\"{}\">{} ~ {}</a></td><td>{at}</td></tr>",
                rank + 1,
                language(pair.language),
                percent(pair.coverage),
                pair.longest,
                pair_name(rank),
                shown(&who(left)),
                shown(&who(right)),
            );
        }
        out.push_str("</tbody>\n</table>\n");
        if comparison.pairs.len() > PAGES {
            let _ = writeln!(
                out,
                "<p>{} more pairs share less; every pair is in {}.</p>",
                comparison.pairs.len() - PAGES,
                super::CSV
            );
        }
    }
    let unread = super::unread_lines(comparison);
    if !unread.is_empty() {
        out.push_str("<h2>Not compared</h2>\n<ul>\n");
        for line in unread {
            let _ = writeln!(out, "<li>{}</li>", escape(&line));
        }
        out.push_str("</ul>\n");
    }
    out.push_str("</main>\n</body>\n</html>\n");
    out
}

/// The page of `pair`, ranked `rank` (from 0): the two submissions side by side with the
/// fragments they share highlighted, and the fragments listed.
pub fn pair(comparison: &Comparison, pair: &Pair, rank: usize) -> String {
    let (left, right) = sides(comparison, pair);
    let title = format!(
        "{} ~ {}: score {}",
        inert::line(&who(left)),
        inert::line(&who(right)),
        percent(pair.coverage)
    );
    let mut out = head(&title);
    let _ = write!(
        out,
        "<header>\n<p><a href=\"index.html\">All pairs</a> · rank {}</p>\n<h1>{}</h1>\n\
         <p class=\"leads\">{}</p>\n<p>{} of both sides' fingerprints shared ({} of them); the \
         longest run is {} tokens; {} fragments. {}</p>\n</header>\n<main>\n",
        rank + 1,
        escape(&title),
        escape(LEADS),
        percent(pair.similarity),
        pair.shared,
        pair.longest,
        pair.fragments.len(),
        escape(&method(comparison)),
    );
    fragments_table(&mut out, comparison, pair);
    out.push_str("<div class=\"sides\">\n");
    side(&mut out, left, pair, Side::Left);
    side(&mut out, right, pair, Side::Right);
    out.push_str("</div>\n</main>\n</body>\n</html>\n");
    out
}

/// Which side of a pair.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Left,
    Right,
}

impl Side {
    /// The first letter of its anchors.
    fn letter(self) -> char {
        match self {
            Side::Left => 'l',
            Side::Right => 'r',
        }
    }
}

/// The table of fragments: each with its length and where it is on both sides, linked.
fn fragments_table(out: &mut String, comparison: &Comparison, pair: &Pair) {
    let (left, right) = sides(comparison, pair);
    let _ = write!(
        out,
        "<table class=\"fragments\">\n<thead><tr><th>Fragment</th><th>Tokens</th><th>{}</th>\
         <th>{}</th></tr></thead>\n<tbody>\n",
        shown(&who(left)),
        shown(&who(right))
    );
    for (number, fragment) in pair.fragments.iter().enumerate() {
        let _ = writeln!(
            out,
            "<tr><td class=\"n\"><mark class=\"c{}\">{}</mark></td><td class=\"n\">{}</td>\
             <td><a href=\"#l{number}\">{}</a></td><td><a href=\"#r{number}\">{}</a></td></tr>",
            number % COLOURS,
            number + 1,
            fragment.tokens,
            shown(&super::place(left, &fragment.left)),
            shown(&super::place(right, &fragment.right)),
        );
    }
    out.push_str("</tbody>\n</table>\n");
}

/// One side: each file holding a fragment, line numbered with the fragments marked, then the
/// names of the files that share nothing.
fn side(out: &mut String, submission: &Submission, pair: &Pair, which: Side) {
    let _ = writeln!(
        out,
        "<section class=\"side\">\n<h2>{}</h2>",
        shown(&who(submission))
    );
    let mut quiet = Vec::new();
    for (index, file) in submission.files.iter().enumerate() {
        let marks: Vec<(Range<usize>, usize)> = pair
            .fragments
            .iter()
            .enumerate()
            .map(|(number, fragment)| match which {
                Side::Left => (&fragment.left, number),
                Side::Right => (&fragment.right, number),
            })
            .filter(|(span, _)| span.file == index)
            .map(|(span, number)| (span.bytes.clone(), number))
            .collect();
        if marks.is_empty() {
            quiet.push(shown(&file.path));
            continue;
        }
        let _ = writeln!(out, "<h3>{}</h3>", shown(&file.path));
        out.push_str("<pre><code>");
        marked(out, &file.text, &marks, which);
        out.push_str("</code></pre>\n");
    }
    if !quiet.is_empty() {
        let _ = writeln!(out, "<p>Sharing nothing: {}.</p>", quiet.join(", "));
    }
    out.push_str("</section>\n");
}

/// `text` line by line, numbered, with the bytes of each mark (a fragment's, by its number)
/// highlighted; where marks overlap, the one that starts first keeps the overlap.
fn marked(out: &mut String, text: &str, marks: &[(Range<usize>, usize)], which: Side) {
    let mut spans: Vec<(Range<usize>, usize)> = marks.to_vec();
    spans.sort_by_key(|(range, number)| (range.start, *number));
    // Overlaps cut away, so that the marks are disjoint and in order.
    let mut disjoint: Vec<(Range<usize>, usize)> = Vec::new();
    for (range, number) in spans {
        let start = disjoint
            .last()
            .map_or(range.start, |(r, _)| r.end.max(range.start));
        if start < range.end {
            disjoint.push((start..range.end, number));
        }
    }
    let mut anchored = std::collections::HashSet::new();
    let mut next = 0;
    let mut offset = 0;
    for (number, line) in text.split_inclusive('\n').enumerate() {
        let end = offset + line.len();
        let _ = write!(out, "<span class=\"ln\">{}</span>", number + 1);
        let mut at = offset;
        while at < end {
            while next < disjoint.len() && disjoint[next].0.end <= at {
                next += 1;
            }
            let Some((range, fragment)) = disjoint.get(next).filter(|(r, _)| r.start < end) else {
                out.push_str(&source(&text[at..end]));
                break;
            };
            if range.start > at {
                out.push_str(&source(&text[at..range.start]));
                at = range.start;
            }
            let stop = range.end.min(end);
            let id = match anchored.insert(*fragment) {
                true => format!(" id=\"{}{fragment}\"", which.letter()),
                false => String::new(),
            };
            let _ = write!(
                out,
                "<mark class=\"c{}\"{id} title=\"fragment {}\">{}</mark>",
                fragment % COLOURS,
                fragment + 1,
                source(&text[at..stop])
            );
            at = stop;
        }
        offset = end;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::feedback::POLICY;
    use crate::report::similarity::tests::compared;

    #[test]
    fn a_pair_page_shows_both_sides_with_the_fragments_marked_and_nothing_of_a_students_as_markup()
    {
        let comparison = compared();
        let rank = comparison
            .pairs
            .iter()
            .position(|p| comparison.submissions[p.right].name.contains("HYPERLINK"))
            .unwrap();
        let page = pair(&comparison, &comparison.pairs[rank], rank);
        assert!(page.contains(POLICY) && page.contains(LEADS));
        assert!(!page.contains("<b>") && !page.contains("<i>") && !page.contains("<script"));
        assert!(page.contains("&lt;i&gt;.py"));
        assert!(page.contains("\\u{202e}") && !page.contains('\u{202e}'));
        assert!(page.contains("<mark class=\"c0\" id=\"l0\"") && page.contains("id=\"r0\""));
        assert!(page.contains("<span class=\"ln\">3</span>"));
    }

    #[test]
    fn the_index_links_every_pair_and_names_what_was_not_compared() {
        let comparison = compared();
        let page = index(&comparison);
        for rank in 0..comparison.pairs.len() {
            assert!(page.contains(&pair_name(rank)));
        }
        assert!(page.contains("ann: notes.py (it is not UTF-8 text)"));
    }

    #[test]
    fn overlapping_marks_are_cut_so_that_each_byte_is_marked_once() {
        let mut out = String::new();
        marked(
            &mut out,
            "abcdef\ngh\n",
            &[(1..4, 0), (2..9, 1)],
            Side::Left,
        );
        assert_eq!(
            out,
            "<span class=\"ln\">1</span>a<mark class=\"c0\" id=\"l0\" title=\"fragment 1\">bcd</mark>\
             <mark class=\"c1\" id=\"l1\" title=\"fragment 2\">ef\n</mark>\
             <span class=\"ln\">2</span><mark class=\"c1\" title=\"fragment 2\">gh</mark>\n"
        );
    }
}
