//! Tables computed once per board size: for each cell, which line words hold it and which of its
//! neighbours lie off the board.
//!
//! A position keeps each side's checkers as *line words* (see `board`): one `u64` per row, per
//! diagonal, per anti-diagonal and per column, the checker at offset `k` along the line at bit
//! `k + LINE_PAD`. A cell's seven neighbours along a line (three each side, itself in the
//! middle) are then one shift and mask away, which is what the heuristic's table lookup needs.
//! Along rows and both diagonals the offset is the column; along a column it is the height.
//! Every bit of a row or diagonal word that is off the board is set in *both* sides' words,
//! which no cell on the board can be: the heuristic reads such a bit as a cell no window can
//! use, without a test.
//!
//! The tables also hold M, how many in a row win (the assignment's four unless `--connect M`
//! says otherwise): the heuristic reads it to choose its windows.
//!
//! Cells are numbered column by column from the bottom: cell `col * rows + height`, where height
//! 0 is the bottom row (the API's row `rows - 1`). Every front end still speaks of rows from the
//! top; the conversion lives here only.

use connect_four_supplied::limits::{CONNECT, MAX_SIZE};

/// Zero bits below offset 0 of every line word, so that a cell's three lower neighbours are
/// always at non-negative bit positions.
pub(crate) const LINE_PAD: u32 = 3;

/// The line words a position needs at most: rows, two kinds of diagonal, and columns.
pub(crate) const MAX_LINES: usize = MAX_SIZE + 2 * (2 * MAX_SIZE - 1) + MAX_SIZE;

/// One side's line words. 256 of them (more than [`MAX_LINES`]) so that indexing with a `u8`
/// needs no bounds check.
pub(crate) type Lines = [u64; 256];
const _: () = assert!(MAX_LINES <= 256, "a line index must fit in a u8");

/// What the engine knows of one cell.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Cell {
    /// The line words holding this cell: its row, its down-right diagonal, its up-right
    /// diagonal, all at offset `col`.
    pub lines: [u8; 3],
    /// The line word of this cell's column, at offset `height`.
    pub column_line: u8,
    /// The column.
    pub col: u8,
    /// Height above the bottom row: 0 for the bottom row.
    pub height: u8,
    /// Row counted from the top, capped at 4: the column's room-for-four rule needs no more
    /// (Connect M computes its room from `height`).
    pub room: u8,
}

impl Cell {
    /// The bit of this cell in its row and diagonal words.
    #[inline(always)]
    pub fn line_bit(&self) -> u64 {
        1 << (self.col as u32 + LINE_PAD)
    }

    /// The bit of this cell in its column word.
    #[inline(always)]
    pub fn column_bit(&self) -> u64 {
        1 << (self.height as u32 + LINE_PAD)
    }
}

/// The board's size and its per-cell tables.
#[derive(Clone, Debug)]
pub(crate) struct Geometry {
    pub rows: usize,
    pub cols: usize,
    /// How many in a row win: 4, or the M of the Connect-M extension (2 to 32).
    pub connect: usize,
    pub cells: Vec<Cell>,
    /// Each side's line words on the empty board: the off-board bits of rows and diagonals set.
    pub empty: Lines,
    /// Random keys per cell and side, whose exclusive or over a position's checkers is its hash
    /// (Zobrist hashing), for the pruned search's transposition table.
    pub keys: Vec<[u64; 2]>,
    /// Columns from the centre outwards: the order the pruned search tries moves in first.
    pub centre_first: Vec<usize>,
}

impl Geometry {
    /// Builds the tables for the assignment's game (four in a row) on a `rows` x `cols` board,
    /// each 1 to 32.
    pub fn new(rows: usize, cols: usize) -> Self {
        Geometry::with_connect(rows, cols, CONNECT)
    }

