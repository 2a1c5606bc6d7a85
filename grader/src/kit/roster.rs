//! The roster: a CSV file the instructor writes that says who each submission folder is
//! (`folder`, `student_id`, `name`, `email`) and who has an extension (`extension`: hours, or
//! a due date-time of their own). A group's submission has a row per student, all with its
//! folder; a student is in one folder only. Loaded and checked with errors that name the file
//! and the line; with Gradescope's metadata ([`super::gradescope_export`]) beside it, the
//! roster completes or overrides what the metadata says ([`members`]).
//!
//! Every field is the instructor's or Gradescope's text, and a name may hold anything: the
//! reports make it inert where they show it.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use super::late::Extension;
use super::KitError;

/// The roster's columns; `folder` is required, the others may be left out.
const COLUMNS: [&str; 5] = ["folder", "student_id", "name", "email", "extension"];

/// One student, as the roster or Gradescope's metadata names them; an empty field is not
/// known.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Member {
    /// Their student id (the SIS id a learning platform matches).
    pub student_id: String,
    /// Their name.
    pub name: String,
    /// Their email address.
    pub email: String,
}

impl Member {
    /// Whether `other` is the same student: the same id, else the same email, else the same
    /// name (each compared only when both know it).
    fn same(&self, other: &Member) -> bool {
        let both = |a: &str, b: &str| !a.is_empty() && a == b;
        both(&self.student_id, &other.student_id)
            || both(&self.email, &other.email)
            || both(&self.name, &other.name)
    }

    /// This member with each field it leaves empty taken from `other`.
    fn completed(mut self, other: &Member) -> Member {
        for (mine, theirs) in [
            (&mut self.student_id, &other.student_id),
            (&mut self.name, &other.name),
            (&mut self.email, &other.email),
        ] {
            if mine.is_empty() {
                mine.clone_from(theirs);
            }
        }
        self
    }
}

/// One row of the roster.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Its line in the file.
    pub line: u64,
    /// The submission folder (or Gradescope submission id) it belongs to.
    pub folder: String,
    /// The student.
    pub member: Member,
    /// Their extension, if they have one.
    pub extension: Option<Extension>,
}

/// The roster, as loaded.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Roster {
    /// Its rows, in the file's order.
    pub rows: Vec<Row>,
}

/// Why a roster cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RosterError {
    /// It cannot be read.
    Unreadable(PathBuf, String),
    /// It is not CSV, at a line.
    NotCsv(PathBuf, u64, String),
    /// Its header has no `folder` column.
    NoFolder(PathBuf),
    /// Its header has a column it does not know, or one twice.
    BadColumn(PathBuf, String),
    /// A row has no folder.
    EmptyFolder(PathBuf, u64),
    /// A row's extension is neither hours nor a date-time.
    BadExtension(PathBuf, u64, String),
    /// A student is in two rows (the lines, and who).
    Twice(PathBuf, u64, u64, String),
}

impl fmt::Display for RosterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RosterError::Unreadable(path, why) => {
                write!(f, "{}: the roster cannot be read: {why}", path.display())
            }
            RosterError::NotCsv(path, line, why) => {
                write!(f, "{}:{line}: the roster is not CSV: {why}", path.display())
            }
            RosterError::NoFolder(path) => write!(
                f,
                "{}:1: the roster's header has no `folder` column (its columns: {})",
                path.display(),
                COLUMNS.join(", ")
            ),
            RosterError::BadColumn(path, column) => write!(
                f,
                "{}:1: the roster's column {column:?} is unknown or given twice (its columns: {})",
                path.display(),
                COLUMNS.join(", ")
            ),
            RosterError::EmptyFolder(path, line) => {
                write!(f, "{}:{line}: the folder is empty", path.display())
            }
            RosterError::BadExtension(path, line, text) => write!(
                f,
                "{}:{line}: the extension {text:?} is neither a number of hours (48) nor a \
                 date-time with its offset (2026-11-25T23:59:00-08:00)",
                path.display()
            ),
            RosterError::Twice(path, first, line, who) => write!(
                f,
                "{}:{line}: {who:?} is already on line {first}: a student is in one folder, \
                 once",
                path.display()
            ),
        }
    }
}

impl From<RosterError> for KitError {
    fn from(error: RosterError) -> Self {
        KitError(error.to_string())
    }
}

