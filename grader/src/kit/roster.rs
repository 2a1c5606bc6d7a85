//! The roster: who the students are, who has an extension, and when each submitted where no
//! Gradescope export says it. Either the CSV file the instructor writes (`folder`,
//! `student_id`, `name`, `email`, `login`, `extension`, `submitted`) or a
//! platform's own download as it comes: Gradescope's roster (`First Name`, `Last Name`, `SID`,
//! `Email`, `Role`), Canvas's gradebook export (`Student`, `ID`, `SIS User ID`, `SIS Login ID`,
//! `Section`, then its assignments, which are left alone) or Moodle's participants or grades
//! export (`First name`, `Last name`, `ID number`, `Username`, `Email address`) or an
//! assignment's grading worksheet (`Identifier`, `Full name`, `Email address`: the participant
//! id Moodle's feedback zip is named by, [`Row::participant`]), with `,` or `;`
//! between fields, UTF-8 with or without its byte-order mark. A row names a student by their id,
//! email or login, and may give their submission folder (a group: several rows with one folder)
//! and an extension (hours, or a due date-time of their own) and a submission time (RFC 3339,
//! as a platform's submission list or the instructor's own record gives it: a trusted time for
//! lateness, where the files' times are not). Loaded and checked with errors
//! that name the file and the line and say what to do.
//!
//! A student is matched to a submission by their folder, else by their id, email or login
//! (Gradescope's submitters, or the folder's own name), never by name: two students may share
//! one ([`assign`]). Everyone the roster names without a submission is missing.
//!
//! Every field is the instructor's or a platform's text, and a name may hold anything: the
//! reports make it inert where they show it.

use std::path::{Path, PathBuf};

use super::late::{ExtraTime, Moment};

/// What a roster's column holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Field {
    Folder,
    StudentId,
    Name,
    First,
    Last,
    Email,
    Login,
    Role,
    Extension,
    Submitted,
    Participant,
}

/// Each column a roster may have (its header in lower case) and what it holds: the kit's own
/// (the first [`OWN`], those of the roster an instructor writes), then Gradescope's, Canvas's
/// and Moodle's, those from [`PLATFORM`] on found in a platform's roster alone.
const FIELDS: [(&str, Field); 20] = [
    ("folder", Field::Folder),
    ("student_id", Field::StudentId),
    ("name", Field::Name),
    ("email", Field::Email),
    ("login", Field::Login),
    ("extension", Field::Extension),
    ("submitted", Field::Submitted),
    ("first name", Field::First),
    ("last name", Field::Last),
    ("full name", Field::Name),
    ("role", Field::Role),
    ("student", Field::Name),
    ("sid", Field::StudentId),
    ("sis user id", Field::StudentId),
    ("sis login id", Field::Login),
    ("id number", Field::StudentId),
    ("email address", Field::Email),
    ("username", Field::Login),
    ("roles", Field::Role),
    ("identifier", Field::Participant),
];

/// How many of [`FIELDS`] are the kit's own columns.
const OWN: usize = 7;

/// Where in [`FIELDS`] the headers only a platform's roster has begin (Moodle's `Username`,
/// `Roles` and its grading worksheet's `Identifier` among them): with one, the columns the
/// roster does not know are the platform's own and left alone; without, the roster is the
/// instructor's, and a column it does not know is a mistake.
const PLATFORM: usize = 12;

/// The kit's own columns, as its errors list them.
fn columns() -> String {
    let names: Vec<&str> = FIELDS[..OWN].iter().map(|(name, _)| *name).collect();
    names.join(", ")
}

/// Canvas's rows that are not students: its points possible, and the test student every
/// course has.
const NOT_STUDENTS: [&str; 2] = ["Points Possible", "Student, Test"];

/// An id, email or login as the kit compares it across sources: without the whitespace
/// around it, in lower case, and a number without its leading zeros (a spreadsheet drops them:
/// `00012345` is `12345`). What goes out to a platform is the roster's own spelling.
pub fn normalised(key: &str) -> String {
    let key = key.trim().to_lowercase();
    match !key.is_empty() && key.bytes().all(|b| b.is_ascii_digit()) {
        true => match key.trim_start_matches('0') {
            "" => "0".into(),
            digits => digits.into(),
        },
        false => key,
    }
}

