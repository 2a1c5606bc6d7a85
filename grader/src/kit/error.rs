//! Reading the kit's TOML files, with errors that name them.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;

/// Why one of the kit's TOML files (or a folder of them) cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum TomlError {
    /// The file cannot be read.
    #[error("{}: cannot read: {source}", .path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// It is not the TOML expected.
    #[error("{}: {source}", .path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// Where and why.
        #[source]
        source: toml::de::Error,
    },
}

/// Reads a file of the kit, an error naming it.
pub(crate) fn read_text(path: &Path) -> Result<String, TomlError> {
    fs::read_to_string(path).map_err(|source| TomlError::Read {
        path: path.to_path_buf(),
        source,
    })
}

/// Parses `text`, the kit's TOML file at `path`, an error naming it.
pub(crate) fn parse_toml<T: DeserializeOwned>(path: &Path, text: &str) -> Result<T, TomlError> {
    toml::from_str(text).map_err(|source| TomlError::Parse {
        path: path.to_path_buf(),
        source,
    })
}

/// Reads a TOML file of the kit, errors naming it.
pub(crate) fn read_toml<T: DeserializeOwned>(path: &Path) -> Result<T, TomlError> {
    parse_toml(path, &read_text(path)?)
}
