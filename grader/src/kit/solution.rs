//! A case's stored answers: the `.solution` file beside each case, written by `grade generate`
//! (see [`super::reference`]) so that no expected answer is typed by hand, and read back with
//! a check that it still answers the case's script.

use std::fs;
use std::io;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::case::Case;

/// The accepted answers to one command.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Answer {
    /// The command's line in the case file.
    pub line: usize,
    /// The command as written.
    pub command: String,
    /// Every accepted response, as sent but without the empty line that ends it. Several for a
    /// random first player or for `genmove` when columns tie.
    pub accept: Vec<String>,
}

/// The answers to a whole script, in order.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Solution {
    /// One per command.
    pub answer: Vec<Answer>,
}

/// Why a case's solution file cannot be written or used.
#[derive(Debug, thiserror::Error)]
pub enum SolutionError {
    /// It cannot be written.
    #[error("{}: cannot write: {source}", .path.display())]
    Write {
        /// The solution file.
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// It cannot be read (not generated yet, most likely).
    #[error("{}: cannot read ({source}); run `grade generate`", .path.display())]
    Read {
        /// The solution file.
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// It is not the TOML of a solution.
    #[error(transparent)]
    Toml(#[from] super::TomlError),
    /// It answers another script than its case's.
    #[error("{}: does not match its case's script; run `grade generate`", .path.display())]
    Stale {
        /// The solution file.
        path: PathBuf,
    },
}

/// Where `case`'s solution lives.
pub fn path(case: &Case) -> PathBuf {
    case.path.with_extension("solution")
}

/// The text of a solution file.
pub fn to_text(case: &Case, solution: &Solution) -> String {
    let body = toml::to_string_pretty(solution).expect("a solution is plain data");
    format!(
        "# The reference's answers to {}.toml, written by `grade generate`. Do not edit.\n\n{body}",
        case.name
    )
}

/// Writes `case`'s solution file.
pub fn write(case: &Case, solution: &Solution) -> Result<(), SolutionError> {
    let path = path(case);
    fs::write(&path, to_text(case, solution))
        .map_err(|source| SolutionError::Write { path, source })
}

/// Reads `case`'s solution file and checks that it answers exactly the case's script.
pub fn read(case: &Case) -> Result<Solution, SolutionError> {
    let path = path(case);
    let text = match fs::read_to_string(&path) {
        Ok(text) => text,
        Err(source) => return Err(SolutionError::Read { path, source }),
    };
    let solution: Solution = super::parse_toml(&path, &text)?;
    let matches = solution.answer.len() == case.script.len()
        && solution
            .answer
            .iter()
            .zip(&case.script)
            .all(|(a, s)| a.line == s.line && a.command == s.text && !a.accept.is_empty());
    if !matches {
        return Err(SolutionError::Stale { path });
    }
    Ok(solution)
}
