//! `grade export DIR`: the class `grade class` graded into DIR (its report directory, or the
//! folder of its gradebook), as the class store's records have it with the hand scores typed
//! in the gallery, written in the layouts Canvas, Moodle and Gradescope import
//! ([`crate::report::export`]), its students completed or overridden by a roster and the
//! roster's students without a row added as missing. What cannot be exported as a grade is said
//! on standard error, never silently dropped: the students with no final total yet (no grade
//! in their cell), and the rows left out because the platform could not tell whose they are
//! (no identifier, or one another row has too), which also make the command fail unless it is
//! told `--allow-missing`. Before the files, the reconciliation's table
//! ([`crate::report::reconcile`]): every roster student without a graded submission (and why),
//! every submission without a roster student, every student in two submissions (kept in one
//! by the rubric's `duplicates` rule) and every identifier matched only once normalised; the
//! command fails while any is open.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::files::{find_kit, parent, replace, FindKitError, WriteError};
use super::settle;
use crate::kit::reconcile::reconcile;
use crate::kit::roster::{Member, Roster, RosterError};
use crate::kit::rubric::RubricError;
use crate::kit::{Kit, LoadError, Rubric};
use crate::report::export::{self, Column, Graded, Layout, LeftOut, MoodleBy};
use crate::report::inert::{self, names};
use crate::report::numbers::{points as points_word, students};
use crate::report::reconcile as reconciled;
use crate::report::unreported;
use crate::store::{Store, StoreError};

/// What `grade export` was asked.
#[derive(Clone, Debug, Default)]
pub struct ExportRun {
    /// The class's report directory (or its gradebook, beside which its records are).
    pub class: PathBuf,
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
    /// Whether a gradebook graded without its timing cases (`--skip-timing`) is exported, out
    /// of the points it was graded for.
    pub partial: bool,
    /// The grade column's title, if not the rubric's.
    pub title: Option<String>,
    /// Canvas's id of the existing assignment the grades go to.
    pub canvas_id: Option<u64>,
}

/// Why `grade export` failed (exit status 1).
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The kit cannot be found.
    #[error(transparent)]
    Find(#[from] FindKitError),
    /// The rubric cannot be loaded.
    #[error(transparent)]
    Rubric(#[from] RubricError),
    /// The kit's cases cannot be loaded (for the points of its timing cases).
    #[error(transparent)]
    Kit(#[from] LoadError),
    /// The roster cannot be read.
    #[error(transparent)]
    Roster(#[from] RosterError),
    /// The class store cannot be read.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// An export cannot be written.
    #[error(transparent)]
    Write(#[from] WriteError),
    /// No class was graded into the folder given.
    #[error(
        "{}: no class graded there ({}/ is missing): give the --report directory of the grade \
         class run (or, without one, the folder of its gradebook)",
        .0.display(),
        crate::store::FOLDER
    )]
    NoClass(PathBuf),
    /// The files were written, but this many students are left out of them.
    #[error(
        "{} left out of the files written (named above), so that no grade reaches the wrong \
         student: give a --roster with their student id, email or login, or --allow-missing to \
         import without them",
        students(*.0)
    )]
    LeftOut(usize),
    /// The files were written, and this many findings of the reconciliation are open (its
    /// table said above).
    #[error(
        "{} open in the reconciliation of the roster and the class's submissions (its table \
         above): the files are written, but a grade may reach no one or the wrong student: \
         settle each (the roster, the export, or the rubric's duplicates = \"latest\" or \
         \"highest\"), or give --allow-missing to import without those who have no grade",
        crate::report::numbers::counted(*.0, "finding")
    )]
    Unreconciled(usize),
    /// The class was graded without its timing cases (`--skip-timing`): its totals are out of
    /// `possible`, not the assignment's `points`; exported only when told `--partial`.
    #[error(
        "the class was graded with --skip-timing: its totals are out of {p}, not the \
         assignment's {}. Grade it again without --skip-timing (grade again), or give --partial \
         to export it out of {p} (Canvas's Points Possible {p}; a Moodle grade item's maximum is \
         Moodle's to set: set it to {p})",
        points_word(*points),
        p = points_word(*possible)
    )]
    Partial {
        /// What the totals are out of.
        possible: f64,
        /// The assignment's points.
        points: f64,
    },
    /// Some submissions were graded without their timing cases and some with: no one points
    /// possible fits them all (how many of how many).
    #[error(
        "{0} of the {1} submissions were graded with --skip-timing and the others with their \
         timing cases: no one points possible fits both. Grade them all the same way (grade \
         again) before exporting"
    )]
    Mixed(usize, usize),
}