    /// Builds the tables for `connect` in a row (2 to 32) on a `rows` x `cols` board, each 1 to
    /// 32.
    pub fn with_connect(rows: usize, cols: usize, connect: usize) -> Self {
        debug_assert!((1..=MAX_SIZE).contains(&rows) && (1..=MAX_SIZE).contains(&cols));
        debug_assert!((2..=MAX_SIZE).contains(&connect));
        let diagonals = rows + cols - 1;
        // Where each family's words start: rows, down-right, up-right, columns.
        let bases = [0, rows, rows + diagonals, rows + 2 * diagonals];
        let mut cells = Vec::with_capacity(rows * cols);
        for col in 0..cols {
            for height in 0..rows {
                let row = rows - 1 - height;
                let ids = [row, col + rows - 1 - row, row + col];
                cells.push(Cell {
                    lines: std::array::from_fn(|d| (bases[d] + ids[d]) as u8),
                    column_line: (bases[3] + col) as u8,
                    col: col as u8,
                    height: height as u8,
                    room: row.min(4) as u8,
                });
            }
        }
        let mut empty = [0; 256];
        for (line, word) in empty.iter_mut().enumerate().take(bases[3]) {
            let on_board = cells
                .iter()
                .filter(|c| c.lines.contains(&(line as u8)))
                .fold(0u64, |set, c| set | c.line_bit());
            *word = !on_board;
        }
        let mut seed = 0x9E37_79B9_7F4A_7C15 ^ ((rows as u64) << 32 | cols as u64);
        let keys = (0..rows * cols)
            .map(|_| [split_mix(&mut seed), split_mix(&mut seed)])
            .collect();
        let mut centre_first: Vec<usize> = (0..cols).collect();
        centre_first.sort_by_key(|&c| (2 * c).abs_diff(cols - 1));
        Geometry {
            rows,
            cols,
            connect,
            cells,
            empty,
            keys,
            centre_first,
        }
    }

    /// The cell index of (`row`, `col`), row 0 being the top.
    #[inline(always)]
    pub fn cell(&self, row: usize, col: usize) -> usize {
        col * self.rows + (self.rows - 1 - row)
    }

    /// The cell a checker lands in when `col` holds `height` checkers.
    #[inline(always)]
    pub fn landing(&self, col: usize, height: usize) -> usize {
        col * self.rows + height
    }
}

/// The next number of the SplitMix64 sequence: well-mixed keys from a fixed seed, so that hashes
/// (and therefore the search's work, never its values) are the same on every run.
fn split_mix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_word_fits_and_no_two_lines_share_a_word() {
        let g = Geometry::new(MAX_SIZE, MAX_SIZE);
        let highest = g
            .cells
            .iter()
            .flat_map(|c| c.lines.iter().chain([&c.column_line]))
            .max()
            .copied();
        assert_eq!(highest.map(usize::from), Some(MAX_LINES - 1));
        // Two cells on one row word have different columns: distinct bits.
        let g = Geometry::new(6, 7);
        let (a, b) = (&g.cells[g.cell(2, 1)], &g.cells[g.cell(2, 5)]);
        assert_eq!(a.lines[0], b.lines[0]);
        assert_ne!(a.line_bit(), b.line_bit());
        assert_ne!(a.lines[1], b.lines[1]);
    }

    #[test]
    fn off_board_bits_are_set_in_empty_lines_only_off_the_board() {
        let g = Geometry::new(6, 7);
        let corner = &g.cells[g.cell(5, 0)];
        let around = |d: usize| g.empty[usize::from(corner.lines[d])] >> corner.col & 0x7F;
        // Along the row from the bottom-left corner: the three to the left are off the board.
        assert_eq!(around(0), 0b000_0111);
        // Down-right from the bottom row runs off below, and off to the left behind.
        assert_eq!(around(1), 0b111_0111);
        // Up-right from the corner: only the three behind are off.
        assert_eq!(around(2), 0b000_0111);
        // Columns are scored by their run: their words start empty.
        assert_eq!(g.empty[usize::from(corner.column_line)], 0);
        assert_eq!(corner.room, 4);
        assert_eq!(g.cells[g.cell(1, 3)].room, 1);
    }

    #[test]
    fn the_centre_comes_first() {
        assert_eq!(Geometry::new(6, 7).centre_first, [3, 2, 4, 1, 5, 0, 6]);
        assert_eq!(Geometry::new(6, 4).centre_first[..2], [1, 2]);
    }
}
