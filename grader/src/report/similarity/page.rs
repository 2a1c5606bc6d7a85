//! The similarity check's pages, self-contained HTML (inline style, no script, no link out):
//! the index of the ranked pairs, and a page per pair with the two submissions side by side,
//! line numbered, each fragment they share highlighted in the same colour on both sides and
//! listed with links to where it is. What students wrote is escaped by maud's `html!`, and each
//! page's content security policy (the feedback pages', with their head) refuses any markup
//! that escaping ever missed.

use std::collections::HashSet;
use std::ops::Range;

use maud::{html, Markup};

use super::{baseline_lines, language, longest_places, method, percent, sides, who, LEADS, LIMITS};
use crate::report::feedback::self_contained_page;
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

/// The index: the method, and the first [`PAGES`] pairs ranked, each linked to its page.
/// Students' names and paths are shown [`inert::line`], their control characters visible.
pub fn index(comparison: &Comparison) -> String {
    let unread = super::unread_lines(comparison);
    let body = html! {
        header {
            h1 { "Similar pairs" }
            p class="leads" { (LEADS) }
            p { (method(comparison)) }
            p { (LIMITS) }
            ul { @for line in baseline_lines(comparison) { li { (line) } } }
        }
        main {
            @if comparison.pairs.is_empty() {
                p { "No two submissions share a fingerprint." }
            } @else {
                table {
                    thead {
                        tr {
                            th { "Rank" } th { "Language" } th { "Score" } th { "Longest run" }
                            th { "Pair" } th { "Longest run is at" }
                        }
                    }
                    tbody {
                        @for (rank, pair) in comparison.pairs.iter().take(PAGES).enumerate() {
                            @let (left, right) = sides(comparison, pair);
                            tr {
                                td class="n" { (rank + 1) }
                                td { (language(pair.language)) }
                                td class="n" { (percent(pair.coverage)) }
                                td class="n" { (pair.longest) " tokens" }
                                td {
                                    a href=(pair_name(rank)) {
                                        (inert::line(&who(left))) " ~ " (inert::line(&who(right)))
                                    }
                                }
                                td {
                                    @if let Some((l, r)) = longest_places(comparison, pair) {
                                        (inert::line(&l)) " ~ " (inert::line(&r))
                                    }
                                }
                            }
                        }
                    }
                }
                @if comparison.pairs.len() > PAGES {
                    p {
                        (comparison.pairs.len() - PAGES) " more pairs share less; every pair is in "
                        (super::CSV) "."
                    }
                }
            }
            @if !unread.is_empty() {
                h2 { "Not compared" }
                ul { @for line in &unread { li { (line) } } }
            }
        }
    };
    self_contained_page("Similar pairs", STYLE, body)
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
    let body = html! {
        header {
            p { a href="index.html" { "All pairs" } " · rank " (rank + 1) }
            h1 { (title) }
            p class="leads" { (LEADS) }
            p {
                (percent(pair.similarity)) " of both sides' fingerprints shared (" (pair.shared)
                " of them); the longest run is " (pair.longest) " tokens; "
                (pair.fragments.len()) " fragments. " (method(comparison))
            }
        }
        main {
            (fragments_table(comparison, pair))
            div class="sides" {
                (side(left, pair, Side::Left))
                (side(right, pair, Side::Right))
            }
        }
    };
    self_contained_page(&title, STYLE, body)
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
fn fragments_table(comparison: &Comparison, pair: &Pair) -> Markup {
    let (left, right) = sides(comparison, pair);
    html! {
        table class="fragments" {
            thead {
                tr {
                    th { "Fragment" } th { "Tokens" }
                    th { (inert::line(&who(left))) } th { (inert::line(&who(right))) }
                }
            }
            tbody {
                @for (number, fragment) in pair.fragments.iter().enumerate() {
                    tr {
                        td class="n" { mark class={ "c" (number % COLOURS) } { (number + 1) } }
                        td class="n" { (fragment.tokens) }
                        td {
                            a href={ "#l" (number) } {
                                (inert::line(&super::place(left, &fragment.left)))
                            }
                        }
                        td {
                            a href={ "#r" (number) } {
                                (inert::line(&super::place(right, &fragment.right)))
                            }
                        }
                    }
                }
            }
        }
    }
}

/// One side: each file holding a fragment, line numbered with the fragments marked, then the
/// names of the files that share nothing.
fn side(submission: &Submission, pair: &Pair, which: Side) -> Markup {
    let mut quiet = Vec::new();
    let mut marked_files = Vec::new();
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
        match marks.is_empty() {
            true => quiet.push(inert::line(&file.path)),
            false => marked_files.push((file, marks)),
        }
    }
    html! {
        section class="side" {
            h2 { (inert::line(&who(submission))) }
            @for (file, marks) in &marked_files {
                h3 { (inert::line(&file.path)) }
                pre { code { (marked(&file.text, marks, which)) } }
            }
            @if !quiet.is_empty() {
                p { "Sharing nothing: " (quiet.join(", ")) "." }
            }
        }
    }
}

/// `text` line by line, numbered, with the bytes of each mark (a fragment's, by its number)
/// highlighted; where marks overlap, the one that starts first keeps the overlap. The source is
/// shown [`inert::text`]: its control characters and bidirectional overrides as escapes, so
/// that what is shown is what the compiler reads.
fn marked(text: &str, marks: &[(Range<usize>, usize)], which: Side) -> Markup {
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
    let mut anchored = HashSet::new();
    let mut pieces = Vec::new();
    let mut next = 0;
    let mut offset = 0;
    for (number, line) in text.split_inclusive('\n').enumerate() {
        let end = offset + line.len();
        pieces.push(html! { span class="ln" { (number + 1) } });
        let mut at = offset;
        while at < end {
            while next < disjoint.len() && disjoint[next].0.end <= at {
                next += 1;
            }
            let Some((range, fragment)) = disjoint.get(next).filter(|(r, _)| r.start < end) else {
                pieces.push(html! { (inert::text(&text[at..end])) });
                break;
            };
            if range.start > at {
                pieces.push(html! { (inert::text(&text[at..range.start])) });
                at = range.start;
            }
            let stop = range.end.min(end);
            let id = anchored
                .insert(*fragment)
                .then(|| format!("{}{fragment}", which.letter()));
            pieces.push(html! {
                mark class={ "c" (fragment % COLOURS) } id=[id] title={ "fragment " (fragment + 1) } {
                    (inert::text(&text[at..stop]))
                }
            });
            at = stop;
        }
        offset = end;
    }
    html! { @for piece in &pieces { (piece) } }
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
        assert_eq!(
            marked("abcdef\ngh\n", &[(1..4, 0), (2..9, 1)], Side::Left).into_string(),
            "<span class=\"ln\">1</span>a<mark class=\"c0\" id=\"l0\" title=\"fragment 1\">bcd</mark>\
             <mark class=\"c1\" id=\"l1\" title=\"fragment 2\">ef\n</mark>\
             <span class=\"ln\">2</span><mark class=\"c1\" title=\"fragment 2\">gh</mark>\n"
        );
    }
}
