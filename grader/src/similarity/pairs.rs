//! The comparison itself: each submission's files fingerprinted, what touches the base and
//! what most of the class holds left out, the pairs that share a fingerprint found through an
//! index of every fingerprint (so that pairs sharing nothing cost nothing), and each of those
//! pairs' score, fingerprints shared and fragments.

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use super::fragments::{grown, streaks, Position, Run};
use super::tokens::tokens;
use super::winnow::{kgrams, winnow, Fingerprint};
use super::{Base, Comparison, Fragment, Measure, Origin, Pair, Settings, Shading, Span};
use super::{Submission, Uncompared, Why};
use crate::kit::style::Language;

/// The most places of one fingerprint matched on each side of a pair: a line repeated a
/// thousand times is one match, not a million.
const MAX_PLACES: usize = 8;

/// One file fingerprinted: its language, its tokens' kinds, bytes and whether each is given
/// code, and the fingerprints winnowing kept, each with whether it touches the base.
struct Document {
    /// Its language.
    language: Language,
    /// Each token's kind.
    kinds: Vec<u64>,
    /// Each token's bytes.
    tokens: Vec<Range<usize>>,
    /// Whether each token is given code.
    given: Vec<bool>,
    /// The fingerprints, in order, each with whether it touches the base.
    fingerprints: Vec<(Fingerprint, bool)>,
}

/// A submission fingerprinted: each file's [`Document`], in the files' order.
struct Fingerprinted {
    documents: Vec<Document>,
}

/// A submission's fingerprints by hash, each with its places (at most [`MAX_PLACES`]).
type Held = HashMap<u64, Vec<Position>>;

impl Fingerprinted {
    /// Every fingerprint that touches no base and is not `common`, by hash, with its places.
    fn held(&self, common: &HashSet<u64>) -> Held {
        let mut found: Held = HashMap::new();
        for (file, document) in self.documents.iter().enumerate() {
            for (ordinal, (print, based)) in document.fingerprints.iter().enumerate() {
                if *based || common.contains(&print.hash) {
                    continue;
                }
                let places = found.entry(print.hash).or_default();
                if places.len() < MAX_PLACES {
                    places.push(Position {
                        file: file as u32,
                        ordinal: ordinal as u32,
                    });
                }
            }
        }
        found
    }
}

