//! The style facts of one submission (`grade --style`), evidence for the Programming style
//! grader: each source file's [`header`] items, the longest [`functions`] (Rust), and the kit's
//! lint commands, each run as the build is (in the student's sandbox, under its limits) with
//! the lines of its output counted. The sources are read before any lint runs, as a lint runs
//! the student's build script, and only as [`sources`] reads them: regular files, never
//! through a link.

mod functions;
mod header;

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use super::build::{run_logged, tail};
use super::job::{file_stem, Job};
use super::result::style::{
    Function, LintOutcome, LintResult, SourceFile, Style, Unread, Unreadable,
};
use crate::kit::sources::{self, SourceError};
use crate::kit::style::{self as settings, Language, Lint};
use crate::kit::tree::ReadError;
use crate::process::logged::Ended;

/// Where the lints' logs are kept, as `<student>.lint.<name>.log`; `None`: temporary files.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StyleCheck {
    /// The report directory.
    pub logs: Option<PathBuf>,
}

/// The style facts of the job's student, whose submission is `dir`, by `settings`; `unconfined`
/// says why their sandbox could not be set up, when it could not (no lint is then run).
pub(crate) fn gather(
    settings: &settings::StyleRules,
    check: &StyleCheck,
    job: &Job,
    dir: &Path,
    unconfined: Option<&str>,
) -> Style {
    let (sources, more_files) = sources::list(dir);
    let mut style = Style {
        more_files,
        ..Style::default()
    };
    let mut functions = Vec::new();
    for (path, language) in &sources {
        match read(dir, path, *language, &mut functions) {
            Ok(file) => style.files.push(file),
            Err(why) => style.unread.push(Unread {
                path: path.clone(),
                why,
            }),
        }
    }
    functions.sort_by(|a, b| {
        (b.lines.cmp(&a.lines))
            .then(a.path.cmp(&b.path))
            .then(a.line.cmp(&b.line))
    });
    functions.truncate(settings.longest);
    style.longest = functions;
    let languages: BTreeSet<Language> = sources.iter().map(|(_, language)| *language).collect();
    style.unmeasured = languages
        .iter()
        .copied()
        .filter(|&language| language != Language::Rust)
        .collect();
    style.unlinted = languages
        .iter()
        .copied()
        .filter(|language| settings.lints.iter().all(|l| l.language != *language))
        .collect();
    style.lints = settings
        .lints
        .iter()
        .filter(|lint| languages.contains(&lint.language))
        .map(|lint| run_lint(lint, settings, check, job, unconfined))
        .collect();
    style
}

/// Reads the source file `path` of the submission `dir`: its header items, and for Rust its
/// functions, added to `functions`.
fn read(
    dir: &Path,
    path: &str,
    language: Language,
    functions: &mut Vec<Function>,
) -> Result<SourceFile, Unreadable> {
    let text = sources::read(dir, path).map_err(|e| match e {
        SourceError::Read(ReadError::TooLarge(cap)) => Unreadable::TooLarge(cap),
        SourceError::Read(ReadError::Io(why)) => Unreadable::Io(why),
        SourceError::Read(_) => Unreadable::NotAFile,
        SourceError::NotText => Unreadable::NotText,
    })?;
    if language == Language::Rust {
        functions.extend(functions::functions(path, &text).map_err(Unreadable::Unparsed)?);
    }
    let (missing, placeholder) = header::items(&text, language);
    Ok(SourceFile {
        path: path.to_string(),
        language,
        lines: text.lines().count(),
        missing,
        placeholder,
    })
}

/// Runs `lint` as the build runs and counts its output's lines.
fn run_lint(
    lint: &Lint,
    settings: &settings::StyleRules,
    check: &StyleCheck,
    job: &Job,
    unconfined: Option<&str>,
) -> LintResult {
    let result = |outcome, log| LintResult {
        name: lint.name.clone(),
        counts: lint.counts.clone(),
        outcome,
        log,
    };
    if let Some(why) = unconfined {
        return result(LintOutcome::NoSandbox(why.to_string()), None);
    }
    let kind = format!("lint.{}", file_stem(&lint.name));
    let logs = check.logs.as_deref();
    let (ended, log, (count, tail)) = run_logged(
        job,
        &lint.command,
        &[],
        settings.timeout(),
        logs,
        &kind,
        |log| (counted(log, &lint.lines_with), tail(log)),
    );
    let found = matches!(&ended, Ended::Failed(status) if status.code() == lint.found_exit);
    let outcome = match ended {
        Ended::Succeeded => LintOutcome::Counted(count),
        _ if found && count > 0 => LintOutcome::Counted(count),
        ended => LintOutcome::Failed { ended, tail },
    };
    result(outcome, log)
}

/// How many distinct lines of the log at `path` hold `marker` (every non-blank line when it is
/// empty).
fn counted(path: &Path, marker: &str) -> usize {
    let text = fs::read(path).unwrap_or_default();
    String::from_utf8_lossy(&text)
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && line.contains(marker))
        .collect::<BTreeSet<_>>()
        .len()
}

#[cfg(test)]
mod tests;
