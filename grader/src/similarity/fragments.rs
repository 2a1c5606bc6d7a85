//! The fragments two submissions share: runs of fingerprints matched in both, consecutive in
//! one file of each (as Dolos joins its matches), each a stretch of tokens on either side. The
//! longest says more than the similarity alone: one long run is a copied function, many short
//! ones are often the idioms everyone writes.

use std::collections::HashSet;

/// A fingerprint where it is in its submission: the file (its index) and its place among that
/// file's fingerprints, as winnowing kept them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    /// The file's index in its submission.
    pub file: u32,
    /// The fingerprint's index among the file's.
    pub ordinal: u32,
}

/// A streak of matches: the first match's places on the left and on the right, and how many
/// consecutive fingerprints it spans on both.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Streak {
    /// Where it starts on the left.
    pub left: Position,
    /// Where it starts on the right.
    pub right: Position,
    /// Fingerprints in it, at least one.
    pub length: u32,
}

/// The maximal runs of `matches` (pairs of places holding the same fingerprint): a match
/// extends a run when the match before it, one fingerprint back on both sides in the same
/// files, is also a match. Sorted by where they start on the left.
pub fn streaks(matches: &[(Position, Position)]) -> Vec<Streak> {
    let set: HashSet<(Position, Position)> = matches.iter().copied().collect();
    let next = |place: Position, by: u32| Position {
        ordinal: place.ordinal + by,
        ..place
    };
    let mut found: Vec<Streak> = set
        .iter()
        .filter(|(left, right)| {
            left.ordinal == 0
                || right.ordinal == 0
                || !set.contains(&(
                    Position {
                        ordinal: left.ordinal - 1,
                        ..*left
                    },
                    Position {
                        ordinal: right.ordinal - 1,
                        ..*right
                    },
                ))
        })
        .map(|&(left, right)| {
            let mut length = 1;
            while set.contains(&(next(left, length), next(right, length))) {
                length += 1;
            }
            Streak {
                left,
                right,
                length,
            }
        })
        .collect();
    found.sort();
    found
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn place(file: u32, ordinal: u32) -> Position {
        Position { file, ordinal }
    }

    /// Runs found the slow way: every match, followed as far as it goes, kept when no match
    /// before it on both sides would have started it.
    fn simple_streaks(matches: &[(Position, Position)]) -> Vec<Streak> {
        let mut found = Vec::new();
        for &(left, right) in matches {
            let before = matches.iter().any(|&(l, r)| {
                l.file == left.file
                    && r.file == right.file
                    && l.ordinal + 1 == left.ordinal
                    && r.ordinal + 1 == right.ordinal
            });
            if before {
                continue;
            }
            let mut length = 1;
            while matches.iter().any(|&(l, r)| {
                l == place(left.file, left.ordinal + length)
                    && r == place(right.file, right.ordinal + length)
            }) {
                length += 1;
            }
            found.push(Streak {
                left,
                right,
                length,
            });
        }
        found.sort();
        found.dedup();
        found
    }

    #[test]
    fn consecutive_matches_in_the_same_files_make_one_run() {
        let matches = [
            (place(0, 3), place(1, 7)),
            (place(0, 4), place(1, 8)),
            (place(0, 5), place(1, 9)),
            (place(0, 6), place(2, 10)),
        ];
        assert_eq!(
            streaks(&matches),
            vec![
                Streak {
                    left: place(0, 3),
                    right: place(1, 7),
                    length: 3
                },
                Streak {
                    left: place(0, 6),
                    right: place(2, 10),
                    length: 1
                },
            ]
        );
    }

    proptest! {
        #[test]
        fn runs_are_what_following_each_match_finds(
            matches in proptest::collection::vec(
                ((0u32..2, 0u32..12), (0u32..2, 0u32..12)), 0..40),
        ) {
            let matches: Vec<(Position, Position)> = matches
                .into_iter()
                .map(|((lf, lo), (rf, ro))| (place(lf, lo), place(rf, ro)))
                .collect();
            prop_assert_eq!(streaks(&matches), simple_streaks(&matches));
        }
    }
}
