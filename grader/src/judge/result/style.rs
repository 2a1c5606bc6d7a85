//! The style facts gathered for the Programming style grader (`grade --style`): each source
//! file's header items missing, each lint's count (or why it did not run), the longest
//! functions. Evidence beside the checklist, never points; the thread design seen is the
//! speed-up case's ([`super::speedup::Speedup::design`]).

use std::path::PathBuf;

use crate::kit::style::Language;
use crate::process::logged::Ended;

/// What a file's header must name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum HeaderItem {
    /// The student (`Name:`).
    Name,
    /// The course (`Course:`).
    Course,
    /// The project (`Project:`).
    Project,
    /// The date (`Date:`).
    Date,
    /// What the file holds: words of the header besides the labelled lines.
    Description,
}

impl HeaderItem {
    /// Every item, in the order the header gives them.
    pub const ALL: [HeaderItem; 5] = [
        HeaderItem::Description,
        HeaderItem::Name,
        HeaderItem::Course,
        HeaderItem::Project,
        HeaderItem::Date,
    ];
}

/// One source file of the student's and its header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceFile {
    /// Its path in the submission, `/`-separated.
    pub path: String,
    /// Its language.
    pub language: Language,
    /// Its lines.
    pub lines: usize,
    /// The header items it lacks.
    pub missing: Vec<HeaderItem>,
    /// The header items left as the starter's placeholder (`YOUR NAME`, `THE DATE`).
    pub placeholder: Vec<HeaderItem>,
}

impl SourceFile {
    /// How many items its header does not give: missing or left as placeholders.
    pub fn gaps(&self) -> usize {
        self.missing.len() + self.placeholder.len()
    }
}

/// A source file that was not looked at, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unread {
    /// Its path in the submission.
    pub path: String,
    /// Why it was not read.
    pub why: Unreadable,
}

/// Why a source file was not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unreadable {
    /// It is larger than this many bytes.
    TooLarge(u64),
    /// It is not UTF-8 text.
    NotText,
    /// It is no longer a plain file (it became a link while the submission was read).
    NotAFile,
    /// The system's reason.
    Io(String),
    /// Rust that does not parse (syn's message and line): its functions are not measured.
    Unparsed(String),
}

/// How a lint command went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LintOutcome {
    /// It ran: the distinct counted lines of its output.
    Counted(usize),
    /// It failed (an exit code it gives for neither "clean" nor "found some", a time-out): how,
    /// and the last lines of its log.
    Failed {
        /// How it ended.
        ended: Ended,
        /// The last lines of its log.
        tail: String,
    },
    /// It was not run: the student's sandbox could not be set up (why).
    NoSandbox(String),
}

/// One lint command's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LintResult {
    /// The lint's name.
    pub name: String,
    /// What a counted line is (`warnings`).
    pub counts: String,
    /// How it went.
    pub outcome: LintOutcome,
    /// Its log, when kept beside the reports.
    pub log: Option<PathBuf>,
}

/// A function (or method) and its length.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    /// The file it is in.
    pub path: String,
    /// Its name, a method's after its type's: `Game::play`.
    pub name: String,
    /// The line its `fn` is on.
    pub line: usize,
    /// Its lines, from `fn` to its closing brace.
    pub lines: usize,
}

/// One student's style facts.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Style {
    /// Every source file read, in path order.
    pub files: Vec<SourceFile>,
    /// The source files not read (or, for Rust, not parsed).
    pub unread: Vec<Unread>,
    /// Source files beyond the most that are looked at, not looked at.
    pub more_files: usize,
    /// Each lint run on the submission's languages.
    pub lints: Vec<LintResult>,
    /// The languages of the submission that no lint command is set for.
    pub unlinted: Vec<Language>,
    /// The longest functions of the languages measured (Rust), longest first.
    pub longest: Vec<Function>,
    /// The languages of the submission whose functions are not measured.
    pub unmeasured: Vec<Language>,
}

impl Style {
    /// How many header items the files lack, placeholders included.
    pub fn header_gaps(&self) -> usize {
        self.files.iter().map(SourceFile::gaps).sum()
    }
}
