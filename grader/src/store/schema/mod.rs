//! The store's files as written: types made for storage alone, one module per topic, each
//! converted from and to the type of the judge, the kit or the process layer it keeps. Nothing
//! of those layers is serialised into a record, so a field added to one of their types breaks
//! the conversion here (it does not compile) rather than changing the stored format unseen;
//! what a record is written as changes only here, with [`VERSION`], and the golden records
//! (`golden/`) pin it.
//!
//! # Changelog
//!
//! - 1: the first stored format: one record per student and the class (replacing the class
//!   run's journal, `class-journal.jsonl`); a record held the judge's `StudentResult` whole,
//!   serialised by the derives of the judge's, the kit's and the process layer's types.
//! - 2: written from this module's types (no judge, kit or process type serialised), the JSON
//!   of version 1 but for a speed-up's measurement, which says what its work's growth was
//!   measured in (`counted`: instructions retired, or CPU time and why; version 1's
//!   `counters`, whether the machine offered them, is gone) with the instructions of each
//!   search (`instructions`) and of the calibration (`machine_instructions`) where counted. A
//!   file of version 1 is read as one of version 2 (its growths in CPU time), and written as
//!   version 2 the next time its student is graded or scored. A speed-up not counted because
//!   the machine kept the threads waiting for a CPU (`Busy`'s `Waited`: the share, and the
//!   rule's `busy_waiting`) is new in version 2.

#[macro_use]
mod each;
mod build;
mod case;
mod kit;
mod process;
mod result;
mod speedup;
mod style;
mod window;

use std::path::PathBuf;
use std::time::SystemTime;

use serde::{Deserialize, Serialize};

use super::format::{self, Setup};
use super::stamp::Stamp;
use crate::judge::result::hand;
use each::{all, back};

/// The version of the files this `grade` writes. It reads those of this version and of the
/// versions before it whose JSON is the same ([`READ`]); a file of another is refused, never
/// read as something else nor written over.
pub const VERSION: u32 = 2;

/// The versions this `grade` reads: version 1's JSON reads as version 2's.
pub const READ: [u32; 2] = [1, VERSION];

/// [`format::Record`] as stored.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    version: u32,
    student: String,
    submission: Option<Stamp>,
    graded: SystemTime,
    run: Option<SystemTime>,
    who: Option<Who>,
    hand: Marks,
    result: result::Result,
}

impl From<&format::Record> for Record {
    fn from(record: &format::Record) -> Record {
        Record {
            version: VERSION,
            student: record.student.clone(),
            submission: record.submission.clone(),
            graded: record.graded,
            run: record.run,
            who: record.who.as_ref().map(Into::into),
            hand: (&record.hand).into(),
            result: (&record.result).into(),
        }
    }
}

impl From<Record> for format::Record {
    fn from(record: Record) -> format::Record {
        format::Record {
            student: record.student,
            submission: record.submission,
            graded: record.graded,
            run: record.run,
            who: record.who.map(Into::into),
            hand: record.hand.into(),
            result: record.result.into(),
        }
    }
}

/// [`format::Who`] as stored.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Who {
    members: Vec<kit::Member>,
    submitted: Option<kit::Submitted>,
    late: Late,
}

impl From<&format::Who> for Who {
    fn from(who: &format::Who) -> Who {
        Who {
            members: all(&who.members),
            submitted: who.submitted.as_ref().map(Into::into),
            late: match &who.late {
                format::Late::NoPolicy => Late::NoPolicy,
                format::Late::NoTime => Late::NoTime,
                format::Late::Judged(lateness) => Late::Judged(lateness.into()),
            },
        }
    }
}

impl From<Who> for format::Who {
    fn from(who: Who) -> format::Who {
        format::Who {
            members: back(who.members),
            submitted: who.submitted.map(Into::into),
            late: match who.late {
                Late::NoPolicy => format::Late::NoPolicy,
                Late::NoTime => format::Late::NoTime,
                Late::Judged(lateness) => format::Late::Judged(lateness.into()),
            },
        }
    }
}

/// [`format::Late`] as stored.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Late {
    NoPolicy,
    NoTime,
    Judged(kit::Lateness),
}

/// [`hand::Marks`] as stored.
#[derive(Debug, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Marks(std::collections::BTreeMap<String, CategoryMarks>);

/// [`hand::CategoryMarks`] as stored.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CategoryMarks {
    items: Vec<Option<f64>>,
    comment: String,
}

impl From<&hand::Marks> for Marks {
    fn from(marks: &hand::Marks) -> Marks {
        let stored = marks.iter().map(|(category, marks)| {
            let items = marks.items.clone();
            let comment = marks.comment.clone();
            (category.clone(), CategoryMarks { items, comment })
        });
        Marks(stored.collect())
    }
}

impl From<Marks> for hand::Marks {
    fn from(marks: Marks) -> hand::Marks {
        let kept = marks.0.into_iter().map(|(category, marks)| {
            let (items, comment) = (marks.items, marks.comment);
            (category, hand::CategoryMarks { items, comment })
        });
        kept.collect()
    }
}