impl Roster {
    /// Reads and checks the roster at `path`.
    pub fn load(path: &Path) -> Result<Roster, RosterError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| RosterError::Unreadable(path.to_path_buf(), e.to_string()))?;
        Roster::parse(path, &text)
    }

    /// Reads and checks `text`, the roster at `path`.
    pub fn parse(path: &Path, text: &str) -> Result<Roster, RosterError> {
        let path = || path.to_path_buf();
        let text = text.trim_start_matches('\u{feff}');
        let mut reader = csv::ReaderBuilder::new()
            .trim(csv::Trim::All)
            .from_reader(text.as_bytes());
        // The line of the first text at or after a byte (a record's position is where the
        // reader began, before the blank lines it skipped).
        let line_at = |byte: u64| {
            let start = usize::try_from(byte).unwrap_or(usize::MAX).min(text.len());
            let blank = text.as_bytes()[start..]
                .iter()
                .take_while(|&&b| b == b'\n' || b == b'\r')
                .count();
            let before = &text.as_bytes()[..start + blank];
            1 + before.iter().filter(|&&b| b == b'\n').count() as u64
        };
        let line_of = |e: &csv::Error| e.position().map_or(1, |p| line_at(p.byte()));
        let header = reader
            .headers()
            .map_err(|e| RosterError::NotCsv(path(), line_of(&e), e.to_string()))?
            .clone();
        let mut at = BTreeMap::new();
        for (index, column) in header.iter().enumerate() {
            let known = COLUMNS.contains(&column);
            if !known || at.insert(column.to_string(), index).is_some() {
                return Err(RosterError::BadColumn(path(), column.to_string()));
            }
        }
        if !at.contains_key("folder") {
            return Err(RosterError::NoFolder(path()));
        }
        let mut rows: Vec<Row> = Vec::new();
        let mut last = 1;
        for record in reader.records() {
            let record =
                record.map_err(|e| RosterError::NotCsv(path(), line_of(&e), e.to_string()))?;
            let line = record.position().map_or(0, |p| line_at(p.byte()));
            last = line;
            let field = |name: &str| {
                at.get(name)
                    .and_then(|&index| record.get(index))
                    .unwrap_or_default()
                    .to_string()
            };
            if record.iter().all(str::is_empty) {
                continue;
            }
            let folder = field("folder");
            if folder.is_empty() {
                return Err(RosterError::EmptyFolder(path(), line));
            }
            let extension = match field("extension") {
                text if text.is_empty() => None,
                text => Some(
                    Extension::parse(&text)
                        .ok_or_else(|| RosterError::BadExtension(path(), line, text.clone()))?,
                ),
            };
            let member = Member {
                student_id: field("student_id"),
                name: field("name"),
                email: field("email"),
            };
            if let Some(first) = rows.iter().find(|r| r.member.same(&member)) {
                let who = [&member.student_id, &member.email, &member.name]
                    .into_iter()
                    .find(|f| !f.is_empty())
                    .cloned()
                    .unwrap_or_default();
                return Err(RosterError::Twice(path(), first.line, line, who));
            }
            rows.push(Row {
                line,
                folder,
                member,
                extension,
            });
        }
        // The reader takes a quote left open to the end of the file, leniently.
        if text.matches('"').count() % 2 == 1 {
            return Err(RosterError::NotCsv(
                path(),
                last,
                "a quote is never closed".into(),
            ));
        }
        Ok(Roster { rows })
    }

    /// The rows of the submission `folder`.
    pub fn of<'a>(&'a self, folder: &'a str) -> impl Iterator<Item = &'a Row> + 'a {
        self.rows.iter().filter(move |r| r.folder == folder)
    }

    /// The folders the roster names that are not among `folders`, each once, in its order.
    pub fn missing(&self, folders: &[String]) -> Vec<String> {
        let mut missing: Vec<String> = Vec::new();
        for row in &self.rows {
            if !folders.contains(&row.folder) && !missing.contains(&row.folder) {
                missing.push(row.folder.clone());
            }
        }
        missing
    }
}

