//! The style facts of one submission (`grade --style`), evidence for the Programming style
//! grader: each source file's [`header`] items, the longest [`functions`] (Rust), and the kit's
//! lint commands, each run as the build is (in the student's sandbox, under its limits) with
//! the lines of its output counted. The sources are read before any lint runs, as a lint runs
//! the student's build script.

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
use crate::kit::style::{self as settings, Language, Lint};
use crate::process::logged::Ended;

/// The most source files looked at.
const MAX_FILES: usize = 500;
/// The largest source file read, in bytes.
const MAX_FILE_BYTES: u64 = 1 << 20;
/// Folders never looked in: build output, caches and the supplied crate (the course's).
const SKIPPED: [&str; 7] = [
    "target",
    "build",
    "out",
    "__pycache__",
    "node_modules",
    "supplied",
    "supplied.submitted",
];

/// Where the lints' logs are kept, as `<student>.lint.<name>.log`; `None`: temporary files.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StyleCheck {
    /// The report directory.
    pub logs: Option<PathBuf>,
}

/// The style facts of the job's student, whose submission is `dir`, by `settings`; `unconfined`
/// says why their sandbox could not be set up, when it could not (no lint is then run).
pub(crate) fn gather(
    settings: &settings::Style,
    check: &StyleCheck,
    job: &Job,
    dir: &Path,
    unconfined: Option<&str>,
) -> Style {
    let mut sources = Vec::new();
    let mut more_files = 0;
    walk(dir, dir, &mut sources, &mut more_files);
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

/// The language of the file at `path` (relative, `/`-separated), if it is a student's source:
/// Rust under `src/`, Java and Python anywhere.
fn language(path: &str) -> Option<Language> {
    let (_, extension) = path.rsplit_once('.')?;
    match extension {
        "rs" if path.starts_with("src/") => Some(Language::Rust),
        "java" => Some(Language::Java),
        "py" => Some(Language::Python),
        _ => None,
    }
}

/// Adds the source files under `folder` to `found` as paths relative to `root` with their
/// languages, in name order, never following a link nor entering [`SKIPPED`] or hidden folders;
/// counts in `more` those past [`MAX_FILES`].
fn walk(root: &Path, folder: &Path, found: &mut Vec<(String, Language)>, more: &mut usize) {
    let Ok(entries) = fs::read_dir(folder) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(|entry| entry.file_name());
    for entry in entries {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let path = entry.path();
        if kind.is_dir() && !name.starts_with('.') && !SKIPPED.contains(&name.as_str()) {
            walk(root, &path, found, more);
        } else if kind.is_file() {
            let relative = path.strip_prefix(root).unwrap_or(&path);
            let relative = relative.to_string_lossy().replace('\\', "/");
            match language(&relative) {
                Some(_) if found.len() >= MAX_FILES => *more += 1,
                Some(language) => found.push((relative, language)),
                None => {}
            }
        }
    }
}

/// Reads the source file `path` of the submission `dir`: its header items, and for Rust its
/// functions, added to `functions`.
fn read(
    dir: &Path,
    path: &str,
    language: Language,
    functions: &mut Vec<Function>,
) -> Result<SourceFile, Unreadable> {
    let full = dir.join(path);
    let meta = fs::symlink_metadata(&full).map_err(|e| Unreadable::Io(e.to_string()))?;
    if !meta.is_file() {
        return Err(Unreadable::NotAFile);
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(Unreadable::TooLarge(MAX_FILE_BYTES));
    }
    let bytes = fs::read(&full).map_err(|e| Unreadable::Io(e.to_string()))?;
    let text = String::from_utf8(bytes).map_err(|_| Unreadable::NotText)?;
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
    settings: &settings::Style,
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
    let (ended, log, (count, tail)) =
        run_logged(job, &lint.command, settings.timeout(), logs, &kind, |log| {
            (counted(log, &lint.lines_with), tail(log))
        });
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
