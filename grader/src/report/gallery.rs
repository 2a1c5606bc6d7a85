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
//! nothing) and HTML-escaped here, and the pages carry no script of their own: the one script is
//! [`SCRIPT`], a file beside them, so that the server's content security policy can refuse any
//! inline script that escaping ever missed. A student's name as the script knows them (the
//! key of their hand scores) is percent-encoded ([`key`]): kept exactly, with no character a
//! page would hide.

use std::fmt::Write;
use std::path::Path;

use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};

use super::building::build_word;
use super::feedback::{page_name as feedback_page, FOLDER as FEEDBACK_FOLDER};
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

/// `text` made safe for HTML text and for a double- or single-quoted attribute.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

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

/// A student's page, in [`FOLDER`].
pub fn page_name(student: &str) -> String {
    format!("{}.html", file_stem(student))
}

/// A page's head and the start of its body; `root` leads from the page to the report
/// directory (`""` or `"../"`).
fn head(title: &str, root: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<link rel=\"stylesheet\" href=\"{root}{FOLDER}/{}\">\n\
         <script src=\"{root}{FOLDER}/{}\" defer></script>\n</head>\n\
         <body data-root=\"{root}\">\n",
        escape(title),
        STYLE.0,
        SCRIPT.0
    )
}

/// The line that says whether scores can be typed; the script fills it in.
const MODE: &str = "<p id=\"mode\" class=\"mode\">Read only: opened as a file. Start <code>grade \
    gallery DIR</code> and open the address it prints to type scores.</p>\n";

/// The categories with a part graded by hand, in rubric order.
fn graded(rubric: &Rubric) -> impl Iterator<Item = &Category> {
    rubric
        .categories
        .iter()
        .filter(|c| c.parts().iter().any(|p| !p.automatic))
}

/// The class page around `rows`, each one of [`class_row`]'s.
pub fn class_page_of(rubric: &Rubric, rows: &[String]) -> String {
    let mut out = head(&format!("{}: the gallery", rubric.title), "");
    let _ = write!(
        out,
        "<header><h1>{}: the gallery</h1>\n{MODE}{FEEDBACK}{SIMILAR}</header>\n<main>\n\
         <table class=\"class\">\n<thead><tr><th>Student</th><th>Window</th>\
         <th>Automatic total</th><th>Build</th><th>Window steps seen</th>\
         <th>Hand-scored items</th><th>Feedback</th></tr></thead>\n<tbody>\n",
        escape(&rubric.title)
    );
    for row in rows {
        out.push_str(row);
    }
    out.push_str("</tbody>\n</table>\n</main>\n</body>\n</html>\n");
    out
}

/// The class page's button that writes the feedback files of every student whose hand grading
/// is done; the script enables it when the page is served.
const FEEDBACK: &str = "<p class=\"feedback\"><button id=\"feedback\" type=\"button\" disabled>\
    Write feedback files</button> <span id=\"feedback-status\" role=\"status\"></span></p>\n";

/// The class page's link to the similar pairs `grade class --report` writes beside it.
const SIMILAR: &str = "<p class=\"similar\"><a href=\"similarity/index.html\">Similar pairs</a>: \
    leads for a person to judge, never a deduction.</p>\n";

