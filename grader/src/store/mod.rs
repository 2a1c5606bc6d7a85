//! The class store: one versioned, typed [`Record`] per student, and the [`Class`] a class run
//! grades, in the `records/` folder of the report directory (or beside the gradebook without
//! one). It is the kit's only memory: every gradebook, class page, summary, feedback file and
//! export is made from it ([`crate::report`]), never read back from those files. Each record
//! is written (and synced to disk) as soon as its student is graded, whole or not at all, so a
//! run stopped by anything (a crash, the out-of-memory killer, Ctrl-C) loses no one graded, and
//! the same command carries it on ([`Store::begin`]). A record or class of a version this
//! `grade` does not know is refused with the versions named, never read nor written over; a
//! record that is not one `grade` wrote (cut short, edited) costs its student alone: named
//! ([`Store::unread`]), left out, and graded again by a class run carried on. What a file is
//! written as is the store's own ([`schema`]: types made for storage, the version's changelog).

pub mod disk;
#[cfg(test)]
mod fixture;
mod format;
mod schema;
pub mod stamp;

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use percent_encoding::{percent_decode_str, utf8_percent_encode, NON_ALPHANUMERIC};
use serde::{Deserialize, Serialize};

pub use format::{Class, Late, Record, Setup, Who};
pub use schema::VERSION;
pub use stamp::Stamp;

/// The store's folder, in the report directory (or beside the gradebook).
pub const FOLDER: &str = "records";
/// The class's file in it.
const CLASS: &str = "class.json";

/// Why the store could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// A file of the store could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A file of the store is not one this `grade` wrote.
    #[error("{}: not a record of grade's: {source}", path.display())]
    Malformed {
        /// The file.
        path: PathBuf,
        /// The parser's (or the writer's) error.
        #[source]
        source: serde_json::Error,
    },
    /// A file of the store was written by a `grade` of another version.
    #[error(
        "{}: written by another version of grade (version {found}; this grade reads versions \
         {} to {VERSION}): use that grade, or move {FOLDER}/ away to grade the class again",
        path.display(),
        schema::READ[0]
    )]
    Version {
        /// The file.
        path: PathBuf,
        /// Its version.
        found: u32,
    },
}

impl StoreError {
    /// The file that could not be written because the disk is full, if that is why.
    pub fn disk_full(&self) -> Option<&Path> {
        match self {
            StoreError::Io { path, source } if disk::full(source) => Some(path),
            _ => None,
        }
    }
}

/// The version alone, read first, so that another version is named rather than misread.
#[derive(Deserialize)]
struct Versioned {
    version: u32,
}

/// The class store of a report directory (or of the folder beside the gradebook).
#[derive(Clone, Debug)]
pub struct Store {
    folder: PathBuf,
}

/// What a class run found in the store when it began.
#[derive(Clone, Debug, PartialEq)]
pub enum Found {
    /// Nothing: the first run of this class.
    Nothing,
    /// A class it does not carry on, and why.
    StartingOver(StartOver),
    /// An unfinished run of the same class, started then, to carry on.
    CarryingOn(SystemTime),
}

/// Why a class run grades everyone although the store holds a run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StartOver {
    /// `--restart` was given.
    #[error("--restart was given")]
    Asked,
    /// The run it holds graded everyone.
    #[error("the run it holds graded everyone")]
    Finished,
    /// It holds another class: the submissions folder, the kit or the settings differ.
    #[error("{0} changed since")]
    Changed(&'static str),
}

/// A record in the store that cannot be read (it is not one `grade` wrote, or no longer whole):
/// the student it is of, as its file names them, and why. It costs that student alone: left
/// out of the records, graded again by a class run carried on.
pub type Unread = (String, StoreError);

/// A class run begun in the store.
#[derive(Debug)]
pub struct Begun {
    /// The class as kept: started when the run it carries on did.
    pub class: Class,
    /// What was found there.
    pub found: Found,
    /// The records carried on, by student.
    pub carried: BTreeMap<String, Record>,
    /// The students with a record set aside because their submission changed since.
    pub changed: Vec<String>,
    /// The records of the run carried on that cannot be read: their students are graded again.
    pub unread: Vec<Unread>,
}

impl Store {
    /// The store of the report directory `dir`.
    pub fn of(dir: &Path) -> Store {
        Store {
            folder: dir.join(FOLDER),
        }
    }

