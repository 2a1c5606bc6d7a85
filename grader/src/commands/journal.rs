//! A class run's journal, `class-journal.jsonl` beside the class summary: what lets a run
//! stopped by anything (a crash, the kernel's out-of-memory killer, Ctrl-C) lose nothing. Each
//! student's result is appended (and synced to disk) as soon as they are graded, and the class's
//! files are written from it; a run that finds the journal of an unfinished run of the same
//! class (the same submissions folder, kit and settings) carries it on, grading only the
//! students it does not hold (or whose submission changed since).
//!
//! One JSON value a line, each a `Line`: the run first (the format's version, when it
//! started, what class it grades), then a student's [`Entry`] as each is graded, and `finished`
//! once every student has one. A line cut short by a crash (no line break yet) is left out.
//! Each entry holds what the class's files are made of, as [`super::again`] reads them back
//! from those files: the student's standing (`class-summary.json`'s), their gradebook row and
//! their row of the gallery's class page; and their summary printed on standard output.

use std::collections::BTreeMap;
use std::fmt;
use std::fs::{self, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};

use super::files::replace;
use super::fingerprint::Fingerprint;
use crate::report::class::Standing;

/// The journal's file name, beside the class summary.
pub const FILE_NAME: &str = "class-journal.jsonl";
/// The version of the journal's format: a journal of another is not carried on.
const VERSION: u32 = 1;

/// One line of the journal.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
enum Line {
    /// The run, first.
    Run(Box<Run>),
    /// A student graded.
    Student(Box<Entry>),
    /// Every student was graded, at this time.
    Finished(SystemTime),
}

/// The journal's first line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Run {
    /// The format's version ([`VERSION`]).
    version: u32,
    /// When the run started (the first of the runs carrying it on).
    started: SystemTime,
    /// What it grades.
    class: Class,
}

/// What a run grades: a run carries on another only if they are equal.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Class {
    /// The submissions folder, absolute.
    pub submissions: PathBuf,
    /// The kit's folder, absolute.
    pub kit: PathBuf,
    /// The kit's files.
    pub kit_files: Fingerprint,
    /// Everything else the results depend on.
    pub settings: Settings,
}

/// The job memory limit of journals written before it existed: the default.
fn default_job_memory() -> u64 {
    crate::process::Limits::default().job_memory_mib
}

/// The disk limit of journals written before it existed: the default.
fn default_disk() -> u64 {
    crate::process::Limits::default().disk_mib
}

/// The settings of a class run that its results depend on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// The command for one student.
    pub command: String,
    /// The build command and its time limit.
    pub build: Option<(String, Duration)>,
    /// The course's copy of the supplied crate, when given.
    pub supplied: Option<PathBuf>,
    /// The speed-up left out.
    pub skip_timing: bool,
    /// The longest one student's cases may take.
    pub student_deadline: Duration,
    /// Memory, processes, CPU and file size, as in force.
    pub limits: [u64; 4],
    /// The job's memory, as in force (the default in journals written before it existed).
    #[serde(default = "default_job_memory")]
    pub job_memory: u64,
    /// The job's disk, as in force (the default in journals written before it existed).
    #[serde(default = "default_disk")]
    pub disk: u64,
    /// Student code sandboxed.
    pub sandbox: bool,
    /// The style facts gathered.
    pub style: bool,
    /// The window's command, build and search depth, when it is observed.
    pub window: Option<(String, Option<String>, u32)>,
    /// Reports written (each entry has a row of the gallery's class page).
    pub reports: bool,
}

/// One student graded, as the class's files are made of.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// The student's name.
    pub student: String,
    /// Their submission, as it was once graded.
    pub submission: Fingerprint,
    /// What the class summary counts of them.
    pub standing: Standing,
    /// Their gradebook row, as the gradebook has it before the hand scores are merged in.
    pub row: String,
    /// Their row of the gallery's class page, with reports.
    pub class_row: Option<String>,
    /// Their summary, as printed on standard output.
    pub brief: String,
}

/// Why a class run grades everyone although a journal is there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartOver {
    /// `--restart` was given.
    Asked,
    /// The run it journals graded everyone.
    Finished,
    /// It journals another class: the submissions folder, the kit or the settings differ.
    Changed(&'static str),
    /// It cannot be read, or is of another version (why).
    Unreadable(String),
}

/// What a class run found in the journal.
#[derive(Clone, Debug, PartialEq)]
pub enum Found {
    /// Nothing: the first run of this class.
    Nothing,
    /// A journal it does not carry on.
    StartingOver(StartOver),
    /// An unfinished run of the same class, started then, to carry on.
    CarryingOn(SystemTime),
}