/// `result`'s row on the class page, one line: their name linked to their page, their window,
/// their automatic total (and what of it is not counted yet), build, window steps seen,
/// hand-scored items (of their `marks`) and, once `feedback` is written, a link to it.
pub fn class_row(
    rubric: &Rubric,
    result: &StudentResult,
    marks: Option<&Marks>,
    reports: &Path,
    feedback: bool,
) -> String {
    let items: usize = graded(rubric).map(|c| c.manual.len()).sum();
    let (earned, max) = result.total();
    let scored: usize = marks.map_or(0, |m| m.values().map(|c| c.scored()).sum());
    let link = match feedback {
        true => format!(
            "<a href=\"{}\">feedback</a>",
            escape(&href(&format!(
                "{FEEDBACK_FOLDER}/{}",
                feedback_page(&result.student)
            )))
        ),
        false => String::new(),
    };
    format!(
        "<tr data-student=\"{}\" data-items=\"{items}\"><td><a data-page href=\"{}\">{}</a>\
         </td><td>{}</td><td>{} / {}{}</td><td>{}</td><td>{}</td>\
         <td class=\"scored\">{scored} of {items}</td><td class=\"feedback\">{link}</td></tr>\n",
        key(&result.student),
        escape(&href(&format!("{FOLDER}/{}", page_name(&result.student)))),
        escape(&inert::line(&result.student)),
        thumbnail(result, reports),
        points(earned),
        points(max),
        escape(&incomplete(result)),
        result.build.as_ref().map_or("", build_word),
        escape(&window_count(result.window.as_ref())),
    )
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
fn thumbnail(result: &StudentResult, reports: &Path) -> String {
    let Some(WindowResult::Observed(observation)) = &result.window else {
        return String::new();
    };
    let Some(grid) = observation.check(Step::Grid) else {
        return String::new();
    };
    window::screenshots(grid)
        .last()
        .map_or(String::new(), |name| {
            picture(grid, observation, name, "", reports)
        })
}

/// One screenshot of `check`, linked to the whole picture, cut to the window where its place
/// on the screen is known.
fn picture(
    check: &Check,
    observation: &Observation,
    name: &str,
    root: &str,
    reports: &Path,
) -> String {
    let link = escape(&shot(observation, name, root, reports));
    let image = format!(
        "<img loading=\"lazy\" src=\"{link}\" alt=\"{}\"",
        escape(name)
    );
    let shown = match crop(check, observation) {
        // The window's part of the screen, at its size (the style sheet zooms it out).
        Some(rect) => format!(
            "<span class=\"crop\" style=\"width:{}px;height:{}px\">{image} \
             style=\"margin:{}px 0 0 {}px\"></span>",
            rect.width, rect.height, -rect.y, -rect.x
        ),
        None => format!("{image} class=\"whole\">"),
    };
    format!("<a href=\"{link}\" title=\"{}\">{shown}</a>", escape(name))
}

/// The window observed, as HTML: each step with its word, its sentence and its screenshots.
fn window_html(window: Option<&WindowResult>, reports: &Path) -> String {
    let mut out = format!("<h3>{}</h3>\n", escape(window::HEADING));
    let Some(observed) = window else {
        out.push_str("<p>Not observed: grade class ran without --window.</p>\n");
        return out;
    };
    let WindowResult::Observed(observation) = observed else {
        for line in window::lines(observed) {
            let _ = writeln!(out, "<p>{}</p>", escape(&line));
        }
        return out;
    };
    out.push_str("<ul class=\"steps\">\n");
    for check in &observation.checks {
        let _ = write!(
            out,
            "<li class=\"{}\"><b>{}</b>: {}",
            match check.status {
                StepResult::Pass => "seen",
                StepResult::Fail => "not-seen",
                StepResult::NotObserved => "unobserved",
            },
            escape(window::status_word(check.status)),
            escape(&window::sentence(check, observation))
        );
        let shots = window::screenshots(check);
        if !shots.is_empty() {
            out.push_str("<span class=\"shots\">");
            for name in shots {
                out.push_str(&picture(check, observation, &name, "../", reports));
            }
            out.push_str("</span>");
        }
        out.push_str("</li>\n");
    }
    out.push_str("</ul>\n");
    for line in window::lines(observed)
        .iter()
        .skip(observation.checks.len())
    {
        let _ = writeln!(out, "<p>{}</p>", escape(line));
    }
    out
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
fn style_html(result: &StudentResult) -> String {
    let mut out = format!("<h3>{}</h3>\n", escape(style::NOT_SCORED));
    match &result.style {
        None => out.push_str("<p>Not gathered: grade class ran without --style.</p>\n"),
        Some(facts) => {
            out.push_str("<ul class=\"facts\">\n");
            for line in style::lines(facts, result) {
                let _ = writeln!(out, "<li>{}</li>", escape(&line));
            }
            out.push_str("</ul>\n");
        }
    }
    out
}

/// The scaling view's plot with its table's line, when it went beyond two threads; whether the
/// machine was simulated.
fn scaling_html(result: &StudentResult) -> String {
    let Some(speedup) = result.speedup() else {
        return String::new();
    };
    let (Some(svg), Some(note)) = (
        plot::scaling_svg(&speedup.scaling),
        threading::scaling_note(&speedup.scaling),
    ) else {
        return String::new();
    };
    let simulated = speedup
        .chosen
        .as_ref()
        .and_then(threading::simulated_note)
        .map_or(String::new(), |n| {
            format!(" <strong>{}</strong>", escape(&n))
        });
    format!(
        "<figure class=\"scaling\">\n{svg}\n<figcaption>{}{simulated}</figcaption>\n</figure>\n",
        escape(&note)
    )
}

/// One category graded by hand: its checklist with a number box per item and a comment box,
/// beside its evidence.
fn category_html(
    category: &Category,
    marks: Option<&Marks>,
    result: &StudentResult,
    reports: &Path,
) -> String {
    let given = marks.and_then(|m| m.get(&category.name));
    let manual = category.manual_points();
    let sum = given.and_then(|g| g.sum()).map_or("?".into(), points);
    let mut out = format!(
        "<section class=\"category\" data-category=\"{}\">\n<h2>{} (by hand): \
         <output class=\"sum\">{sum}</output> / {}</h2>\n<div class=\"columns\">\n\
         <div class=\"checklist\">\n<ol>\n",
        escape(&category.name),
        escape(&category.name),
        points(manual)
    );
    for (index, (item_points, text)) in category.items(result.language).into_iter().enumerate() {
        let value = given
            .and_then(|g| g.items.get(index).copied().flatten())
            .map_or(String::new(), points);
        let _ = writeln!(
            out,
            "<li><label><input type=\"number\" data-item=\"{index}\" min=\"0\" max=\"{}\" \
             step=\"0.5\" value=\"{value}\" disabled> / {}</label> {}</li>",
            points(item_points),
            points(item_points),
            escape(&text)
        );
    }
    let comment = given.map_or("", |g| g.comment.as_str());
    let _ = write!(
        out,
        "</ol>\n<label class=\"comment\">Comment<textarea data-comment rows=\"3\" disabled>{}\
         </textarea></label>\n</div>\n<div class=\"evidence\">\n",
        escape(comment)
    );
    match category.evidence {
        Some(Evidence::Window) => out.push_str(&window_html(result.window.as_ref(), reports)),
        Some(Evidence::Style) => out.push_str(&style_html(result)),
        Some(Evidence::Threads) => {
            let _ = writeln!(
                out,
                "<h3>The thread design</h3>\n<p>{}</p>",
                escape(&style::pool(result))
            );
            out.push_str(&scaling_html(result));
        }
        None => out.push_str("<p>The kit gathers nothing for this category.</p>\n"),
    }
    out.push_str("</div>\n</div>\n</section>\n");
    out
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
    let student = escape(&inert::line(&result.student));
    let mut out = head(
        &format!("{}: {}", rubric.title, inert::line(&result.student)),
        "../",
    );
    let _ = write!(
        out,
        "<header><p><a data-page href=\"../{CLASS_PAGE}\">All students</a> \u{b7} \
         <a href=\"{}\">The Markdown report</a></p>\n<h1>{student}</h1>\n{MODE}</header>\n\
         <main>\n<table class=\"scores\">\n<thead><tr><th>Category</th><th>Points</th></tr>\
         </thead>\n<tbody>\n",
        escape(&href(&format!("../{}.md", file_stem(&result.student))))
    );
    for score in result.categories(rubric) {
        let earned = match (score.earned, category_not_counted(result, &score.name)) {
            (None, _) => format!("by hand / {}", points(score.max)),
            (Some(earned), None) => format!("{} / {}", points(earned), points(score.max)),
            (Some(_), Some(why)) => format!("not counted: {why}"),
        };
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td></tr>",
            escape(&score.name),
            escape(&earned)
        );
    }
    let (earned, max) = result.total();
    let _ = write!(
        out,
        "<tr><td>Automatic total</td><td>{} / {}{}</td></tr>\n</tbody>\n</table>\n\
         <form id=\"marks\" data-student=\"{}\">\n",
        points(earned),
        points(max),
        escape(&incomplete(result)),
        key(&result.student)
    );
    for category in graded(rubric) {
        out.push_str(&category_html(category, marks, result, reports));
    }
    out.push_str(
        "<p class=\"save\"><button type=\"submit\" disabled>Save</button> \
         <span id=\"status\" role=\"status\"></span></p>\n</form>\n</main>\n</body>\n</html>\n",
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::fixtures;
    use crate::judge::result::hand::CategoryMarks;

    #[test]
    fn everything_is_escaped() {
        assert_eq!(
            escape("<script>alert('x') & \"y\"</script>"),
            "&lt;script&gt;alert(&#39;x&#39;) &amp; &quot;y&quot;&lt;/script&gt;"
        );
        assert_eq!(href("window/a b/#1.png"), "window/a%20b/%231.png");
    }

    #[test]
    fn a_hostile_name_never_reaches_the_page_as_markup() {
        let name = "<img src=x onerror=alert(1)>\"'";
        let result = fixtures::student(name, Vec::new(), 1);
        let rubric = fixtures::hand_rubric();
        let page = student_page(&rubric, &result, None, Path::new("/r"));
        let class = class_page_of(
            &rubric,
            &[class_row(&rubric, &result, None, Path::new("/r"), false)],
        );
        for html in [&page, &class] {
            assert!(!html.contains("<img src=x"), "{html}");
            assert!(html.contains("&lt;img src=x onerror=alert(1)&gt;&quot;&#39;"));
            assert!(!html.contains("<script>"), "no inline script: {html}");
        }
        assert!(page.contains("A &lt;grid&gt;"), "{page}");
    }

    #[test]
    fn what_a_student_printed_is_shown_escaped_and_their_key_kept() {
        let result = fixtures::hostile_student(false);
        let rubric = fixtures::hand_rubric();
        let page = student_page(&rubric, &result, None, Path::new("/r"));
        let row = class_row(&rubric, &result, None, Path::new("/r"), false);
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
        };
        assert!(
            row(false).ends_with("<td class=\"feedback\"></td></tr>\n"),
            "{}",
            row(false)
        );
        assert!(
            row(true).ends_with(
                "<td class=\"feedback\"><a href=\"feedback/ann_lee.html\">feedback</a></td></tr>\n"
            ),
            "{}",
            row(true)
        );
    }

    #[test]
    fn saved_scores_fill_the_boxes() {
        let result = fixtures::student("ann", Vec::new(), 1);
        let mut marks = Marks::new();
        marks.insert(
            "GUI".into(),
            CategoryMarks {
                items: vec![Some(2.5), Some(2.0)],
                comment: "Nice </textarea> grid".into(),
            },
        );
        let page = student_page(
            &fixtures::hand_rubric(),
            &result,
            Some(&marks),
            Path::new("/r"),
        );
        assert!(page.contains("data-item=\"0\" min=\"0\" max=\"3\" step=\"0.5\" value=\"2.5\""));
        assert!(
            page.contains("<output class=\"sum\">4.5</output> / 5"),
            "{page}"
        );
        assert!(
            page.contains("Nice &lt;/textarea&gt; grid</textarea>"),
            "{page}"
        );
        assert!(page.contains("Not observed: grade class ran without --window."));
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