/// One student, as a roster, Gradescope's metadata or a gradebook names them; an empty field
/// is not known.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Member {
    /// Their student id (the SIS id a learning platform matches: Canvas's SIS User ID,
    /// Moodle's ID number, Gradescope's SID).
    pub student_id: String,
    pub name: String,
    /// Their email address.
    pub email: String,
    /// Their login (Canvas's SIS Login ID, Moodle's username).
    pub login: String,
}

impl Member {
    /// Whether `other` is the same student: the same id, email or login, each compared only
    /// when both know it, [`normalised`]; never by name, which two students may share.
    pub fn same(&self, other: &Member) -> bool {
        self.shared(other).is_some()
    }

    /// The id, email or login this student shares with `other`, if any, each compared
    /// [`normalised`].
    fn shared(&self, other: &Member) -> Option<&str> {
        [
            (&self.student_id, &other.student_id),
            (&self.email, &other.email),
            (&self.login, &other.login),
        ]
        .into_iter()
        .find(|(a, b)| !normalised(a).is_empty() && normalised(a) == normalised(b))
        .map(|(a, _)| a.as_str())
    }

    /// The student as a message names them: their name, else id, else email, else login.
    pub fn shown(&self) -> String {
        [&self.name, &self.student_id, &self.email, &self.login]
            .into_iter()
            .find(|f| !f.is_empty())
            .cloned()
            .unwrap_or_default()
    }

    /// Whether the submission folder `folder` is named for this student: their id, email or
    /// login.
    fn names(&self, folder: &str) -> bool {
        let folder = normalised(folder);
        !folder.is_empty()
            && [&self.student_id, &self.email, &self.login]
                .iter()
                .any(|key| normalised(key) == folder)
    }

    /// Whether the roster knows anything a platform can match them by.
    fn keyed(&self) -> bool {
        [&self.student_id, &self.email, &self.login]
            .iter()
            .any(|key| !key.is_empty())
    }

    /// This member with each field it leaves empty taken from `other`.
    fn completed(mut self, other: &Member) -> Member {
        for (mine, theirs) in [
            (&mut self.student_id, &other.student_id),
            (&mut self.name, &other.name),
            (&mut self.email, &other.email),
            (&mut self.login, &other.login),
        ] {
            if mine.is_empty() {
                mine.clone_from(theirs);
            }
        }
        self
    }
}

/// One student of the roster.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Its line in the file.
    pub line: u64,
    /// The submission folder (or Gradescope submission id) it belongs to; empty when the
    /// student is found by their id, email or login.
    pub folder: String,
    /// The student.
    pub member: Member,
    /// Their extension, if they have one.
    pub extension: Option<ExtraTime>,
    /// When they submitted, if the roster says.
    pub submitted: Option<Moment>,
    /// Their participant id in one Moodle assignment, from its grading worksheet's
    /// `Identifier` (`Participant 123456`), if the roster is one.
    pub participant: Option<u64>,
}

/// The roster, as loaded.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Roster {
    /// Its students, in the file's order.
    pub rows: Vec<Row>,
}

