//! The assignment's heuristic: the value of one move, for the player who made it, from the 1/4/32
//! weights of the windows of four through the new checker.
//!
//! Rows and both diagonals: each window of four on the board that holds the new checker and no
//! opponent checker adds 1, 4 or 32 for 1, 2 or 3 of the mover's checkers. Column: the run of the
//! mover's checkers from the new one down, of length n, adds 1, 4 or 32 for n = 1, 2, 3 if four
//! can still fit (n + row >= 4, row counted from the top). Four in a row anywhere is a win,
//! +infinity.
//!
//! Connect M (`--connect M`, M other than 4) generalises both by how many checkers a window (or
//! run) still needs to make M: one missing is worth 32, two missing 4, three or more missing 1;
//! the column's run of n counts if M can still fit (n + row >= M); M in a row is a win. For
//! M = 4 that is exactly 1/4/32 and room for four. See the handout's Connect-M section.
//!
//! This runs on every leaf of the search, so it is four table lookups and no branches: along
//! each line, the cell's three neighbours on each side, the mover's and the opponent's (with
//! off-board cells set in both), index [`LINE_VALUES`], the sum of that line's
//! four windows through the cell; the three checkers under the cell and its row index
//! [`COLUMN_VALUES`]. A/B measured: the branch-free tables valued moves about 1.9 times as fast
//! as a loop over each cell's windows with a test per window (mispredicted about half the time).

use connect_four_supplied::limits::CONNECT;

use crate::geometry::{Geometry, Lines, LINE_PAD};

/// A winning move's value, +infinity.
pub(crate) const WIN: i32 = i32::MAX;

/// A marker added for a full window: larger than any sum of ordinary weights (3 lines of at most
/// 4 windows of 32, and a column's 32).
const FOUR: i32 = 1 << 10;

/// The weight of a window (or column run) by how many of the mover's checkers it holds.
const WEIGHTS: [i32; 5] = [0, 1, 4, 32, FOUR];

/// The value of one line through a cell, indexed by the cell's seven-cell neighbourhood along
/// it: the mover's checkers as the low seven bits (the middle one, the cell itself, always
/// clear), the opponent's as the next seven; off-board cells are set in both.
static LINE_VALUES: [u16; 1 << 14] = line_values();

/// The column's value, indexed by the row capped at 4 (times 8) and the three cells under the
/// new checker (bit 2 the one just below it), set where they are the mover's.
static COLUMN_VALUES: [i32; 64] = column_values();

const fn line_values() -> [u16; 1 << 14] {
    let mut table = [0; 1 << 14];
    let mut index = 0;
    while index < table.len() {
        // A bit set on both sides is off the board: it blocks windows like an opponent's.
        let opp = (index >> 7) as u32;
        let own = (index as u32 & 0x7F & !opp) | 1 << 3;
        let mut sum = 0;
        // The four windows of four among the seven cells that hold the middle one.
        let mut start = 0;
        while start < 4 {
            let window = 0b1111 << start;
            if opp & window == 0 {
                sum += WEIGHTS[(own & window).count_ones() as usize];
            }
            start += 1;
        }
        table[index] = sum as u16;
        index += 1;
    }
    table
}

/// Connect M's weight of a window (or column run) that holds some of the mover's checkers and
/// none of the opponent's, by how many more it needs to make M: the assignment's 32 and 4 for
/// one and two missing, and its 1 for any more (for M = 4 that is 1, 4, 32 for 1, 2, 3 held).
const fn weight_missing(missing: usize) -> i32 {
    match missing {
        1 => 32,
        2 => 4,
        _ => 1,
    }
}

const fn column_values() -> [i32; 64] {
    let mut table = [0; 64];
    let mut index = 0;
    while index < table.len() {
        let (room, below) = (index >> 3, index & 7);
        // The run from the new checker down: itself, then the mover's checkers just below it.
        let run = 1 + ((below as u32) << 29).leading_ones() as usize;
        if run + room >= 4 {
            table[index] = WEIGHTS[run];
        }
        index += 1;
    }
    table
}

