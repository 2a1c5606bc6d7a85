//! A deliberately simple Connect Four engine for the property tests: a 2-D array of checkers,
//! direct loops over every window, and a minimax that copies the grid at every node. It follows
//! the assignment's text line by line and is meant to be obviously right, not fast. It plays
//! Connect M too, as the handout's extension words it: M in a row wins, and a window or column
//! run is worth 32, 4 or 1 as it misses one, two, or three or more of M.

use connect_four_supplied::{Checker, Player, Score};

/// The value of a win, as the assignment writes it: +infinity.
pub const INF: i32 = i32::MAX;

/// A board as rows of cells, row 0 at the top.
#[derive(Clone, Debug)]
pub struct Grid {
    pub cells: Vec<Vec<Checker>>,
    /// How many in a row win: M.
    pub connect: usize,
}

impl Grid {
    pub fn with_connect(rows: usize, cols: usize, connect: usize) -> Grid {
        Grid {
            cells: vec![vec![Checker::Empty; cols]; rows],
            connect,
        }
    }

    pub fn rows(&self) -> usize {
        self.cells.len()
    }

    pub fn cols(&self) -> usize {
        self.cells[0].len()
    }

    /// The lowest empty row of `col`, if any.
    pub fn landing(&self, col: usize) -> Option<usize> {
        (0..self.rows())
            .rev()
            .find(|&r| self.cells[r][col] == Checker::Empty)
    }

    pub fn is_full(&self) -> bool {
        (0..self.cols()).all(|c| self.landing(c).is_none())
    }

    fn at(&self, r: isize, c: isize) -> Option<Checker> {
        if r < 0 || c < 0 || r >= self.rows() as isize || c >= self.cols() as isize {
            None
        } else {
            Some(self.cells[r as usize][c as usize])
        }
    }

    /// Whether the checker at (`row`, `col`) is part of M in a row of its colour.
    pub fn wins_at(&self, row: usize, col: usize) -> bool {
        let me = self.cells[row][col];
        let m = self.connect as isize;
        for (dr, dc) in [(0, 1), (1, 0), (1, 1), (-1, 1)] {
            for start in -(m - 1)..=0 {
                let all_mine = (0..m).all(|k| {
                    self.at(
                        row as isize + (start + k) * dr,
                        col as isize + (start + k) * dc,
                    ) == Some(me)
                });
                if all_mine {
                    return true;
                }
            }
        }
        false
    }

    /// The heuristic value of the checker just placed at (`row`, `col`) for its owner.
    pub fn heuristic(&self, row: usize, col: usize) -> i32 {
        if self.wins_at(row, col) {
            return INF;
        }
        let me = self.cells[row][col];
        let them = me.player().map(|p| p.opponent().checker());
        let m = self.connect;
        // By how many of M the window (or run) misses: 1, 4, 32 for 1, 2, 3 of four.
        let weight = |n: usize| match m - n {
            1 => 32,
            2 => 4,
            _ => 1,
        };
        let mut total = 0;
        for (dr, dc) in [(0, 1), (1, 1), (-1, 1)] {
            for start in -(m as isize - 1)..=0 {
                let window: Vec<Option<Checker>> = (0..m as isize)
                    .map(|k| {
                        self.at(
                            row as isize + (start + k) * dr,
                            col as isize + (start + k) * dc,
                        )
                    })
                    .collect();
                if window.iter().any(|cell| cell.is_none()) {
                    continue;
                }
                if window.contains(&them) {
                    continue;
                }
                total += weight(window.iter().filter(|cell| **cell == Some(me)).count());
            }
        }
        let mut run = 0;
        while row + run < self.rows() && self.cells[row + run][col] == me {
            run += 1;
        }
        if run + row >= m {
            total += weight(run);
        }
        total
    }

    /// The assignment's minimax value of `player` dropping in `col`, searched `depth` more plies.
    pub fn minimax(&self, col: usize, player: Player, depth: u32) -> i32 {
        let mut next = self.clone();
        let row = next.landing(col).expect("a legal move");
        next.cells[row][col] = player.checker();
        if next.wins_at(row, col) {
            return INF;
        }
        if depth == 0 {
            return next.heuristic(row, col);
        }
        if next.is_full() {
            return 0;
        }
        let mut lowest = INF;
        for reply in 0..next.cols() {
            if next.landing(reply).is_some() {
                lowest = lowest.min(-next.minimax(reply, player.opponent(), depth - 1));
            }
        }
        lowest
    }

    /// Every column's minimax value for `player`, `None` for a full column.
    pub fn scores(&self, player: Player, depth: u32) -> Vec<Option<Score>> {
        (0..self.cols())
            .map(|c| {
                self.landing(c)
                    .map(|_| Score(self.minimax(c, player, depth)))
            })
            .collect()
    }
}
