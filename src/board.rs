//! The board: checkers under gravity on bit sets, with make/unmake for the search.
//!
//! [`Board`] is the public, checked face: any size from 1 x 1 to 32 x 32, rows counted from the
//! top, refusals as typed errors. Inside, a board of up to 64 cells runs on `u64`, up to 128 on
//! `u128`, and larger ones on a 1024-bit set; [`Position`] is the bare state the search copies to
//! each worker and changes in place.

use std::fmt;
use std::sync::Arc;

use crate::bits::{Bits, Wide};
use connect_four_supplied::limits::{MAX_SIZE, MIN_SIZE};
use connect_four_supplied::{Checker, MoveError, Player, Score};

use crate::geometry::Geometry;

/// A board size outside 1 to 32 rows or columns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SizeError {
    /// The rows asked for.
    pub rows: usize,
    /// The columns asked for.
    pub cols: usize,
}

impl fmt::Display for SizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a {} x {} board is not allowed: rows and columns must each be {MIN_SIZE} to {MAX_SIZE}",
            self.rows, self.cols
        )
    }
}

impl std::error::Error for SizeError {}

/// The bare state of a game in progress: each side's checkers and each column's height.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Position<B> {
    /// Checkers of black (index 0) and red (index 1).
    pub stones: [B; 2],
    pub heights: [u8; MAX_SIZE],
    pub filled: usize,
}

impl<B: Bits> Position<B> {
    fn new() -> Self {
        Position {
            stones: [B::default(); 2],
            heights: [0; MAX_SIZE],
            filled: 0,
        }
    }

    /// The cell a checker dropped in `col` lands in, or `None` if the column is full.
    #[inline(always)]
    pub fn landing(&self, g: &Geometry<B>, col: usize) -> Option<usize> {
        let height = self.heights[col] as usize;
        (height < g.rows).then(|| g.landing(col, height))
    }

    /// Puts `side`'s checker in `cell`, the landing cell of `col`.
    #[inline(always)]
    pub fn place(&mut self, col: usize, cell: usize, side: usize) {
        self.stones[side] = self.stones[side] | B::bit(cell);
        self.heights[col] += 1;
        self.filled += 1;
    }

    /// Takes back [`place`](Self::place) of the same arguments.
    #[inline(always)]
    pub fn lift(&mut self, col: usize, cell: usize, side: usize) {
        self.stones[side] = self.stones[side] ^ B::bit(cell);
        self.heights[col] -= 1;
        self.filled -= 1;
    }

    /// Whether every cell holds a checker.
    #[inline(always)]
    pub fn is_full(&self, g: &Geometry<B>) -> bool {
        self.filled == g.cells.len()
    }

    /// The heuristic value of `side` dropping in the landing `cell`, without playing it.
    #[inline(always)]
    pub fn value_of_drop(&self, g: &Geometry<B>, cell: usize, side: usize) -> i32 {
        g.move_value(
            self.stones[side] | B::bit(cell),
            self.stones[1 - side],
            cell,
        )
    }
}

/// A position together with the tables of its size: what one search works on.
#[derive(Clone, Debug)]
pub(crate) struct Grid<B> {
    pub geometry: Arc<Geometry<B>>,
    pub position: Position<B>,
}

impl<B: Bits> Grid<B> {
    /// The checker at (`row`, `col`), row 0 at the top.
    fn get(&self, row: usize, col: usize) -> Checker {
        let bit = B::bit(self.geometry.cell(row, col));
        match self
            .position
            .stones
            .iter()
            .position(|s| !(*s & bit).is_empty())
        {
            Some(side) => Player::BOTH[side].checker(),
            None => Checker::Empty,
        }
    }
}

/// A board on the bit-set width its size needs.
#[derive(Clone, Debug)]
#[allow(
    clippy::large_enum_variant,
    reason = "one board per game, built once and never moved in a loop: a box would buy nothing"
)]
pub(crate) enum Sized {
    Small(Grid<u64>),
    Medium(Grid<u128>),
    Large(Grid<Wide>),
}

