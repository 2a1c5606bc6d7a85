//! Grading again only some students of a class graded before (`grade class --only NAME`,
//! `--not-counted`): who, chosen among the submissions (those the gradebook says had their
//! speed-up not counted, and those named); what the class run wrote, read back (the gradebook,
//! the class summary's standings and, with `--report`, the gallery's class page), checked to be
//! one class before anything is graded; and the class's files put together again, the new
//! results in their students' places and everyone else's rows as they were, byte for byte.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use crate::judge::Student;
use crate::kit::Rubric;
use crate::report::class::{Standing, Standings, STANDINGS};
use crate::report::gallery::{class_rows, CLASS_PAGE};
use crate::report::gradebook::{self, Record};
use crate::report::inert;

/// How many submission folders an error lists before it says how many more there are.
const LISTED: usize = 10;

/// Why some students cannot be graded again into the class's files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AgainError {
    /// There is no gradebook to grade again into.
    NoGradebook(PathBuf),
    /// The class summary's standings are not where the class run writes them.
    NoStandings(PathBuf),
    /// With `--report`, the gallery's class page is not in the report directory.
    NoClassPage(PathBuf),
    /// Names given (or found in the gradebook) that are no submission folder.
    Unknown {
        /// The names.
        names: Vec<String>,
        /// The folder of submissions.
        folder: PathBuf,
        /// Its submissions' names.
        known: Vec<String>,
    },
    /// A file the class run wrote cannot be read, or is not this kit's.
    Unreadable(PathBuf, String),
    /// The gradebook, the standings and the class page do not hold the same students.
    NotOneClass(String),
}

impl AgainError {
    /// Whether it is the command line's doing (exit status 2, as for a bad argument): a name,
    /// a gradebook or a report directory that is not there. The others are the files' (1).
    pub fn bad_arguments(&self) -> bool {
        matches!(
            self,
            AgainError::NoGradebook(_)
                | AgainError::NoStandings(_)
                | AgainError::NoClassPage(_)
                | AgainError::Unknown { .. }
        )
    }
}

impl std::fmt::Display for AgainError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        const WHOLE: &str = "grade the whole class first (without --only and --not-counted)";
        match self {
            AgainError::NoGradebook(path) => write!(
                f,
                "{}: no gradebook to grade again into: {WHOLE}, or give its --csv",
                path.display()
            ),
            AgainError::NoStandings(path) => write!(
                f,
                "{}: the class summary's standings are missing: give the --report (or --csv) \
                 of the class run, or {WHOLE}",
                path.display()
            ),
            AgainError::NoClassPage(path) => write!(
                f,
                "{}: no gallery to grade again into: give the --report of the class run, or \
                 {WHOLE} with this --report",
                path.display()
            ),
            AgainError::Unknown {
                names,
                folder,
                known,
            } => {
                let mut listed: Vec<String> =
                    known.iter().take(LISTED).map(|n| inert::line(n)).collect();
                if known.len() > LISTED {
                    listed.push(format!("and {} more", known.len() - LISTED));
                }
                write!(
                    f,
                    "no submission folder {} in {} (its students: {})",
                    names
                        .iter()
                        .map(|n| format!("{n:?}"))
                        .collect::<Vec<_>>()
                        .join(", "),
                    folder.display(),
                    listed.join(", ")
                )
            }
            AgainError::Unreadable(path, why) => write!(f, "{}: {why}", path.display()),
            AgainError::NotOneClass(why) => write!(f, "{why}: {WHOLE}"),
        }
    }
}

/// Where the class run wrote what a class graded again in part is put together from.
#[derive(Clone, Debug)]
pub struct Files {
    /// The gradebook.
    pub gradebook: PathBuf,
    /// The class summary's standings.
    pub standings: PathBuf,
    /// The gallery's class page, with `--report`.
    pub class_page: Option<PathBuf>,
}

impl Files {
    /// The files of a class whose gradebook is `csv`, whose summary is in `summary`, and whose
    /// reports (if any) are in `reports`.
    pub fn new(csv: &Path, summary: &Path, reports: Option<&Path>) -> Files {
        Files {
            gradebook: csv.to_path_buf(),
            standings: summary.join(STANDINGS),
            class_page: reports.map(|dir| dir.join(CLASS_PAGE)),
        }
    }
}

/// What the class run wrote, read back: one class.
#[derive(Clone, Debug)]
pub struct Earlier {
    /// The gradebook's header and rows, as written.
    gradebook: Vec<Record>,
    /// Each student's standing.
    standings: Vec<Standing>,
    /// The class page's rows, with `--report`.
    class_rows: Option<Vec<(String, String)>>,
}

