//! The feedback returned to each student once their hand grading is done: the automatic
//! results as the Markdown report has them, each category graded by hand with every item's
//! score, the grader's comment and the category's points, and the totals (automatic, by hand,
//! the adjustments to the total, the total). Written as Markdown ([`markdown`]) and as one
//! self-contained HTML page rendered from it ([`html`]): inline style, no script, no link.
//!
//! What a student printed or named is already made [`inert`] in the Markdown; in the page, raw
//! HTML in the Markdown is never passed through (it is shown as text, escaped) and links and
//! images keep only their text, so that nothing of the student's is markup, a script or a link,
//! and the page's content security policy refuses any that escaping ever missed.

use std::fmt::Write;

use maud::{html, Markup, PreEscaped, DOCTYPE};
use pulldown_cmark::{html::push_html, Event, Options, Parser, Tag, TagEnd};

use super::gradebook::late_word;
use super::inert;
use super::markdown;
use super::numbers::points;
use super::timing::case_not_counted;
use crate::judge::result::hand::{self, Marks};
use crate::judge::result::StudentResult;
use crate::kit::late::{LatePolicy, Per};
use crate::kit::submitted::Source;
use crate::kit::Rubric;
use crate::store::{Late, Who};

/// The folder of the feedback files in the report directory.
pub const FOLDER: &str = "feedback";

/// The name of the page a student gets from Moodle's feedback zip.
pub const MOODLE_FILE: &str = "feedback.html";

/// The page of the student `name`, participant `participant` of a Moodle assignment, as its
/// "Upload multiple feedback files in a zip" takes it: `Ann Lee_123456_assignfeedback_file_`
/// and [`MOODLE_FILE`]. Moodle's importer splits the name at `_` into at most five parts (a
/// name, the participant id, the plugin's type and name: the feedback files', and the file as
/// the student gets it) and skips a file whose name starts with `.` or `~`: so the name part
/// keeps none of `_`, `/` and `\`, and starts with neither.
pub fn moodle_entry(name: &str, participant: u64) -> String {
    let name: String = name
        .chars()
        .map(|c| match c {
            '_' | '/' | '\\' => ' ',
            c if c.is_control() => ' ',
            c => c,
        })
        .collect();
    let name = name.trim_start_matches(['.', '~', ' ']).trim_end();
    let name = if name.is_empty() { "Participant" } else { name };
    format!("{name}_{participant}_assignfeedback_file_{MOODLE_FILE}")
}

/// What the feedback says at the top while some checklist item is not scored yet.
pub const NOT_FINISHED: &str = "Hand grading not finished";

/// A change to a student's total beyond the rubric's points (a late penalty, a bonus): what
/// it is, in words, its points (negative for a penalty) and how they were worked out. Shown
/// between the points by hand and the total, counted in the total, and explained under it.
#[derive(Clone, Debug, PartialEq)]
pub struct Adjustment {
    /// What it is: `Late 2 days: 10% off`.
    pub what: String,
    /// Its points, added to the total.
    pub points: f64,
    /// How they were worked out, in plain words, with the student's own numbers (may be empty).
    pub why: String,
}

/// A late submission's penalty.
#[derive(Clone, Debug, PartialEq)]
pub struct LatePenalty {
    /// How late, in words (`1 day 3 h`), as the gradebook says it.
    pub late: String,
    /// The points taken off.
    pub points: f64,
    /// Whether its time is its files' (`--late-from-files`), not a submission time.
    pub from_files: bool,
}

impl LatePenalty {
    /// The penalty of the submission `who` is, if its lateness costs points.
    pub fn of(who: &Who) -> Option<LatePenalty> {
        let Late::Judged(lateness) = who.late else {
            return None;
        };
        (lateness.penalty > 0.0).then(|| LatePenalty {
            late: late_word(lateness.late),
            points: lateness.penalty,
            from_files: who.submitted.is_some_and(|s| s.source == Source::Files),
        })
    }
}