    /// Its folder.
    pub fn folder(&self) -> &Path {
        &self.folder
    }

    /// The class it holds, if any.
    pub fn class(&self) -> Result<Option<Class>, StoreError> {
        read::<schema::Class, _>(&self.folder.join(CLASS))
    }

    /// Keeps `class`, replacing the one it held.
    pub fn put_class(&self, class: &Class) -> Result<(), StoreError> {
        write(&self.folder.join(CLASS), &schema::Class::from(class))
    }

    /// The record of `student`, if there is one.
    pub fn record(&self, student: &str) -> Result<Option<Record>, StoreError> {
        let record = read::<schema::Record, Record>(&self.record_path(student))?;
        Ok(record.filter(|r| r.student == student))
    }

    /// Keeps `record`, replacing the student's earlier one, synced to disk before this
    /// returns.
    pub fn put(&self, record: &Record) -> Result<(), StoreError> {
        write(
            &self.record_path(&record.student),
            &schema::Record::from(record),
        )
    }

    /// Keeps `record` graded anew, with the hand scores typed for the student before; graded
    /// outside a class run (`grade student`), it takes the earlier record's place in its
    /// class, with its submission and who it is.
    pub fn put_graded(&self, mut record: Record) -> Result<Record, StoreError> {
        let earlier = match self.record(&record.student) {
            // What cannot be read is written over: it kept nothing of theirs.
            Err(StoreError::Malformed { .. }) => None,
            earlier => earlier?,
        };
        if let Some(earlier) = earlier {
            record.hand = earlier.hand;
            if record.run.is_none() {
                record.run = earlier.run;
                record.who = earlier.who;
                record.submission = earlier.submission;
            }
        }
        self.put(&record)?;
        Ok(record)
    }

    /// Every record it holds, by student, but those that cannot be read ([`Store::unread`]).
    pub fn records(&self) -> Result<BTreeMap<String, Record>, StoreError> {
        Ok(self.scan()?.0)
    }

    /// The records it holds that cannot be read, left out of [`Store::records`].
    pub fn unread(&self) -> Result<Vec<Unread>, StoreError> {
        Ok(self.scan()?.1)
    }

