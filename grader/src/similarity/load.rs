//! Submissions read from disk for the similarity check: a class folder (one submission per
//! subdirectory), an archive of an earlier year's class, and the base code every student was
//! given (with its supplied crate). Every source file of a submission is read, wherever it
//! lies ([`sources::every`]): regular files, never through a link, each at most
//! [`sources::MAX_FILE_BYTES`]; what could not be read is kept with why.

use std::fs;
use std::path::{Path, PathBuf};

use super::{File, Origin, Submission, Uncompared, Why};
use crate::kit::sources;

/// Why a folder of submissions could not be read.
#[derive(Debug, thiserror::Error)]
pub enum FolderError {
    /// The folder could not be listed: its path and the system's reason.
    #[error("{}: cannot be read: {}", .0.display(), .1)]
    Unlisted(PathBuf, #[source] std::io::Error),
    /// The folder holds no subdirectory.
    #[error("{}: no submission folders in it", .0.display())]
    Empty(PathBuf),
}

/// Every submission of the class folder `dir` (its subdirectories, hidden ones left out, in
/// name order), each of `origin`.
pub fn class(dir: &Path, origin: &Origin) -> Result<Vec<Submission>, FolderError> {
    let entries = fs::read_dir(dir).map_err(|e| FolderError::Unlisted(dir.to_path_buf(), e))?;
    let mut folders: Vec<(String, PathBuf)> = entries
        .flatten()
        .filter(|entry| entry.file_type().is_ok_and(|kind| kind.is_dir()))
        .map(|entry| {
            (
                entry.file_name().to_string_lossy().into_owned(),
                entry.path(),
            )
        })
        .filter(|(name, _)| !name.starts_with('.'))
        .collect();
    folders.sort();
    if folders.is_empty() {
        return Err(FolderError::Empty(dir.to_path_buf()));
    }
    Ok(folders
        .into_iter()
        .map(|(name, path)| submission(&path, name, origin.clone()))
        .collect())
}

/// A folder of code every student was given (its supplied crate in it too), read as the base
/// as a submission is.
pub fn given(dir: &Path, name: &str) -> Submission {
    submission(dir, name.to_string(), Origin::Class)
}

/// The submission in the folder `dir`, named `name`: its source files, and those it has that
/// could not be read, with why.
pub fn submission(dir: &Path, name: String, origin: Origin) -> Submission {
    let found = sources::every(dir);
    let mut files = Vec::new();
    let mut unread: Vec<Uncompared> = (found.unlisted.into_iter())
        .map(|path| Uncompared {
            path,
            why: Why::Unlisted,
        })
        .chain(found.stopped.map(|cutoff| Uncompared {
            path: String::new(),
            why: Why::Stopped(cutoff),
        }))
        .collect();
    for (path, language) in found.files {
        match sources::read(dir, &path) {
            Ok(text) => files.push(File {
                path,
                language,
                text,
            }),
            Err(error) => unread.push(Uncompared {
                path,
                why: Why::Source(error),
            }),
        }
    }
    if found.more > 0 {
        unread.push(Uncompared {
            path: String::new(),
            why: Why::TooMany(found.more),
        });
    }
    Submission {
        name,
        origin,
        files,
        unread,
    }
}
