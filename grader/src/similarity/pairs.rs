//! The comparison itself: each submission's files fingerprinted, the base's k-grams left out,
//! the pairs that share a fingerprint found through an index of every fingerprint (so that
//! pairs sharing nothing cost nothing), and each of those pairs' similarity and fragments.

use std::collections::HashMap;
use std::ops::Range;

use super::fragments::{runs, Place};
use super::tokens::tokens;
use super::winnow::{kgrams, winnow, Fingerprint};
use super::{Base, Comparison, Fragment, Measure, Origin, Pair, Settings, Span, Submission};
use super::{Unread, Why};

/// The most places of one fingerprint matched on each side of a pair: a line repeated a
/// thousand times is one match, not a million.
const MAX_PLACES: usize = 8;

/// One file fingerprinted: its tokens' bytes and the fingerprints winnowing kept, the base's
/// among them marked.
struct Document {
    /// Each token's bytes.
    tokens: Vec<Range<usize>>,
    /// The fingerprints, in order, each with whether it is the base's.
    fingerprints: Vec<(Fingerprint, bool)>,
}

/// A submission fingerprinted: each file's [`Document`], in the files' order.
struct Fingerprinted {
    documents: Vec<Document>,
}

impl Fingerprinted {
    /// Every fingerprint not the base's, by hash, with its places (at most [`MAX_PLACES`]).
    fn by_hash(&self) -> HashMap<u64, Vec<Place>> {
        let mut found: HashMap<u64, Vec<Place>> = HashMap::new();
        for (file, document) in self.documents.iter().enumerate() {
            for (ordinal, (print, based)) in document.fingerprints.iter().enumerate() {
                let places = found.entry(print.hash).or_default();
                if !based && places.len() < MAX_PLACES {
                    places.push(Place {
                        file: file as u32,
                        ordinal: ordinal as u32,
                    });
                }
            }
        }
        found.retain(|_, places| !places.is_empty());
        found
    }
}

/// The class's submissions compared with each other and with the archive's, the base's k-grams
/// left out of all of them, by `settings`.
pub fn compare(
    class: Vec<Submission>,
    archive: Vec<Submission>,
    base: &Base,
    settings: Settings,
) -> Comparison {
    let archived_from = class.len();
    let mut submissions: Vec<Submission> = class.into_iter().chain(archive).collect();
    let (printed, measures): (Vec<Fingerprinted>, Vec<Measure>) = submissions
        .iter_mut()
        .map(|submission| fingerprint(submission, base, settings))
        .unzip();
    let mut pairs: Vec<Pair> = sharing(&printed, archived_from)
        .into_iter()
        .map(|(left, right)| pair(&printed, &measures, left, right, settings))
        .filter(|pair| pair.shared > 0)
        .collect();
    pairs.sort_by(|a, b| {
        (b.similarity.total_cmp(&a.similarity))
            .then(b.longest.cmp(&a.longest))
            .then(submissions[a.left].name.cmp(&submissions[b.left].name))
            .then(submissions[a.right].name.cmp(&submissions[b.right].name))
    });
    debug_assert!(submissions[..archived_from]
        .iter()
        .all(|s| s.origin == Origin::Class));
    Comparison {
        settings,
        submissions,
        measures,
        base_files: base.files,
        pairs,
    }
}

/// `submission`'s files fingerprinted (those that cannot be parsed added to its unread), and
/// what it came to.
fn fingerprint(
    submission: &mut Submission,
    base: &Base,
    settings: Settings,
) -> (Fingerprinted, Measure) {
    let mut measure = Measure::default();
    let mut documents = Vec::new();
    for file in &submission.files {
        let found = match tokens(&file.text, file.language) {
            Ok(found) => found,
            Err(error) => {
                submission.unread.push(Unread {
                    path: file.path.clone(),
                    why: Why::Tokens(error),
                });
                Vec::new()
            }
        };
        let kinds: Vec<u64> = found.iter().map(|t| t.kind).collect();
        let fingerprints: Vec<(Fingerprint, bool)> =
            winnow(&kgrams(&kinds, settings.k), settings.window)
                .into_iter()
                .map(|print| (print, base.kgrams.contains(&print.hash)))
                .collect();
        let based = fingerprints.iter().filter(|(_, based)| *based).count();
        measure.tokens += found.len();
        measure.based += based;
        measure.fingerprints += fingerprints.len() - based;
        documents.push(Document {
            tokens: found.into_iter().map(|t| t.bytes).collect(),
            fingerprints,
        });
    }
    (Fingerprinted { documents }, measure)
}

