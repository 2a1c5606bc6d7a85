//! The graders' gallery: HTML pages for the points graded by hand. The class page lists every
//! student with their automatic total, window and hand scores so far; each student's page puts
//! the evidence the kit gathered beside the rubric's checklist items (the window's steps and
//! screenshots beside GUI, the style facts beside Programming style, the thread design and the
//! scaling view's plot beside the pool), with a number box per item and a comment box per
//! category. Served by `grade gallery`, the page's script saves the scores; opened as a file,
//! it is read only.
//!
//! Everything a student could choose (their name, anything their program printed, file names)
//! is made [`inert`] (a control character shown as `\u{1b}`, not taken by the browser as
//! nothing) and escaped by maud's `html!`, which writes the pages, and the pages carry no script
//! of their own: the one script is [`SCRIPT`], a file beside them, so that the server's content
//! security policy can refuse any inline script that escaping ever missed. A student's name as the script knows them (the
//! key of their hand scores) is percent-encoded ([`key`]): kept exactly, with no character a
//! page would hide.

use std::path::Path;

use maud::{html, Markup, DOCTYPE};
use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};

use super::building::build_word;
use super::feedback::FOLDER as FEEDBACK_FOLDER;
use super::inert;
use super::numbers::points;
use super::style;
use super::timing::{case_not_counted, category_not_counted};
use super::window;
use super::{plot, threading};
use crate::judge::file_stem;
use crate::judge::result::hand::Marks;
use crate::judge::result::window::{Check, Measured, Observation, Step, StepResult, WindowResult};
use crate::judge::result::StudentResult;
use crate::kit::rubric::{Category, Evidence};
use crate::kit::Rubric;
use crate::process::display::Rect;

/// The class page's file name in the report directory.
pub const CLASS_PAGE: &str = "gallery.html";
/// The folder of the students' pages and the assets, in the report directory.
pub const FOLDER: &str = "gallery";
/// The pages' script: it fills in the saved scores and saves new ones when served.
pub const SCRIPT: (&str, &str) = ("gallery.js", include_str!("gallery.js"));
/// The pages' style sheet.
pub const STYLE: (&str, &str) = ("gallery.css", include_str!("gallery.css"));

/// The bytes a link keeps as they are: letters, digits and `-_./`.
const KEPT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'/');

/// A relative path as a link: every byte but letters, digits and `-_./` percent-encoded.
fn href(path: &str) -> String {
    utf8_percent_encode(path, KEPT).to_string()
}

/// A student's name as the pages' `data-student` carries it for the script, which decodes it
/// (`decodeURIComponent`) into the key of their hand scores: percent-encoded as a link is.
fn key(student: &str) -> String {
    href(student)
}

/// A student's page: their gallery page in [`FOLDER`], and their feedback page (the Markdown
/// beside it, `.md`) in the feedback's folder.
pub fn page_name(student: &str) -> String {
    format!("{}.html", file_stem(student))
}

/// A whole page titled `title` around `body`; `root` leads from the page to the report
/// directory (`""` or `"../"`).
fn page(title: &str, root: &str, body: Markup) -> String {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) }
                link rel="stylesheet" href={ (root) (FOLDER) "/" (STYLE.0) };
                script src={ (root) (FOLDER) "/" (SCRIPT.0) } defer {}
            }
            body data-root=(root) { (body) }
        }
    }
    .into_string()
}

/// The line that says whether scores can be typed; the script fills it in.
fn mode() -> Markup {
    html! {
        p id="mode" class="mode" {
            "Read only: opened as a file. Start " code { "grade gallery DIR" }
            " and open the address it prints to type scores."
        }
    }
}

/// The categories with a part graded by hand, in rubric order.
fn graded(rubric: &Rubric) -> impl Iterator<Item = &Category> {
    rubric
        .categories
        .iter()
        .filter(|c| c.parts().iter().any(|p| !p.automatic))
}