/// Why a roster cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RosterError {
    /// It cannot be read.
    #[error("{}: the roster cannot be read: {}", .0.display(), .1)]
    Unreadable(PathBuf, String),
    /// It is not UTF-8, from a line on (saved as Latin-1 or Windows-1252, most likely).
    #[error(
        "{}:{}: the roster is not UTF-8 (Latin-1 or Windows-1252, most likely): save \
         it as UTF-8 (a spreadsheet's \"CSV UTF-8\") and give it again",
        .0.display(),
        .1
    )]
    NotUtf8(PathBuf, u64),
    /// It is not CSV, at a line.
    #[error(
        "{}:{}: the roster is not CSV: {} (a field with a comma, a semicolon or a \
         quote needs quotes around it, its quotes doubled)",
        .0.display(),
        .1,
        .2
    )]
    NotCsv(PathBuf, u64, String),
    /// Its header has no column that says who a student is.
    #[error(
        "{}:1: the roster's header has no column that says who a student is: add \
         folder, student_id, email or login (its columns: {}), or give Gradescope's, \
         Canvas's or Moodle's roster as downloaded",
        .0.display(),
        columns()
    )]
    NoKey(PathBuf),
    /// The instructor's roster has a column it does not know, or a roster has one twice.
    #[error(
        "{}:1: the roster's column {:?} is unknown or given twice: rename or \
         remove it (its columns: {})",
        .0.display(),
        .1,
        columns()
    )]
    BadColumn(PathBuf, String),
    /// A row names no folder, id, email or login.
    #[error(
        "{}:{}: this row names no folder, student id, email or login: give one \
         (a name alone could be two students)",
        .0.display(),
        .1
    )]
    Unnamed(PathBuf, u64),
    /// A row's extension is neither hours nor a date-time.
    #[error(
        "{}:{}: the extension {:?} is neither a number of hours (48) nor a \
         date-time with its offset (2026-11-25T23:59:00-08:00): write one of those",
        .0.display(),
        .1,
        .2
    )]
    BadExtension(PathBuf, u64, String),
    /// A row's submission time is not a date-time with its offset.
    #[error(
        "{}:{}: the submission time {:?} is not a date-time with its offset \
         (2026-11-21T10:00:00-08:00, or 2026-11-21 18:00:00Z): write it so, or leave it \
         blank",
        .0.display(),
        .1,
        .2
    )]
    BadSubmitted(PathBuf, u64, String),
    /// A row's `Identifier` (a Moodle grading worksheet's) does not end in a participant id.
    #[error(
        "{}:{}: the Identifier {:?} is not Moodle's participant id (Participant \
         123456): download the grading worksheet again from the assignment (View all \
         submissions, Download grading worksheet), or correct the cell",
        .0.display(),
        .1,
        .2
    )]
    BadParticipant(PathBuf, u64, String),
    /// A student is on two rows (the lines, and the id, email or login they share).
    #[error(
        "{}:{}: {:?} is already on line {}: a student is on one row \
         (remove one of them, or correct the id, email or login)",
        .0.display(),
        .2,
        .3,
        .1
    )]
    Twice(PathBuf, u64, u64, String),
}

/// Where the quote left open at the end of `text` opens, if one is (a doubled quote inside
/// quotes closes and opens again).
fn unclosed_quote(text: &str) -> Option<usize> {
    let mut open = None;
    for (at, _) in text.match_indices('"') {
        open = match open {
            None => Some(at),
            Some(_) => None,
        };
    }
    open
}

/// The line (from 1) of byte `byte` of `bytes`.
fn line_of_byte(bytes: &[u8], byte: usize) -> u64 {
    let before = &bytes[..byte.min(bytes.len())];
    1 + before.iter().filter(|&&b| b == b'\n').count() as u64
}

impl Roster {
    /// Reads and checks the roster at `path`.
    pub fn load(path: &Path) -> Result<Roster, RosterError> {
        let bytes = std::fs::read(path)
            .map_err(|e| RosterError::Unreadable(path.to_path_buf(), e.to_string()))?;
        let text = String::from_utf8(bytes).map_err(|e| {
            let line = line_of_byte(e.as_bytes(), e.utf8_error().valid_up_to());
            RosterError::NotUtf8(path.to_path_buf(), line)
        })?;
        Roster::parse(path, &text)
    }

