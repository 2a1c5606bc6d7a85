//! Held-out cases: generated at grading time from a seed that only the instructor has
//! (`grading/secret.toml`, never in the kit students get), so that a program that memorised the
//! published cases' answers gains nothing on them. Here: where the seed lives; [`generate`]
//! makes them, in the course's `grade` only, since their answers come from the reference.

#[cfg(not(feature = "students-kit"))]
pub mod generate;

use std::path::Path;

use serde::Deserialize;

use super::TomlError;

/// The file beside the rubric that holds the instructor's seed.
pub const SECRET: &str = "secret.toml";

/// The secret file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Secret {
    seed: u64,
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
