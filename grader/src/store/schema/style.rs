//! The style facts as a record stores them: each source file's header, the files not read,
//! each lint's count or failure, and the longest functions.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::each::{all, back};
use super::kit::Language;
use super::process::Ended;
use crate::judge::result::style as judge;

/// [`judge::Style`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub struct Style {
    files: Vec<SourceFile>,
    unread: Vec<Unread>,
    more_files: usize,
    lints: Vec<LintResult>,
    unlinted: Vec<Language>,
    longest: Vec<Function>,
    unmeasured: Vec<Language>,
}

impl From<&judge::Style> for Style {
    fn from(style: &judge::Style) -> Style {
        Style {
            files: all(&style.files),
            unread: all(&style.unread),
            more_files: style.more_files,
            lints: all(&style.lints),
            unlinted: all(&style.unlinted),
            longest: all(&style.longest),
            unmeasured: all(&style.unmeasured),
        }
    }
}

impl From<Style> for judge::Style {
    fn from(style: Style) -> judge::Style {
        judge::Style {
            files: back(style.files),
            unread: back(style.unread),
            more_files: style.more_files,
            lints: back(style.lints),
            unlinted: back(style.unlinted),
            longest: back(style.longest),
            unmeasured: back(style.unmeasured),
        }
    }
}

unit_enum!(
    HeaderItem = judge::HeaderItem {
        Name,
        Course,
        Project,
        Date,
        Description
    }
);

/// [`judge::SourceFile`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub struct SourceFile {
    path: String,
    language: Language,
    lines: usize,
    missing: Vec<HeaderItem>,
    placeholder: Vec<HeaderItem>,
}

impl From<&judge::SourceFile> for SourceFile {
    fn from(file: &judge::SourceFile) -> SourceFile {
        SourceFile {
            path: file.path.clone(),
            language: (&file.language).into(),
            lines: file.lines,
            missing: all(&file.missing),
            placeholder: all(&file.placeholder),
        }
    }
}

impl From<SourceFile> for judge::SourceFile {
    fn from(file: SourceFile) -> judge::SourceFile {
        judge::SourceFile {
            path: file.path,
            language: file.language.into(),
            lines: file.lines,
            missing: back(file.missing),
            placeholder: back(file.placeholder),
        }
    }
}

/// [`judge::Unread`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub struct Unread {
    path: String,
    why: Unreadable,
}

/// [`judge::Unreadable`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub enum Unreadable {
    TooLarge(u64),
    NotText,
    NotAFile,
    Io(String),
    Unparsed(String),
}

impl From<&judge::Unread> for Unread {
    fn from(unread: &judge::Unread) -> Unread {
        use judge::Unreadable as U;
        let why = match unread.why.clone() {
            U::TooLarge(bytes) => Unreadable::TooLarge(bytes),
            U::NotText => Unreadable::NotText,
            U::NotAFile => Unreadable::NotAFile,
            U::Io(why) => Unreadable::Io(why),
            U::Unparsed(why) => Unreadable::Unparsed(why),
        };
        Unread {
            path: unread.path.clone(),
            why,
        }
    }
}

impl From<Unread> for judge::Unread {
    fn from(unread: Unread) -> judge::Unread {
        use judge::Unreadable as U;
        let why = match unread.why {
            Unreadable::TooLarge(bytes) => U::TooLarge(bytes),
            Unreadable::NotText => U::NotText,
            Unreadable::NotAFile => U::NotAFile,
            Unreadable::Io(why) => U::Io(why),
            Unreadable::Unparsed(why) => U::Unparsed(why),
        };
        judge::Unread {
            path: unread.path,
            why,
        }
    }
}

/// [`judge::LintResult`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub struct LintResult {
    name: String,
    counts: String,
    outcome: LintOutcome,
    log: Option<PathBuf>,
}

/// [`judge::LintOutcome`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub enum LintOutcome {
    Counted(usize),
    Failed { ended: Ended, tail: String },
    NoSandbox(String),
}

impl From<&judge::LintResult> for LintResult {
    fn from(lint: &judge::LintResult) -> LintResult {
        use judge::LintOutcome as O;
        let outcome = match &lint.outcome {
            O::Counted(count) => LintOutcome::Counted(*count),
            O::Failed { ended, tail } => LintOutcome::Failed {
                ended: ended.into(),
                tail: tail.clone(),
            },
            O::NoSandbox(why) => LintOutcome::NoSandbox(why.clone()),
        };
        LintResult {
            name: lint.name.clone(),
            counts: lint.counts.clone(),
            outcome,
            log: lint.log.clone(),
        }
    }
}

impl From<LintResult> for judge::LintResult {
    fn from(lint: LintResult) -> judge::LintResult {
        use judge::LintOutcome as O;
        let outcome = match lint.outcome {
            LintOutcome::Counted(count) => O::Counted(count),
            LintOutcome::Failed { ended, tail } => O::Failed {
                ended: ended.into(),
                tail,
            },
            LintOutcome::NoSandbox(why) => O::NoSandbox(why),
        };
        judge::LintResult {
            name: lint.name,
            counts: lint.counts,
            outcome,
            log: lint.log,
        }
    }
}

/// [`judge::Function`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub struct Function {
    path: String,
    name: String,
    line: usize,
    lines: usize,
}

impl From<&judge::Function> for Function {
    fn from(function: &judge::Function) -> Function {
        Function {
            path: function.path.clone(),
            name: function.name.clone(),
            line: function.line,
            lines: function.lines,
        }
    }
}

impl From<Function> for judge::Function {
    fn from(function: Function) -> judge::Function {
        judge::Function {
            path: function.path,
            name: function.name,
            line: function.line,
            lines: function.lines,
        }
    }
}
