//! What stands in for one student's file when its reporter failed (a bug of grade's, caught):
//! the same file, a terminal line, a gradebook row or a class page's row, saying "report
//! failed: why", so that a reporter's bug costs that file alone and never leaves a student out;
//! and what is said of a student whose record cannot be read, left out of what the records make.

use maud::{html, Markup, DOCTYPE};

use super::gradebook;
use super::inert;
use crate::kit::Rubric;

/// What every stand-in says, before why.
pub const REPORT_FAILED: &str = "report failed";

/// The words of every stand-in: `report failed: why`.
fn said(why: &str) -> String {
    format!("{REPORT_FAILED}: {}", inert::line(why))
}

/// What is said of `student`, whose record in the class store cannot be read (`why`), left out
/// of the files being made from the records.
pub fn unreadable(student: &str, why: &str) -> String {
    let student = inert::line(student);
    format!(
        "{student}: record unreadable, left out: {}",
        inert::line(why)
    )
}

/// `student`'s line on the terminal.
pub fn line(student: &str, why: &str) -> String {
    format!("{}: {}", inert::line(student), said(why))
}

/// `student`'s Markdown file (their report, or their feedback's text).
pub fn markdown(student: &str, why: &str) -> String {
    format!("# {}\n\n{}\n", inert::line(student), said(why))
}

/// `student`'s HTML page (their gallery page, or their feedback page).
pub fn page(student: &str, why: &str) -> String {
    let student = inert::line(student);
    html! {
        (DOCTYPE)
        html lang="en" {
            head { meta charset="utf-8"; title { (student) } }
            body { h1 { (student) } p { (said(why)) } }
        }
    }
    .into_string()
}

/// `student`'s row on the gallery's class page: their name, and why the rest is missing.
pub fn class_row(student: &str, why: &str) -> Markup {
    html! { tr { td { (inert::line(student)) } td colspan="6" { (said(why)) } } }
}

/// `student`'s row in the gradebook of `rubric` and `timed` (with the columns of who when
/// `joined`): their name, no points (a blank, as for a student not graded), and why in the
/// build's column.
pub fn row(
    rubric: &Rubric,
    timed: &[String],
    joined: bool,
    student: &str,
    why: &str,
) -> Vec<String> {
    let header = match joined {
        true => gradebook::joined_header(rubric, timed),
        false => gradebook::header(rubric, timed),
    };
    let mut row = vec![String::new(); header.len()];
    row[0] = inert::cell(student);
    if let Some(build) = header.iter().position(|h| h == gradebook::BUILD) {
        row[build] = said(why);
    }
    row
}