/// `path`'s text; `missing` when it is not there.
fn read(path: &Path, missing: impl FnOnce(PathBuf) -> AgainError) -> Result<String, AgainError> {
    fs::read_to_string(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => missing(path.to_path_buf()),
        _ => AgainError::Unreadable(path.to_path_buf(), e.to_string()),
    })
}

impl Earlier {
    /// Reads the class's `files` and checks them: the gradebook has this kit's columns
    /// (`rubric`, the `timed` categories; joined or not, see [`Earlier::joined`]), and it, the standings and the class page hold the
    /// same students.
    pub fn load(files: &Files, rubric: &Rubric, timed: &[String]) -> Result<Earlier, AgainError> {
        let path = &files.gradebook;
        let text = read(path, AgainError::NoGradebook)?;
        let unreadable = |why: String| AgainError::Unreadable(path.clone(), why);
        let gradebook = gradebook::records(&text).map_err(|e| unreadable(e.to_string()))?;
        let columns = gradebook.first().map(|r| &r.cells);
        let kits = [
            gradebook::header(rubric, timed),
            gradebook::joined_header(rubric, timed),
        ];
        if !kits.iter().any(|header| columns == Some(header)) {
            return Err(unreadable(
                "its columns are not the ones this kit's gradebook has (the rubric or the cases \
                 changed, or an older grade wrote it), so it cannot be graded again in part"
                    .into(),
            ));
        }
        let path = &files.standings;
        let standings: Standings = serde_json::from_str(&read(path, AgainError::NoStandings)?)
            .map_err(|e| {
                AgainError::Unreadable(path.clone(), format!("not the class's standings: {e}"))
            })?;
        let class_rows = match &files.class_page {
            Some(path) => Some(class_rows(&read(path, AgainError::NoClassPage)?)),
            None => None,
        };
        let earlier = Earlier {
            gradebook,
            standings: standings.students,
            class_rows,
        };
        earlier.one_class(files)?;
        Ok(earlier)
    }

    /// Whether the gradebook has the joined columns (who, when, how late: see
    /// [`gradebook::join`]).
    pub fn joined(&self) -> bool {
        self.gradebook.first().is_some_and(|header| {
            header.cells.last().map(String::as_str) == Some(gradebook::FINAL_TOTAL)
        })
    }

    /// The students of the gradebook's rows (a missing student's row, with no folder, is
    /// none).
    fn students(&self) -> BTreeSet<&str> {
        self.gradebook
            .iter()
            .skip(1)
            .filter_map(|r| r.cells.first().map(String::as_str))
            .filter(|folder| !folder.is_empty())
            .collect()
    }

    /// Checks that the standings and the class page hold the gradebook's students.
    fn one_class(&self, files: &Files) -> Result<(), AgainError> {
        let students = self.students();
        let standings: BTreeSet<&str> = self.standings.iter().map(|s| s.student.as_str()).collect();
        let page = self
            .class_rows
            .as_ref()
            .map(|rows| rows.iter().map(|(name, _)| name.as_str()).collect());
        let differ = |path: &Path, theirs: &BTreeSet<&str>| {
            let odd: Vec<&str> = students.symmetric_difference(theirs).copied().collect();
            AgainError::NotOneClass(format!(
                "{} and {} do not hold the same students ({} in one of them only)",
                files.gradebook.display(),
                path.display(),
                odd.join(", ")
            ))
        };
        if standings != students {
            return Err(differ(&files.standings, &standings));
        }
        match (page, &files.class_page) {
            (Some(page), Some(path)) if page != students => Err(differ(path, &page)),
            _ => Ok(()),
        }
    }

