//! Tables computed once per board size: where each cell's bit is and which four-cell windows
//! pass through it.
//!
//! Cells are numbered column by column from the bottom: cell `col * rows + height`, where height
//! 0 is the bottom row (the API's row `rows - 1`). A column's cells are then consecutive bits,
//! which makes gravity and the column rule cheap. Every front end still speaks of rows from the
//! top; the conversion lives here only.

use crate::bits::Bits;

/// The most windows in a row or on a diagonal that can pass through one cell: four in each of
/// the row and the two diagonals (columns are scored separately, see `heuristic`).
pub(crate) const LINE_WINDOWS: usize = 12;

/// What the engine knows of one cell.
#[derive(Clone, Debug)]
pub(crate) struct Cell<B> {
    /// The windows of four along the row and both diagonals that contain this cell and lie on the
    /// board, then empty sets up to the fixed length.
    pub lines: [B; LINE_WINDOWS],
    /// How many of `lines` are real windows.
    pub line_count: u32,
    /// The first bit of this cell's column.
    pub column_start: u32,
    /// Height above the bottom row: 0 for the bottom row.
    pub height: u32,
    /// Row counted from the top, as the API and the heuristic's room-for-four rule count it.
    pub row: u32,
}

impl<B: Bits> Cell<B> {
    /// The real windows through this cell, without the padding.
    #[inline(always)]
    pub fn windows(&self) -> &[B] {
        &self.lines[..self.line_count as usize]
    }

    /// The length of the run of `own`'s checkers from this cell downward, this cell included
    /// (0 if it is not `own`'s).
    #[inline(always)]
    pub fn run_down(&self, own: B) -> u32 {
        let column = own.slice(self.column_start as usize, self.height as usize + 1);
        (column << (31 - self.height)).leading_ones()
    }
}

/// The board's size and its per-cell tables.
#[derive(Clone, Debug)]
pub(crate) struct Geometry<B> {
    pub rows: usize,
    pub cols: usize,
    pub cells: Vec<Cell<B>>,
    /// Columns from the centre outwards: the order the pruned search tries moves in.
    pub centre_first: Vec<usize>,
}

impl<B: Bits> Geometry<B> {
    /// Builds the tables for a `rows` x `cols` board; the caller has checked that it fits in `B`.
    pub fn new(rows: usize, cols: usize) -> Self {
        debug_assert!(rows * cols <= B::CAPACITY);
        let mut cells = Vec::with_capacity(rows * cols);
        for col in 0..cols {
            for height in 0..rows {
                let row = rows - 1 - height;
                let (lines, line_count) = line_windows(rows, cols, row, col);
                cells.push(Cell {
                    lines,
                    line_count,
                    column_start: (col * rows) as u32,
                    height: height as u32,
                    row: row as u32,
                });
            }
        }
        let mut centre_first: Vec<usize> = (0..cols).collect();
        centre_first.sort_by_key(|&c| (2 * c).abs_diff(cols - 1));
        Geometry {
            rows,
            cols,
            cells,
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

/// The bit set of cells (`row`, `col`) + k * (`dr`, `dc`) for k in 0..4, if all lie on the board.
fn window<B: Bits>(
    rows: usize,
    cols: usize,
    row: isize,
    col: isize,
    dr: isize,
    dc: isize,
) -> Option<B> {
    let mut set = B::default();
    for k in 0..4 {
        let (r, c) = (row + k * dr, col + k * dc);
        if r < 0 || c < 0 || r >= rows as isize || c >= cols as isize {
            return None;
        }
        set = set | B::bit(c as usize * rows + (rows - 1 - r as usize));
    }
    Some(set)
}

/// Every window along the row and both diagonals through (`row`, `col`), padded with empty sets,
/// and how many there are.
fn line_windows<B: Bits>(
    rows: usize,
    cols: usize,
    row: usize,
    col: usize,
) -> ([B; LINE_WINDOWS], u32) {
    let mut lines = [B::default(); LINE_WINDOWS];
    let mut n = 0;
    // Along the row, down-right and up-right; each window starts `back` steps behind the cell.
    for (dr, dc) in [(0, 1), (1, 1), (-1, 1)] {
        for back in 0..4 {
            let (r, c) = (row as isize - back * dr, col as isize - back * dc);
            if let Some(w) = window::<B>(rows, cols, r, c, dr, dc) {
                lines[n] = w;
                n += 1;
            }
        }
    }
    (lines, n as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_numbered_up_each_column() {
        let g = Geometry::<u64>::new(6, 7);
        assert_eq!(g.cell(5, 0), 0);
        assert_eq!(g.cell(0, 0), 5);
        assert_eq!(g.cell(5, 1), 6);
        assert_eq!(g.landing(1, 0), g.cell(5, 1));
        let c = &g.cells[g.cell(4, 3)];
        assert_eq!((c.row, c.height, c.column_start), (4, 1, 18));
    }

    #[test]
    fn window_counts_match_the_board_shape() {
        let g = Geometry::<u64>::new(6, 7);
        let count = |r, c| {
            let cell = &g.cells[g.cell(r, c)];
            let real = cell.lines.iter().filter(|w| !w.is_empty()).count();
            assert_eq!(real, cell.line_count as usize, "real windows come first");
            real
        };
        // A corner meets one row window and one diagonal; the bottom row's centre four row
        // windows and one on each diagonal; a cell in the middle three on each diagonal.
        assert_eq!(count(5, 0), 2);
        assert_eq!(count(5, 3), 4 + 1 + 1);
        assert_eq!(count(2, 3), 4 + 3 + 3);
        let tiny = Geometry::<u64>::new(3, 3);
        assert!(tiny
            .cells
            .iter()
            .all(|c| c.lines.iter().all(|w| w.is_empty())));
    }

    #[test]
    fn centre_first_starts_in_the_middle() {
        assert_eq!(
            Geometry::<u64>::new(6, 7).centre_first,
            vec![3, 2, 4, 1, 5, 0, 6]
        );
        assert_eq!(Geometry::<u64>::new(6, 4).centre_first, vec![1, 2, 0, 3]);
    }
}
