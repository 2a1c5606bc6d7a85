//! The similarity check (`grade similar`, and the class summary's leads): every pair of a
//! class's submissions compared, and each with an archive of earlier years' (never two archived
//! ones with each other), by the fingerprints MOSS and Dolos compare: each file parsed into
//! syntax [`tokens`] (names, literals, comments and layout made alike), its k-grams hashed and
//! [`winnow`]ed. Left out of the score: every k-gram that touches the code every student was
//! given (the base), and the fingerprints most of the class has (common code, as MOSS leaves
//! out passages found in many programs). A pair is ranked by its score, the share of the
//! smaller side the other covers (a partial copy is not diluted by the rest of a larger
//! program); its [`fragments`] are the runs of matches grown through every token the two hold
//! alike (given code included: left out of the score, not of the evidence), the longest shown
//! first. Submissions are read by [`load`]; nothing here runs anything, and nothing is a
//! verdict: pairs are leads for a person to judge.

mod dead;
pub mod fragments;
pub mod load;
mod pairs;
pub mod tokens;
pub mod winnow;

use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::ops::Range;

use crate::kit::sources::SourceError;
use crate::kit::style::Language;
use crate::kit::tree::Cutoff;
use tokens::TokenError;

pub use pairs::compare;

/// How fingerprints are taken and which are left out as common (tuned on the kit's test
/// class: see the kit guide).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Tokens in a k-gram.
    pub k: usize,
    /// Tokens in the shortest stretch of the base recognised as given code (shorter than a
    /// k-gram: a student's one-line body between given lines leaves the given code around it
    /// in stretches shorter than k).
    pub given: usize,
    /// k-grams in a winnowing window.
    pub window: usize,
    /// The fewest tokens of its own code a side counts as having in a pair's coverage: a
    /// submission of a few lines of its own is not covered whole by a line it shares.
    pub least: usize,
    /// A fingerprint held by more than this share (in percent) of the submissions with a file
    /// of its language is common code, left out...
    pub common_percent: usize,
    /// ... if it is also held by more than this many (so that a small class keeps its copies).
    pub common_floor: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            k: 23,
            given: 12,
            window: 17,
            least: 500,
            common_percent: 20,
            common_floor: 10,
        }
    }
}

impl Settings {
    /// The most submissions, of `holding` with a file of the language, a fingerprint may be
    /// held by and not be common.
    pub fn common_limit(&self, holding: usize) -> usize {
        (holding * self.common_percent)
            .div_ceil(100)
            .max(self.common_floor)
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
pub struct Uncompared {
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
    /// The folder at the path could not be listed.
    Unlisted,
    /// The submission's folders were not all looked at.
    Stopped(Cutoff),
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
    pub unread: Vec<Uncompared>,
}

/// The code every student was given, as the k-grams to leave out of every submission.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Base {
    /// The hashes of every stretch of [`Settings::given`] tokens of every base file.
    kgrams: HashSet<u64>,
    /// The hashes of the base files' texts: a submission's file with one of them is a given
    /// file, left out whole.
    texts: HashSet<u64>,
    /// The base's source files.
    pub files: usize,
}

impl Base {
    /// The base made of `submissions` (folders of given code, read as submissions are).
    pub fn of(submissions: &[Submission], settings: Settings) -> Base {
        let mut kgrams = HashSet::new();
        let mut texts = HashSet::new();
        for file in submissions.iter().flat_map(|s| &s.files) {
            if let Ok(found) = tokens::tokens(&file.text, file.language) {
                let kinds: Vec<u64> = found.iter().map(|t| t.kind).collect();
                kgrams.extend(winnow::kgrams(&kinds, settings.given));
                texts.insert(text_hash(&file.text));
            }
        }
        Base {
            kgrams,
            files: texts.len(),
            texts,
        }
    }

    /// Whether `text` is one of the base files' whole.
    pub fn holds(&self, text: &str) -> bool {
        self.texts.contains(&text_hash(text))
    }
}

/// A hash of a file's text, to find the base's own files in a submission.
fn text_hash(text: &str) -> u64 {
    let mut hasher = DefaultHasher::new();
    text.hash(&mut hasher);
    hasher.finish()
}

/// What of one file of a submission is left out of the score, for the pages to grey: its
/// bytes of given code and of common code, and whether it is a base file whole.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Shading {
    /// The file is one of the base's files, unchanged: not compared at all.
    pub given_file: bool,
    /// Its stretches of given code (see [`Settings::given`]).
    pub given: Vec<Range<usize>>,
    /// Its stretches of common code (the k-grams of its fingerprints left out as common).
    pub common: Vec<Range<usize>>,
}