/// Runs `$body` with `$grid` bound to the board's [`Grid`], whatever its width.
macro_rules! with_grid {
    ($sized:expr, $grid:ident => $body:expr) => {
        match $sized {
            $crate::board::Sized::Small($grid) => $body,
            $crate::board::Sized::Medium($grid) => $body,
            $crate::board::Sized::Large($grid) => $body,
        }
    };
}
pub(crate) use with_grid;

/// A Connect Four board of any size from 1 x 1 to 32 x 32. Row 0 is the top, column 0 the left.
#[derive(Clone, Debug)]
pub struct Board {
    rows: usize,
    cols: usize,
    sized: Sized,
}

impl Board {
    /// An empty `rows` x `cols` board, or an error if either is outside 1 to 32.
    pub fn new(rows: usize, cols: usize) -> Result<Board, SizeError> {
        let range = MIN_SIZE..=MAX_SIZE;
        if !range.contains(&rows) || !range.contains(&cols) {
            return Err(SizeError { rows, cols });
        }
        fn grid<B: Bits>(rows: usize, cols: usize) -> Grid<B> {
            Grid {
                geometry: Arc::new(Geometry::new(rows, cols)),
                position: Position::new(),
            }
        }
        let cells = rows * cols;
        let sized = if cells <= u64::CAPACITY {
            Sized::Small(grid(rows, cols))
        } else if cells <= u128::CAPACITY {
            Sized::Medium(grid(rows, cols))
        } else {
            Sized::Large(grid(rows, cols))
        };
        Ok(Board { rows, cols, sized })
    }

    /// The number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The checker at (`row`, `col`), row 0 at the top. Panics if the cell is off the board.
    pub fn get(&self, row: usize, col: usize) -> Checker {
        assert!(
            row < self.rows && col < self.cols,
            "({row}, {col}) is off the {} x {} board",
            self.rows,
            self.cols
        );
        with_grid!(&self.sized, g => g.get(row, col))
    }

    /// How many checkers column `col` holds. Panics if the column is off the board.
    pub fn height(&self, col: usize) -> usize {
        assert!(col < self.cols, "there is no column {col}");
        with_grid!(&self.sized, g => g.position.heights[col] as usize)
    }

    /// How many checkers the board holds.
    pub fn filled(&self) -> usize {
        with_grid!(&self.sized, g => g.position.filled)
    }

    /// Whether every cell holds a checker.
    pub fn is_full(&self) -> bool {
        self.filled() == self.rows * self.cols
    }

    /// Whether a checker can be dropped in `col`.
    pub fn can_drop(&self, col: usize) -> bool {
        col < self.cols && self.height(col) < self.rows
    }

    /// The row a checker dropped in `col` would land in, or why it cannot be dropped.
    pub fn landing_row(&self, col: usize) -> Result<usize, MoveError> {
        if col >= self.cols {
            return Err(MoveError::NoSuchColumn {
                col,
                cols: self.cols,
            });
        }
        let height = self.height(col);
        if height == self.rows {
            return Err(MoveError::ColumnFull { col });
        }
        Ok(self.rows - 1 - height)
    }

    /// The heuristic value, for `player`, of dropping a checker in `col` (the board is unchanged):
    /// [`Score::WIN`] if it makes four in a row.
    pub fn move_value(&self, col: usize, player: Player) -> Result<Score, MoveError> {
        self.landing_row(col)?;
        let side = player.index();
        Ok(Score(with_grid!(&self.sized, g => {
            let cell = g.position.landing(&g.geometry, col).expect("checked above");
            g.position.value_of_drop(&g.geometry, cell, side)
        })))
    }

    /// Drops `player`'s checker in `col` and returns the row it landed in; a full or nonexistent
    /// column is refused and the board left unchanged.
    pub fn drop_checker(&mut self, col: usize, player: Player) -> Result<usize, MoveError> {
        let row = self.landing_row(col)?;
        let side = player.index();
        with_grid!(&mut self.sized, g => {
            let cell = g.position.landing(&g.geometry, col).expect("checked above");
            g.position.place(col, cell, side);
        });
        Ok(row)
    }