/// A platform's layout of the gradebook's rows.
type Lay<'a> = dyn Fn(&[Graded]) -> Layout + 'a;

/// Writes each export asked for, saying on standard error what is blank or left out.
pub fn run(run: &ExportRun) -> Result<(), ExportError> {
    let kit = find_kit(run.kit.as_deref())?;
    let rubric = Rubric::load(&kit.join("rubric.toml"))?;
    let roster = run.roster.as_deref().map(Roster::load).transpose()?;
    let store = store(&run.class)?;
    let class = store.class()?;
    let (_, records) = store.class_records()?;
    for (student, why) in store.unread()? {
        eprintln!(
            "grade export: {}",
            unreported::unreadable(&student, &why.to_string())
        );
    }
    let missing = class.as_ref().and_then(|c| c.missing.as_deref());
    let settled = settle::records(&rubric, &records);
    let graded = export::graded(&rubric, &settled, missing, roster.as_ref());
    let absent: Vec<Member> = (graded.iter())
        .filter(|g| g.folder.is_empty())
        .flat_map(|g| g.members.iter().cloned())
        .collect();
    let no_folder = class.as_ref().map_or(&[][..], |c| &c.no_folder[..]);
    let submissions = settle::submissions(&rubric, &records);
    let reconciliation = reconcile(
        roster.as_ref(),
        &submissions,
        &absent,
        no_folder,
        rubric.duplicates,
    );
    let table = reconciled::table(&reconciliation, run.allow_missing);
    if !table.is_empty() {
        eprintln!("grade export: {}:\n{table}", reconciled::TITLE);
    }
    let column = Column {
        title: run.title.clone().unwrap_or_else(|| rubric.title.clone()),
        canvas_id: run.canvas_id,
        possible: possible(run, &graded, &rubric, &kit)?,
        points: rubric.points(),
    };
    if column.possible != column.points && rubric.late.is_some() {
        eprintln!(
            "grade export: the late penalties are the late policy's share of the assignment's {} \
             points, not of the {} exported (--partial); Moodle's feedback says so",
            points_word(column.points),
            points_word(column.possible)
        );
    }
    let by = run.moodle_by;
    let layouts: [(&Option<PathBuf>, &str, &Lay); 3] = [
        (&run.canvas, "Canvas", &|g| export::canvas(&column, g)),
        (&run.moodle, "Moodle", &|g| export::moodle(&column, g, by)),
        (&run.gradescope, "Gradescope", &|g| {
            export::gradescope(&rubric, g)
        }),
    ];
    let mut left_out = BTreeSet::new();
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
                "Gradescope" => "hand scores not typed yet",
                _ => {
                    "no grade (no final total yet: hand scoring not done or a speed-up not \
                      counted; or missing, with the rubric's missing = \"blank\")"
                }
            };
            eprintln!(
                "grade export: {} {what}: no grade in {out}: {}",
                have(layout.blank.len()),
                names(&layout.blank)
            );
        }
        for left in &layout.left_out {
            eprintln!(
                "grade export: left out of {out}: {}",
                left_out_line(left, platform)
            );
        }
        left_out.extend(layout.left_out.iter().map(LeftOut::who));
    }
    match (left_out.len(), reconciliation.open(run.allow_missing)) {
        (0, 0) => Ok(()),
        (count @ 1.., _) if !run.allow_missing => Err(ExportError::LeftOut(count)),
        (_, 0) => Ok(()),
        (_, open) => Err(ExportError::Unreconciled(open)),
    }
}