    /// Every record it holds, by student, and those that cannot be read. A record of another
    /// version, or a file that cannot be opened, fails them all: the store is another
    /// `grade`'s, or the disk's trouble, not one student's.
    fn scan(&self) -> Result<(BTreeMap<String, Record>, Vec<Unread>), StoreError> {
        let listing = match fs::read_dir(&self.folder) {
            Ok(listing) => listing,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok((BTreeMap::new(), Vec::new()))
            }
            Err(source) => {
                return Err(StoreError::Io {
                    path: self.folder.clone(),
                    source,
                })
            }
        };
        let (mut records, mut unread) = (BTreeMap::new(), Vec::new());
        for entry in listing.flatten() {
            let path = entry.path();
            let name = entry.file_name();
            let is_record = name.to_str().is_some_and(|name| {
                name.ends_with(".json") && name != CLASS && !name.starts_with('.')
            });
            if !is_record {
                continue;
            }
            match read::<schema::Record, Record>(&path) {
                Ok(Some(record)) => {
                    records.insert(record.student.clone(), record);
                }
                Ok(None) => {}
                Err(error @ StoreError::Malformed { .. }) => {
                    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
                    let student = percent_decode_str(&stem).decode_utf8_lossy();
                    unread.push((student.into_owned(), error));
                }
                Err(error) => return Err(error),
            }
        }
        Ok((records, unread))
    }

    /// The class's records, in its order: those of its students graded by its run. Without a
    /// class (`grade student` alone), every record.
    pub fn class_records(&self) -> Result<(Option<Class>, Vec<Record>), StoreError> {
        let class = self.class()?;
        let mut records = self.records()?;
        let Some(class) = class else {
            return Ok((None, records.into_values().collect()));
        };
        let ours = class
            .students
            .iter()
            .filter_map(|name| records.remove(name))
            .filter(|record| record.run == Some(class.started))
            .collect();
        Ok((Some(class), ours))
    }

    /// Begins a class run of `class` (its students' submissions now in `current`): carries on
    /// the unfinished run of the same class held here, unless `restart`, with the records of
    /// the students whose submission is unchanged; else begins anew. The class is kept either
    /// way; the records of earlier runs stay (with their hand scores) until their students
    /// are graded again.
    pub fn begin(
        &self,
        mut class: Class,
        restart: bool,
        current: &BTreeMap<String, Stamp>,
    ) -> Result<Begun, StoreError> {
        let found = match self.class()? {
            None => Err(Found::Nothing),
            Some(_) if restart => Err(Found::StartingOver(StartOver::Asked)),
            Some(earlier) if earlier.finished.is_some() => {
                Err(Found::StartingOver(StartOver::Finished))
            }
            Some(earlier) => match class.setup.changed(&earlier.setup) {
                Some(what) => Err(Found::StartingOver(StartOver::Changed(what))),
                None => Ok(earlier.started),
            },
        };
        // Every record read first: one of another version refuses the run before the class
        // is written over.
        let (records, unread) = self.scan()?;
        let (found, carried, changed, unread) = match found {
            Ok(started) => {
                class.started = started;
                let (carried, changed): (BTreeMap<_, _>, BTreeMap<_, _>) = records
                    .into_iter()
                    .filter(|(name, record)| {
                        record.run == Some(started) && current.contains_key(name)
                    })
                    .partition(|(name, record)| record.submission.as_ref() == current.get(name));
                let changed = changed.into_keys().collect();
                (Found::CarryingOn(started), carried, changed, unread)
            }
            // Starting over, everyone is graded again: no record is read back.
            Err(found) => (found, BTreeMap::new(), Vec::new(), Vec::new()),
        };
        self.put_class(&class)?;
        Ok(Begun {
            class,
            found,
            carried,
            changed,
            unread,
        })
    }

    /// When the run of the class held here with `setup` started, finished or not; `None` when
    /// there is none, or it is another class's: what a submission's files changed since then
    /// is the grading's doing.
    pub fn started(&self, setup: &Setup) -> Option<SystemTime> {
        let class = self.class().ok()??;
        setup
            .changed(&class.setup)
            .is_none()
            .then_some(class.started)
    }

    /// Where `student`'s record is: their name percent-encoded, so that no two names share a
    /// file and none leaves the folder.
    fn record_path(&self, student: &str) -> PathBuf {
        let name = utf8_percent_encode(student, NON_ALPHANUMERIC).to_string();
        // A file name holds 255 bytes: a longer name (ASCII, once encoded) keeps its start and a
        // hash of the whole.
        let name = match name.len() > 200 {
            true => format!("{}-{:016x}", &name[..180], stamp::fnv(student.as_bytes())),
            false => name,
        };
        self.folder.join(format!("{name}.json"))
    }
}

/// The value of the store's file at `path`, if there is one, of a version this `grade` reads:
/// read as its stored form `S`, and made the kit's.
fn read<S: for<'de> Deserialize<'de>, T: From<S>>(path: &Path) -> Result<Option<T>, StoreError> {
    let text = match fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => {
            return Err(StoreError::Io {
                path: path.into(),
                source,
            })
        }
    };
    let malformed = |source| StoreError::Malformed {
        path: path.into(),
        source,
    };
    let versioned: Versioned = serde_json::from_str(&text).map_err(malformed)?;
    if !schema::READ.contains(&versioned.version) {
        return Err(StoreError::Version {
            path: path.into(),
            found: versioned.version,
        });
    }
    let stored: S = serde_json::from_str(&text).map_err(malformed)?;
    Ok(Some(stored.into()))
}