impl Geometry {
    /// The heuristic value of the move into `cell`, for its owner: `own` holds the mover's line
    /// words (with or without the new checker: it is never read), `opp` the opponent's.
    /// [`WIN`] if it wins. The assignment's four takes the tables; Connect M counts its windows.
    #[inline(always)]
    pub(crate) fn move_value(&self, own: &Lines, opp: &Lines, cell: usize) -> i32 {
        if self.connect == CONNECT {
            self.four_value(own, opp, cell)
        } else {
            self.windows_value(own, opp, cell, self.connect)
        }
    }

    /// [`move_value`](Self::move_value) for four in a row, by the tables.
    #[inline(always)]
    fn four_value(&self, own: &Lines, opp: &Lines, cell: usize) -> i32 {
        let c = &self.cells[cell];
        let shift = u32::from(c.col);
        let mut sum = 0;
        for d in 0..3 {
            let line = usize::from(c.lines[d]);
            let mine = own[line] >> shift & 0x77;
            let theirs = opp[line] >> shift & 0x7F;
            sum += i32::from(LINE_VALUES[(mine | theirs << 7) as usize]);
        }
        let below = own[usize::from(c.column_line)] >> c.height & 7;
        sum += COLUMN_VALUES[(usize::from(c.room) << 3 | below as usize) & 63];
        if sum >= FOUR {
            WIN
        } else {
            sum
        }
    }

    /// [`move_value`](Self::move_value) for `m` in a row, window by window: along the row and
    /// both diagonals, each window of `m` cells through the cell with none of the opponent's
    /// (off-board cells are set in both words) is weighted by how many it still needs; the
    /// column by the run from the cell down, if `m` can still fit above it.
    fn windows_value(&self, own: &Lines, opp: &Lines, cell: usize, m: usize) -> i32 {
        let c = &self.cells[cell];
        let col = usize::from(c.col);
        let mut sum = 0;
        // Windows start at columns first..=last: on the board, and holding `col`.
        if m <= self.cols {
            let (first, last) = ((col + 1).saturating_sub(m), col.min(self.cols - m));
            let full = u64::MAX >> (64 - m);
            for &line in &c.lines {
                let theirs = opp[usize::from(line)];
                let mine = own[usize::from(line)] & !theirs | c.line_bit();
                for start in first..=last {
                    let window = full << (start as u32 + LINE_PAD);
                    if theirs & window == 0 {
                        let held = (mine & window).count_ones() as usize;
                        if held == m {
                            return WIN;
                        }
                        sum += weight_missing(m - held);
                    }
                }
            }
        }
        let column = own[usize::from(c.column_line)];
        let height = usize::from(c.height);
        let bit = |h: usize| column >> (h as u32 + LINE_PAD) & 1 == 1;
        let run = 1
            + (1..m.min(height + 1))
                .take_while(|&below| bit(height - below))
                .count();
        if run == m {
            return WIN;
        }
        let row = self.rows - 1 - height;
        if run + row >= m {
            sum += weight_missing(m - run);
        }
        sum
    }

