//! The board: checkers under gravity, kept as line words, with make/unmake for the search.
//!
//! [`Board`] is the public, checked face: any size from 1 x 1 to 32 x 32, rows counted from the
//! top, refusals as typed errors. Inside, [`Position`] is the bare state the search copies to
//! each worker and changes in place: for each side one word per row, diagonal and column (see
//! `geometry`), which is what the heuristic reads.

use std::fmt;
use std::sync::Arc;

use connect_four_supplied::limits::{max_connect, MAX_SIZE, MIN_CONNECT, MIN_SIZE};
use connect_four_supplied::{Checker, MoveError, Player, Score};

use crate::geometry::{Geometry, Lines};

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

/// An M for Connect M that no line of the board can hold (or below 2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConnectError {
    /// The M asked for.
    pub connect: usize,
    /// The board's rows.
    pub rows: usize,
    /// The board's columns.
    pub cols: usize,
}

impl fmt::Display for ConnectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} in a row is not allowed on a {} x {} board: M must be {MIN_CONNECT} to {}",
            self.connect,
            self.rows,
            self.cols,
            max_connect(self.rows, self.cols)
        )
    }
}

impl std::error::Error for ConnectError {}

/// The bare state of a game in progress: each side's line words, each column's height, and the
/// position's hash.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Position {
    /// The line words of black (index 0) and red (index 1); see `geometry`.
    pub lines: [Lines; 2],
    pub heights: [u8; MAX_SIZE],
    pub filled: usize,
    /// The exclusive or of the keys of every checker on the board, and of nothing else: equal
    /// positions have equal hashes whatever the order their moves were played in.
    pub hash: u64,
}

impl Position {
    /// The empty board of `g`'s size.
    pub fn new(g: &Geometry) -> Self {
        Position {
            lines: [g.empty; 2],
            heights: [0; MAX_SIZE],
            filled: 0,
            hash: 0,
        }
    }

    /// The cell a checker dropped in `col` lands in, or `None` if the column is full.
    #[inline(always)]
    pub fn landing(&self, g: &Geometry, col: usize) -> Option<usize> {
        let height = self.heights[col] as usize;
        (height < g.rows).then(|| g.landing(col, height))
    }

    /// Puts `side`'s checker in `cell`, the landing cell of its column.
    #[inline(always)]
    pub fn place(&mut self, g: &Geometry, cell: usize, side: usize) {
        self.toggle(g, cell, side);
        self.heights[usize::from(g.cells[cell].col)] += 1;
        self.filled += 1;
    }

    /// Takes back [`place`](Self::place) of the same arguments.
    #[inline(always)]
    pub fn lift(&mut self, g: &Geometry, cell: usize, side: usize) {
        self.toggle(g, cell, side);
        self.heights[usize::from(g.cells[cell].col)] -= 1;
        self.filled -= 1;
    }

    /// Flips `side`'s checker in `cell` in every line word and in the hash.
    #[inline(always)]
    fn toggle(&mut self, g: &Geometry, cell: usize, side: usize) {
        let c = &g.cells[cell];
        let lines = &mut self.lines[side];
        for line in c.lines {
            lines[usize::from(line)] ^= c.line_bit();
        }
        lines[usize::from(c.column_line)] ^= c.column_bit();
        self.hash ^= g.keys[cell][side];
    }

    /// Whether every cell holds a checker.
    #[inline(always)]
    pub fn is_full(&self, g: &Geometry) -> bool {
        self.filled == g.cells.len()
    }

    /// The heuristic value of `side` dropping in the landing `cell`, without playing it.
    #[inline(always)]
    pub fn value_of_drop(&self, g: &Geometry, cell: usize, side: usize) -> i32 {
        g.move_value(&self.lines[side], &self.lines[1 - side], cell)
    }

    /// Whether `side` has made four in a row through `cell`, which it holds.
    #[inline(always)]
    pub fn wins(&self, g: &Geometry, cell: usize, side: usize) -> bool {
        g.wins(&self.lines[side], &self.lines[1 - side], cell)
    }

    /// Whose checker is in `cell`, if anyone's (its bit is on the board: never set in both).
    fn owner(&self, g: &Geometry, cell: usize) -> Option<Player> {
        let c = &g.cells[cell];
        let row_word = usize::from(c.lines[0]);
        Player::BOTH
            .into_iter()
            .find(|player| self.lines[player.index()][row_word] & c.line_bit() != 0)
    }
}

/// A position together with the tables of its size: what one search works on.
#[derive(Clone, Debug)]
pub(crate) struct Grid {
    pub geometry: Arc<Geometry>,
    pub position: Position,
}

/// A Connect Four board of any size from 1 x 1 to 32 x 32, where four in a row win (or M, see
/// [`Board::with_connect`]). Row 0 is the top, column 0 the left.
#[derive(Clone, Debug)]
pub struct Board {
    grid: Grid,
}

impl Board {
    /// An empty `rows` x `cols` board where four in a row win, or an error if either is outside
    /// 1 to 32.
    pub fn new(rows: usize, cols: usize) -> Result<Board, SizeError> {
        let range = MIN_SIZE..=MAX_SIZE;
        if !range.contains(&rows) || !range.contains(&cols) {
            return Err(SizeError { rows, cols });
        }
        let geometry = Arc::new(Geometry::new(rows, cols));
        let position = Position::new(&geometry);
        Ok(Board {
            grid: Grid { geometry, position },
        })
    }