/// The class's submissions compared with each other and with the archive's, the base and the
/// common code left out of all of them, by `settings`.
pub fn compare(
    class: Vec<Submission>,
    archive: Vec<Submission>,
    base: &Base,
    settings: Settings,
) -> Comparison {
    let archived_from = class.len();
    let mut submissions: Vec<Submission> = class.into_iter().chain(archive).collect();
    let (printed, mut measures): (Vec<Fingerprinted>, Vec<Measure>) = submissions
        .iter_mut()
        .map(|submission| fingerprint(submission, base, settings))
        .unzip();
    let common = common(&printed, settings);
    let held: Vec<Held> = printed
        .iter()
        .zip(&mut measures)
        .map(|(submission, measure)| {
            let held = submission.held(&common);
            measure.fingerprints = held.values().map(Vec::len).sum();
            measure.own = covered(submission, held.values().flatten(), settings.k);
            for (document, shading) in submission.documents.iter().zip(&mut measure.files) {
                let flags = common_tokens(document, &common, settings.k);
                measure.common += flags.iter().filter(|c| **c).count();
                shading.common = stretches(&flags, &document.tokens);
            }
            held
        })
        .collect();
    let mut pairs: Vec<Pair> = sharing(&held, archived_from)
        .into_iter()
        .map(|(left, right)| pair(&printed, &held, &measures, left, right, settings))
        .filter(|pair| pair.shared > 0)
        .collect();
    pairs.sort_by(|a, b| {
        (b.score.total_cmp(&a.score))
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
        common: common.len(),
        pairs,
    }
}

/// `submission`'s files fingerprinted (those that cannot be parsed added to its unread; a base
/// file whole left out), and what it came to. Every token inside a stretch of the base is
/// given code, and a k-gram that touches one is never kept: winnowing passes over them (they
/// hash highest), so the student's own code beside the given code keeps its fingerprints, and
/// a body of fewer than k tokens between given lines (what every student writes first) gives
/// none.
fn fingerprint(
    submission: &mut Submission,
    base: &Base,
    settings: Settings,
) -> (Fingerprinted, Measure) {
    let mut measure = Measure::default();
    let mut by_language: HashMap<Language, usize> = HashMap::new();
    let mut documents = Vec::new();
    for file in &submission.files {
        let given_file = base.holds(&file.text);
        let parsed = match given_file {
            true => Ok(Vec::new()),
            false => tokens(&file.text, file.language),
        };
        let found = match parsed {
            Ok(found) => found,
            Err(error) => {
                submission.unread.push(Uncompared {
                    path: file.path.clone(),
                    why: Why::Tokens(error),
                });
                Vec::new()
            }
        };
        let kinds: Vec<u64> = found.iter().map(|t| t.kind).collect();
        let mut hashes = kgrams(&kinds, settings.k);
        let given = given(&kinds, &base.kgrams, settings.given);
        let based = touching(&given, settings.k);
        for (hash, based) in hashes.iter_mut().zip(&based) {
            if *based {
                *hash = u64::MAX;
            }
        }
        let fingerprints: Vec<(Fingerprint, bool)> = winnow(&hashes, settings.window)
            .into_iter()
            .map(|print| (print, based[print.start]))
            .collect();
        let tokens: Vec<Range<usize>> = found.into_iter().map(|t| t.bytes).collect();
        measure.given += given.iter().filter(|g| **g).count();
        measure.tokens += tokens.len();
        measure.files.push(Shading {
            given_file,
            given: stretches(&given, &tokens),
            common: Vec::new(),
        });
        *by_language.entry(file.language).or_default() += tokens.len();
        documents.push(Document {
            language: file.language,
            kinds,
            tokens,
            given,
            fingerprints,
        });
    }
    measure.language = by_language
        .into_iter()
        .filter(|(_, tokens)| *tokens > 0)
        .max_by_key(|(language, tokens)| (*tokens, std::cmp::Reverse(*language)))
        .map(|(language, _)| language);
    (Fingerprinted { documents }, measure)
}

/// For each of `kinds` (the tokens' kinds), whether it is given code: inside a stretch of
/// `length` tokens that the `base` has.
fn given(kinds: &[u64], base: &HashSet<u64>, length: usize) -> Vec<bool> {
    let mut changes = vec![0i32; kinds.len() + 1];
    for (start, hash) in kgrams(kinds, length).iter().enumerate() {
        if base.contains(hash) {
            changes[start] += 1;
            changes[start + length] -= 1;
        }
    }
    changes
        .iter()
        .scan(0, |open, change| {
            *open += change;
            Some(*open > 0)
        })
        .take(kinds.len())
        .collect()
}

/// The bytes of each stretch of the tokens (their bytes `tokens`) that `flags` marks.
fn stretches(flags: &[bool], tokens: &[Range<usize>]) -> Vec<Range<usize>> {
    let mut found: Vec<Range<usize>> = Vec::new();
    let mut previous = false;
    for (flag, bytes) in flags.iter().zip(tokens) {
        match (flag, previous, found.last_mut()) {
            (true, true, Some(last)) => last.end = bytes.end,
            (true, _, _) => found.push(bytes.clone()),
            _ => {}
        }
        previous = *flag;
    }
    found
}

/// For each token of `document`, whether it is common code: under a k-gram (of `k` tokens)
/// of a fingerprint that touches no base and is `common`.
fn common_tokens(document: &Document, common: &HashSet<u64>, k: usize) -> Vec<bool> {
    let mut flags = vec![false; document.tokens.len()];
    for (print, based) in &document.fingerprints {
        if !based && common.contains(&print.hash) {
            let end = (print.start + k).min(flags.len());
            flags[print.start..end].fill(true);
        }
    }
    flags
}

/// For each k-gram (of `k` tokens) of a file whose tokens are `given` or not, whether any of
/// its tokens is given.
fn touching(given: &[bool], k: usize) -> Vec<bool> {
    let mut inside = given
        .iter()
        .take(k.saturating_sub(1))
        .filter(|g| **g)
        .count();
    (0..given.len().saturating_sub(k.saturating_sub(1)))
        .map(|start| {
            inside += usize::from(given[start + k - 1]);
            let touches = inside > 0;
            inside -= usize::from(given[start]);
            touches
        })
        .collect()
}

/// The hashes held by more submissions than [`Settings::common_limit`] allows of those with a
/// file of their language (each counted once per submission, the base's left aside).
fn common(printed: &[Fingerprinted], settings: Settings) -> HashSet<u64> {
    let mut holders: HashMap<u64, (Language, usize)> = HashMap::new();
    let mut holding: HashMap<Language, usize> = HashMap::new();
    for submission in printed {
        let mut seen = HashSet::new();
        let mut languages = HashSet::new();
        for document in &submission.documents {
            languages.insert(document.language);
            for (print, based) in &document.fingerprints {
                if !based && seen.insert(print.hash) {
                    holders
                        .entry(print.hash)
                        .or_insert((document.language, 0))
                        .1 += 1;
                }
            }
        }
        for language in languages {
            *holding.entry(language).or_default() += 1;
        }
    }
    holders
        .into_iter()
        .filter(|(_, (language, count))| *count > settings.common_limit(holding[language]))
        .map(|(hash, _)| hash)
        .collect()
}

/// The pairs (left before right) that share at least one fingerprint, two archived submissions
/// (those from `archived_from` on) never paired, in order.
fn sharing(held: &[Held], archived_from: usize) -> Vec<(usize, usize)> {
    let mut holders: HashMap<u64, Vec<usize>> = HashMap::new();
    for (index, submission) in held.iter().enumerate() {
        for hash in submission.keys() {
            holders.entry(*hash).or_default().push(index);
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

/// The submissions `left` and `right` compared: the score, the share of fingerprints each has
/// of the other's, and their fragments.
fn pair(
    printed: &[Fingerprinted],
    held: &[Held],
    measures: &[Measure],
    left: usize,
    right: usize,
    settings: Settings,
) -> Pair {
    let (on_left, on_right) = (&held[left], &held[right]);
    // One side's fingerprints the other holds too: how many, and the share of its own code
    // they cover.
    let shared = |side: usize, mine: &Held, theirs: &Held| -> (usize, f64) {
        let places: Vec<&Position> = mine
            .iter()
            .filter(|(hash, _)| theirs.contains_key(hash))
            .flat_map(|(_, places)| places)
            .collect();
        let tokens = covered(&printed[side], places.iter().copied(), settings.k);
        let own = measures[side].own.max(settings.least);
        (places.len(), tokens as f64 / own as f64)
    };
    let (shared_left, covered_left) = shared(left, on_left, on_right);
    let (shared_right, covered_right) = shared(right, on_right, on_left);
    let share = |shared: usize, all: usize| match all {
        0 => 0.0,
        all => shared as f64 / all as f64,
    };
    let (of_left, of_right) = (measures[left].fingerprints, measures[right].fingerprints);
    let matches: Vec<(Position, Position)> = on_left
        .iter()
        .filter_map(|(hash, places)| Some((places, on_right.get(hash)?)))
        .flat_map(|(lefts, rights)| {
            lefts
                .iter()
                .flat_map(move |&l| rights.iter().map(move |&r| (l, r)))
        })
        .collect();
    let (on_left, on_right) = (&printed[left].documents, &printed[right].documents);
    let runs: Vec<Run> = streaks(&matches)
        .into_iter()
        .map(|streak| Run {
            left: run_side(on_left, streak.left, streak.length, settings.k),
            right: run_side(on_right, streak.right, streak.length, settings.k),
        })
        .collect();
    let mut fragments: Vec<Fragment> = grown(runs, &kinds(on_left), &kinds(on_right))
        .into_iter()
        .map(|run| {
            let (file, first, last) = run.left;
            Fragment {
                left: span(on_left, run.left),
                right: span(on_right, run.right),
                tokens: last - first + 1,
                given: (on_left[file as usize].given[first..=last].iter())
                    .filter(|g| **g)
                    .count(),
            }
        })
        .collect();
    fragments.sort_by(|a, b| {
        (b.own().cmp(&a.own()))
            .then(b.tokens.cmp(&a.tokens))
            .then(a.left.file.cmp(&b.left.file))
            .then(a.left.bytes.start.cmp(&b.left.bytes.start))
    });
    Pair {
        left,
        right,
        language: measures[left].language,
        score: covered_left.max(covered_right),
        fingerprints_shared: share(shared_left + shared_right, of_left + of_right),
        shared: shared_left + shared_right,
        longest: fragments.first().map_or(0, Fragment::own),
        fragments,
    }
}

/// Each document's token kinds.
fn kinds(documents: &[Document]) -> Vec<&[u64]> {
    documents.iter().map(|d| d.kinds.as_slice()).collect()
}

/// The tokens of `submission` in the k-grams of the fingerprints at `places`, each counted once.
fn covered<'a>(
    submission: &Fingerprinted,
    places: impl Iterator<Item = &'a Position>,
    k: usize,
) -> usize {
    let mut starts: Vec<(u32, usize)> = places
        .map(|place| {
            let document = &submission.documents[place.file as usize];
            (
                place.file,
                document.fingerprints[place.ordinal as usize].0.start,
            )
        })
        .collect();
    starts.sort_unstable();
    let mut total = 0;
    let mut reach: Option<(u32, usize)> = None;
    for (file, start) in starts {
        let from = match reach {
            Some((f, end)) if f == file => start.max(end),
            _ => start,
        };
        total += start + k - from.min(start + k);
        reach = Some((file, start + k));
    }
    total
}

/// The file, first and last token of the run of `length` fingerprints from `start` in
/// `documents`.
fn run_side(documents: &[Document], start: Position, length: u32, k: usize) -> (u32, usize, usize) {
    let document = &documents[start.file as usize];
    let prints = &document.fingerprints;
    let first = prints[start.ordinal as usize].0.start;
    let last = prints[(start.ordinal + length - 1) as usize].0.start + k - 1;
    (start.file, first, last.min(document.tokens.len() - 1))
}

/// The bytes of the tokens of one side of a run (its file, first and last token).
fn span(documents: &[Document], (file, first, last): (u32, usize, usize)) -> Span {
    let tokens = &documents[file as usize].tokens;
    Span {
        file: file as usize,
        bytes: tokens[first].start..tokens[last].end,
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
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
        Settings {
            k: 8,
            given: 8,
            window: 4,
            least: 0,
            ..Settings::default()
        }
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
        assert_eq!(pair.fingerprints_shared, 1.0);
        assert!(pair.longest >= 50, "{}", pair.longest);
        let fragment = &pair.fragments[0];
        assert!(original[fragment.left.bytes.clone()].contains("def"));
    }

    #[test]
    fn the_base_is_left_out_and_two_archived_submissions_are_never_paired() {
        let given = program(&["given"]);
        let written = "class Pool:\n    def __init__(self, size):\n        self.jobs = [None] * size\n        \
                       self.lock = {}\n        while size > 0:\n            size -= 2\n";
        let base = Base::of(&[submission("starter", Origin::Class, &given)], settings());
        let archived = || Origin::Archive("2024".into());
        let class = vec![
            submission("ann", Origin::Class, &given),
            submission("bob", Origin::Class, &format!("{given}{written}")),
        ];
        let archive = vec![
            submission("old1", archived(), written),
            submission("old2", archived(), written),
            submission("old3", archived(), &format!("{given}{written}")),
        ];
        let compared = compare(class, archive, &base, settings());
        assert_eq!(compared.measures[0].fingerprints, 0);
        assert!(compared.measures[0].files[0].given_file);
        assert!(compared.measures[1].given > 0);
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
        assert!(compared.pairs.iter().all(|p| p.fingerprints_shared == 1.0));
    }

    #[test]
    fn pairs_are_ranked_by_score_then_longest_fragment() {
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
        assert!(compared.pairs.windows(2).all(|w| w[0].score >= w[1].score));
        assert_eq!(ranked.len(), 3);
    }

    #[test]
    fn code_most_of_a_large_class_holds_is_left_out_but_a_small_class_keeps_its_copies() {
        let shared = program(&["shared"]);
        let class = |students: usize| -> Vec<Submission> {
            (0..students)
                .map(|i| {
                    let own =
                        program(&["own"]).replace("range(len(board))", &"[".repeat(i % 7 + 1));
                    submission(
                        &format!("s{i:02}"),
                        Origin::Class,
                        &format!("{shared}{own}"),
                    )
                })
                .collect()
        };
        let large = compare(class(60), Vec::new(), &Base::default(), settings());
        assert!(large.common > 0);
        assert!(large.measures.iter().all(|m| m.common > 0));
        let small = compare(class(6), Vec::new(), &Base::default(), settings());
        assert_eq!(small.common, 0);
        assert_eq!(small.pairs.len(), 15);
    }

    #[test]
    fn a_partial_copy_scores_by_the_smaller_side_and_a_few_shared_lines_do_not_make_a_copy() {
        let part = program(&["a"]);
        let rest = "class Pool:\n    def __init__(self, size):\n        self.jobs = [None] * size\n        \
                    self.lock = {}\n        while size > 0:\n            size -= 2\n\n    \
                    def take(self):\n        with self.lock:\n            \
                    return self.jobs.pop() if self.jobs else None\n\n    def give(self, job):\n        \
                    try:\n            self.jobs.append(job)\n        except ValueError as error:\n            \
                    raise RuntimeError(error) from None\n";
        let original = format!("{part}{rest}{rest}");
        let class = vec![
            submission("ann", Origin::Class, &original),
            submission("bob", Origin::Class, &part),
        ];
        let whole = Settings {
            least: 0,
            ..settings()
        };
        let compared = compare(class.clone(), Vec::new(), &Base::default(), whole);
        assert!(compared.pairs[0].score > 0.9, "{:?}", compared.pairs[0]);
        assert!(compared.pairs[0].fingerprints_shared < 0.5);
        let at_least = Settings {
            least: 1000,
            ..settings()
        };
        let compared = compare(class, Vec::new(), &Base::default(), at_least);
        assert!(compared.pairs[0].score < 0.1, "{:?}", compared.pairs[0]);
    }

    /// Given tokens found the slow way: each token, every stretch of `length` over it tried.
    fn simple_given(kinds: &[u64], base: &[u64], length: usize) -> Vec<bool> {
        let in_base = |stretch: &[u64]| base.windows(length).any(|b| b == stretch);
        (0..kinds.len())
            .map(|i| {
                (i.saturating_sub(length - 1)..=i)
                    .filter(|&start| start + length <= kinds.len())
                    .any(|start| in_base(&kinds[start..start + length]))
            })
            .collect()
    }

    proptest! {
        #[test]
        fn given_tokens_and_the_kgrams_touching_them_are_what_the_definition_finds(
            kinds in proptest::collection::vec(0u64..4, 0..40),
            base in proptest::collection::vec(0u64..4, 0..20),
            length in 1usize..5,
            k in 1usize..6,
        ) {
            let hashes: HashSet<u64> = kgrams(&base, length).into_iter().collect();
            let found = given(&kinds, &hashes, length);
            prop_assert_eq!(&found, &simple_given(&kinds, &base, length));
            let expected: Vec<bool> = found.windows(k).map(|w| w.contains(&true)).collect();
            prop_assert_eq!(touching(&found, k), expected);
        }
    }
}