    /// Whether the checker in `cell` is (or would be) part of four in a row of `own`'s.
    #[inline(always)]
    pub(crate) fn wins(&self, own: &Lines, opp: &Lines, cell: usize) -> bool {
        self.move_value(own, opp, cell) == WIN
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use connect_four_supplied::Player;

    /// Builds a 6 x 7 position from (row, col) lists and scores red at `at`.
    fn value(red: &[(usize, usize)], black: &[(usize, usize)], at: (usize, usize)) -> i32 {
        value_on(&Geometry::new(6, 7), red, black, at)
    }

    /// [`value`] on the board and M of `g`.
    fn value_on(
        g: &Geometry,
        red: &[(usize, usize)],
        black: &[(usize, usize)],
        at: (usize, usize),
    ) -> i32 {
        let mut p = Position::new(g);
        for (cells, player) in [(red, Player::Red), (black, Player::Black)] {
            for &(r, c) in cells {
                p.place(g, g.cell(r, c), player.index());
            }
        }
        let red = Player::Red.index();
        g.move_value(&p.lines[red], &p.lines[1 - red], g.cell(at.0, at.1))
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

    #[test]
    fn counting_windows_of_four_gives_the_tables_values() {
        // Every position a fixed pseudo-random sequence of drops passes through, on boards
        // from 1 x 1 to 9 x 9, both players' drops into every open column.
        let mut state = 7u64;
        for (rows, cols) in (1..=9).flat_map(|r| (1..=9).map(move |c| (r, c))) {
            let g = Geometry::new(rows, cols);
            let mut p = Position::new(&g);
            for turn in 0..rows * cols {
                for side in 0..2 {
                    for cell in (0..cols).filter_map(|col| p.landing(&g, col)) {
                        let (own, opp) = (&p.lines[side], &p.lines[1 - side]);
                        assert_eq!(
                            g.windows_value(own, opp, cell, 4),
                            g.four_value(own, opp, cell),
                            "{rows} x {cols}, cell {cell}"
                        );
                    }
                }
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1);
                let open: Vec<usize> = (0..cols).filter_map(|c| p.landing(&g, c)).collect();
                if open.is_empty() || p.wins(&g, open[0], turn % 2) {
                    break;
                }
                p.place(&g, open[(state >> 33) as usize % open.len()], turn % 2);
            }
        }
    }

    #[test]
    fn connect_five_weighs_windows_by_what_they_miss() {
        let g = Geometry::with_connect(6, 7, 5);
        // Alone in the bottom-left corner: one row window of five and one up-right diagonal
        // (1 each: four missing); the column's run of one has room for five (1 + 5 >= 5).
        assert_eq!(value_on(&g, &[], &[], (5, 0)), 1 + 1 + 1);
        // Beside three of its own on the bottom row: the row windows from columns 0 and 1 hold
        // four (32 each: one missing), the one from column 2 three (4); the down-right diagonal
        // one (1), and the column's run of one (1). A black checker on that diagonal spoils it.
        let three = [(5, 1), (5, 2), (5, 3)];
        assert_eq!(value_on(&g, &three, &[], (5, 4)), 32 + 32 + 4 + 1 + 1);
        assert_eq!(value_on(&g, &three, &[(4, 3)], (5, 4)), 32 + 32 + 4 + 1);
        // Five in a row wins, in a row, a diagonal or a column.
        assert_eq!(
            value_on(&g, &[(5, 0), (5, 1), (5, 2), (5, 3)], &[], (5, 4)),
            WIN
        );
        assert_eq!(
            value_on(&g, &[(5, 0), (4, 1), (3, 2), (2, 3)], &[], (1, 4)),
            WIN
        );
        assert_eq!(
            value_on(&g, &[(5, 0), (4, 0), (3, 0), (2, 0)], &[], (1, 0)),
            WIN
        );
        // A run of three counts only with room for five: 3 + row 2 >= 5, but not 3 + row 1.
        assert_eq!(value_on(&g, &[(4, 0), (3, 0)], &[(5, 0)], (2, 0)), 1 + 4);
        assert_eq!(
            value_on(&g, &[(3, 0), (2, 0)], &[(5, 0), (4, 0)], (1, 0)),
            1 + 1
        );
    }

    #[test]
    fn connect_two_and_three_on_small_boards() {
        let g = Geometry::with_connect(2, 2, 2);
        // Any two in a line win; one alone misses one of every window: 32 each.
        assert_eq!(value_on(&g, &[(1, 0)], &[], (1, 1)), WIN);
        assert_eq!(value_on(&g, &[(1, 0)], &[], (0, 0)), WIN);
        assert_eq!(value_on(&g, &[], &[(1, 1)], (1, 0)), 32 + 32);
        let g = Geometry::with_connect(3, 3, 3);
        assert_eq!(value_on(&g, &[(2, 0), (1, 1)], &[], (0, 2)), WIN);
        // The middle of the bottom row: one row window and the column (4 each: two missing).
        assert_eq!(value_on(&g, &[], &[], (2, 1)), 4 + 4);
    }

    #[test]
    fn the_tables_hold_the_weights() {
        // Alone in the middle of an open line: four windows of one checker.
        assert_eq!(LINE_VALUES[0], 4);
        // Every neighbour the opponent's: nothing.
        assert_eq!(LINE_VALUES[0x77 << 7], 0);
        // Three of the mover's to the left: a four.
        assert!(i32::from(LINE_VALUES[0b111]) >= FOUR);
        // A run of one with no room (row 0) is worth nothing; with room, 1.
        assert_eq!((COLUMN_VALUES[0], COLUMN_VALUES[4 << 3]), (0, 1));
        // Three under the new checker: four, whatever the room.
        assert_eq!(COLUMN_VALUES[0b111], FOUR);
    }
}
