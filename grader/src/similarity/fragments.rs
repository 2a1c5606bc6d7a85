//! The fragments two submissions share: runs of fingerprints matched in both, consecutive in
//! one file of each (as Dolos joins its matches), each a stretch of tokens on either side,
//! then [`grown`] through every token the two sides hold alike on either end (as JPlag's
//! matches are maximal), so that a copy is one fragment across the given code and the gaps
//! winnowing leaves. The longest says more than the score alone: one long run is a copied
//! function, many short ones are often the idioms everyone writes.

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

/// A stretch of tokens matched in one file of each side: the files' indexes and the tokens'
/// indexes, first to last (inclusive), on each side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Run {
    /// The left file and its first and last token.
    pub left: (u32, usize, usize),
    /// The right file and its first and last token.
    pub right: (u32, usize, usize),
}

impl Run {
    /// Whether `other` lies within this run on both sides.
    fn holds(&self, other: &Run) -> bool {
        let within =
            |a: (u32, usize, usize), b: (u32, usize, usize)| a.0 == b.0 && a.1 <= b.1 && b.2 <= a.2;
        within(self.left, other.left) && within(self.right, other.right)
    }
}

/// `runs` grown on both ends while the tokens beyond them are of the same kinds on both sides
/// (`left[file]` and `right[file]` each file's token kinds), each kept once: a run that another
/// already holds is dropped. In the order of where they start on the left.
pub fn grown(mut runs: Vec<Run>, left: &[&[u64]], right: &[&[u64]]) -> Vec<Run> {
    runs.sort();
    let mut found: Vec<Run> = Vec::new();
    for run in runs {
        if found.iter().any(|done| done.holds(&run)) {
            continue;
        }
        let (l, r) = (&left[run.left.0 as usize], &right[run.right.0 as usize]);
        let (mut first, mut last) = (run.left, run.right);
        while first.1 > 0 && last.1 > 0 && l[first.1 - 1] == r[last.1 - 1] {
            first.1 -= 1;
            last.1 -= 1;
        }
        while first.2 + 1 < l.len() && last.2 + 1 < r.len() && l[first.2 + 1] == r[last.2 + 1] {
            first.2 += 1;
            last.2 += 1;
        }
        let grown = Run {
            left: first,
            right: last,
        };
        found.retain(|done| !grown.holds(done));
        found.push(grown);
    }
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

    #[test]
    fn runs_grow_through_what_both_sides_hold_alike_into_one() {
        // A copy: the same tokens on both sides, the right one after a line of its own.
        let left: [&[u64]; 1] = [&[1, 2, 3, 4, 5, 6, 7, 8, 9]];
        let right: [&[u64]; 1] = [&[0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0]];
        let run = |l: (usize, usize), r: (usize, usize)| Run {
            left: (0, l.0, l.1),
            right: (0, r.0, r.1),
        };
        // Two runs with an alike gap between them are one, grown to both ends.
        let found = grown(
            vec![run((5, 6), (7, 8)), run((1, 2), (3, 4))],
            &left,
            &right,
        );
        assert_eq!(found, vec![run((0, 8), (2, 10))]);
        // A token that differs stops the growth: two runs.
        let changed: [&[u64]; 1] = [&[0, 0, 1, 2, 3, 0, 5, 6, 7, 8, 9, 0]];
        let found = grown(
            vec![run((5, 6), (7, 8)), run((1, 2), (3, 4))],
            &left,
            &changed,
        );
        assert_eq!(found, vec![run((0, 2), (2, 4)), run((4, 8), (6, 10))]);
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