/// The class page around `rows`, each one of [`class_row`]'s: with the button that writes the
/// feedback files of every student whose hand grading is done (the script enables it when the
/// page is served) and the link to the similar pairs `grade class --report` writes beside it.
pub fn class_page_of(rubric: &Rubric, rows: &[Markup]) -> String {
    let body = html! {
        header {
            h1 { (rubric.title) ": the gallery" }
            (mode())
            p class="feedback" {
                button id="feedback" type="button" disabled { "Write feedback files" }
                " " span id="feedback-status" role="status" {}
            }
            p class="similar" {
                a href="similarity/index.html" { "Similar pairs" }
                ": leads for a person to judge, never a deduction."
            }
        }
        main {
            table class="class" {
                thead {
                    tr {
                        th { "Student" } th { "Window" } th { "Automatic total" } th { "Build" }
                        th { "Window steps seen" } th { "Hand-scored items" } th { "Feedback" }
                    }
                }
                tbody { @for row in rows { (row) } }
            }
        }
    };
    page(&format!("{}: the gallery", rubric.title), "", body)
}

/// `result`'s row on the class page: their name linked to their page, their window, their
/// automatic total (and what of it is not counted yet), build, window steps seen, hand-scored
/// items (of their `marks`) and, once `feedback` is written, a link to it.
pub fn class_row(
    rubric: &Rubric,
    result: &StudentResult,
    marks: Option<&Marks>,
    reports: &Path,
    feedback: bool,
) -> Markup {
    let items: usize = graded(rubric).map(|c| c.manual.len()).sum();
    let (earned, max) = result.total();
    let scored: usize = marks.map_or(0, |m| m.values().map(|c| c.scored()).sum());
    html! {
        tr data-student=(key(&result.student)) data-items=(items) {
            td {
                a data-page href=(href(&format!("{FOLDER}/{}", page_name(&result.student)))) {
                    (inert::line(&result.student))
                }
            }
            td { @if let Some(thumbnail) = thumbnail(result, reports) { (thumbnail) } }
            td { (points(earned)) " / " (points(max)) (incomplete(result)) }
            td { (result.build.as_ref().map_or("", build_word)) }
            td { (window_count(result.window.as_ref())) }
            td class="scored" { (scored) " of " (items) }
            td class="feedback" {
                @if feedback {
                    a href=(href(&format!("{FEEDBACK_FOLDER}/{}", page_name(&result.student)))) {
                        "feedback"
                    }
                }
            }
        }
    }
}

/// What follows an automatic total that leaves out a speed-up not counted: `, without
/// Threading: not judged on 1 CPU`; nothing when every case counted.
fn incomplete(result: &StudentResult) -> String {
    result
        .not_counted()
        .filter_map(|case| {
            Some(format!(
                ", without {}: {}",
                case.category,
                case_not_counted(case)?
            ))
        })
        .collect()
}

/// How many window steps were seen: `5 of 7`, or why none were.
fn window_count(window: Option<&WindowResult>) -> String {
    match window {
        None => "not observed".into(),
        Some(WindowResult::Unobserved(_)) => "no window".into(),
        Some(WindowResult::Observed(observation)) => {
            let seen = observation
                .checks
                .iter()
                .filter(|c| c.status == StepResult::Pass)
                .count();
            format!("{seen} of {}", observation.checks.len())
        }
    }
}

/// A screenshot's link from the page at `root` (which leads to the report directory):
/// relative to it when the screenshots are inside it.
fn shot(observation: &Observation, name: &str, root: &str, reports: &Path) -> String {
    let path = observation.screenshots.join(name);
    match path.strip_prefix(reports) {
        Ok(inside) => href(&format!("{root}{}", inside.to_string_lossy())),
        Err(_) => href(&path.to_string_lossy()),
    }
}