/// The pairs (left before right) that share at least one fingerprint, two archived submissions
/// (those from `archived_from` on) never paired, in order.
fn sharing(printed: &[Fingerprinted], archived_from: usize) -> Vec<(usize, usize)> {
    let mut holders: HashMap<u64, Vec<usize>> = HashMap::new();
    for (index, submission) in printed.iter().enumerate() {
        for hash in submission.by_hash().into_keys() {
            holders.entry(hash).or_default().push(index);
        }
    }
    let mut found = std::collections::BTreeSet::new();
    for holding in holders.values() {
        for (i, &left) in holding.iter().enumerate() {
            if left >= archived_from {
                break;
            }
            found.extend(holding[i + 1..].iter().map(|&right| (left, right)));
        }
    }
    found.into_iter().collect()
}

/// The submissions `left` and `right` compared: the share of fingerprints each has of the
/// other's, and their fragments.
fn pair(
    printed: &[Fingerprinted],
    measures: &[Measure],
    left: usize,
    right: usize,
    settings: Settings,
) -> Pair {
    let (on_left, on_right) = (printed[left].by_hash(), printed[right].by_hash());
    let count = |mine: &HashMap<u64, Vec<Place>>, theirs: &HashMap<u64, Vec<Place>>| -> usize {
        let inside = |hash: &u64| theirs.contains_key(hash);
        mine.iter()
            .filter(|(hash, _)| inside(hash))
            .map(|(_, places)| places.len())
            .sum()
    };
    let shared = count(&on_left, &on_right) + count(&on_right, &on_left);
    let total = measures[left].fingerprints + measures[right].fingerprints;
    let matches: Vec<(Place, Place)> = on_left
        .iter()
        .filter_map(|(hash, places)| Some((places, on_right.get(hash)?)))
        .flat_map(|(lefts, rights)| {
            lefts
                .iter()
                .flat_map(move |&l| rights.iter().map(move |&r| (l, r)))
        })
        .collect();
    let mut fragments: Vec<Fragment> = runs(&matches)
        .into_iter()
        .map(|run| Fragment {
            left: span(&printed[left], run.left, run.length, settings.k),
            right: span(&printed[right], run.right, run.length, settings.k),
            tokens: tokens_in(&printed[left], run.left, run.length, settings.k),
        })
        .collect();
    fragments.sort_by(|a, b| {
        (b.tokens.cmp(&a.tokens))
            .then(a.left.file.cmp(&b.left.file))
            .then(a.left.bytes.start.cmp(&b.left.bytes.start))
    });
    Pair {
        left,
        right,
        similarity: match total {
            0 => 0.0,
            total => shared as f64 / total as f64,
        },
        shared,
        longest: fragments.first().map_or(0, |f| f.tokens),
        fragments,
    }
}

/// The first and last token of the run of `length` fingerprints from `start`.
fn token_range(document: &Document, start: Place, length: u32, k: usize) -> (usize, usize) {
    let prints = &document.fingerprints;
    let first = prints[start.ordinal as usize].0.start;
    let last = prints[(start.ordinal + length - 1) as usize].0.start + k - 1;
    (first, last.min(document.tokens.len() - 1))
}

/// The bytes of the run of `length` fingerprints from `start` in `submission`.
fn span(submission: &Fingerprinted, start: Place, length: u32, k: usize) -> Span {
    let document = &submission.documents[start.file as usize];
    let (first, last) = token_range(document, start, length, k);
    Span {
        file: start.file as usize,
        bytes: document.tokens[first].start..document.tokens[last].end,
    }
}