    /// Removes the top checker of `col`, if there is one, and returns it.
    pub fn undo(&mut self, col: usize) -> Option<Player> {
        let height = if col < self.cols { self.height(col) } else { 0 };
        if height == 0 {
            return None;
        }
        let owner = self.get(self.rows - height, col).player()?;
        let side = owner.index();
        with_grid!(&mut self.sized, g => {
            let cell = g.geometry.landing(col, height - 1);
            g.position.lift(col, cell, side);
        });
        Some(owner)
    }

    /// The sized grid the search works on.
    pub(crate) fn sized(&self) -> &Sized {
        &self.sized
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every cell, row by row: to compare a board before and after.
    fn cells(board: &Board) -> Vec<Checker> {
        (0..board.rows())
            .flat_map(|row| (0..board.cols()).map(move |col| board.get(row, col)))
            .collect()
    }

    #[test]
    fn checkers_fall_to_the_lowest_empty_row() {
        let mut board = Board::new(3, 2).unwrap();
        assert_eq!(board.drop_checker(1, Player::Red), Ok(2));
        assert_eq!(board.drop_checker(1, Player::Black), Ok(1));
        assert_eq!(board.get(2, 1), Checker::Red);
        assert_eq!(board.get(1, 1), Checker::Black);
        assert_eq!(board.get(0, 1), Checker::Empty);
        assert_eq!((board.height(1), board.filled()), (2, 2));
    }

    #[test]
    fn full_and_missing_columns_are_refused_and_change_nothing() {
        let mut board = Board::new(1, 2).unwrap();
        board.drop_checker(0, Player::Red).unwrap();
        let before = cells(&board);
        assert_eq!(
            board.drop_checker(0, Player::Black),
            Err(MoveError::ColumnFull { col: 0 })
        );
        assert_eq!(
            board.drop_checker(2, Player::Black),
            Err(MoveError::NoSuchColumn { col: 2, cols: 2 })
        );
        assert_eq!(cells(&board), before);
        assert!(!board.can_drop(0) && board.can_drop(1) && !board.can_drop(2));
    }

    #[test]
    fn undo_takes_back_the_top_checker() {
        let mut board = Board::new(4, 4).unwrap();
        board.drop_checker(2, Player::Red).unwrap();
        board.drop_checker(2, Player::Black).unwrap();
        assert_eq!(board.undo(2), Some(Player::Black));
        assert_eq!(board.undo(2), Some(Player::Red));
        assert_eq!(board.undo(2), None);
        assert_eq!(board.undo(9), None);
        assert_eq!(board.filled(), 0);
    }

    #[test]
    fn sizes_outside_one_to_thirty_two_are_refused() {
        assert!(Board::new(1, 1).is_ok() && Board::new(32, 32).is_ok());
        for (rows, cols) in [(0, 7), (6, 0), (33, 7), (6, 33)] {
            let err = Board::new(rows, cols).unwrap_err();
            assert!(err.to_string().contains("must each be 1 to 32"), "{err}");
        }
    }

    #[test]
    fn each_size_gets_the_narrowest_bit_set() {
        let width = |rows, cols| match Board::new(rows, cols).unwrap().sized {
            Sized::Small(_) => 64,
            Sized::Medium(_) => 128,
            Sized::Large(_) => 1024,
        };
        assert_eq!(
            (width(8, 8), width(8, 9), width(8, 16), width(9, 15)),
            (64, 128, 128, 1024)
        );
    }

    #[test]
    fn a_win_or_a_full_board_is_seen_by_move_value() {
        let mut board = Board::new(4, 4).unwrap();
        for col in 0..3 {
            board.drop_checker(col, Player::Black).unwrap();
        }
        assert_eq!(board.move_value(3, Player::Black), Ok(Score::WIN));
        assert_ne!(board.move_value(3, Player::Red), Ok(Score::WIN));
    }
}