/// [`format::Class`] as stored.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Class {
    version: u32,
    started: SystemTime,
    finished: Option<SystemTime>,
    setup: Setup,
    students: Vec<String>,
    timed: Vec<String>,
    gradebook: PathBuf,
    missing: Option<Vec<kit::Member>>,
    no_folder: Vec<(String, Vec<kit::Member>)>,
}

impl From<&format::Class> for Class {
    fn from(class: &format::Class) -> Class {
        Class {
            version: VERSION,
            started: class.started,
            finished: class.finished,
            setup: class.setup.clone(),
            students: class.students.clone(),
            timed: class.timed.clone(),
            gradebook: class.gradebook.clone(),
            missing: class.missing.as_deref().map(all),
            no_folder: (class.no_folder.iter())
                .map(|(id, members)| (id.clone(), all(members)))
                .collect(),
        }
    }
}

impl From<Class> for format::Class {
    fn from(class: Class) -> format::Class {
        format::Class {
            started: class.started,
            finished: class.finished,
            setup: class.setup,
            students: class.students,
            timed: class.timed,
            gradebook: class.gradebook,
            missing: class.missing.map(back),
            no_folder: (class.no_folder.into_iter())
                .map(|(id, members)| (id, back(members)))
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::time::{Duration, UNIX_EPOCH};

    use super::super::fixture;
    use super::super::Store;
    use super::*;
    use crate::judge::fixtures::{case_result, student};

    /// A record of version 1, as version 1 wrote it.
    const V1: &str = include_str!("../golden/record-v1.json");
    /// The same record, as this version writes it.
    const V2: &str = include_str!("../golden/record-v2.json");
    /// A record holding something of every stored type, as this version writes it (version 1
    /// wrote the same but for its version and the speed-up's counting).
    const FULL: &str = include_str!("../golden/record-full-v2.json");

    /// A record and its class as version 1 wrote them in a real class run: `grade class` of two
    /// Python students, sandboxed, with their style and their window observed.
    const RUN_V1: [(&str, &str); 2] = [
        ("ann.json", include_str!("../golden/run-v1/ann.json")),
        ("class.json", include_str!("../golden/run-v1/class.json")),
    ];

    /// The record the small golden files hold: a student with a case, their submission's
    /// stamp, the run that graded them and hand scores.
    fn small() -> format::Record {
        let result = student("ann", vec![case_result("board_1x1", "Rules", 2.0)], 3);
        let stamp = Stamp {
            entries: 4,
            bytes: 1234,
            digest: "0123456789abcdef".into(),
        };
        let at = |seconds| UNIX_EPOCH + Duration::from_secs(seconds);
        let mut record = format::Record::new(result, Some(stamp), Some(at(1_760_000_000)), None);
        record.graded = at(1_760_000_060);
        record.hand.insert(
            "GUI".into(),
            hand::CategoryMarks {
                items: vec![Some(3.0), None],
                comment: "a grid".into(),
            },
        );
        record
    }

    /// What the store writes of `record`, and what it reads back of `text` (ann's file).
    fn through_store(record: &format::Record, text: &str) -> (String, format::Record) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::of(dir.path());
        store.put(record).unwrap();
        let path = store.record_path(&record.student);
        let written = fs::read_to_string(&path).unwrap();
        fs::write(&path, text).unwrap();
        (written, store.record("ann").unwrap().unwrap())
    }

    #[test]
    fn a_record_of_this_version_is_written_as_its_golden_record_and_read_back_byte_for_byte() {
        for (record, golden) in [(small(), V2), (fixture::full(), FULL)] {
            let (written, read) = through_store(&record, golden);
            assert!(
                written == golden,
                "the stored format changed: give it a new VERSION with a line in its \
                 changelog and a golden record of its own, keeping this one; written now:\n\
                 {written}"
            );
            assert_eq!(read, record);
            assert_eq!(through_store(&read, golden).0, golden);
        }
    }

    #[test]
    fn a_record_of_version_1_is_read_and_written_again_as_version_2() {
        let (_, read) = through_store(&small(), V1);
        assert_eq!(read, small());
        assert_eq!(through_store(&read, V1).0, V2);
    }

    #[test]
    fn a_class_run_of_version_1_is_read_and_written_again_as_version_2() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::of(dir.path());
        fs::create_dir_all(store.folder()).unwrap();
        for (file, text) in RUN_V1 {
            fs::write(store.folder().join(file), text).unwrap();
        }
        let (class, records) = store.class_records().unwrap();
        assert_eq!(records.len(), 1);
        store.put(&records[0]).unwrap();
        store.put_class(&class.unwrap()).unwrap();
        for (file, v1) in RUN_V1 {
            let written = fs::read_to_string(store.folder().join(file)).unwrap();
            assert_eq!(written, v1.replacen("\"version\": 1", "\"version\": 2", 1));
        }
    }
}