/// A journal begun for a class run.
#[derive(Debug)]
pub struct Begun {
    /// The journal, open for the run's results.
    pub journal: Journal,
    /// What was found there.
    pub found: Found,
    /// The entries carried on, by student.
    pub entries: BTreeMap<String, Entry>,
    /// The students with an entry set aside because their submission changed since.
    pub changed: Vec<String>,
}

/// A class run's journal, open for its students' results.
#[derive(Debug)]
pub struct Journal {
    path: PathBuf,
}

/// Why the journal could not be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JournalError {
    /// The journal.
    pub path: PathBuf,
    /// Why.
    pub why: String,
}

impl fmt::Display for JournalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: cannot write the class run's journal: {}",
            self.path.display(),
            self.why
        )
    }
}

impl std::error::Error for JournalError {}

impl fmt::Display for StartOver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartOver::Asked => f.write_str("--restart was given"),
            StartOver::Finished => f.write_str("the run it journals graded everyone"),
            StartOver::Changed(what) => write!(f, "{what} changed since"),
            StartOver::Unreadable(why) => write!(f, "it cannot be carried on: {why}"),
        }
    }
}

/// What a journal held.
struct Read {
    run: Run,
    /// Each student's last entry.
    entries: BTreeMap<String, Entry>,
    finished: bool,
}

impl Journal {
    /// The journal in `dir` (where the class summary goes), begun for a run of `class`:
    /// carrying on the unfinished run of the same class journaled there, unless `restart`, with
    /// the entries of the students in `current` (each student's submission now) whose
    /// submission is unchanged; else begun anew. Rewritten either way (at once: a crash leaves
    /// the old journal or the new), so that results are appended to whole lines.
    pub fn begin(
        dir: &Path,
        class: Class,
        restart: bool,
        current: &BTreeMap<String, Fingerprint>,
    ) -> Result<Begun, JournalError> {
        let path = dir.join(FILE_NAME);
        let found = match read(&path) {
            Ok(None) => Err(Found::Nothing),
            Err(why) => Err(Found::StartingOver(StartOver::Unreadable(why))),
            Ok(Some(_)) if restart => Err(Found::StartingOver(StartOver::Asked)),
            Ok(Some(read)) if read.finished => Err(Found::StartingOver(StartOver::Finished)),
            Ok(Some(read)) => match changed(&read.run.class, &class) {
                Some(what) => Err(Found::StartingOver(StartOver::Changed(what))),
                None => Ok(read),
            },
        };
        let (started, found, entries, changed) = match found {
            Ok(read) => {
                // Those whose folder is gone are left out without a word.
                let (kept, changed): (BTreeMap<_, _>, BTreeMap<_, _>) = read
                    .entries
                    .into_iter()
                    .filter(|(name, _)| current.contains_key(name))
                    .partition(|(name, entry)| current.get(name) == Some(&entry.submission));
                let started = read.run.started;
                let changed = changed.into_keys().collect();
                (started, Found::CarryingOn(started), kept, changed)
            }
            Err(found) => (SystemTime::now(), found, BTreeMap::new(), Vec::new()),
        };
        let run = Line::Run(Box::new(Run {
            version: VERSION,
            started,
            class,
        }));
        let error = |why: String| JournalError {
            path: path.clone(),
            why,
        };
        let mut text = line(&run).map_err(error)?;
        for entry in entries.values() {
            text.push_str(&line(&Line::Student(Box::new(entry.clone()))).map_err(error)?);
        }
        replace(&path, &text).map_err(|e| error(e.to_string()))?;
        Ok(Begun {
            journal: Journal { path },
            found,
            entries,
            changed,
        })
    }

    /// The journal in `dir` of a run of `class`, to add results to (students graded again in
    /// part); `None` when there is none, or it is another class's.
    pub fn join(dir: &Path, class: &Class) -> Option<Journal> {
        let path = dir.join(FILE_NAME);
        match read(&path) {
            Ok(Some(read)) if changed(&read.run.class, class).is_none() => Some(Journal { path }),
            _ => None,
        }
    }

    /// When the journal in `dir` of a run of `class` says that run started (the first of the
    /// runs carrying it on), finished or not; `None` when there is none, or it is another
    /// class's: what a submission's files changed since then is the grading's doing.
    pub fn started(dir: &Path, class: &Class) -> Option<SystemTime> {
        match read(&dir.join(FILE_NAME)) {
            Ok(Some(read)) if changed(&read.run.class, class).is_none() => Some(read.run.started),
            _ => None,
        }
    }

    /// Appends `entry`, synced to disk before this returns.
    pub fn record(&self, entry: &Entry) -> Result<(), JournalError> {
        self.append(&Line::Student(Box::new(entry.clone())))
    }