/// Who submitted the folder `folder`, and their extensions: `known` (Gradescope's submitters,
/// or a gradebook's), each with what the roster's row for the same student (matched by id,
/// email or name) says over what `known` says; then the roster's rows for the folder that match
/// none of them.
pub fn members(
    folder: &str,
    roster: Option<&Roster>,
    known: &[Member],
) -> (Vec<Member>, Vec<Extension>) {
    let mut members = known.to_vec();
    let rows: Vec<&Row> = roster.map(|r| r.of(folder).collect()).unwrap_or_default();
    for row in &rows {
        match members.iter_mut().find(|m| row.member.same(m)) {
            Some(member) => *member = row.member.clone().completed(member),
            None => members.push(row.member.clone()),
        }
    }
    (members, rows.iter().filter_map(|r| r.extension).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Roster, RosterError> {
        Roster::parse(Path::new("roster.csv"), text)
    }

    #[test]
    fn a_roster_reads_its_columns_in_any_order_with_hostile_names_kept_as_text() {
        let roster = parse(
            "email,folder,name,student_id,extension\n\
             ann@x.edu,ann,\"Lee, Ann \"\"the first\"\"\",1001,48\n\
             \n\
             bob@x.edu,submission_2,=cmd|' /C calc'!A0,1002,\n",
        )
        .unwrap();
        assert_eq!(roster.rows.len(), 2);
        assert_eq!(roster.rows[0].member.name, "Lee, Ann \"the first\"");
        assert_eq!(roster.rows[0].extension, Some(Extension::Hours(48.0)));
        assert_eq!(roster.rows[1].member.name, "=cmd|' /C calc'!A0");
        assert_eq!(roster.rows[1].line, 4);
        assert_eq!(roster.rows[1].extension, None);
        assert_eq!(
            roster.missing(&["ann".into(), "cy".into()]),
            ["submission_2"]
        );
        // A group: two students, one folder.
        let group = parse("folder,name\nteam,Ann\nteam,Bob\n").unwrap();
        assert_eq!(group.of("team").count(), 2);
    }

    #[test]
    fn a_bad_roster_is_refused_naming_the_file_and_line() {
        let cases = [
            (
                "name,email\nAnn,a@x\n",
                "roster.csv:1: the roster's header has no `folder`",
            ),
            (
                "folder,sid\nann,1\n",
                "roster.csv:1: the roster's column \"sid\" is unknown",
            ),
            (
                "folder,name,name\nann,A,B\n",
                "column \"name\" is unknown or given twice",
            ),
            (
                "folder,name\nann,Ann\n,Bob\n",
                "roster.csv:3: the folder is empty",
            ),
            (
                "folder,extension\nann,2 days\n",
                "roster.csv:2: the extension \"2 days\" is neither",
            ),
            (
                "folder,student_id\nann,7\nbob,7\n",
                "roster.csv:3: \"7\" is already on line 2",
            ),
            (
                "folder,name\nann,\"open\n",
                "roster.csv:2: the roster is not CSV",
            ),
        ];
        for (text, expected) in cases {
            let error = parse(text).unwrap_err().to_string();
            assert!(error.contains(expected), "{text:?}: {error}");
        }
    }

    #[test]
    fn the_roster_completes_or_overrides_the_metadata() {
        let gradescope = |sid: &str, name: &str, email: &str| Member {
            student_id: sid.into(),
            name: name.into(),
            email: email.into(),
        };
        let exported = [
            gradescope("1001", "Ann Lee", "ann@x.edu"),
            gradescope("1002", "Bob", "bob@x.edu"),
        ];
        let roster =
            parse("folder,student_id,name,extension\nsubmission_1,1001,\"Lee, Ann\",24\n").unwrap();
        let (members, extensions) = super::members("submission_1", Some(&roster), &exported);
        assert_eq!(
            members,
            [
                gradescope("1001", "Lee, Ann", "ann@x.edu"),
                gradescope("1002", "Bob", "bob@x.edu")
            ]
        );
        assert_eq!(extensions, [Extension::Hours(24.0)]);
        let (members, extensions) = super::members("submission_1", None, &exported);
        assert_eq!(members.len(), 2);
        assert!(extensions.is_empty());
        assert_eq!(super::members("other", Some(&roster), &[]).0, []);
        let (members, _) = super::members("submission_1", Some(&roster), &[]);
        assert_eq!(members, [gradescope("1001", "Lee, Ann", "")]);
    }
}