/// The tokens in the run of `length` fingerprints from `start` in `submission`.
fn tokens_in(submission: &Fingerprinted, start: Place, length: u32, k: usize) -> usize {
    let (first, last) = token_range(&submission.documents[start.file as usize], start, length, k);
    last - first + 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::style::Language;
    use crate::similarity::File;

    /// A Python program long enough for several fingerprints: `n` functions of a few lines.
    fn program(names: &[&str]) -> String {
        names
            .iter()
            .enumerate()
            .map(|(i, name)| {
                format!(
                    "def {name}(board, col):\n    total = 0\n    for row in range(len(board)):\n        \
                     if board[row][col] == {i}:\n            total += row * {i}\n        else:\n            \
                     total -= 1\n    return total\n\n"
                )
            })
            .collect()
    }

    fn submission(name: &str, origin: Origin, text: &str) -> Submission {
        Submission {
            name: name.into(),
            origin,
            files: vec![File {
                path: "main.py".into(),
                language: Language::Python,
                text: text.into(),
            }],
            unread: Vec::new(),
        }
    }

    fn settings() -> Settings {
        Settings { k: 8, window: 4 }
    }

    #[test]
    fn a_renamed_and_reordered_copy_shares_everything_and_unrelated_code_nothing() {
        let original = program(&["score", "count", "check"]);
        let copy = program(&["tally", "grade", "look"])
            .replace("board", "grid")
            .replace("total", "acc");
        let other = "class Pool:\n    def __init__(self):\n        self.jobs = []\n        \
                     self.lock = None\n        self.done = {}\n";
        let class = vec![
            submission("ann", Origin::Class, &original),
            submission("bob", Origin::Class, &copy),
            submission("cy", Origin::Class, other),
        ];
        let compared = compare(class, Vec::new(), &Base::default(), settings());
        assert_eq!(compared.pairs.len(), 1, "{:?}", compared.pairs);
        let pair = &compared.pairs[0];
        assert_eq!((pair.left, pair.right), (0, 1));
        assert_eq!(pair.similarity, 1.0);
        assert!(pair.longest >= 50, "{}", pair.longest);
        let fragment = &pair.fragments[0];
        assert!(original[fragment.left.bytes.clone()].contains("def"));
    }

    #[test]
    fn the_base_is_left_out_and_two_archived_submissions_are_never_paired() {
        let given = program(&["given"]);
        let written = program(&["a", "b"]);
        let base = Base::of(&[submission("starter", Origin::Class, &given)], settings());
        let archived = || Origin::Archive("2024".into());
        let class = vec![
            submission("ann", Origin::Class, &given),
            submission("bob", Origin::Class, &format!("{given}{written}")),
        ];
        let archive = vec![
            submission("old1", archived(), &written),
            submission("old2", archived(), &written),
            submission("old3", archived(), &format!("{given}{written}")),
        ];
        let compared = compare(class, archive, &base, settings());
        assert_eq!(compared.measures[0].fingerprints, 0);
        assert!(compared.measures[0].based > 0);
        let mut paired: Vec<(&str, &str)> = compared
            .pairs
            .iter()
            .map(|p| {
                let (l, r) = (
                    &compared.submissions[p.left],
                    &compared.submissions[p.right],
                );
                (l.name.as_str(), r.name.as_str())
            })
            .collect();
        paired.sort();
        assert_eq!(paired, [("bob", "old1"), ("bob", "old2"), ("bob", "old3")]);
        assert!(compared.pairs.iter().all(|p| p.similarity == 1.0));
    }

    #[test]
    fn pairs_are_ranked_by_similarity_then_longest_run() {
        let original = program(&["a", "b", "c", "d"]);
        let half = program(&["a", "b"]) + "class Other:\n    pass\n";
        let class = vec![
            submission("ann", Origin::Class, &original),
            submission("bob", Origin::Class, &half),
            submission("cy", Origin::Class, &original),
        ];
        let compared = compare(class, Vec::new(), &Base::default(), settings());
        let ranked: Vec<(usize, usize)> =
            compared.pairs.iter().map(|p| (p.left, p.right)).collect();
        assert_eq!(ranked[0], (0, 2));
        assert!(compared
            .pairs
            .windows(2)
            .all(|w| w[0].similarity >= w[1].similarity));
        assert_eq!(ranked.len(), 3);
    }
}