    /// Marks the run finished: every student graded. A run after it grades everyone again.
    pub fn finish(&self) -> Result<(), JournalError> {
        self.append(&Line::Finished(SystemTime::now()))
    }

    /// Appends `line` in one write, synced to disk.
    fn append(&self, value: &Line) -> Result<(), JournalError> {
        let error = |why: String| JournalError {
            path: self.path.clone(),
            why,
        };
        let text = line(value).map_err(error)?;
        let mut file = OpenOptions::new()
            .append(true)
            .open(&self.path)
            .map_err(|e| error(e.to_string()))?;
        file.write_all(text.as_bytes())
            .and_then(|()| file.sync_data())
            .map_err(|e| error(e.to_string()))
    }
}

/// `value` as one line of the journal, its line break included; `Err` for what JSON cannot
/// hold (a time before 1970).
fn line(value: &Line) -> Result<String, String> {
    let json = serde_json::to_string(value).map_err(|e| e.to_string())?;
    Ok(format!("{json}\n"))
}

/// What of `class` differs from `earlier`, in words; `None` when it is the same class.
fn changed(earlier: &Class, class: &Class) -> Option<&'static str> {
    if earlier.submissions != class.submissions {
        Some("the submissions folder")
    } else if earlier.kit != class.kit || earlier.kit_files != class.kit_files {
        Some("the kit")
    } else if earlier.settings != class.settings {
        Some("the grading settings")
    } else {
        None
    }
}

