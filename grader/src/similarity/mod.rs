//! The similarity check (`grade similar`, and the class summary's leads): every pair of a
//! class's submissions compared, and each with an archive of earlier years' (never two archived
//! ones with each other), by the fingerprints MOSS and Dolos compare: each file parsed into
//! syntax [`tokens`] (names, literals, comments and layout made alike), its k-grams hashed and
//! [`winnow`]ed; the k-grams of the code every student was given (the base) left out. A pair's
//! similarity is the share of both sides' fingerprints the other also has; its [`fragments`]
//! are the runs of matches, the longest shown first. Submissions are read by [`load`]; nothing
//! here runs anything, and nothing is a verdict: pairs are leads for a person to judge.

pub mod fragments;
pub mod load;
mod pairs;
pub mod tokens;
pub mod winnow;

use std::collections::HashSet;
use std::ops::Range;

use crate::kit::sources::SourceError;
use crate::kit::style::Language;
use tokens::TokenError;

pub use pairs::compare;

/// How fingerprints are taken: Dolos's defaults, k-grams of 23 tokens winnowed in windows of
/// 17 (any copied run of 39 tokens or more is always seen).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Tokens in a k-gram.
    pub k: usize,
    /// k-grams in a winnowing window.
    pub window: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings { k: 23, window: 17 }
    }
}

/// Where a submission comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The class being checked.
    Class,
    /// An archive of an earlier class: its label (the folder's name).
    Archive(String),
}

/// One source file of a submission.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct File {
    /// Its path in the submission, `/`-separated.
    pub path: String,
    /// Its language.
    pub language: Language,
    /// Its text.
    pub text: String,
}

/// A source file that was not compared, or files left out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unread {
    /// Its path in the submission (empty for [`Why::TooMany`]).
    pub path: String,
    /// Why.
    pub why: Why,
}

/// Why a file was not compared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Why {
    /// It could not be read (see [`SourceError`]).
    Source(SourceError),
    /// It could not be parsed into tokens.
    Tokens(TokenError),
    /// The submission has this many source files beyond the most read.
    TooMany(usize),
}

/// A submission as compared: who, from where, its source files and what was not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Submission {
    /// Its folder's name.
    pub name: String,
    /// The class or an archive.
    pub origin: Origin,
    /// Its source files, in path order.
    pub files: Vec<File>,
    /// What was not compared, and why.
    pub unread: Vec<Unread>,
}

/// The code every student was given, as the k-grams to leave out of every submission.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Base {
    /// The hashes of every k-gram of every base file (not only the winnowed ones, so that the
    /// given code is left out whatever window it falls in).
    kgrams: HashSet<u64>,
    /// The base's source files.
    pub files: usize,
}

impl Base {
    /// The base made of `submissions` (folders of given code, read as submissions are).
    pub fn of(submissions: &[Submission], settings: Settings) -> Base {
        let mut kgrams = HashSet::new();
        let mut files = 0;
        for file in submissions.iter().flat_map(|s| &s.files) {
            if let Ok(found) = tokens::tokens(&file.text, file.language) {
                let kinds: Vec<u64> = found.iter().map(|t| t.kind).collect();
                kgrams.extend(winnow::kgrams(&kinds, settings.k));
                files += 1;
            }
        }
        Base { kgrams, files }
    }
}

/// What one submission came to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Measure {
    /// Tokens in its files.
    pub tokens: usize,
    /// Fingerprints compared (after the base's were left out).
    pub fingerprints: usize,
    /// Fingerprints left out as the base's.
    pub based: usize,
}

/// A stretch of a file: its index in the submission's files and its bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    /// The file's index in [`Submission::files`].
    pub file: usize,
    /// The bytes of its text.
    pub bytes: Range<usize>,
}

/// A fragment two submissions share: where it is on each side, and its length in tokens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fragment {
    /// In the left submission.
    pub left: Span,
    /// In the right submission.
    pub right: Span,
    /// Its length in tokens (on the left).
    pub tokens: usize,
}

/// Two submissions compared.
#[derive(Clone, Debug, PartialEq)]
pub struct Pair {
    /// The left submission's index in [`Comparison::submissions`] (a class's, never archived).
    pub left: usize,
    /// The right one's (the class's or an archive's).
    pub right: usize,
    /// The share, 0 to 1, of both sides' fingerprints the other also has.
    pub similarity: f64,
    /// Fingerprints the two share (counted on both sides).
    pub shared: usize,
    /// The longest fragment's length in tokens.
    pub longest: usize,
    /// The fragments, longest first.
    pub fragments: Vec<Fragment>,
}

/// A class compared: its submissions and the archive's (class first), what each came to, and
/// every pair that shares a fingerprint, most similar first.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// How fingerprints were taken.
    pub settings: Settings,
    /// The submissions compared, with every file not compared.
    pub submissions: Vec<Submission>,
    /// What each came to, in the same order.
    pub measures: Vec<Measure>,
    /// The base's source files (0: no base was given).
    pub base_files: usize,
    /// The pairs sharing anything, most similar first (then the longest fragment first, then
    /// by name).
    pub pairs: Vec<Pair>,
}