/// The adjustments to the total of the submission `who` is (its late penalty, explained by
/// `rubric`'s late policy); none without one.
pub fn adjustments(rubric: &Rubric, who: Option<&Who>) -> Vec<Adjustment> {
    who.and_then(LatePenalty::of)
        .map(|penalty| Adjustment::late(&penalty, rubric))
        .into_iter()
        .collect()
}

impl Adjustment {
    /// A late penalty, explained by `rubric`'s late policy.
    pub fn late(penalty: &LatePenalty, rubric: &Rubric) -> Adjustment {
        let late = inert::line(&penalty.late);
        let mut why = rubric.late.as_ref().map_or(String::new(), |policy| {
            late_rule(policy, rubric.points(), &late, penalty.points)
        });
        if penalty.from_files {
            why.push_str(
                " Your submission time was taken from the modification times of your files, \
                 not from a record of when you submitted: if it is wrong, tell your instructor.",
            );
        }
        Adjustment {
            what: format!("Late penalty (submitted {late} late)"),
            points: -penalty.points,
            why: why.trim().to_string(),
        }
    }
}

/// The late policy in words, with a student's numbers: `late` after their due date, `taken`
/// points off an assignment of `possible` points.
fn late_rule(policy: &LatePolicy, possible: f64, late: &str, taken: f64) -> String {
    let period = match policy.per {
        Per::Day => ("day", "24 hours"),
        Per::Hour => ("hour", "60 minutes"),
    };
    let per_period = possible * policy.penalty / 100.0;
    let grace = match policy.grace_minutes {
        0 => String::new(),
        minutes => format!(" (the first {minutes} minutes after it count as on time)"),
    };
    let capped = policy.cap < 100.0 && taken >= possible * policy.cap / 100.0 - 1e-9;
    let periods = match per_period > 0.0 {
        true => (taken / per_period).round(),
        false => 0.0,
    };
    let cap = match policy.cap < 100.0 {
        true => format!(", {}% at most", points(policy.cap)),
        false => String::new(),
    };
    let counted = match capped {
        true => format!(
            "that reaches the most that can be taken off, {}% of {}: {} points off",
            points(policy.cap),
            points(possible),
            points(taken)
        ),
        false => format!(
            "that is {} {}{} started, so {} x {}% of {} = {} points off",
            points(periods),
            period.0,
            if periods == 1.0 { "" } else { "s" },
            points(periods),
            points(policy.penalty),
            points(possible),
            points(taken)
        ),
    };
    format!(
        "The assignment was due {} (or later, with an extension of yours){grace}. Each {} \
         started after the due date, that is each {} or any part of them, costs {}% of the {} \
         points{cap}. You submitted {late} after your due date: {counted}.",
        policy.due,
        period.0,
        period.1,
        points(policy.penalty),
        points(possible),
    )
}

/// The feedback of `result` in Markdown, with the hand scores and comments `marks` and the
/// `adjustments` to the total. While some item is not scored it says so at the top, and the
/// total is left blank.
pub fn markdown(
    rubric: &Rubric,
    result: &StudentResult,
    marks: Option<&Marks>,
    adjustments: &[Adjustment],
) -> String {
    let mut out = markdown::heading(rubric, result);
    let (scored, items) = hand::scored(rubric, marks);
    if scored < items {
        let _ = write!(
            out,
            "**{NOT_FINISHED}:** {scored} of {items} checklist items scored so far; the points \
             by hand and the total are not final.\n\n"
        );
    }
    out.push_str(&markdown::automatic(rubric, result, marks));
    out.push_str(&markdown::hand(
        rubric,
        result,
        Some(marks.unwrap_or(&Marks::new())),
    ));
    out.push_str(&totals(rubric, result, marks, adjustments));
    out.push_str(&markdown::failures(result));
    out
}