    /// The students to grade again, in the class's order: those `only` names and, if
    /// `not_counted`, those whose speed-up the gradebook says was not counted. Each must have
    /// a submission among `students`; none may be left, when nothing is to be graded again.
    pub fn chosen<'a>(
        &self,
        students: &'a [Student],
        only: &[String],
        not_counted: bool,
        folder: &Path,
    ) -> Result<Vec<&'a Student>, AgainError> {
        let mut wanted: BTreeSet<String> = only.iter().cloned().collect();
        if not_counted {
            wanted.extend(gradebook::not_counted(&self.gradebook));
        }
        let unknown: Vec<String> = wanted
            .iter()
            .filter(|name| !students.iter().any(|s| &&s.name == name))
            .cloned()
            .collect();
        if !unknown.is_empty() {
            return Err(AgainError::Unknown {
                names: unknown,
                folder: folder.to_path_buf(),
                known: students.iter().map(|s| s.name.clone()).collect(),
            });
        }
        Ok(students
            .iter()
            .filter(|s| wanted.contains(&s.name))
            .collect())
    }

    /// The gradebook with the rows of `fresh` (a gradebook of the students graded again, as
    /// [`gradebook::csv`] wrote it) in their students' places, and its rows of the missing
    /// students (no folder) at the end in place of the earlier ones: the roster says who is
    /// missing now.
    pub fn gradebook(&self, fresh: &str) -> Result<String, AgainError> {
        let fresh = gradebook::records(fresh)
            .map_err(|e| AgainError::NotOneClass(format!("the new gradebook: {e}")))?;
        let folder = |r: &Record| r.cells.first().cloned().unwrap_or_default();
        let keyed = |records: &[Record]| -> Vec<(String, String)> {
            records
                .iter()
                .skip(1)
                .map(|r| (folder(r), r.text.clone()))
                .filter(|(folder, _)| !folder.is_empty())
                .collect()
        };
        let missing = fresh.iter().skip(1).filter(|r| folder(r).is_empty());
        let header = self.gradebook.first().map_or("", |r| r.text.as_str());
        let mut rows = merged(keyed(&self.gradebook), keyed(&fresh));
        rows.extend(missing.map(|r| r.text.clone()));
        Ok(format!("{header}{}", rows.concat()))
    }

    /// Every student's standing, those of `fresh` in their students' places.
    pub fn standings(&self, fresh: Vec<Standing>) -> Vec<Standing> {
        let keyed = |standings: Vec<Standing>| {
            standings
                .into_iter()
                .map(|s| (s.student.clone(), s))
                .collect::<Vec<_>>()
        };
        merged(keyed(self.standings.clone()), keyed(fresh))
    }

    /// The class page's rows, those of `fresh` (each student's name and row) in their
    /// students' places; none without `--report`.
    pub fn class_rows(&self, fresh: Vec<(String, String)>) -> Option<Vec<String>> {
        Some(merged(self.class_rows.clone()?, fresh))
    }
}

