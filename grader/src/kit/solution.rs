//! A case's stored answers: the `.solution` file beside each case, written by `grade generate`
//! (see [`super::reference`]) so that no expected answer is typed by hand, and read back with
//! a check that it still answers the case's script.

use std::fs;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::case::Case;
use super::KitError;

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
pub fn write(case: &Case, solution: &Solution) -> Result<(), KitError> {
    let path = path(case);
    fs::write(&path, to_text(case, solution))
        .map_err(|e| KitError(format!("{}: cannot write: {e}", path.display())))
}

/// Reads `case`'s solution file and checks that it answers exactly the case's script.
pub fn read(case: &Case) -> Result<Solution, KitError> {
    let path = path(case);
    let shown = path.display();
    let text = fs::read_to_string(&path)
        .map_err(|e| KitError(format!("{shown}: cannot read ({e}); run `grade generate`")))?;
    let solution: Solution =
        toml::from_str(&text).map_err(|e| KitError(format!("{shown}: {e}")))?;
    let matches = solution.answer.len() == case.script.len()
        && solution
            .answer
            .iter()
            .zip(&case.script)
            .all(|(a, s)| a.line == s.line && a.command == s.text && !a.accept.is_empty());
    if !matches {
        return Err(KitError(format!(
            "{shown}: does not match its case's script; run `grade generate`"
        )));
    }
    Ok(solution)
}