/// The class page's small picture of a student's window: the grid step's last screenshot.
fn thumbnail(result: &StudentResult, reports: &Path) -> Option<Markup> {
    let Some(WindowResult::Observed(observation)) = &result.window else {
        return None;
    };
    let grid = observation.check(Step::Grid)?;
    let name = window::screenshots(grid).pop()?;
    Some(picture(grid, observation, &name, "", reports))
}

/// One screenshot of `check`, linked to the whole picture, cut to the window where its place
/// on the screen is known.
fn picture(
    check: &Check,
    observation: &Observation,
    name: &str,
    root: &str,
    reports: &Path,
) -> Markup {
    let link = shot(observation, name, root, reports);
    html! {
        a href=(link) title=(name) {
            @match crop(check, observation) {
                // The window's part of the screen, at its size (the style sheet zooms it out).
                Some(rect) => span class="crop"
                    style={ "width:" (rect.width) "px;height:" (rect.height) "px" } {
                    img loading="lazy" src=(link) alt=(name)
                        style={ "margin:" (-rect.y) "px 0 0 " (-rect.x) "px" };
                },
                None => img loading="lazy" src=(link) alt=(name) class="whole";,
            }
        }
    }
}

/// The window observed, as HTML: each step with its word, its sentence and its screenshots.
fn window_html(window: Option<&WindowResult>, reports: &Path) -> Markup {
    let observation = match window {
        Some(WindowResult::Observed(observation)) => Some(observation),
        _ => None,
    };
    // The lines after the steps' own: why there was no window, where the screenshots are.
    let lines = window.map_or(Vec::new(), window::lines);
    let after = observation.map_or(0, |o| o.checks.len());
    html! {
        h3 { (window::HEADING) }
        @if window.is_none() {
            p { "Not observed: grade class ran without --window." }
        }
        @if let Some(observation) = observation {
            ul class="steps" {
                @for check in &observation.checks {
                    @let class = match check.status {
                        StepResult::Pass => "seen",
                        StepResult::Fail => "not-seen",
                        StepResult::NotObserved => "unobserved",
                    };
                    @let shots = window::screenshots(check);
                    li class=(class) {
                        b { (window::status_word(check.status)) } ": "
                        (window::sentence(check, observation))
                        @if !shots.is_empty() {
                            span class="shots" {
                                @for name in &shots {
                                    (picture(check, observation, name, "../", reports))
                                }
                            }
                        }
                    }
                }
            }
        }
        @for line in lines.iter().skip(after) {
            p { (line) }
        }
    }
}

/// The part of the screen a check's screenshots are shown cut to: the dialog's, or the game
/// window's as the grid step measured it; `None` for the pictures of the window alone (the
/// likeness step's) or when the window was not measured.
fn crop(check: &Check, observation: &Observation) -> Option<Rect> {
    match (&check.measured, check.step) {
        (Measured::Dialog { geometry, .. }, _) => Some(*geometry),
        (_, Step::Dialog | Step::OwnWindow) => None,
        _ => match observation.check(Step::Grid).map(|c| &c.measured) {
            Some(Measured::Grid { window, .. }) => Some(*window),
            _ => None,
        },
    }
}

/// The style facts as HTML, a line each.
fn style_html(result: &StudentResult) -> Markup {
    html! {
        h3 { (style::NOT_SCORED) }
        @match &result.style {
            None => p { "Not gathered: grade class ran without --style." },
            Some(facts) => ul class="facts" {
                @for line in style::lines(facts, result) { li { (line) } }
            },
        }
    }
}

/// The scaling view's plot with its table's line, when it went beyond two threads; whether the
/// machine was simulated.
fn scaling_html(result: &StudentResult) -> Option<Markup> {
    let speedup = result.speedup()?;
    let svg = plot::scaling_svg(&speedup.scaling)?;
    let note = threading::scaling_note(&speedup.scaling)?;
    let simulated = speedup.chosen.as_ref().and_then(threading::simulated_note);
    Some(html! {
        figure class="scaling" {
            (svg)
            figcaption {
                (note)
                @if let Some(simulated) = simulated { " " strong { (simulated) } }
            }
        }
    })
}

