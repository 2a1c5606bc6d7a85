//! `grade export GRADEBOOK`: the gradebook `grade class` wrote (with the hand scores the
//! gallery merged into it) written in the layouts Canvas, Moodle and Gradescope import
//! ([`crate::report::export`]), its students completed or overridden by a roster. What cannot
//! be exported as a grade is said on standard error, never silently dropped: the students with
//! no final total yet (their cell left blank), the rows that name no student the platform can
//! match (left out), and with a roster the rows it does not name and the students it names
//! with no row.

use std::fs;
use std::path::PathBuf;

use super::files::{find_kit, replace};
use crate::kit::roster::Roster;
use crate::kit::{KitError, Rubric};
use crate::report::export::{self, Graded, Layout};
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
    /// Where the scores for Gradescope's manually graded questions go, if asked.
    pub gradescope: Option<PathBuf>,
    /// The roster that completes or overrides who each row is.
    pub roster: Option<PathBuf>,
    /// The kit's directory, if given (for the rubric's title and checklists).
    pub kit: Option<PathBuf>,
}

/// Why `grade export` failed: a file missing, malformed or not written (exit status 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExportError(pub String);

impl std::fmt::Display for ExportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<KitError> for ExportError {
    fn from(error: KitError) -> Self {
        ExportError(error.0)
    }
}

/// A layout of the gradebook's rows for a platform.
type Lay = fn(&Rubric, &[Graded]) -> Layout;

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
        .map_err(|e| ExportError(format!("{shown}: cannot read the gradebook: {e}")))?;
    let graded = export::read(&text, &rubric, roster.as_ref())
        .map_err(|e| ExportError(format!("{shown}: {e}")))?;
    if let Some(roster) = &roster {
        say_roster(roster, &graded);
    }
    let layouts: [(&Option<PathBuf>, &str, Lay); 3] = [
        (&run.canvas, "Canvas", export::canvas),
        (&run.moodle, "Moodle", export::moodle),
        (&run.gradescope, "Gradescope", export::gradescope),
    ];
    for (out, platform, layout) in layouts {
        let Some(out) = out else {
            continue;
        };
        let layout = layout(&rubric, &graded);
        replace(out, &layout.text)?;
        eprintln!("grade export: wrote {} ({platform})", out.display());
        let out = out.display();
        if !layout.blank.is_empty() {
            let what = match platform {
                "Gradescope" => "have hand scores not typed yet",
                _ => "have no final total yet (hand scoring not done, or a speed-up not counted)",
            };
            eprintln!(
                "grade export: {} {what}: blank in {out}: {}",
                students(layout.blank.len()),
                names(&layout.blank)
            );
        }
        if !layout.unmatched.is_empty() {
            eprintln!(
                "grade export: {} of the gradebook name no student id or email, so {platform} \
                 could not match them: left out of {out} (give a --roster that names them): {}",
                rows_word(layout.unmatched.len()),
                names(&layout.unmatched)
            );
        }
    }
    Ok(())
}

/// Says which of the gradebook's rows the roster does not name, and which of its folders have
/// no row.
fn say_roster(roster: &Roster, graded: &[Graded]) {
    let folders: Vec<String> = graded.iter().map(|g| g.folder.clone()).collect();
    let unnamed: Vec<String> = folders
        .iter()
        .filter(|f| roster.of(f).next().is_none())
        .cloned()
        .collect();
    if !unnamed.is_empty() {
        eprintln!(
            "grade export: the roster does not name {} of the gradebook (exported as the \
             gradebook names them): {}",
            rows_word(unnamed.len()),
            names(&unnamed)
        );
    }
    let missing = roster.missing(&folders);
    if !missing.is_empty() {
        eprintln!(
            "grade export: the roster names {} with no row in the gradebook (no grade exported): \
             {}",
            rows_word(missing.len()).replace("row", "folder"),
            names(&missing)
        );
    }
}

/// `count` rows, in words.
fn rows_word(count: usize) -> String {
    match count {
        1 => "1 row".into(),
        _ => format!("{count} rows"),
    }
}

/// Names made inert and joined by commas, for a message.
fn names(list: &[String]) -> String {
    let inert: Vec<String> = list.iter().map(|name| inert::line(name)).collect();
    inert.join(", ")
}
