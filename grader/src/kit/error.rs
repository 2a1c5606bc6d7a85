//! Why the kit itself cannot be used, and reading its TOML files with errors that name them.

use std::fmt;
use std::fs;
use std::path::Path;

/// Why the kit itself cannot go on: a missing or malformed file, or a stale solution. The message
/// names the file (and line, when there is one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KitError(pub String);

impl fmt::Display for KitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for KitError {}

/// Reads a TOML file of the kit: its text (for line numbers) and its contents, errors naming it.
pub(crate) fn read_toml<T: serde::de::DeserializeOwned>(
    path: &Path,
) -> Result<(String, T), KitError> {
    let shown = path.display();
    let text =
        fs::read_to_string(path).map_err(|e| KitError(format!("{shown}: cannot read: {e}")))?;
    let value = toml::from_str(&text).map_err(|e| KitError(format!("{shown}: {e}")))?;
    Ok((text, value))
}