    /// Reads and checks `text`, the roster at `path`.
    pub fn parse(path: &Path, text: &str) -> Result<Roster, RosterError> {
        let path = || path.to_path_buf();
        let text = text.trim_start_matches('\u{feff}');
        // A spreadsheet saved where the decimal mark is a comma separates with `;`.
        let first = text.lines().next().unwrap_or_default();
        let delimiter = match first.matches(';').count() > first.matches(',').count() {
            true => b';',
            false => b',',
        };
        let mut reader = csv::ReaderBuilder::new()
            .delimiter(delimiter)
            .flexible(true)
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
            line_of_byte(text.as_bytes(), start + blank)
        };
        let line_of = |e: &csv::Error| e.position().map_or(1, |p| line_at(p.byte()));
        let header = reader
            .headers()
            .map_err(|e| RosterError::NotCsv(path(), line_of(&e), e.to_string()))?
            .clone();
        let lower: Vec<String> = header.iter().map(str::to_lowercase).collect();
        let platform = lower
            .iter()
            .any(|h| FIELDS[PLATFORM..].iter().any(|(name, _)| name == h));
        let mut at: Vec<(Field, usize)> = Vec::new();
        for (index, column) in lower.iter().enumerate() {
            let field = FIELDS.iter().find(|(name, _)| name == column).map(|f| f.1);
            let twice = field.is_some_and(|f| at.iter().any(|(seen, _)| *seen == f));
            if twice || (field.is_none() && !platform) {
                return Err(RosterError::BadColumn(path(), header[index].to_string()));
            }
            at.extend(field.map(|f| (f, index)));
        }
        let keys = [Field::Folder, Field::StudentId, Field::Email, Field::Login];
        if !at.iter().any(|(field, _)| keys.contains(field)) {
            return Err(RosterError::NoKey(path()));
        }
        let mut rows: Vec<Row> = Vec::new();
        for record in reader.records() {
            let record =
                record.map_err(|e| RosterError::NotCsv(path(), line_of(&e), e.to_string()))?;
            let line = record.position().map_or(0, |p| line_at(p.byte()));
            let field = |wanted: Field| {
                at.iter()
                    .find(|(field, _)| *field == wanted)
                    .and_then(|&(_, index)| record.get(index))
                    .unwrap_or_default()
                    .to_string()
            };
            let role = field(Field::Role).to_lowercase();
            let staff = !role.is_empty() && !role.contains("student");
            let mut name = field(Field::Name);
            if name.is_empty() {
                let first_last = format!("{} {}", field(Field::First), field(Field::Last));
                name = first_last.trim().to_string();
            }
            if record.iter().all(str::is_empty) || staff || NOT_STUDENTS.contains(&name.as_str()) {
                continue;
            }
            let member = Member {
                student_id: field(Field::StudentId),
                name,
                email: field(Field::Email),
                login: field(Field::Login),
            };
            let folder = field(Field::Folder);
            if folder.is_empty() && !member.keyed() {
                return Err(RosterError::Unnamed(path(), line));
            }
            let given = |wanted: Field| Some(field(wanted)).filter(|text| !text.is_empty());
            let extension = given(Field::Extension)
                .map(|t| ExtraTime::parse(&t).ok_or(RosterError::BadExtension(path(), line, t)))
                .transpose()?;
            let submitted = given(Field::Submitted)
                .map(|t| Moment::parse(&t).ok_or(RosterError::BadSubmitted(path(), line, t)))
                .transpose()?;
            let participant = given(Field::Participant)
                .map(|t| participant_id(&t).ok_or(RosterError::BadParticipant(path(), line, t)))
                .transpose()?;
            if let Some((first, key)) = rows
                .iter()
                .find_map(|r| Some((r.line, r.member.shared(&member)?.to_string())))
            {
                return Err(RosterError::Twice(path(), first, line, key));
            }
            rows.push(Row {
                line,
                folder,
                member,
                extension,
                submitted,
                participant,
            });
        }
        // The reader takes a quote left open to the end of the file, leniently: said at the
        // line it opens on.
        if let Some(opened) = unclosed_quote(text) {
            return Err(RosterError::NotCsv(
                path(),
                line_of_byte(text.as_bytes(), opened),
                "a quote opened here is never closed".into(),
            ));
        }
        Ok(Roster { rows })
    }

    /// The participant id of `member` in the Moodle worksheet this roster is: that of its one
    /// row for the same student (the same ID number or email, never a name alone); `None`
    /// when no row is theirs, or two are, or theirs has no Identifier.
    pub fn participant(&self, member: &Member) -> Option<u64> {
        let mut theirs = self.rows.iter().filter(|row| row.member.same(member));
        match (theirs.next(), theirs.next()) {
            (Some(row), None) => row.participant,
            _ => None,
        }
    }
}

/// The participant id in a Moodle worksheet's `Identifier`: the number its last word is
/// (`Participant 123456`, or in the site's language, `Teilnehmer/in 123456`), as Moodle's own
/// import takes what follows the word.
fn participant_id(identifier: &str) -> Option<u64> {
    let number = identifier.rsplit(' ').next()?;
    number
        .bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| number.parse().ok())?
}

/// Who each submission is, and who on the roster submitted nothing.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Assigned {
    /// Each submission's students, their extensions and the latest submission time the roster
    /// gives them, in the order given.
    pub submissions: Vec<(Vec<Member>, Vec<ExtraTime>, Option<Moment>)>,
    /// The roster's students matched to no submission, in its order.
    pub missing: Vec<Member>,
}