/// One category graded by hand: its checklist with a number box per item and a comment box,
/// beside its evidence.
fn category_html(
    category: &Category,
    marks: Option<&Marks>,
    result: &StudentResult,
    reports: &Path,
) -> Markup {
    let given = marks.and_then(|m| m.get(&category.name));
    let sum = given.and_then(|g| g.sum()).map_or("?".into(), points);
    html! {
        section class="category" data-category=(category.name) {
            h2 {
                (category.name) " (by hand): " output class="sum" { (sum) }
                " / " (points(category.manual_points()))
            }
            div class="columns" {
                div class="checklist" {
                    ol {
                        @for (index, (item_points, text)) in
                            category.items(result.language).into_iter().enumerate()
                        {
                            @let value = given
                                .and_then(|g| g.items.get(index).copied().flatten())
                                .map_or(String::new(), points);
                            li {
                                label {
                                    input type="number" data-item=(index) min="0"
                                        max=(points(item_points)) step="0.5" value=(value) disabled;
                                    " / " (points(item_points))
                                }
                                " " (text)
                            }
                        }
                    }
                    label class="comment" {
                        "Comment"
                        textarea data-comment rows="3" disabled {
                            (given.map_or("", |g| g.comment.as_str()))
                        }
                    }
                }
                div class="evidence" {
                    @match category.evidence {
                        Some(Evidence::Window) => (window_html(result.window.as_ref(), reports)),
                        Some(Evidence::Style) => (style_html(result)),
                        Some(Evidence::Threads) => {
                            h3 { "The thread design" }
                            p { (style::pool(result)) }
                            @if let Some(scaling) = scaling_html(result) { (scaling) }
                        }
                        None => p { "The kit gathers nothing for this category." },
                    }
                }
            }
        }
    }
}

