//! The similarity check's pages, self-contained HTML (inline style, no script, no link out):
//! the index of the ranked pairs, and a page per pair with the two submissions side by side,
//! line numbered, each fragment they share numbered and in a colour of its own on both sides,
//! its number on each side linking to the other, and listed with links to where it is; the
//! given and the common code greyed, with this pair's counts of them, and what of the pair was
//! not compared, and why. What students wrote is escaped by maud's `html!`, and each page's
//! content security policy (the feedback pages', with their head) refuses any markup that
//! escaping ever missed.

use std::collections::HashSet;
use std::ops::Range;

use maud::{html, Markup};

use super::{baseline_lines, language, longest_places, method, percent, sides, who, LEADS, LIMITS};
use super::{pair_name, unread_line, SCORE};
use crate::report::feedback::self_contained_page;
use crate::report::inert;
use crate::report::numbers::counted;
use crate::similarity::{Comparison, Pair, Shading};

/// The pairs given a page (and a row on the index), at most: the rest are in the CSV.
pub const PAGES: usize = 100;

/// The pages' style.
const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:1em 2em;color:#222}\
    .leads{background:#fff4d6;border-left:4px solid #d9a400;padding:.5em 1em}\
    table{border-collapse:collapse;margin:1em 0}th,td{border:1px solid #ccc;padding:.2em .6em;\
    text-align:left}td.n{text-align:right}\
    .sides{display:grid;grid-template-columns:1fr 1fr;gap:1.5em}.side{min-width:0}\
    pre{background:#f7f7f7;padding:.5em;overflow-x:auto;font-size:.85em;line-height:1.35}\
    .ln{display:inline-block;width:3.5em;color:#999;user-select:none}\
    mark{color:inherit}.given{color:#999}.common{color:#999;font-style:italic}\
    .tag{font-size:.75em;font-weight:bold;color:#000;text-decoration:none;padding:0 .3em;\
    border:1px solid #444;border-radius:.3em;margin-right:.15em}.tag:target{outline:3px solid #000}";

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
                            th { "Rank" } th { "Language" } th { "Score" } th { "Longest fragment" }
                            th { "Pair" } th { "Longest fragment is at" }
                        }
                    }
                    tbody {
                        @for (rank, pair) in comparison.pairs.iter().take(PAGES).enumerate() {
                            @let (left, right) = sides(comparison, pair);
                            tr {
                                td class="n" { (rank + 1) }
                                td { (language(pair.language)) }
                                td class="n" { (percent(pair.score)) }
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

/// The page of `pair`, ranked `rank` (from 0): its score, the two submissions side by side
/// with the fragments they share marked and the given and common code greyed, the fragments
/// listed, and what of each side was left out of the score or not compared.
pub fn pair(comparison: &Comparison, pair: &Pair, rank: usize) -> String {
    let (left, right) = sides(comparison, pair);
    let title = format!(
        "{} ~ {}: score {}",
        inert::line(&who(left)),
        inert::line(&who(right)),
        percent(pair.score)
    );
    let body = html! {
        header {
            p { a href="index.html" { "All pairs" } " · rank " (rank + 1) }
            h1 { (title) }
            p class="leads" { (LEADS) }
            p {
                strong { "Score " (percent(pair.score)) } ": " (SCORE) ". The pairs are ranked by it. "
                (counted(pair.fragments.len(), "fragment")) "; the longest holds "
                (pair.longest) " tokens that are not given code. Not the score: "
                (percent(pair.fingerprints_shared)) " of both sides' fingerprints are shared ("
                (pair.shared) "), which a copy padded with other code lowers."
            }
            h2 { "Left out of the score" }
            ul {
                (left_out(comparison, pair.left))
                (left_out(comparison, pair.right))
            }
            p { (method(comparison)) }
        }
        main {
            (fragments_table(comparison, pair))
            div class="sides" {
                (side(comparison, pair, Side::Left))
                (side(comparison, pair, Side::Right))
            }
        }
    };
    self_contained_page(&title, STYLE, body)
}

/// What of the submission `index` was left out of this pair's score, with its counts: its
/// given and common code (greyed on the page), its files that are given files whole, and
/// those not compared, with why.
fn left_out(comparison: &Comparison, index: usize) -> Markup {
    let submission = &comparison.submissions[index];
    let measure = &comparison.measures[index];
    let given_files: Vec<String> = (submission.files.iter())
        .zip(&measure.files)
        .filter(|(_, shading)| shading.given_file)
        .map(|(file, _)| inert::line(&file.path))
        .collect();
    html! {
        li {
            strong { (inert::line(&who(submission))) } ": of its " (measure.tokens) " tokens, "
            (measure.given) " are given code (grey) and " (measure.common)
            " common code (grey, slanted): left out of the score, shown in the fragments."
            @if !given_files.is_empty() {
                details {
                    summary {
                        (counted(given_files.len(), "file")) " identical to a given file, "
                        "not compared"
                    }
                    (given_files.join(", "))
                }
            }
            @if !submission.unread.is_empty() {
                ul {
                    @for unread in &submission.unread {
                        li { "Not compared: " (unread_line(submission, unread)) }
                    }
                }
            }
        }
    }
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

    /// The other side.
    fn other(self) -> Side {
        match self {
            Side::Left => Side::Right,
            Side::Right => Side::Left,
        }
    }
}

/// The background of fragment `number` (from 0): hues a golden angle apart, in three
/// lightnesses, so that no two fragments of a page look alike.
fn colour(number: usize) -> String {
    let hue = (number as f64 * 137.508) % 360.0;
    let lightness = [84, 74, 91][number % 3];
    format!("background:hsl({hue:.1},85%,{lightness}%)")
}

/// The table of fragments: each numbered in its colour, with its tokens (and how many are
/// given code) and where it is on both sides, linked.
fn fragments_table(comparison: &Comparison, pair: &Pair) -> Markup {
    let (left, right) = sides(comparison, pair);
    html! {
        table class="fragments" {
            thead {
                tr {
                    th { "Fragment" } th { "Tokens" } th { "Of them given" }
                    th { (inert::line(&who(left))) } th { (inert::line(&who(right))) }
                }
            }
            tbody {
                @for (number, fragment) in pair.fragments.iter().enumerate() {
                    tr {
                        td class="n" { span class="tag" style=(colour(number)) { (number + 1) } }
                        td class="n" { (fragment.tokens) }
                        td class="n" { (fragment.given) }
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

/// One side: each file holding a fragment, line numbered with the fragments marked and the
/// given and common code greyed, then the names of the other files compared.
fn side(comparison: &Comparison, pair: &Pair, which: Side) -> Markup {
    let index = match which {
        Side::Left => pair.left,
        Side::Right => pair.right,
    };
    let submission = &comparison.submissions[index];
    let shadings = &comparison.measures[index].files;
    let mut quiet = Vec::new();
    let mut marked_files = Vec::new();
    for ((file_index, file), shading) in submission.files.iter().enumerate().zip(shadings) {
        let marks: Vec<(Range<usize>, usize)> = pair
            .fragments
            .iter()
            .enumerate()
            .map(|(number, fragment)| match which {
                Side::Left => (&fragment.left, number),
                Side::Right => (&fragment.right, number),
            })
            .filter(|(span, _)| span.file == file_index)
            .map(|(span, number)| (span.bytes.clone(), number))
            .collect();
        match (marks.is_empty(), shading.given_file) {
            (_, true) => {}
            (true, false) => quiet.push(inert::line(&file.path)),
            (false, false) => marked_files.push((file, shading, marks)),
        }
    }
    html! {
        section class="side" {
            h2 { (inert::line(&who(submission))) }
            @for (file, shading, marks) in &marked_files {
                h3 { (inert::line(&file.path)) }
                pre { code { (marked(&file.text, marks, shading, which)) } }
            }
            @if !quiet.is_empty() {
                p { "Sharing no fragment: " (quiet.join(", ")) "." }
            }
        }
    }
}

/// How a stretch of a file is shown: in a fragment (its number) or not, and greyed as given
/// or common code or not.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Look {
    fragment: Option<usize>,
    grey: Option<&'static str>,
}

/// `text` line by line, numbered, with the bytes of each mark (a fragment's, by its number)
/// in the fragment's colour, its number before its first stretch linking to the other side,
/// and the `shading`'s given and common code greyed; where marks overlap, the one that starts
/// first keeps the overlap. The source is shown [`inert::text`]: its control characters and
/// bidirectional overrides as escapes, so that what is shown is what the compiler reads.
fn marked(text: &str, marks: &[(Range<usize>, usize)], shading: &Shading, which: Side) -> Markup {
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
    // Every place where the look may change: the ends of marks and shades, and of lines.
    let ranges = (disjoint.iter().map(|(r, _)| r))
        .chain(&shading.given)
        .chain(&shading.common);
    let mut cuts: Vec<usize> = ranges
        .flat_map(|r| [r.start, r.end])
        .chain(text.match_indices('\n').map(|(at, _)| at + 1))
        .chain([0, text.len()])
        .filter(|&at| at <= text.len() && text.is_char_boundary(at))
        .collect();
    cuts.sort_unstable();
    cuts.dedup();
    let inside = |ranges: &[Range<usize>], at: usize| {
        let next = ranges.partition_point(|r| r.end <= at);
        ranges.get(next).is_some_and(|r| r.start <= at)
    };
    let marks_only: Vec<Range<usize>> = disjoint.iter().map(|(r, _)| r.clone()).collect();
    let mut tagged = HashSet::new();
    let mut pieces = vec![html! { span class="ln" { "1" } }];
    let mut line = 1;
    for cut in cuts.windows(2) {
        let (at, stop) = (cut[0], cut[1]);
        let look = Look {
            fragment: inside(&marks_only, at)
                .then(|| disjoint[marks_only.partition_point(|r| r.end <= at)].1),
            grey: match (inside(&shading.given, at), inside(&shading.common, at)) {
                (true, _) => Some("given"),
                (false, true) => Some("common"),
                (false, false) => None,
            },
        };
        let piece = inert::text(&text[at..stop]);
        pieces.push(match look.fragment {
            Some(number) => {
                let tag = tagged.insert(number).then(|| {
                    html! {
                        a class="tag" id={ (which.letter()) (number) }
                            href={ "#" (which.other().letter()) (number) }
                            style=(colour(number)) title={ "fragment " (number + 1) ", on the other side" }
                            { (number + 1) }
                    }
                });
                html! {
                    @if let Some(tag) = tag { (tag) }
                    mark class=[look.grey] style=(colour(number)) title={ "fragment " (number + 1) } { (piece) }
                }
            }
            None => match look.grey {
                Some(grey) => html! { span class=(grey) { (piece) } },
                None => html! { (piece) },
            },
        });
        if text[..stop].ends_with('\n') && stop < text.len() {
            line += 1;
            pieces.push(html! { span class="ln" { (line) } });
        }
    }
    html! { @for piece in &pieces { (piece) } }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::style::Language;
    use crate::report::feedback::POLICY;
    use crate::report::similarity::tests::compared;
    use crate::similarity::{File, Fragment, Measure, Origin, Settings, Span, Submission};

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
        assert!(page.contains("id=\"l0\" href=\"#r0\"") && page.contains("id=\"r0\" href=\"#l0\""));
        assert!(page.contains("<span class=\"ln\">3</span>"));
        assert!(page.contains("Not compared: ann: notes.py (it is not UTF-8 text)"));
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
    fn marks_are_cut_so_that_each_byte_is_marked_once_and_given_code_is_greyed() {
        let shading = Shading {
            given: std::iter::once(0..2).collect(),
            ..Shading::default()
        };
        assert_eq!(
            marked("abcdef\ngh\n", &[(1..4, 0), (2..9, 1)], &shading, Side::Left).into_string(),
            format!(
                "<span class=\"ln\">1</span><span class=\"given\">a</span>\
                 <a class=\"tag\" id=\"l0\" href=\"#r0\" style=\"{0}\" title=\"fragment 1, on the \
                 other side\">1</a><mark class=\"given\" style=\"{0}\" title=\"fragment 1\">b</mark>\
                 <mark style=\"{0}\" title=\"fragment 1\">cd</mark>\
                 <a class=\"tag\" id=\"l1\" href=\"#r1\" style=\"{1}\" title=\"fragment 2, on the \
                 other side\">2</a><mark style=\"{1}\" title=\"fragment 2\">ef\n</mark>\
                 <span class=\"ln\">2</span><mark style=\"{1}\" title=\"fragment 2\">gh</mark>\n",
                colour(0),
                colour(1)
            )
        );
    }

    #[test]
    fn thirty_fragments_each_have_a_number_a_colour_and_links_of_their_own() {
        let text: String = (0..30).map(|i| format!("line {i}\n")).collect();
        let submission = |name: &str| Submission {
            name: name.into(),
            origin: Origin::Class,
            files: vec![File {
                path: "game.py".into(),
                language: Language::Python,
                text: text.clone(),
            }],
            unread: Vec::new(),
        };
        let line = |i: usize| Span {
            file: 0,
            bytes: text.find(&format!("line {i}\n")).unwrap()
                ..text.find(&format!("line {i}\n")).unwrap() + 6,
        };
        let fragments: Vec<Fragment> = (0..30)
            .map(|i| Fragment {
                left: line(i),
                right: line(29 - i),
                tokens: 2,
                given: 0,
            })
            .collect();
        let measure = Measure {
            files: vec![Shading::default()],
            ..Measure::default()
        };
        let comparison = Comparison {
            settings: Settings::default(),
            submissions: vec![submission("ann"), submission("bob")],
            measures: vec![measure.clone(), measure],
            base_files: 0,
            common: 0,
            pairs: vec![Pair {
                left: 0,
                right: 1,
                language: Some(Language::Python),
                score: 1.0,
                fingerprints_shared: 1.0,
                shared: 60,
                longest: 2,
                fragments,
            }],
        };
        let page = pair(&comparison, &comparison.pairs[0], 0);
        let colours: HashSet<String> = (0..30).map(colour).collect();
        assert_eq!(colours.len(), 30);
        for number in 0..30 {
            for (here, there) in [('l', 'r'), ('r', 'l')] {
                let tag = format!(
                    "<a class=\"tag\" id=\"{here}{number}\" href=\"#{there}{number}\" style=\"{}\" \
                     title=\"fragment {}, on the other side\">{}</a>",
                    colour(number),
                    number + 1,
                    number + 1
                );
                assert!(page.contains(&tag), "{tag}");
            }
            let row = format!(
                "<span class=\"tag\" style=\"{}\">{}</span>",
                colour(number),
                number + 1
            );
            assert!(page.contains(&row), "{row}");
        }
    }
}