/// Who each of `submissions` (a folder, and who Gradescope or a gradebook says submitted it)
/// is: those it names, each with what the roster's row for the same student (the same id,
/// email or login) says over what it says; then the roster's students of the folder, or
/// named by it (their id, email or login), that are none of them. The roster's students no
/// submission has are missing.
pub fn assign(roster: Option<&Roster>, submissions: &[(&str, &[Member])]) -> Assigned {
    let rows: &[Row] = roster.map_or(&[], |r| &r.rows);
    let mut used = vec![false; rows.len()];
    let submissions = submissions
        .iter()
        .map(|&(folder, known)| {
            let mut members = known.to_vec();
            let mut extensions = Vec::new();
            let mut submitted: Option<Moment> = None;
            for (row, used) in rows.iter().zip(&mut used) {
                let theirs = match row.folder.is_empty() {
                    false => row.folder == folder,
                    true => row.member.names(folder) || known.iter().any(|k| row.member.same(k)),
                };
                if !theirs {
                    continue;
                }
                *used = true;
                extensions.extend(row.extension);
                submitted = submitted
                    .into_iter()
                    .chain(row.submitted)
                    .max_by_key(|m| m.at);
                // Within its folder, a row with no id, email or login is its submitter of
                // the same name.
                let by_name = |m: &Member| !row.member.keyed() && row.member.name == m.name;
                match members
                    .iter_mut()
                    .find(|m| row.member.same(m) || (!row.folder.is_empty() && by_name(m)))
                {
                    Some(member) => *member = row.member.clone().completed(member),
                    None => members.push(row.member.clone()),
                }
            }
            (members, extensions, submitted)
        })
        .collect();
    let missing = rows
        .iter()
        .zip(used)
        .filter(|(_, used)| !used)
        .map(|(row, _)| row.member.clone())
        .collect();
    Assigned {
        submissions,
        missing,
    }
}