/// The totals as a table: automatic, by hand, each adjustment, and the total once everything
/// in it is known.
fn totals(
    rubric: &Rubric,
    result: &StudentResult,
    marks: Option<&Marks>,
    adjustments: &[Adjustment],
) -> String {
    let (earned, max) = result.total();
    let not_counted: Vec<String> = result
        .not_counted()
        .filter_map(|case| Some(format!("{}: {}", case.category, case_not_counted(case)?)))
        .collect();
    let automatic = match (result.ungraded(), not_counted.is_empty()) {
        (Some(why), _) => Err(format!("not graded: {}", inert::line(why))),
        (None, false) => Err(format!(
            "{} / {}, without {}",
            points(earned),
            points(max),
            not_counted.join("; ")
        )),
        (None, true) => Ok(earned),
    };
    let graded = rubric.categories.iter().filter(|c| !c.manual.is_empty());
    let hand_max: f64 = graded.clone().map(|c| c.manual_points()).sum();
    // Known once every category's is: a sum of options is none if any is none.
    let by_hand: Option<f64> = graded
        .map(|c| marks.and_then(|m| m.get(&c.name)).and_then(|g| g.sum()))
        .sum();
    let mut out = String::from("\n## Total\n\n| Part | Points |\n| --- | --- |\n");
    let shown = match &automatic {
        Ok(earned) => format!("{} / {}", points(*earned), points(max)),
        Err(why) => why.replace('|', "\\|"),
    };
    let _ = writeln!(out, "| Automatic | {shown} |");
    let hand_shown = by_hand.map_or("____".into(), points);
    let _ = writeln!(out, "| By hand | {hand_shown} / {} |", points(hand_max));
    for adjustment in adjustments {
        let _ = writeln!(
            out,
            "| {} | {}{} |",
            inert::line(&adjustment.what).replace('|', "\\|"),
            if adjustment.points >= 0.0 { "+" } else { "" },
            points(adjustment.points)
        );
    }
    let total = automatic
        .ok()
        .zip(by_hand)
        .map(|(a, h)| a + h + adjustments.iter().map(|a| a.points).sum::<f64>());
    let _ = writeln!(
        out,
        "| **Total** | **{} / {}** |",
        total.map_or("____".into(), points),
        points(max + hand_max)
    );
    for why in adjustments
        .iter()
        .map(|a| &a.why)
        .filter(|why| !why.is_empty())
    {
        let _ = write!(out, "\n{why}\n");
    }
    out
}

/// The style of the feedback page.
const STYLE: &str = "body{font:16px/1.5 system-ui,sans-serif;margin:2em auto;max-width:60em;\
    padding:0 1em;color:#222}table{border-collapse:collapse}td,th{border:1px solid #ccc;\
    padding:.2em .6em;text-align:left}pre{background:#f4f4f4;padding:.6em;overflow-x:auto}\
    code{background:#f4f4f4}blockquote{border-left:4px solid #ccc;margin-left:0;\
    padding-left:1em;color:#444}li:has(>input){list-style:none}";

/// What a self-contained page may load and run: nothing but its own inline style.
pub(crate) const POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; \
    form-action 'none'";

/// A self-contained page titled `title` around `body`, with the inline `style` and [`POLICY`]:
/// the feedback pages' and the similarity pages'.
pub(crate) fn self_contained_page(title: &str, style: &'static str, body: Markup) -> String {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta http-equiv="Content-Security-Policy" content=(POLICY);
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) }
                // A constant of ours, passed through: escaped, a `>` in a selector would break.
                style { (PreEscaped(style)) }
            }
            body { (body) }
        }
    }
    .into_string()
}

/// The feedback page of `result`, rendered from its Markdown `text`: one self-contained HTML
/// page, titled with the assignment and the student.
pub fn html(rubric: &Rubric, result: &StudentResult, text: &str) -> String {
    let title = format!("{}: {}", rubric.title, inert::line(&result.student));
    let mut rendered = String::new();
    push_html(&mut rendered, inert_events(text));
    // pulldown-cmark's HTML, passed through: its writer escapes every text, and the events it
    // is given have no raw HTML, link or image.
    self_contained_page(&title, STYLE, html! { main { (PreEscaped(rendered)) } })
}