/// Writes `value` to the store's file at `path` at once: written beside it, synced to disk
/// and renamed over it, so that a reader or a crash sees the old file or the new, whole. A
/// file there of a version this `grade` does not read is refused, never written over.
fn write<T: Serialize>(path: &Path, value: &T) -> Result<(), StoreError> {
    if let Ok(text) = fs::read_to_string(path) {
        if let Ok(Versioned { version }) = serde_json::from_str(&text) {
            if !schema::READ.contains(&version) {
                return Err(StoreError::Version {
                    path: path.into(),
                    found: version,
                });
            }
        }
    }
    let io = |source: std::io::Error| StoreError::Io {
        path: path.into(),
        source,
    };
    let folder = path.parent().unwrap_or(Path::new("."));
    disk::writable(path).map_err(io)?;
    fs::create_dir_all(folder).map_err(io)?;
    let json = serde_json::to_string_pretty(value).map_err(|source| StoreError::Malformed {
        path: path.into(),
        source,
    })?;
    let mut file = tempfile::NamedTempFile::new_in(folder).map_err(io)?;
    file.write_all(json.as_bytes())
        .and_then(|()| file.write_all(b"\n"))
        .and_then(|()| file.as_file().sync_all())
        .map_err(io)?;
    file.persist(path).map_err(|e| io(e.error))?;
    let _ = fs::File::open(folder).and_then(|dir| dir.sync_all());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::fixtures::student;

    /// A stamp told by `digest`.
    fn print(digest: &str) -> Stamp {
        Stamp {
            entries: 1,
            bytes: 1,
            digest: digest.into(),
        }
    }

    /// A class of the folder `submissions`.
    fn class(submissions: &str) -> Class {
        Class::new(Setup::example(submissions), Vec::new(), "/g.csv".into())
    }

    /// Each student's submission now.
    fn now(students: &[(&str, &str)]) -> BTreeMap<String, Stamp> {
        students
            .iter()
            .map(|(name, digest)| (name.to_string(), print(digest)))
            .collect()
    }

    /// `name` graded by the run started at `run`, from the submission `digest`.
    fn graded(name: &str, digest: &str, run: SystemTime) -> Record {
        let result = student(name, Vec::new(), 1);
        Record::new(result, Some(print(digest)), Some(run), None)
    }

    #[test]
    fn an_unfinished_run_is_carried_on_with_its_unchanged_students() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::of(dir.path());
        let current = now(&[("ann", "a"), ("bob", "b"), ("cy", "c")]);
        let begun = store.begin(class("/class"), false, &current).unwrap();
        assert_eq!(begun.found, Found::Nothing);
        let started = begun.class.started;
        for (name, digest) in [("ann", "a"), ("bob", "b"), ("dee", "d")] {
            store.put(&graded(name, digest, started)).unwrap();
        }
        // Bob's submission changed since; dee's folder is gone.
        let current = now(&[("ann", "a"), ("bob", "b2"), ("cy", "c")]);
        let begun = store.begin(class("/class"), false, &current).unwrap();
        assert_eq!(begun.found, Found::CarryingOn(started));
        assert_eq!(begun.class.started, started);
        assert_eq!(begun.carried.keys().collect::<Vec<_>>(), ["ann"]);
        assert_eq!(begun.changed, ["bob"]);
        // Finished, the next run starts over; the earlier records stay, not carried.
        store
            .put_class(&Class {
                finished: Some(SystemTime::now()),
                ..begun.class
            })
            .unwrap();
        let begun = store.begin(class("/class"), false, &current).unwrap();
        assert_eq!(begun.found, Found::StartingOver(StartOver::Finished));
        assert!(begun.carried.is_empty());
        assert_eq!(store.records().unwrap().len(), 3);
    }

    #[test]
    fn another_class_or_restart_starts_over() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::of(dir.path());
        let current = now(&[("ann", "a")]);
        let begin = |class: Class, restart| {
            let begun = store.begin(class, restart, &current).unwrap();
            store.put(&graded("ann", "a", begun.class.started)).unwrap();
            (begun.found, begun.carried.len())
        };
        begin(class("/class"), false);
        assert_eq!(
            begin(class("/class"), true),
            (Found::StartingOver(StartOver::Asked), 0)
        );
        assert_eq!(
            begin(class("/other"), false),
            (
                Found::StartingOver(StartOver::Changed("the submissions folder")),
                0
            )
        );
        let mut changed = class("/other");
        changed.setup.kit_files = print("kit2");
        assert_eq!(
            begin(changed.clone(), false).0,
            Found::StartingOver(StartOver::Changed("the kit"))
        );
        changed.setup.skip_timing = false;
        assert_eq!(
            begin(changed.clone(), false).0,
            Found::StartingOver(StartOver::Changed("the grading settings"))
        );
        assert!(store.started(&changed.setup).is_some());
        assert!(store.started(&class("/class").setup).is_none());
    }

    #[test]
    fn a_record_of_another_version_is_refused_and_never_written_over() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::of(dir.path());
        let ann = graded("ann", "a", SystemTime::now());
        store.put(&ann).unwrap();
        assert_eq!(store.record("ann").unwrap(), Some(ann.clone()));
        let path = store.record_path("ann");
        let text = fs::read_to_string(&path).unwrap();
        let newer = text.replacen("\"version\": 2", "\"version\": 3", 1);
        assert_ne!(newer, text);
        fs::write(&path, &newer).unwrap();
        let said = store.records().unwrap_err().to_string();
        assert!(
            said.ends_with(
                "ann.json: written by another version of grade (version 3; this grade reads \
                 versions 1 to 2): use that grade, or move records/ away to grade the class \
                 again"
            ),
            "{said}"
        );
        assert!(matches!(
            store.put(&ann),
            Err(StoreError::Version { found: 3, .. })
        ));
        assert_eq!(fs::read_to_string(&path).unwrap(), newer);
        // Nor does a run begin, starting over or not: the class is not written over either.
        store.put_class(&class("/class")).unwrap();
        let kept = fs::read(store.folder().join(CLASS)).unwrap();
        for restart in [false, true] {
            let current = now(&[("ann", "a")]);
            assert!(matches!(
                store.begin(class("/class"), restart, &current),
                Err(StoreError::Version { found: 3, .. })
            ));
            assert_eq!(fs::read(store.folder().join(CLASS)).unwrap(), kept);
        }
        fs::write(&path, "{\"version\": 1, \"student\": 3}").unwrap();
        assert!(matches!(
            store.record("ann"),
            Err(StoreError::Malformed { .. })
        ));
    }

    #[test]
    fn a_malformed_record_costs_its_student_alone_named_and_graded_again() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::of(dir.path());
        let current = now(&[("ann", "a"), ("Bo Ray", "b")]);
        let started = store
            .begin(class("/class"), false, &current)
            .unwrap()
            .class
            .started;
        for (name, digest) in [("ann", "a"), ("Bo Ray", "b")] {
            store.put(&graded(name, digest, started)).unwrap();
        }
        let bo = store.record_path("Bo Ray");
        fs::write(&bo, "{\"version\": 1, \"student\": ").unwrap();
        assert_eq!(store.records().unwrap().keys().collect::<Vec<_>>(), ["ann"]);
        let unread = store.unread().unwrap();
        assert_eq!(unread.len(), 1);
        assert_eq!(unread[0].0, "Bo Ray");
        assert!(matches!(unread[0].1, StoreError::Malformed { .. }));
        // Carried on, the class keeps ann and grades Bo again, over what could not be read.
        let begun = store.begin(class("/class"), false, &current).unwrap();
        assert_eq!(begun.carried.keys().collect::<Vec<_>>(), ["ann"]);
        assert_eq!(begun.unread.len(), 1);
        store.put_graded(graded("Bo Ray", "b", started)).unwrap();
        assert_eq!(store.records().unwrap().len(), 2);
        assert!(store.unread().unwrap().is_empty());
    }

    #[test]
    fn every_name_has_a_file_of_its_own_inside_the_folder() {
        let store = Store::of(Path::new("/r"));
        let names = [
            "Ann Lee",
            "Ann_Lee",
            "../up",
            ".hidden",
            "Zoë",
            &"x".repeat(300),
        ];
        let paths: Vec<PathBuf> = names.iter().map(|n| store.record_path(n)).collect();
        for path in &paths {
            assert_eq!(path.parent(), Some(Path::new("/r/records")), "{path:?}");
            let name = path.file_name().unwrap().to_str().unwrap();
            assert!(name.len() <= 255 && !name.starts_with('.'), "{name}");
        }
        let unique: std::collections::BTreeSet<&PathBuf> = paths.iter().collect();
        assert_eq!(unique.len(), names.len());
    }

    #[test]
    fn graded_again_a_student_keeps_their_hand_scores() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::of(dir.path());
        let run = SystemTime::now();
        let mut ann = graded("ann", "a", run);
        ann.hand = serde_json::from_str(r#"{"GUI": {"items": [1, null]}}"#).unwrap();
        store.put(&ann).unwrap();
        let again = store.put_graded(graded("ann", "a2", run)).unwrap();
        assert_eq!(again.hand, ann.hand);
        // Graded outside the class (grade student): still the class's, with its submission.
        let alone = Record::new(student("ann", Vec::new(), 1), None, None, None);
        let alone = store.put_graded(alone).unwrap();
        assert_eq!(
            (alone.run, alone.submission),
            (Some(run), Some(print("a2")))
        );
    }
}