/// A student's page: the automatic scores, then each category graded by hand beside its
/// evidence, and a Save button. `reports` is the report directory, which the screenshots'
/// links are made relative to.
pub fn student_page(
    rubric: &Rubric,
    result: &StudentResult,
    marks: Option<&Marks>,
    reports: &Path,
) -> String {
    let student = inert::line(&result.student);
    let (total, max) = result.total();
    let body = html! {
        header {
            p {
                a data-page href={ "../" (CLASS_PAGE) } { "All students" } " \u{b7} "
                a href=(href(&format!("../{}.md", file_stem(&result.student)))) {
                    "The Markdown report"
                }
            }
            h1 { (student) }
            (mode())
        }
        main {
            table class="scores" {
                thead { tr { th { "Category" } th { "Points" } } }
                tbody {
                    @for score in result.categories(rubric) {
                        @let earned = match (score.earned, category_not_counted(result, &score.name)) {
                            (None, _) => format!("by hand / {}", points(score.max)),
                            (Some(earned), None) => format!("{} / {}", points(earned), points(score.max)),
                            (Some(_), Some(why)) => format!("not counted: {why}"),
                        };
                        tr { td { (score.name) } td { (earned) } }
                    }
                    tr {
                        td { "Automatic total" }
                        td { (points(total)) " / " (points(max)) (incomplete(result)) }
                    }
                }
            }
            form id="marks" data-student=(key(&result.student)) {
                @for category in graded(rubric) {
                    (category_html(category, marks, result, reports))
                }
                p class="save" {
                    button type="submit" disabled { "Save" }
                    " " span id="status" role="status" {}
                }
            }
        }
    };
    page(&format!("{}: {student}", rubric.title), "../", body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::fixtures;

    #[test]
    fn a_link_is_percent_encoded() {
        assert_eq!(href("window/a b/#1.png"), "window/a%20b/%231.png");
    }

    #[test]
    fn a_hostile_name_never_reaches_the_page_as_markup() {
        let name = "<script>alert(1)</script><img src=x onerror=alert(1)>\"'";
        let result = fixtures::student(name, Vec::new(), 1);
        let rubric = fixtures::hand_rubric();
        let page = student_page(&rubric, &result, None, Path::new("/r"));
        let class = class_page_of(
            &rubric,
            &[class_row(&rubric, &result, None, Path::new("/r"), false)],
        );
        let shown =
            "&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;&quot;'";
        for html in [&page, &class] {
            assert!(!html.contains("<img src=x"), "{html}");
            assert!(
                html.contains(&format!(">{shown}<")),
                "shown as text: {html}"
            );
            assert!(!html.contains("<script>"), "no inline script: {html}");
        }
        assert!(page.contains("A &lt;grid&gt;"), "{page}");
    }

    #[test]
    fn what_a_student_printed_is_shown_escaped_and_their_key_kept() {
        let result = fixtures::hostile_student(false);
        let rubric = fixtures::hand_rubric();
        let page = student_page(&rubric, &result, None, Path::new("/r"));
        let row = class_row(&rubric, &result, None, Path::new("/r"), false).into_string();
        crate::report::inert::assert_inert(&page);
        assert!(page.contains("<h1>ann\\u{1b}[2J"), "{page}");
        assert!(page.contains("data-student=\"ann%1B%5B2J"), "{page}");
        assert!(row.contains(">ann\\u{1b}[2J"), "{row}");
        assert!(row.starts_with("<tr data-student=\"ann%1B%5B2J"), "{row}");
    }

    #[test]
    fn a_row_links_its_student_s_feedback_once_written() {
        let result = fixtures::student("ann lee", Vec::new(), 1);
        let row = |feedback| {
            class_row(
                &fixtures::hand_rubric(),
                &result,
                None,
                Path::new("/r"),
                feedback,
            )
            .into_string()
        };
        assert!(
            row(false).ends_with("<td class=\"feedback\"></td></tr>"),
            "{}",
            row(false)
        );
        assert!(
            row(true).ends_with(
                "<td class=\"feedback\"><a href=\"feedback/ann_lee.html\">feedback</a></td></tr>"
            ),
            "{}",
            row(true)
        );
    }

    #[test]
    fn saved_scores_fill_the_boxes() {
        let result = fixtures::student("ann", Vec::new(), 1);
        let marks = crate::report::gui_marks(&[Some(2.5), Some(2.0)], "Nice </textarea> grid");
        let page = student_page(
            &fixtures::hand_rubric(),
            &result,
            Some(&marks),
            Path::new("/r"),
        );
        for part in [
            "data-item=\"0\" min=\"0\" max=\"3\" step=\"0.5\" value=\"2.5\"",
            "<output class=\"sum\">4.5</output> / 5",
            "Nice &lt;/textarea&gt; grid</textarea>",
            "Not observed: grade class ran without --window.",
        ] {
            assert!(page.contains(part), "{part:?} not in {page}");
        }
    }

    #[test]
    fn a_category_shows_the_evidence_it_declares_whatever_its_name() {
        let result = fixtures::student("ann", Vec::new(), 1);
        let mut rubric = fixtures::hand_rubric();
        let page = |rubric: &Rubric| student_page(rubric, &result, None, Path::new("/r"));
        rubric.categories[1].name = "Graphical interface".into();
        assert!(page(&rubric).contains("Not observed: grade class ran without --window."));
        rubric.categories[1].name = "GUI and threads".into();
        rubric.categories[1].evidence = None;
        assert!(!page(&rubric).contains("Not observed"));
        assert!(page(&rubric).contains("The kit gathers nothing for this category."));
        rubric.categories[1].evidence = Some(Evidence::Threads);
        assert!(page(&rubric).contains("<h3>The thread design</h3>"));
    }
}
