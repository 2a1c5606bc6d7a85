//! A tiny game for testing the supplied front ends without any real engine: the rules done the
//! plain way (a grid of cells, every line of four checked after each move), a "computer" that
//! takes the leftmost open column, and made-up numbers for the AI questions. It is not the
//! reference, and not an answer to the assignment: it only lets the window, the terminal and
//! the protocol be driven by a `Playable` of somebody else's. `hooked.rs` wraps it for the tests
//! of long and stopped searches.

use connect_four_supplied::{Analyze, Checker, MoveError, Outcome, Playable, Player, Score};

/// A game on a grid of cells, row 0 at the top.
#[derive(Clone, Debug)]
pub struct TinyGame {
    rows: usize,
    cols: usize,
    cells: Vec<Checker>,
    turn: Player,
    outcome: Option<Outcome>,
    /// Who starts the next game when no first player is named: alternates, so tests are
    /// repeatable.
    next_first: Player,
    depth: u32,
}

impl TinyGame {
    /// An empty `rows` x `cols` board with `first` to move.
    pub fn new(rows: usize, cols: usize, first: Player) -> TinyGame {
        TinyGame {
            rows,
            cols,
            cells: vec![Checker::Empty; rows * cols],
            turn: first,
            outcome: None,
            next_first: first.opponent(),
            depth: 1,
        }
    }

    /// Whether `player` has four in a row anywhere.
    fn has_four(&self, player: Player) -> bool {
        let (rows, cols) = (self.rows as isize, self.cols as isize);
        let mine = |r: isize, c: isize| {
            r >= 0
                && r < rows
                && c >= 0
                && c < cols
                && self.checker(r as usize, c as usize) == player.checker()
        };
        (0..rows).any(|r| {
            (0..cols).any(|c| {
                [(0, 1), (1, 0), (1, 1), (-1, 1)]
                    .iter()
                    .any(|&(dr, dc)| (0..4).all(|k| mine(r + k * dr, c + k * dc)))
            })
        })
    }

    /// The row a checker dropped in `col` lands in, or why it cannot be dropped.
    fn landing_row(&self, col: usize) -> Result<usize, MoveError> {
        if self.outcome.is_some() {
            return Err(MoveError::GameOver);
        }
        if col >= self.cols {
            return Err(MoveError::NoSuchColumn {
                col,
                cols: self.cols,
            });
        }
        (0..self.rows)
            .rev()
            .find(|&row| self.checker(row, col) == Checker::Empty)
            .ok_or(MoveError::ColumnFull { col })
    }
}

impl Playable for TinyGame {
    fn rows(&self) -> usize {
        self.rows
    }

    fn cols(&self) -> usize {
        self.cols
    }

    fn checker(&self, row: usize, col: usize) -> Checker {
        self.cells[row * self.cols + col]
    }

    fn turn(&self) -> Checker {
        match self.outcome {
            Some(_) => Checker::Empty,
            None => self.turn.checker(),
        }
    }

    fn play(&mut self, col: usize) -> Result<usize, MoveError> {
        let row = self.landing_row(col)?;
        self.cells[row * self.cols + col] = self.turn.checker();
        if self.has_four(self.turn) {
            self.outcome = Some(Outcome::Win(self.turn));
        } else if self.cells.iter().all(|&cell| cell != Checker::Empty) {
            self.outcome = Some(Outcome::Tie);
        }
        self.turn = self.turn.opponent();
        Ok(row)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn computer_move(&mut self) -> Result<usize, MoveError> {
        if self.outcome.is_some() {
            return Err(MoveError::GameOver);
        }
        (0..self.cols)
            .find(|&col| self.landing_row(col).is_ok())
            .ok_or(MoveError::GameOver)
    }

    fn new_game(&mut self, first: Option<Player>) {
        let first = first.unwrap_or(self.next_first);
        *self = TinyGame {
            depth: self.depth,
            ..TinyGame::new(self.rows, self.cols, first)
        };
    }
}

impl Analyze for TinyGame {
    /// Made up: the column's number, so that answers can be told apart.
    fn heuristic(&self, col: usize) -> Result<Score, MoveError> {
        self.landing_row(col).map(|_| Score(col as i32))
    }

    /// Made up: the depth asked for, for every open column.
    fn scores(&mut self, depth: u32) -> Result<Vec<Option<Score>>, MoveError> {
        if self.outcome.is_some() {
            return Err(MoveError::GameOver);
        }
        Ok((0..self.cols)
            .map(|col| self.landing_row(col).ok().map(|_| Score(depth as i32)))
            .collect())
    }

    fn depth(&self) -> u32 {
        self.depth
    }

    fn set_depth(&mut self, depth: u32) -> bool {
        self.depth = depth;
        true
    }
}