/// `text`'s Markdown events with no markup of their own: raw HTML as text (the writer escapes
/// it), an HTML block as a paragraph, links and images as their text alone.
fn inert_events(text: &str) -> impl Iterator<Item = Event<'_>> {
    let options = Options::ENABLE_TABLES | Options::ENABLE_TASKLISTS;
    Parser::new_ext(text, options).filter_map(|event| match event {
        Event::Html(raw) | Event::InlineHtml(raw) => Some(Event::Text(raw)),
        Event::Start(Tag::HtmlBlock) => Some(Event::Start(Tag::Paragraph)),
        Event::End(TagEnd::HtmlBlock) => Some(Event::End(TagEnd::Paragraph)),
        Event::Start(Tag::Link { .. } | Tag::Image { .. })
        | Event::End(TagEnd::Link | TagEnd::Image) => None,
        other => Some(other),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::fixtures::{self, hand_rubric, hostile_student};
    use crate::judge::result::hand::CategoryMarks;
    use crate::kit::style::Language;
    use crate::report::gui_marks;
    use crate::report::inert::assert_inert;

    fn ann() -> StudentResult {
        let case = crate::judge::result::CaseResult {
            earned: 1.0,
            ..fixtures::case_result("rules", "AI", 1.0)
        };
        fixtures::student("ann", vec![case], 1)
    }

    #[test]
    fn a_moodle_entry_keeps_moodle_s_five_parts_whatever_the_name() {
        assert_eq!(
            moodle_entry("Ann Lee", 1843201),
            "Ann Lee_1843201_assignfeedback_file_feedback.html"
        );
        // No `_` or `/` in the name part, and not hidden (`.` or `~` first).
        assert_eq!(
            moodle_entry(".~Zoë_Mü/ller\n", 7),
            "Zoë Mü ller_7_assignfeedback_file_feedback.html"
        );
        assert_eq!(
            moodle_entry("__", 7),
            "Participant_7_assignfeedback_file_feedback.html"
        );
    }

    #[test]
    fn feedback_with_every_item_scored_gives_the_scores_comment_and_totals() {
        let given = gui_marks(
            &[Some(3.0), Some(1.5)],
            "A clear grid.\nThe dialog <b>works</b>.",
        );
        let text = markdown(&hand_rubric(), &ann(), Some(&given), &[]);
        assert!(!text.contains(NOT_FINISHED), "{text}");
        insta::assert_snapshot!(text);
    }

    #[test]
    fn feedback_without_marks_says_it_is_not_finished_and_leaves_blanks() {
        let text = markdown(&hand_rubric(), &ann(), None, &[]);
        assert!(
            text.contains("**Hand grading not finished:** 0 of 2"),
            "{text}"
        );
        insta::assert_snapshot!(text);
    }

    #[test]
    fn each_student_reads_the_checklist_in_the_words_of_their_language() {
        // The course's own rubric, as `grade` loads it.
        let course = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../grading");
        let rubric = Rubric::load(&course.join("rubric.toml")).unwrap();
        let mut given = Marks::new();
        for category in rubric.categories.iter().filter(|c| !c.manual.is_empty()) {
            let items = category.checklist().iter().map(|(p, _)| Some(*p)).collect();
            given.insert(
                category.name.clone(),
                CategoryMarks {
                    items,
                    comment: String::new(),
                },
            );
        }
        // Graded with --skip-timing: the speed-up case left out.
        let earned = |name, category, earned| crate::judge::result::CaseResult {
            earned,
            ..fixtures::case_result(name, category, 30.0)
        };
        let cases = vec![
            earned("rules/gravity", "Basic gameplay", 30.0),
            earned("scores/depth1", "AI", 30.0),
            fixtures::case_result("threads/same_scores", "Threading", 0.0),
        ];
        for (language, name) in [
            (Language::Rust, "rust"),
            (Language::Java, "java"),
            (Language::Python, "python"),
        ] {
            let result = StudentResult {
                left_out: vec!["threads/speedup".into()],
                language: Some(language),
                ..fixtures::student(name, cases.clone(), 1)
            };
            let text = markdown(&rubric, &result, Some(&given), &[]);
            assert_eq!(text.contains("cargo"), language == Language::Rust, "{text}");
            insta::assert_snapshot!(format!("feedback_of_a_{name}_student"), text);
        }
    }

    #[test]
    fn an_adjustment_is_shown_and_counted_in_the_total() {
        let given = gui_marks(&[Some(3.0), Some(2.0)], "");
        let late = Adjustment {
            what: "Late 1 day | 10% off".into(),
            points: -0.6,
            why: String::new(),
        };
        let text = markdown(&hand_rubric(), &ann(), Some(&given), &[late]);
        assert!(text.contains("| Late 1 day \\| 10% off | -0.6 |"), "{text}");
        assert!(text.contains("| **Total** | **5.4 / 6** |"), "{text}");
    }

    #[test]
    fn a_late_penalty_is_explained_with_the_student_s_own_numbers() {
        let mut rubric = hand_rubric();
        rubric.late = Some(
            toml::from_str(
                "due = \"2026-11-20T23:59:00-08:00\"\npenalty = 10\nper = \"day\"\n\
                 cap = 30\ngrace_minutes = 15\n",
            )
            .unwrap(),
        );
        let possible = rubric.points();
        let penalty = |late: &str, days: f64, from_files: bool| LatePenalty {
            late: late.into(),
            points: possible * 0.1 * days,
            from_files,
        };
        let late = Adjustment::late(&penalty("1 day 3 h", 2.0, false), &rubric);
        let given = gui_marks(&[Some(3.0), Some(2.0)], "");
        let text = markdown(&rubric, &ann(), Some(&given), &[late]);
        let expected = format!(
            "The assignment was due 2026-11-20T23:59:00-08:00 (or later, with an extension of \
             yours) (the first 15 minutes after it count as on time). Each day started after the \
             due date, that is each 24 hours or any part of them, costs 10% of the {p} points, \
             30% at most. You submitted 1 day 3 h after your due date: that is 2 days started, \
             so 2 x 10% of {p} = {} points off.",
            points(possible * 0.2),
            p = points(possible)
        );
        assert!(text.contains(&expected), "{text}");
        assert!(!text.contains("modification times"), "{text}");
        let capped = Adjustment::late(&penalty("5 days", 3.0, true), &rubric);
        assert!(
            capped.why.contains(
                "You submitted 5 days after your due date: that reaches the \
                 most that can be taken off, 30%"
            ),
            "{}",
            capped.why
        );
        assert!(capped
            .why
            .contains("taken from the modification times of your files"));
    }

    #[test]
    fn the_page_is_inert_for_a_hostile_student_and_has_no_script_or_link() {
        let rubric = hand_rubric();
        for build_failed in [false, true] {
            let result = hostile_student(build_failed);
            let given = gui_marks(
                &[Some(1.0), None],
                "<script>alert(1)</script>\n\n[x](javascript:alert(1)) <https://evil.example> \
                 ![i](https://evil.example/i.png) <b onclick=alert(1)>b</b>",
            );
            let text = markdown(&rubric, &result, Some(&given), &[]);
            assert_inert(&text);
            let page = html(&rubric, &result, &text);
            assert_inert(&page);
            for markup in ["<script", "<a ", "<img", "javascript:", "href=", "src="] {
                assert!(!page.contains(markup), "{markup} in {page}");
            }
            for escaped in ["&lt;script&gt;alert(1)&lt;/script&gt;", "A &lt;grid&gt;"] {
                assert!(page.contains(escaped), "{escaped} not in {page}");
            }
        }
    }
}
