//! `grade export GRADEBOOK`: the gradebook `grade class` wrote (with the hand scores the
//! gallery merged into it) written in the layouts Canvas, Moodle and Gradescope import
//! ([`crate::report::export`]), its students completed or overridden by a roster and the
//! roster's students without a row added as missing. What cannot be exported as a grade is said
//! on standard error, never silently dropped: the students with no final total yet (no grade
//! in their cell), and the rows left out because the platform could not tell whose they are
//! (no identifier, or one another row has too), which also make the command fail unless it is
//! told `--allow-missing`.

use std::fmt;
use std::fs;
use std::path::PathBuf;

use super::files::{find_kit, replace};
use crate::kit::roster::Roster;
use crate::kit::{KitError, Rubric};
use crate::report::export::{self, Graded, Layout, LeftOut, MoodleBy};
use crate::report::inert;
use crate::report::words::students;

/// What `grade export` was asked.
#[derive(Clone, Debug, Default)]
pub struct ExportRun {
    /// The gradebook `grade class` wrote.
    pub gradebook: PathBuf,
    /// Where Canvas's import goes, if asked.
    pub canvas: Option<PathBuf>,
    /// Where Moodle's import goes, if asked.
    pub moodle: Option<PathBuf>,
    /// The column Moodle's import maps to its users.
    pub moodle_by: MoodleBy,
    /// Where the scores for Gradescope's manually graded questions go, if asked.
    pub gradescope: Option<PathBuf>,
    /// The roster that completes or overrides who each row is, and names everyone.
    pub roster: Option<PathBuf>,
    /// Whether rows left out (no identifier, or a repeated one) still let the command succeed.
    pub allow_missing: bool,
    /// The kit's directory, if given (for the rubric's title and checklists).
    pub kit: Option<PathBuf>,
}

/// Why `grade export` failed (exit status 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExportError {
    /// A file missing, malformed or not written.
    Unusable(String),
    /// The files were written, but this many students are left out of them.
    LeftOut(usize),
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExportError::Unusable(why) => f.write_str(why),
            ExportError::LeftOut(count) => write!(
                f,
                "{} left out of the files written (named above), so that no grade reaches the \
                 wrong student: give a --roster with their student id, email or login, or \
                 --allow-missing to import without them",
                students(*count)
            ),
        }
    }
}

impl From<KitError> for ExportError {
    fn from(error: KitError) -> Self {
        ExportError::Unusable(error.0)
    }
}

/// A platform's layout of the gradebook's rows.
type Lay<'a> = dyn Fn(&[Graded]) -> Layout + 'a;

/// Writes each export asked for, saying on standard error what is blank or left out.
pub fn run(run: &ExportRun) -> Result<(), ExportError> {
    let rubric = Rubric::load(&find_kit(run.kit.as_deref())?.join("rubric.toml"))?;
    let roster = run
        .roster
        .as_deref()
        .map(Roster::load)
        .transpose()
        .map_err(KitError::from)?;
    let shown = run.gradebook.display();
    let text = fs::read_to_string(&run.gradebook)
        .map_err(|e| ExportError::Unusable(format!("{shown}: cannot read the gradebook: {e}")))?;
    let graded = export::read(&text, &rubric, roster.as_ref())
        .map_err(|e| ExportError::Unusable(format!("{shown}: {e}")))?;
    say_missing(&graded);
    let by = run.moodle_by;
    let layouts: [(&Option<PathBuf>, &str, &Lay); 3] = [
        (&run.canvas, "Canvas", &|g| export::canvas(&rubric, g)),
        (&run.moodle, "Moodle", &|g| export::moodle(&rubric, g, by)),
        (&run.gradescope, "Gradescope", &|g| {
            export::gradescope(&rubric, g)
        }),
    ];
    let mut left_out = 0;
    for (out, platform, layout) in layouts {
        let Some(out) = out else {
            continue;
        };
        let layout = layout(&graded);
        replace(out, &layout.text)?;
        eprintln!("grade export: wrote {} ({platform})", out.display());
        let out = out.display();
        if !layout.blank.is_empty() {
            let what = match platform {
                "Gradescope" => "have hand scores not typed yet",
                _ => {
                    "have no grade (no final total yet: hand scoring not done or a speed-up not \
                      counted; or missing, with the rubric's missing = \"blank\")"
                }
            };
            eprintln!(
                "grade export: {} {what}: no grade in {out}: {}",
                students(layout.blank.len()),
                names(&layout.blank)
            );
        }
        for left in &layout.left_out {
            eprintln!(
                "grade export: left out of {out}: {}",
                left_out_line(left, platform)
            );
        }
        left_out = left_out.max(layout.left_out.len());
    }
    match left_out {
        0 => Ok(()),
        _ if run.allow_missing => Ok(()),
        count => Err(ExportError::LeftOut(count)),
    }
}

/// Says who on the roster has no submission: exported as missing.
fn say_missing(graded: &[Graded]) {
    let missing: Vec<String> = graded
        .iter()
        .filter(|g| g.folder.is_empty())
        .flat_map(|g| g.members.iter().map(|m| m.shown()))
        .collect();
    if !missing.is_empty() {
        eprintln!(
            "grade export: {} submitted nothing (exported as missing, with the rubric's missing \
             grade): {}",
            students(missing.len()),
            names(&missing)
        );
    }
}

/// Why `left` is left out of `platform`'s file, in words.
fn left_out_line(left: &LeftOut, platform: &str) -> String {
    match left {
        LeftOut::Nobody(folder) => format!("the row of {} names no student", inert::line(folder)),
        LeftOut::Blank(who) => format!(
            "{} has no identifier {platform} maps students by (a student id, an email or a login)",
            inert::line(who)
        ),
        LeftOut::Repeated(who, key) => format!(
            "{}: {} is another student's or row's too, and {platform} would give both grades to \
             one of them",
            inert::line(who),
            inert::line(key)
        ),
    }
}

/// Names made inert and joined by commas, for a message.
fn names(list: &[String]) -> String {
    let inert: Vec<String> = list.iter().map(|name| inert::line(name)).collect();
    inert.join(", ")
}