/// A student with no login: the fixture the roster's, the export's and the feedback's tests
/// share.
#[cfg(test)]
pub(crate) fn member(sid: &str, name: &str, email: &str) -> Member {
    Member {
        student_id: sid.into(),
        name: name.into(),
        email: email.into(),
        login: String::new(),
    }
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
            "email,Folder,name,student_id,extension\n\
             ann@x.edu,ann,\"Lee, Ann \"\"the first\"\"\",1001,48\n\
             \n\
             bob@x.edu,submission_2,=cmd|' /C calc'!A0,1002,\n\
             cy@x.edu,,Cy,,2026-11-25T23:59:00-08:00\n",
        )
        .unwrap();
        assert_eq!(roster.rows.len(), 3);
        assert_eq!(roster.rows[0].member.name, "Lee, Ann \"the first\"");
        assert_eq!(roster.rows[0].extension, Some(ExtraTime::Hours(48.0)));
        assert_eq!(roster.rows[1].member.name, "=cmd|' /C calc'!A0");
        assert_eq!(roster.rows[1].line, 4);
        assert_eq!(roster.rows[1].extension, None);
        assert_eq!(roster.rows[2].folder, "");
        // A group: two students, one folder; two students of one name, two rows.
        let group = parse("folder,name\nteam,Ann\nteam,Bob\nother,Ann\n").unwrap();
        assert_eq!(group.rows.len(), 3);
    }

    #[test]
    fn a_hand_made_roster_with_semicolons_and_a_byte_order_mark_reads_the_same() {
        let commas = parse("folder,student_id,name\nann,007,\"Lee; Ann\"\n").unwrap();
        let semicolons = parse("\u{feff}folder;student_id;name\r\nann;007;Lee; Ann\r\n");
        // `Lee; Ann` unquoted is two fields: the name is `Lee`, and the rest is left over.
        assert_eq!(semicolons.unwrap().rows[0].member.student_id, "007");
        let quoted = parse("\u{feff}folder;student_id;name\nann;007;\"Lee; Ann\"\n").unwrap();
        assert_eq!(quoted, commas);
    }

    #[test]
    fn a_bad_roster_is_refused_naming_the_file_and_line_and_the_fix() {
        let cases = [
            (
                "name\nAnn\n",
                "roster.csv:1: the roster's header has no column that says who",
            ),
            (
                "folder,sid2\nann,1\n",
                "roster.csv:1: the roster's column \"sid2\" is unknown",
            ),
            (
                "folder,name,Name\nann,A,B\n",
                "column \"Name\" is unknown or given twice: rename or remove it",
            ),
            (
                "folder,name\nann,Ann\n,Bob\n",
                "roster.csv:3: this row names no folder, student id, email or login: give one",
            ),
            (
                "folder,extension\nann,2 days\n",
                "roster.csv:2: the extension \"2 days\" is neither",
            ),
            (
                "folder,student_id\nann,7\nbob,7\n",
                "roster.csv:3: \"7\" is already on line 2: a student is on one row (remove",
            ),
            (
                "email,name\nAnn@X.edu,Ann\nann@x.edu,Ann B\n",
                "roster.csv:3: \"Ann@X.edu\" is already on line 2",
            ),
            (
                "folder,name\nann,\"open\n",
                "roster.csv:2: the roster is not CSV",
            ),
            // Opened on line 3, left open to the last line (6): said where it opens.
            (
                "folder,name\nann,\"Lee, Ann\"\nbob,\"Bob\ncy,Cy\ndee,Dee\neve,Eve\n",
                "roster.csv:3: the roster is not CSV: a quote opened here is never closed",
            ),
        ];
        for (text, expected) in cases {
            let error = parse(text).unwrap_err().to_string();
            assert!(error.contains(expected), "{text:?}: {error}");
        }
    }

    #[test]
    fn a_roster_saved_as_latin_1_is_refused_with_its_line_and_the_fix() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("roster.csv");
        std::fs::write(&path, b"folder,name\nann,Ann\nzoe,Zo\xeb\n").unwrap();
        let error = Roster::load(&path).unwrap_err().to_string();
        assert!(error.ends_with("roster.csv:3: the roster is not UTF-8 (Latin-1 or Windows-1252, most likely): save it as UTF-8 (a spreadsheet's \"CSV UTF-8\") and give it again"), "{error}");
    }

    /// Gradescope's roster download (Roster, Download Roster), as its guide to adding students
    /// describes it: a header row, names split into first and last, SID, a unique email per
    /// member, the role, sections as extra columns
    /// (https://guides.gradescope.com/hc/en-us/articles/21926598776333-Adding-Students-and-Staff,
    /// https://www.bu.edu/tech/services/teaching/assessment/grading-support-tools/gradescope/services-teaching-assessment-grading-support-tools-gradescope-gradescope-faculty-tutorials/course-roster-and-settings/).
    #[test]
    fn gradescope_s_roster_download_is_read_as_it_comes() {
        let roster = parse(
            "First Name,Last Name,SID,Email,Role,Sections\n\
             Ann,Lee,000123,ann@x.edu,Student,L01\n\
             Ann,Lee,000124,ann.lee@x.edu,Student,L02\n\
             José,Núñez,,jose@x.edu,Student,\n\
             Pat,Prof,,pat@x.edu,Instructor,\n\
             Tom,Assist,,tom@x.edu,TA,\n",
        )
        .unwrap();
        let members: Vec<&Member> = roster.rows.iter().map(|r| &r.member).collect();
        assert_eq!(
            members,
            [
                &member("000123", "Ann Lee", "ann@x.edu"),
                &member("000124", "Ann Lee", "ann.lee@x.edu"),
                &member("", "José Núñez", "jose@x.edu"),
            ]
        );
        assert_eq!(roster.rows[2].line, 4);
    }

    /// Canvas's gradebook export (Grades, Export) as its import reads it: `Student` (last name,
    /// first name), `ID`, `SIS User ID`, `SIS Login ID`, `Section` and then the assignments,
    /// with a `Points Possible` row under the header and the course's test student
    /// (https://teaching.resources.osu.edu/toolsets/carmencanvas/guides/calculating-final-grades/import-csv-file-carmen-grades,
    /// https://community.canvaslms.com/t5/Instructor-Guide/How-do-I-export-grades-in-the-Gradebook/ta-p/809).
    #[test]
    fn canvas_s_gradebook_export_gives_its_student_columns() {
        let roster = parse(
            "Student,ID,SIS User ID,SIS Login ID,Section,Lab 1 (1234),Current Score\n\
             \"    Points Possible\",,,,,10.00,(read only)\n\
             \"Lee, Ann\",11,S1001,alee,CS 101-01,8.00,80\n\
             \"Lee, Ann\",12,S1002,alee2,CS 101-02,,\n\
             \"Student, Test\",13,,,CS 101-01,,\n",
        )
        .unwrap();
        assert_eq!(roster.rows.len(), 2);
        assert_eq!(
            roster.rows[0].member,
            Member {
                login: "alee".into(),
                ..member("S1001", "Lee, Ann", "")
            }
        );
        assert_eq!(roster.rows[1].line, 4);
    }

    /// Moodle's participants download (Participants, "Download table data as" CSV) and its
    /// grade export (Export, Plain text file), semicolon-separated as a spreadsheet in many
    /// countries saves them: `First name`, `Last name`, `ID number`, `Username`, `Email
    /// address`, the roles (https://docs.moodle.org/en/Grade_export,
    /// https://docs.moodle.org/en/Participants).
    #[test]
    fn moodle_s_participants_and_grades_exports_are_read_as_they_come() {
        let grades = parse(
            "\u{feff}First name;Last name;ID number;Institution;Department;Email address;\
             Assignment: Lab 1 (Real);Last downloaded from this course\n\
             Ann;Lee;1001;;;ann@x.edu;-;1767225600\n\
             Bob;Diaz;;;;bob@x.edu;7,50;1767225600\n",
        )
        .unwrap();
        assert_eq!(grades.rows[1].member, member("", "Bob Diaz", "bob@x.edu"));
        let participants = parse(
            "First name,Last name,Username,Email address,Roles,Groups,Last access to course\n\
             Ann,Lee,alee,ann@x.edu,Student,,Never\n\
             Tea,Cher,tcher,t@x.edu,Teacher,,Never\n",
        )
        .unwrap();
        assert_eq!(participants.rows.len(), 1);
        assert_eq!(participants.rows[0].member.login, "alee");
    }

    #[test]
    fn a_roster_s_submission_times_are_each_student_s_and_a_group_s_latest() {
        let roster = parse(
            "folder,student_id,submitted\n\
             team,1,2026-11-21T10:00:00-08:00\n\
             team,2,2026-11-21 19:30:00Z\n\
             ,3,\n",
        )
        .unwrap();
        let assigned = assign(Some(&roster), &[("team", &[]), ("3", &[])]);
        let latest = Moment::parse("2026-11-21T19:30:00Z").unwrap();
        assert_eq!(assigned.submissions[0].2.map(|m| m.at), Some(latest.at));
        assert_eq!(assigned.submissions[1].2, None);
        let error = parse("student_id,submitted\n1,yesterday\n").unwrap_err();
        assert!(
            error.to_string().contains(
                "roster.csv:2: the submission time \"yesterday\" is not a date-time with its offset"
            ),
            "{error}"
        );
    }

    #[test]
    fn students_are_matched_by_folder_id_email_or_login_never_by_name() {
        let exported = [
            member("1001", "Ann Lee", "ann@x.edu"),
            member("1002", "Bob", "bob@x.edu"),
        ];
        let roster = parse(
            "folder,student_id,name,email,login,extension\n\
             submission_1,1001,\"Lee, Ann\",,,24\n\
             ,,Bob,BOB@x.edu,,12\n\
             ,,Cy,,cyu,\n\
             ,1004,Ann Lee,,,\n\
             gone,,Dee,,,\n",
        )
        .unwrap();
        let submissions: [(&str, &[Member]); 3] = [
            ("submission_1", &exported),
            ("cyu", &[]),
            ("submission_9", &[member("", "Ann Lee", "")]),
        ];
        let assigned = assign(Some(&roster), &submissions);
        let (members, extensions, _) = &assigned.submissions[0];
        assert_eq!(
            members,
            &[
                member("1001", "Lee, Ann", "ann@x.edu"),
                member("1002", "Bob", "BOB@x.edu")
            ]
        );
        assert_eq!(
            extensions,
            &[ExtraTime::Hours(24.0), ExtraTime::Hours(12.0)]
        );
        assert_eq!(assigned.submissions[1].0[0].login, "cyu");
        // A name alone matches no one: the other Ann Lee is missing, and so is Dee.
        assert_eq!(assigned.submissions[2].0, [member("", "Ann Lee", "")]);
        let missing: Vec<&str> = assigned.missing.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(missing, ["Ann Lee", "Dee"]);
        // Without a roster, what is known, and no one missing.
        let alone = assign(None, &submissions);
        assert_eq!(alone.submissions[0].0.len(), 2);
        assert!(alone.missing.is_empty());
    }

    #[test]
    fn within_its_folder_a_row_with_only_a_name_completes_its_submitter() {
        let roster = parse("folder,name,extension\nsubmission_1,\"Lee, Ann\",24\n").unwrap();
        let exported = [member("1001", "Lee, Ann", "ann@x.edu")];
        let assigned = assign(Some(&roster), &[("submission_1", &exported)]);
        assert_eq!(assigned.submissions[0].0, exported);
        assert_eq!(assigned.submissions[0].1, [ExtraTime::Hours(24.0)]);
    }

    /// A Moodle assignment's grading worksheet as its "Download grading worksheet" ships it:
    /// `Identifier` (`Participant ` and the participant id, mod/assign/lang/en/assign.php's
    /// `recordid` and `hiddenuser`), then the identity fields the site shows (here ID number
    /// and Email address), Status, Grade and the rest, quoted as Moodle's CSV writer quotes
    /// them (https://docs.moodle.org/en/Assignment_settings, "Offline grading worksheet";
    /// read back by mod/assign/feedback/offline/importgradeslib.php).
    const WORKSHEET: &str = "Identifier,\"Full name\",\"ID number\",\"Email address\",\
        Status,Grade,\"Maximum Grade\",\"Grade can be changed\",\"Last modified (submission)\",\
        \"Online text\",\"Last modified (grade)\",\"Feedback comments\"\n\
        \"Participant 1843201\",\"Ann Lee\",1001,ann@x.edu,\"Submitted for grading\",,\
        100.00,Yes,\"Friday, 20 November 2026, 11:30 PM\",,-,\n\
        \"Participant 1843202\",\"Ann Lee\",,ann.lee2@x.edu,\"No submission\",,100.00,Yes,-,,-,\n\
        \"Participant 1843203\",\"Bo_Ray\",1003,,\"Submitted for grading\",,100.00,Yes,-,,-,\n";

    #[test]
    fn a_moodle_grading_worksheet_gives_each_student_their_participant_id_never_by_name() {
        let worksheet = parse(WORKSHEET).unwrap();
        let ids: Vec<Option<u64>> = worksheet.rows.iter().map(|r| r.participant).collect();
        assert_eq!(ids, [Some(1843201), Some(1843202), Some(1843203)]);
        assert_eq!(
            worksheet.rows[0].member,
            member("1001", "Ann Lee", "ann@x.edu")
        );
        // By ID number or email (in any case); a name alone finds no one.
        let ann = member("1001", "Ann Lee", "");
        assert_eq!(worksheet.participant(&ann), Some(1843201));
        let other = member("", "Ann Lee", "ANN.LEE2@x.edu");
        assert_eq!(worksheet.participant(&other), Some(1843202));
        assert_eq!(worksheet.participant(&member("", "Ann Lee", "")), None);
        assert_eq!(
            worksheet.participant(&member("1003", "", "")),
            Some(1843203)
        );
        // Two rows theirs (one by ID number, one by email): not guessed.
        let both = member("1001", "Ann Lee", "ann.lee2@x.edu");
        assert_eq!(worksheet.participant(&both), None);
        // In the site's own language, the number after the word.
        let german = WORKSHEET.replace("Participant 1843203", "Teilnehmer/in 1843203");
        assert_eq!(parse(&german).unwrap().rows[2].participant, Some(1843203));
    }

    #[test]
    fn a_worksheet_identifier_without_its_number_is_refused_with_its_line_and_the_fix() {
        let broken = WORKSHEET.replace("Participant 1843202", "Participant");
        let error = parse(&broken).unwrap_err();
        assert_eq!(
            error,
            RosterError::BadParticipant("roster.csv".into(), 3, "Participant".into())
        );
        let said = error.to_string();
        assert!(
            said.starts_with("roster.csv:3: the Identifier \"Participant\""),
            "{said}"
        );
        assert!(said.contains("Download grading worksheet"), "{said}");
        // A blank Identifier is a student with none: left out where one is needed.
        let blank = WORKSHEET.replace("\"Participant 1843202\"", "");
        assert_eq!(parse(&blank).unwrap().rows[1].participant, None);
    }
}
