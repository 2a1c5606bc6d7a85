//! The assignment's heuristic: the value of one move, for the player who made it, from the 1/4/32
//! weights of the windows of four through the new checker.
//!
//! Rows and both diagonals: each window of four on the board that holds the new checker and no
//! opponent checker adds 1, 4 or 32 for 1, 2 or 3 of the mover's checkers. Column: the run of the
//! mover's checkers from the new one down, of length n, adds 1, 4 or 32 for n = 1, 2, 3 if four
//! can still fit (n + row >= 4, row counted from the top). Four in a row anywhere is a win,
//! +infinity. This runs on every leaf of the search, so it is branch-light table work.

use crate::bits::Bits;
use crate::geometry::Geometry;

/// A winning move's value, +infinity.
pub(crate) const WIN: i32 = i32::MAX;

/// A marker added for a full window: larger than any sum of ordinary weights.
const FOUR: i32 = 1 << 20;

/// The weight of a window (or column run) by how many of the mover's checkers it holds. Eight
/// entries so that indexing with a count masked to three bits needs no bounds check.
const WEIGHTS: [i32; 8] = [0, 1, 4, 32, FOUR, 0, 0, 0];

impl<B: Bits> Geometry<B> {
    /// The heuristic value of the move that put a checker in `cell`, for its owner: `own` holds
    /// the mover's checkers (the new one included), `opp` the opponent's. [`WIN`] if it wins.
    #[inline(always)]
    pub(crate) fn move_value(&self, own: B, opp: B, cell: usize) -> i32 {
        let c = &self.cells[cell];
        let mut sum = 0;
        for &w in c.windows() {
            if (w & opp).is_empty() {
                sum += WEIGHTS[(w & own).count() as usize & 7];
            }
        }
        let run = c.run_down(own);
        if run + c.row >= 4 {
            sum += WEIGHTS[run.min(4) as usize];
        }
        if sum >= FOUR {
            WIN
        } else {
            sum
        }
    }

    /// Whether the checker in `cell` (the top of its column) is part of four in a row of `own`:
    /// the part of [`move_value`](Self::move_value) that inner nodes of the search need.
    #[inline(always)]
    pub(crate) fn wins(&self, own: B, cell: usize) -> bool {
        let c = &self.cells[cell];
        c.windows().iter().any(|&w| (w & own) == w) || c.run_down(own) >= 4
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Builds a 6 x 7 position from (row, col) lists and scores `mover` at (row, col).
    fn value(own: &[(usize, usize)], opp: &[(usize, usize)], at: (usize, usize)) -> i32 {
        let g = Geometry::<u64>::new(6, 7);
        let set =
            |cells: &[(usize, usize)]| cells.iter().fold(0u64, |s, &(r, c)| s | 1 << g.cell(r, c));
        let cell = g.cell(at.0, at.1);
        g.move_value(set(own) | 1 << cell, set(opp), cell)
    }

    #[test]
    fn the_handouts_worked_example_is_nineteen() {
        // Black at (5,2) and (5,4); Red at (5,3) and (4,4); Red drops in column 3, lands at (4,3).
        let red = [(5, 3), (4, 4)];
        let black = [(5, 2), (5, 4)];
        assert_eq!(value(&red, &black, (4, 3)), 13 + 4 + 1 + 1);
    }

    #[test]
    fn a_lone_checker_in_the_bottom_corner() {
        // One row window (1) and one up-right diagonal (1); the column run of 1 has room (1 + 5).
        assert_eq!(value(&[], &[], (5, 0)), 1 + 1 + 1);
    }

    #[test]
    fn the_column_needs_room_for_four() {
        // Both positions: one open row window (1) and one open down-right diagonal (1).
        // Red's run of three ends at row 1: 3 + 1 >= 4, room enough, so the column adds 32.
        assert_eq!(
            value(&[(2, 0), (3, 0)], &[(4, 0), (5, 0)], (1, 0)),
            1 + 1 + 32
        );
        // The same run one row higher ends at row 0: 3 + 0 < 4, so the column adds nothing.
        assert_eq!(
            value(&[(1, 0), (2, 0)], &[(3, 0), (4, 0), (5, 0)], (0, 0)),
            1 + 1
        );
    }

    #[test]
    fn four_in_any_direction_is_a_win() {
        assert_eq!(value(&[(5, 0), (5, 1), (5, 2)], &[], (5, 3)), WIN);
        assert_eq!(value(&[(5, 0), (4, 0), (3, 0)], &[], (2, 0)), WIN);
        assert_eq!(value(&[(5, 0), (4, 1), (3, 2)], &[], (2, 3)), WIN);
        assert_eq!(value(&[(5, 6), (4, 5), (3, 4)], &[], (2, 3)), WIN);
        // Five in a row (the new checker joins two runs) is a win too.
        assert_eq!(value(&[(5, 0), (5, 1), (5, 3), (5, 4)], &[], (5, 2)), WIN);
    }

    #[test]
    fn an_opponent_checker_spoils_a_window() {
        let open = value(&[(5, 1)], &[], (5, 0));
        let blocked = value(&[(5, 1)], &[(5, 3)], (5, 0));
        assert_eq!(open - blocked, 4);
    }
}
