//! A submission's source files: which of its files are a student's source (Rust under `src/`,
//! Java and Python anywhere), found and read through [`tree`] only (regular files, never
//! through a link, at most a cap's bytes). The style facts read those; the similarity check
//! reads [`every`] source file wherever it lies (a program may load code from any folder).

use std::path::Path;

use super::style::Language;
use super::tree::{self, Cutoff, EntryKind, ReadError};

/// The most source files looked at in one submission.
pub const MAX_FILES: usize = 500;
/// The largest source file read, in bytes.
pub const MAX_FILE_BYTES: u64 = 1 << 20;
/// Folders never looked in: build output, caches and the supplied crate (the course's).
const SKIPPED: [&str; 6] = [
    "target",
    "build",
    "out",
    "__pycache__",
    "node_modules",
    "supplied",
];

/// Why a source file was not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SourceError {
    /// The tree refused it (too large, not a regular file, gone, the system's reason).
    Read(ReadError),
    /// It is not UTF-8 text.
    NotText,
}

/// The language of the file at `path` (relative, `/`-separated), if it is a student's source:
/// Rust under `src/`, Java and Python anywhere.
pub fn language(path: &str) -> Option<Language> {
    by_extension(path).filter(|&language| language != Language::Rust || path.starts_with("src/"))
}

/// The language of a file named `path` by its extension alone.
fn by_extension(path: &str) -> Option<Language> {
    match path.rsplit_once('.')?.1 {
        "rs" => Some(Language::Rust),
        "java" => Some(Language::Java),
        "py" => Some(Language::Python),
        _ => None,
    }
}

/// The source files of the submission `root`, as paths relative to it with their languages, in
/// name order, at most [`MAX_FILES`] of them, and how many more there are. Only regular files
/// count (see [`tree::walk`]): no link is followed, and build output, caches, the supplied
/// crate and hidden folders are not entered.
pub fn list(root: &Path) -> (Vec<(String, Language)>, usize) {
    let skip = |_: &str, name: &str| name.starts_with('.') || SKIPPED.contains(&name);
    let listing = tree::walk(root, "", &skip).unwrap_or_default();
    let mut sources: Vec<(String, Language)> = listing
        .entries
        .into_iter()
        .filter(|entry| entry.kind == EntryKind::File)
        .filter_map(|entry| Some((language(&entry.path)?, entry.path)))
        .map(|(language, path)| (path, language))
        .collect();
    let more = sources.len().saturating_sub(MAX_FILES);
    sources.truncate(MAX_FILES);
    (sources, more)
}

/// Every source file of a submission, wherever it lies, as [`every`] finds them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Everywhere {
    /// The files, as paths relative to the submission with their languages, at most
    /// [`MAX_FILES`]: those [`list`] would find first, then the rest, each part in name order.
    pub files: Vec<(String, Language)>,
    /// How many more there are.
    pub more: usize,
    /// The folders that could not be listed, by path.
    pub unlisted: Vec<String>,
    /// Why the walk did not see everything, if it did not.
    pub stopped: Option<Cutoff>,
}

/// Every source file of the submission `root` by its extension alone (`.rs`, `.java`, `.py`),
/// in any folder: build output, caches, `supplied/`, vendored and hidden folders included,
/// since a program can load code from any of them. Only regular files count and no link is
/// followed (see [`tree::walk`]).
pub fn every(root: &Path) -> Everywhere {
    let listing = match tree::walk(root, "", &|_, _| false) {
        Ok(listing) => listing,
        Err(_) => {
            return Everywhere {
                unlisted: vec![String::new()],
                ..Everywhere::default()
            }
        }
    };
    let mut files: Vec<(String, Language)> = listing
        .entries
        .into_iter()
        .filter(|entry| entry.kind == EntryKind::File)
        .filter_map(|entry| Some((by_extension(&entry.path)?, entry.path)))
        .map(|(language, path)| (path, language))
        .collect();
    let aside = |path: &str| {
        let folders = path.rsplit_once('/').map_or("", |(folders, _)| folders);
        folders
            .split('/')
            .any(|name| name.starts_with('.') || SKIPPED.contains(&name))
    };
    files.sort_by_key(|(path, _)| aside(path));
    let more = files.len().saturating_sub(MAX_FILES);
    files.truncate(MAX_FILES);
    Everywhere {
        files,
        more,
        unlisted: listing.unlisted,
        stopped: listing.stopped,
    }
}

/// The language most of the source files of the submission `root` are in, the first of Rust,
/// Java and Python when two have as many; `None` when it has none.
pub fn main_language(root: &Path) -> Option<Language> {
    let (sources, _) = list(root);
    let count = |language| sources.iter().filter(|(_, l)| *l == language).count();
    [Language::Rust, Language::Java, Language::Python]
        .into_iter()
        .filter(|&language| count(language) > 0)
        .min_by_key(|&language| std::cmp::Reverse(count(language)))
}

/// The text of the source file `path` (relative, `/`-separated) of the submission `root`, at
/// most [`MAX_FILE_BYTES`] of it.
pub fn read(root: &Path, path: &str) -> Result<String, SourceError> {
    let bytes = tree::read(root, path, MAX_FILE_BYTES).map_err(SourceError::Read)?;
    String::from_utf8(bytes).map_err(|_| SourceError::NotText)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_students_sources_are_rust_under_src_and_java_and_python_anywhere() {
        assert_eq!(language("src/main.rs"), Some(Language::Rust));
        assert_eq!(language("build.rs"), None);
        assert_eq!(language("a/B.java"), Some(Language::Java));
        assert_eq!(language("game.py"), Some(Language::Python));
        assert_eq!(language("README.md"), None);
    }

    #[test]
    fn the_supplied_crate_build_output_and_hidden_folders_are_not_listed() {
        let dir = tempfile::tempdir().unwrap();
        for path in [
            "src/main.rs",
            "supplied/src/lib.rs",
            "target/x.rs",
            ".git/a.py",
            "Main.java",
        ] {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "x").unwrap();
        }
        let (sources, more) = list(dir.path());
        let paths: Vec<&str> = sources.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!((paths, more), (vec!["Main.java", "src/main.rs"], 0));
        // One of each: the first of Rust, Java and Python; then the most files.
        assert_eq!(main_language(dir.path()), Some(Language::Rust));
        std::fs::write(dir.path().join("Game.java"), "x").unwrap();
        assert_eq!(main_language(dir.path()), Some(Language::Java));
        assert_eq!(main_language(&dir.path().join("target")), None);
        assert_eq!(read(dir.path(), "Main.java"), Ok("x".to_string()));
        std::fs::write(dir.path().join("bad.py"), [0xff, 0xfe]).unwrap();
        assert_eq!(read(dir.path(), "bad.py"), Err(SourceError::NotText));
        let every = every(dir.path());
        let paths: Vec<&str> = every.files.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(
            paths,
            [
                "Game.java",
                "Main.java",
                "bad.py",
                "src/main.rs",
                ".git/a.py",
                "supplied/src/lib.rs",
                "target/x.rs"
            ]
        );
        assert_eq!((every.more, every.unlisted.len()), (0, 0));
    }
}
