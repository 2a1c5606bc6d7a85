//! Held-out cases: generated at grading time from a seed that only the instructor has
//! (`grading/secret.toml`, never in the kit students get), so that a program that memorised the
//! published cases' answers gains nothing on them. Here: where the seed lives and how held-out
//! cases are named; [`generate`] makes them, in the course's `grade` only (the `reference`
//! feature), since their answers come from the reference.

#[cfg(not(feature = "students-kit"))]
pub mod generate;

use std::path::Path;

use serde::Deserialize;

use super::case::Case;
use super::TomlError;

/// The file beside the rubric that holds the instructor's seed.
pub const SECRET: &str = "secret.toml";
/// The folder name held-out cases are reported under.
const FOLDER: &str = "held_out";

/// The secret file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Secret {
    seed: u64,
}

/// Whether `case` is a held-out case.
pub fn is_held_out(case: &Case) -> bool {
    case.name.starts_with(&format!("{FOLDER}/"))
}

/// The instructor's seed from `dir/secret.toml`; `None` when there is no such file (a
/// student's kit).
pub fn seed(dir: &Path) -> Result<Option<u64>, TomlError> {
    let path = dir.join(SECRET);
    if !path.exists() {
        return Ok(None);
    }
    let secret: Secret = super::read_toml(&path)?;
    Ok(Some(secret.seed))
}