    /// This board emptied, for Connect M: `connect` in a row win, and the heuristic weighs
    /// windows of `connect` cells. An error if `connect` is below 2 or longer than any line of
    /// the board (four is always allowed, as in the assignment).
    ///
    /// ```
    /// use connect_four::Board;
    /// let board = Board::new(9, 9).unwrap().with_connect(5).unwrap();
    /// assert_eq!(board.connect(), 5);
    /// assert!(Board::new(6, 7).unwrap().with_connect(8).is_err());
    /// ```
    pub fn with_connect(self, connect: usize) -> Result<Board, ConnectError> {
        let (rows, cols) = (self.rows(), self.cols());
        if !(MIN_CONNECT..=max_connect(rows, cols)).contains(&connect) {
            return Err(ConnectError {
                connect,
                rows,
                cols,
            });
        }
        let geometry = Arc::new(Geometry::with_connect(rows, cols, connect));
        let position = Position::new(&geometry);
        Ok(Board {
            grid: Grid { geometry, position },
        })
    }

    /// This board's size and M, emptied.
    pub fn emptied(&self) -> Board {
        let geometry = Arc::clone(&self.grid.geometry);
        let position = Position::new(&geometry);
        Board {
            grid: Grid { geometry, position },
        }
    }

    /// How many in a row win: 4, or the M of [`Board::with_connect`].
    pub fn connect(&self) -> usize {
        self.grid.geometry.connect
    }

    /// The number of rows.
    pub fn rows(&self) -> usize {
        self.grid.geometry.rows
    }

    /// The number of columns.
    pub fn cols(&self) -> usize {
        self.grid.geometry.cols
    }

    /// The checker at (`row`, `col`), row 0 at the top. Panics if the cell is off the board.
    pub fn get(&self, row: usize, col: usize) -> Checker {
        assert!(
            row < self.rows() && col < self.cols(),
            "({row}, {col}) is off the {} x {} board",
            self.rows(),
            self.cols()
        );
        let g = &self.grid.geometry;
        self.grid
            .position
            .owner(g, g.cell(row, col))
            .map_or(Checker::Empty, Player::checker)
    }

    /// How many checkers column `col` holds. Panics if the column is off the board.
    pub fn height(&self, col: usize) -> usize {
        assert!(col < self.cols(), "there is no column {col}");
        usize::from(self.grid.position.heights[col])
    }

    /// How many checkers the board holds.
    pub fn filled(&self) -> usize {
        self.grid.position.filled
    }

    /// Whether every cell holds a checker.
    pub fn is_full(&self) -> bool {
        self.filled() == self.rows() * self.cols()
    }

    /// Whether a checker can be dropped in `col`.
    pub fn can_drop(&self, col: usize) -> bool {
        col < self.cols() && self.height(col) < self.rows()
    }

    /// The row a checker dropped in `col` would land in, or why it cannot be dropped.
    pub fn landing_row(&self, col: usize) -> Result<usize, MoveError> {
        let cols = self.cols();
        if col >= cols {
            return Err(MoveError::NoSuchColumn { col, cols });
        }
        let height = self.height(col);
        if height == self.rows() {
            return Err(MoveError::ColumnFull { col });
        }
        Ok(self.rows() - 1 - height)
    }

    /// The heuristic value, for `player`, of dropping a checker in `col` (the board is unchanged):
    /// [`Score::WIN`] if it makes four (or M) in a row.
    pub fn move_value(&self, col: usize, player: Player) -> Result<Score, MoveError> {
        let row = self.landing_row(col)?;
        let g = &self.grid.geometry;
        Ok(Score(self.grid.position.value_of_drop(
            g,
            g.cell(row, col),
            player.index(),
        )))
    }

    /// Drops `player`'s checker in `col` and returns the row it landed in; a full or nonexistent
    /// column is refused and the board left unchanged.
    pub fn drop_checker(&mut self, col: usize, player: Player) -> Result<usize, MoveError> {
        let row = self.landing_row(col)?;
        let g = &self.grid.geometry;
        self.grid
            .position
            .place(g, g.cell(row, col), player.index());
        Ok(row)
    }

    /// Removes the top checker of `col`, if there is one, and returns it.
    pub fn undo(&mut self, col: usize) -> Option<Player> {
        let height = if col < self.cols() {
            self.height(col)
        } else {
            0
        };
        if height == 0 {
            return None;
        }
        let g = &self.grid.geometry;
        let cell = g.landing(col, height - 1);
        let owner = self.grid.position.owner(g, cell)?;
        self.grid.position.lift(g, cell, owner.index());
        Some(owner)
    }

    /// The position and tables the search works on.
    pub(crate) fn grid(&self) -> &Grid {
        &self.grid
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
    fn a_win_or_a_full_board_is_seen_by_move_value() {
        let mut board = Board::new(4, 4).unwrap();
        for col in 0..3 {
            board.drop_checker(col, Player::Black).unwrap();
        }
        assert_eq!(board.move_value(3, Player::Black), Ok(Score::WIN));
        assert_ne!(board.move_value(3, Player::Red), Ok(Score::WIN));
    }
}