/// `earlier`'s items (each with its student's name) with `fresh` ones in the places of the
/// same students; the fresh ones of students `earlier` has not (a late submission) go in the
/// order of names, before the first of `earlier`'s that sorts after them.
fn merged<T>(earlier: Vec<(String, T)>, fresh: Vec<(String, T)>) -> Vec<T> {
    let known: BTreeSet<String> = earlier.iter().map(|(name, _)| name.clone()).collect();
    let (mut replacing, mut new): (BTreeMap<String, T>, BTreeMap<String, T>) =
        (BTreeMap::new(), BTreeMap::new());
    for (name, item) in fresh {
        match known.contains(&name) {
            true => replacing.insert(name, item),
            false => new.insert(name, item),
        };
    }
    let mut out = Vec::new();
    for (name, item) in earlier {
        while new
            .first_key_value()
            .is_some_and(|(first, _)| *first < name)
        {
            out.extend(new.pop_first().map(|(_, item)| item));
        }
        out.push(replacing.remove(&name).unwrap_or(item));
    }
    out.extend(new.into_values());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::fixtures;
    use crate::judge::result::hand::HandScores;

    #[test]
    fn fresh_items_take_their_students_places_and_new_ones_go_in_name_order() {
        let keyed = |items: &[&str]| -> Vec<(String, String)> {
            items
                .iter()
                .map(|i| (i[..1].to_string(), i.to_string()))
                .collect()
        };
        assert_eq!(
            merged(keyed(&["a1", "c1", "e1"]), keyed(&["c2", "b2", "f2", "0x"])),
            ["0x", "a1", "b2", "c2", "e1", "f2"]
        );
        assert_eq!(merged(keyed(&["a1"]), Vec::new()), ["a1"]);
    }

    /// A class of `names` graded once on the hand rubric, its files in `dir`: `ann`'s
    /// speed-up not counted, the others' counted.
    fn class(dir: &Path, names: &[&str]) -> Files {
        let rubric = fixtures::hand_rubric();
        let results: Vec<_> = names
            .iter()
            .map(|&name| {
                let case = match name {
                    "ann" => fixtures::not_counted("speedup", "AI", 1.0),
                    _ => fixtures::case_result("speedup", "AI", 1.0),
                };
                fixtures::student(name, vec![case], 1)
            })
            .collect();
        let files = Files::new(&dir.join("gradebook.csv"), dir, Some(dir));
        let timed = ["AI".to_string()];
        let text = gradebook::csv(&rubric, &timed, &results, &HandScores::default());
        fs::write(&files.gradebook, text).unwrap();
        let standings = Standings {
            students: results.iter().map(|r| Standing::of(&rubric, r)).collect(),
        };
        fs::write(&files.standings, serde_json::to_string(&standings).unwrap()).unwrap();
        let page =
            crate::report::gallery::class_page(&rubric, &results, &HandScores::default(), dir);
        fs::write(files.class_page.as_ref().unwrap(), page).unwrap();
        files
    }

    #[test]
    fn the_students_chosen_are_those_named_and_those_not_counted() {
        let dir = tempfile::tempdir().unwrap();
        let files = class(dir.path(), &["ann", "bob", "cy"]);
        let timed = ["AI".to_string()];
        let earlier = Earlier::load(&files, &fixtures::hand_rubric(), &timed).unwrap();
        let students = crate::judge::fixtures::students(&["ann", "bob", "cy", "dee"]);
        let names = |chosen: Vec<&Student>| -> Vec<String> {
            chosen.into_iter().map(|s| s.name.clone()).collect()
        };
        let chosen = |only: &[&str], not_counted| {
            let only: Vec<String> = only.iter().map(|s| s.to_string()).collect();
            earlier
                .chosen(&students, &only, not_counted, Path::new("class"))
                .map(names)
        };
        assert_eq!(chosen(&[], true).unwrap(), ["ann"]);
        assert_eq!(
            chosen(&["dee", "bob"], true).unwrap(),
            ["ann", "bob", "dee"]
        );
        assert_eq!(chosen(&["cy"], false).unwrap(), ["cy"]);
        let unknown = chosen(&["zed"], false).unwrap_err();
        assert!(unknown.bad_arguments());
        assert_eq!(
            unknown.to_string(),
            "no submission folder \"zed\" in class (its students: ann, bob, cy, dee)"
        );
        // Nobody left to grade again.
        let dir = tempfile::tempdir().unwrap();
        let files = class(dir.path(), &["bob"]);
        let earlier = Earlier::load(&files, &fixtures::hand_rubric(), &timed).unwrap();
        assert!(earlier
            .chosen(&students, &[], true, Path::new("class"))
            .unwrap()
            .is_empty());
    }

    #[test]
    fn a_class_graded_before_must_be_there_and_be_one_class() {
        let dir = tempfile::tempdir().unwrap();
        let timed = ["AI".to_string()];
        let rubric = fixtures::hand_rubric();
        let files = Files::new(&dir.path().join("gradebook.csv"), dir.path(), None);
        let missing = Earlier::load(&files, &rubric, &timed).unwrap_err();
        assert!(
            matches!(&missing, AgainError::NoGradebook(_)) && missing.bad_arguments(),
            "{missing}"
        );
        let files = class(dir.path(), &["ann", "bob"]);
        // Another kit's columns.
        let other = Earlier::load(&files, &rubric, &[]).unwrap_err();
        assert!(other.to_string().contains("its columns are not"), "{other}");
        assert!(!other.bad_arguments());
        // A class page of other students.
        let page = fs::read_to_string(files.class_page.as_ref().unwrap()).unwrap();
        fs::write(
            files.class_page.as_ref().unwrap(),
            page.replace("data-student=\"bob\"", "data-student=\"bo\""),
        )
        .unwrap();
        let differ = Earlier::load(&files, &rubric, &timed).unwrap_err();
        assert!(
            differ.to_string().contains("(bo, bob in one of them only)"),
            "{differ}"
        );
        fs::remove_file(&files.standings).unwrap();
        let gone = Earlier::load(&files, &rubric, &timed).unwrap_err();
        assert!(matches!(gone, AgainError::NoStandings(_)), "{gone}");
    }

    #[test]
    fn the_others_rows_are_kept_byte_for_byte() {
        let dir = tempfile::tempdir().unwrap();
        let files = class(dir.path(), &["ann", "bob"]);
        let rubric = fixtures::hand_rubric();
        let timed = ["AI".to_string()];
        // A spreadsheet's line breaks in bob's row stay as they are.
        let text = fs::read_to_string(&files.gradebook).unwrap();
        let bob_row = text.lines().find(|l| l.starts_with("bob,")).unwrap();
        let text = text.replace(&format!("{bob_row}\n"), &format!("{bob_row}\r\n"));
        fs::write(&files.gradebook, &text).unwrap();
        let earlier = Earlier::load(&files, &rubric, &timed).unwrap();
        let ann = fixtures::student("ann", vec![fixtures::case_result("speedup", "AI", 1.0)], 1);
        let fresh = gradebook::csv(&rubric, &timed, &[ann], &HandScores::default());
        let merged = earlier.gradebook(&fresh).unwrap();
        assert!(merged.contains(&format!("\n{bob_row}\r\n")), "{merged:?}");
        let rows = gradebook::records(&merged).unwrap();
        assert_eq!(gradebook::not_counted(&rows), Vec::<String>::new());
        let ann_row = fresh.lines().nth(1).unwrap();
        assert_eq!(merged.lines().nth(1), Some(ann_row));
        assert_eq!(merged.lines().count(), 3);
    }
}
