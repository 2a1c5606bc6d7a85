//! `grade handout FILE`: checks a course's copy of the handout before it is handed out: every
//! placeholder mark left in it (`[[DUE DATE]]`, see [`crate::kit::handout`]) is named with its
//! line and what to write there, and the check fails; a copy with none left passes.

use std::fmt::Write;
use std::fs;
use std::path::{Path, PathBuf};

use crate::kit::handout::{self, Left};

/// Why a handout did not pass.
#[derive(Debug, thiserror::Error)]
pub enum HandoutError {
    /// It could not be read.
    #[error("{}: {}", .0.display(), .1)]
    Read(PathBuf, #[source] std::io::Error),
    /// Placeholders are left in it.
    #[error("{}", left_text(.0, .1))]
    Left(PathBuf, Vec<Left>),
}

/// The placeholders `left` in the handout at `path`, each on a line of its own after the count.
fn left_text(path: &Path, left: &[Left]) -> String {
    let mut text = format!(
        "{}: {} placeholder{} left to fill in before handing it out:",
        path.display(),
        left.len(),
        if left.len() == 1 { "" } else { "s" }
    );
    for mark in left {
        let what = mark
            .what
            .unwrap_or("not a placeholder of the handout: a typo? (see grade handout --help)");
        let _ = write!(
            text,
            "\n  {}:{}: [[{}]]: {what}",
            path.display(),
            mark.line,
            mark.name
        );
    }
    text
}

/// Checks the handout at `path`: none of its placeholders may be left.
pub fn run(path: &Path) -> Result<(), HandoutError> {
    let text = fs::read_to_string(path).map_err(|e| HandoutError::Read(path.into(), e))?;
    let left = handout::left(&text);
    if !left.is_empty() {
        return Err(HandoutError::Left(path.into(), left));
    }
    eprintln!(
        "grade: {}: every placeholder is filled in ({} checked)",
        path.display(),
        handout::PLACEHOLDERS.len()
    );
    Ok(())
}