/// The journal at `path`: `None` when there is none; `Err` (why) when it cannot be read or is
/// not a journal of this version. Its last line, if a crash cut it short, is left out.
fn read(path: &Path) -> Result<Option<Read>, String> {
    let text = match fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e.to_string()),
    };
    // Whole lines only: what follows the last line break was cut short.
    let whole = text.rfind('\n').map_or("", |end| &text[..end]);
    let mut lines = whole.lines().enumerate().map(|(index, text)| {
        serde_json::from_str::<Line>(text).map_err(|e| format!("line {}: {e}", index + 1))
    });
    let run = match lines.next().transpose()? {
        Some(Line::Run(run)) if run.version == VERSION => *run,
        Some(Line::Run(run)) => {
            return Err(format!(
                "it is of version {} (this grade writes version {VERSION})",
                run.version
            ))
        }
        _ => return Err("it does not start with its run".into()),
    };
    let mut read = Read {
        run,
        entries: BTreeMap::new(),
        finished: false,
    };
    for line in lines {
        match line? {
            Line::Student(entry) => {
                read.entries.insert(entry.student.clone(), *entry);
            }
            Line::Finished(_) => read.finished = true,
            Line::Run(_) => return Err("it holds two runs".into()),
        }
    }
    Ok(Some(read))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fingerprint told by `digest`.
    fn print(digest: &str) -> Fingerprint {
        Fingerprint {
            entries: 1,
            bytes: 1,
            digest: digest.into(),
        }
    }

    /// A class of the folder `submissions`.
    fn class(submissions: &str) -> Class {
        Class {
            submissions: submissions.into(),
            kit: "/kit".into(),
            kit_files: print("kit"),
            settings: Settings {
                command: "sh {dir}/run".into(),
                build: None,
                supplied: None,
                skip_timing: true,
                student_deadline: Duration::from_secs(60),
                limits: [1024, 64, 60, 16],
                job_memory: 4096,
                disk: 2048,
                sandbox: true,
                style: false,
                window: None,
                reports: false,
            },
        }
    }

    /// `student`'s entry, of the submission `digest`.
    fn entry(student: &str, digest: &str) -> Entry {
        let result = crate::judge::fixtures::student(student, Vec::new(), 1);
        Entry {
            student: student.into(),
            submission: print(digest),
            standing: Standing::of(&crate::judge::fixtures::hand_rubric(), &result),
            row: format!("{student},1\n"),
            class_row: None,
            brief: format!("{student}: graded\n"),
        }
    }

    /// Each student's submission now.
    fn now(students: &[(&str, &str)]) -> BTreeMap<String, Fingerprint> {
        students
            .iter()
            .map(|(name, digest)| (name.to_string(), print(digest)))
            .collect()
    }

    /// The names of `entries`.
    fn names(entries: &BTreeMap<String, Entry>) -> Vec<&str> {
        entries.keys().map(String::as_str).collect()
    }

    #[test]
    fn an_unfinished_run_is_carried_on_with_its_unchanged_students() {
        let dir = tempfile::tempdir().unwrap();
        let current = now(&[("ann", "a"), ("bob", "b"), ("cy", "c")]);
        let begun = Journal::begin(dir.path(), class("/class"), false, &current).unwrap();
        assert_eq!(begun.found, Found::Nothing);
        assert!(begun.entries.is_empty());
        let journal = begun.journal;
        journal.record(&entry("ann", "a")).unwrap();
        journal.record(&entry("bob", "b")).unwrap();
        // Graded again in part: the last entry counts.
        journal.record(&entry("bob", "b")).unwrap();
        // Bob's submission changed since; dee's folder is gone.
        journal.record(&entry("dee", "d")).unwrap();
        let current = now(&[("ann", "a"), ("bob", "b2"), ("cy", "c")]);
        let begun = Journal::begin(dir.path(), class("/class"), false, &current).unwrap();
        let Found::CarryingOn(started) = begun.found else {
            panic!("{:?}", begun.found)
        };
        assert_eq!(names(&begun.entries), ["ann"]);
        assert_eq!(begun.entries["ann"], entry("ann", "a"));
        assert_eq!(begun.changed, ["bob"]);
        // Begun again, the journal keeps only what it carries on, and when the run started.
        let again = Journal::begin(dir.path(), class("/class"), false, &current).unwrap();
        assert_eq!(again.found, Found::CarryingOn(started));
        assert_eq!(names(&again.entries), ["ann"]);
        assert!(again.changed.is_empty());
        again.journal.finish().unwrap();
    }

    #[test]
    fn a_finished_run_another_class_or_restart_starts_over() {
        let dir = tempfile::tempdir().unwrap();
        let current = now(&[("ann", "a")]);
        let begin = |class: Class, restart| {
            let begun = Journal::begin(dir.path(), class, restart, &current).unwrap();
            begun.journal.record(&entry("ann", "a")).unwrap();
            (begun.journal, begun.found, begun.entries.len())
        };
        begin(class("/class"), false);
        let (_, found, kept) = begin(class("/class"), true);
        assert_eq!((found, kept), (Found::StartingOver(StartOver::Asked), 0));
        let (_, found, kept) = begin(class("/other"), false);
        assert_eq!(
            (found, kept),
            (
                Found::StartingOver(StartOver::Changed("the submissions folder")),
                0
            )
        );
        let mut changed = class("/other");
        changed.kit_files = print("kit2");
        let (_, found, _) = begin(changed.clone(), false);
        assert_eq!(found, Found::StartingOver(StartOver::Changed("the kit")));
        changed.settings.skip_timing = false;
        let (journal, found, _) = begin(changed.clone(), false);
        assert_eq!(
            found,
            Found::StartingOver(StartOver::Changed("the grading settings"))
        );
        journal.finish().unwrap();
        assert!(Journal::join(dir.path(), &changed).is_some());
        assert!(Journal::join(dir.path(), &class("/class")).is_none());
        let (_, found, kept) = begin(changed, false);
        assert_eq!((found, kept), (Found::StartingOver(StartOver::Finished), 0));
    }

    #[test]
    fn a_line_cut_short_is_left_out_and_a_broken_journal_is_started_over() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE_NAME);
        let current = now(&[("ann", "a"), ("bob", "b")]);
        let begin = || Journal::begin(dir.path(), class("/c"), false, &current).unwrap();
        begin().journal.record(&entry("ann", "a")).unwrap();
        let whole = fs::read_to_string(&path).unwrap();
        // Killed while writing bob's line.
        let bob = line(&Line::Student(Box::new(entry("bob", "b")))).unwrap();
        fs::write(&path, format!("{whole}{}", &bob[..bob.len() / 2])).unwrap();
        let begun = begin();
        assert!(
            matches!(begun.found, Found::CarryingOn(_)),
            "{:?}",
            begun.found
        );
        assert_eq!(names(&begun.entries), ["ann"]);
        // The rewritten journal takes whole lines again.
        begun.journal.record(&entry("bob", "b")).unwrap();
        assert_eq!(names(&begin().entries), ["ann", "bob"]);
        // A whole line that is not the journal's.
        fs::write(&path, format!("{whole}{{\"student\": 3}}\n")).unwrap();
        let begun = begin();
        let Found::StartingOver(StartOver::Unreadable(why)) = begun.found else {
            panic!("{:?}", begun.found)
        };
        assert!(why.starts_with("line 3: "), "{why}");
        assert!(begun.entries.is_empty());
        // Another version's.
        let other = whole.replacen("\"version\":1", "\"version\":2", 1);
        assert_ne!(other, whole);
        fs::write(&path, other).unwrap();
        assert_eq!(
            begin().found,
            Found::StartingOver(StartOver::Unreadable(
                "it is of version 2 (this grade writes version 1)".into()
            ))
        );
    }
}