/// What one submission came to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Measure {
    /// The language of most of its tokens (none: it has none).
    pub language: Option<Language>,
    /// Tokens in its files.
    pub tokens: usize,
    /// Fingerprints compared (after the base's and the common ones were left out).
    pub fingerprints: usize,
    /// Its own code: the tokens in the k-grams of the fingerprints compared.
    pub own: usize,
    /// Tokens of given code, left out of the score.
    pub given: usize,
    /// Tokens of common code (under fingerprints left out as common), left out of the score.
    pub common: usize,
    /// Each file's [`Shading`], in the submission's files' order.
    pub files: Vec<Shading>,
}

/// A stretch of a file: its index in the submission's files and its bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    /// The file's index in [`Submission::files`].
    pub file: usize,
    /// The bytes of its text.
    pub bytes: Range<usize>,
}

/// A fragment two submissions share: where it is on each side, its length in tokens, and how
/// many of them are given code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fragment {
    /// In the left submission.
    pub left: Span,
    /// In the right submission.
    pub right: Span,
    /// Its length in tokens (on the left).
    pub tokens: usize,
    /// Of those, the tokens of given code.
    pub given: usize,
}

impl Fragment {
    /// Its tokens that are not given code: what it is ranked and called long by.
    pub fn own(&self) -> usize {
        self.tokens - self.given
    }
}

/// Two submissions compared.
#[derive(Clone, Debug, PartialEq)]
pub struct Pair {
    /// The left submission's index in [`Comparison::submissions`] (a class's, never archived).
    pub left: usize,
    /// The right one's (the class's or an archive's).
    pub right: usize,
    /// The language the pair is ranked in: the left side's.
    pub language: Option<Language>,
    /// The score, what the pair is ranked by: the share, 0 to 1, of the smaller side's own
    /// code ([`Measure::own`], counted as at least [`Settings::least`] tokens) in k-grams the
    /// other also has (the larger of the two sides' shares).
    pub score: f64,
    /// The share, 0 to 1, of both sides' fingerprints the other also has (not the score: a
    /// copy padded with other code has a low one).
    pub fingerprints_shared: f64,
    /// Fingerprints the two share (counted on both sides).
    pub shared: usize,
    /// The longest fragment's own tokens ([`Fragment::own`]).
    pub longest: usize,
    /// The fragments, the most own tokens first.
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
    /// The fingerprints left out as common code, counted once each.
    pub common: usize,
    /// The pairs sharing anything, the highest score first (then the longest fragment first,
    /// then by name).
    pub pairs: Vec<Pair>,
}

/// A language's own baseline, to read its pairs against: how many of the class's submissions
/// are mostly in it, and the score of the middle and the 90th percentile of all their
/// pairs (those sharing nothing counted at 0).
#[derive(Clone, Debug, PartialEq)]
pub struct Baseline {
    /// The language.
    pub language: Language,
    /// The class's submissions mostly in it.
    pub submissions: usize,
    /// The median pair's score, 0 to 1.
    pub median: f64,
    /// The 90th percentile's score, 0 to 1.
    pub ninetieth: f64,
}

impl Comparison {
    /// Each language's [`Baseline`], over the class's pairs of two submissions mostly in it,
    /// for each language with two submissions or more.
    pub fn baselines(&self) -> Vec<Baseline> {
        let in_class = |index: usize| self.submissions[index].origin == Origin::Class;
        let mut found = Vec::new();
        for language in [Language::Rust, Language::Java, Language::Python] {
            let of =
                |index: usize| in_class(index) && self.measures[index].language == Some(language);
            let submissions = (0..self.submissions.len()).filter(|&i| of(i)).count();
            if submissions < 2 {
                continue;
            }
            let mut scores: Vec<f64> = self
                .pairs
                .iter()
                .filter(|p| of(p.left) && of(p.right))
                .map(|p| p.score)
                .collect();
            scores.resize(submissions * (submissions - 1) / 2, 0.0);
            scores.sort_by(f64::total_cmp);
            let at = |share: f64| scores[((scores.len() - 1) as f64 * share).round() as usize];
            found.push(Baseline {
                language,
                submissions,
                median: at(0.5),
                ninetieth: at(0.9),
            });
        }
        found
    }
}