/// The class store of `given`: a report directory, or the folder of a gradebook whose class
/// it holds.
fn store(given: &Path) -> Result<Store, ExportError> {
    let dir = match given.is_dir() {
        true => given,
        false => parent(given),
    };
    let store = Store::of(dir);
    match store.class() {
        Ok(Some(_)) => Ok(store),
        Ok(None) => Err(ExportError::NoClass(given.to_path_buf())),
        Err(e) => Err(e.into()),
    }
}

/// The points the class's totals are out of: the assignment's, or, when every submission was
/// graded without its timing cases and the run says `--partial`, the points graded.
fn possible(
    run: &ExportRun,
    graded: &[Graded],
    rubric: &Rubric,
    kit: &std::path::Path,
) -> Result<f64, ExportError> {
    let submitted: Vec<&Graded> = graded.iter().filter(|g| !g.folder.is_empty()).collect();
    let skipped = submitted.iter().filter(|g| g.timing_left_out).count();
    let points = rubric.points();
    match skipped {
        0 => Ok(points),
        n if n < submitted.len() => Err(ExportError::Mixed(n, submitted.len())),
        _ => {
            let possible = points - Kit::load_published(kit)?.timing_points();
            match run.partial {
                true => Ok(possible),
                false => Err(ExportError::Partial { possible, points }),
            }
        }
    }
}

/// `count` students and the verb they take: `1 student has`, `3 students have`.
fn have(count: usize) -> String {
    match count {
        1 => format!("{} has", students(count)),
        _ => format!("{} have", students(count)),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::fixtures;
    use crate::store::{Class, Record, Setup};
    use std::fs;

    /// A class of ann and bob graded into the folder `dir`, each with `--skip-timing` or not;
    /// returns its gradebook (which is never read).
    fn gradebook(dir: &Path, skipped: [bool; 2]) -> PathBuf {
        let store = Store::of(dir);
        let path = dir.join("gradebook.csv");
        let mut class = Class::new(Setup::example("/class"), Vec::new(), path.clone());
        class.students = vec!["ann".into(), "bob".into()];
        store.put_class(&class).unwrap();
        for (name, skipped) in ["ann", "bob"].iter().zip(skipped) {
            let mut result = fixtures::student(name, vec![], 1);
            if skipped {
                result.left_out = vec!["threads/speedup".into()];
            }
            store
                .put(&Record::new(result, None, Some(class.started), None))
                .unwrap();
        }
        path
    }

    #[test]
    fn one_student_has_and_two_have() {
        assert_eq!(have(1), "1 student has");
        assert_eq!(have(2), "2 students have");
    }

    #[test]
    fn a_class_graded_without_its_timing_cases_is_exported_only_when_told_out_of_what_was_graded() {
        let dir = tempfile::tempdir().unwrap();
        let canvas = dir.path().join("canvas.csv");
        let mut run = ExportRun {
            class: gradebook(dir.path(), [true, true]),
            canvas: Some(canvas.clone()),
            kit: Some(Path::new(env!("CARGO_MANIFEST_DIR")).join("../grading")),
            allow_missing: true,
            ..ExportRun::default()
        };
        let refused = super::run(&run);
        assert!(
            matches!(
                refused,
                Err(ExportError::Partial {
                    possible: 90.0,
                    points: 100.0
                })
            ),
            "{refused:?}"
        );
        let said = refused.unwrap_err().to_string();
        assert!(said.contains("--partial to export it out of 90"), "{said}");
        assert!(!canvas.exists(), "nothing written when refused");
        run.partial = true;
        super::run(&run).unwrap();
        let text = fs::read_to_string(&canvas).unwrap();
        assert!(text.contains("Points Possible,,,,,90\n"), "{text}");
        // Graded in full, the assignment's points whatever --partial says.
        run.class = gradebook(dir.path(), [false, false]);
        super::run(&run).unwrap();
        let text = fs::read_to_string(&canvas).unwrap();
        assert!(text.contains("Points Possible,,,,,100\n"), "{text}");
        run.class = gradebook(dir.path(), [true, false]);
        assert!(matches!(super::run(&run), Err(ExportError::Mixed(1, 2))));
    }
}
