//! A checker falling into place: which cell of its column it shows in at each picture, and
//! how long a picture lasts. It is only a way of drawing a move the game has already made, so
//! it can be cut short at any time without changing the game.

use std::time::Duration;

use fltk::app::Sender;

use super::message::{post_after, Message};
use crate::checker::Checker;

/// How long the falling checker stays in each cell it passes.
const PER_ROW: Duration = Duration::from_millis(30);
/// The longest a fall may take, however deep the column.
const LONGEST: Duration = Duration::from_millis(300);

/// A checker falling down column `col` to `row`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fall {
    checker: Checker,
    row: usize,
    col: usize,
    /// The row the checker is drawn in now.
    at: usize,
}

impl Fall {
    /// A fall of `checker` from the top of column `col` to `row`, drawn in the top cell first.
    pub fn new(checker: Checker, row: usize, col: usize) -> Fall {
        Fall {
            checker,
            row,
            col,
            at: 0,
        }
    }

    /// How long each picture lasts: [`PER_ROW`], shorter on deep columns so that the whole fall
    /// takes at most [`LONGEST`].
    pub fn step(&self) -> Duration {
        PER_ROW.min(LONGEST / (self.row as u32 + 1))
    }

    /// Moves the checker one cell down; false once it had already landed.
    pub fn advance(&mut self) -> bool {
        if self.at < self.row {
            self.at += 1;
            true
        } else {
            false
        }
    }

    /// What the cell at (`row`, `col`) shows during the fall, if the fall decides it: the
    /// falling checker in its current cell, and holes over and under it down to where it lands.
    pub fn shows(&self, row: usize, col: usize) -> Option<Checker> {
        if col != self.col || row > self.row {
            None
        } else if row == self.at {
            Some(self.checker)
        } else {
            Some(Checker::Empty)
        }
    }
}

/// The checker falling now, if any, moved on by [`Message::Frame`]s that carry its number.
#[derive(Default)]
pub struct Animation {
    falls: u64,
    current: Option<Fall>,
}

impl Animation {
    /// Starts `fall` in place of any other, and times its next picture.
    pub fn start(&mut self, fall: Fall, sender: Sender<Message>) {
        self.falls += 1;
        self.current = Some(fall);
        post_after(fall.step(), sender, Message::Frame(self.falls));
    }

    /// Moves the falling checker one cell down on frame `number` of the current fall (an older
    /// fall's frame does nothing); true if what is drawn changes.
    pub fn frame(&mut self, number: u64, sender: Sender<Message>) -> bool {
        let Some(fall) = &mut self.current else {
            return false;
        };
        if number != self.falls {
            return false;
        }
        if fall.advance() {
            post_after(fall.step(), sender, Message::Frame(number));
        } else {
            self.current = None;
        }
        true
    }

    /// Lands the falling checker at once.
    pub fn stop(&mut self) {
        self.current = None;
    }

    /// The checker falling now.
    pub fn current(&self) -> Option<Fall> {
        self.current
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checker_passes_every_cell_down_to_its_row() {
        let mut fall = Fall::new(Checker::Red, 2, 4);
        let mut seen = vec![];
        loop {
            seen.push((0..4).map(|row| fall.shows(row, 4)).collect::<Vec<_>>());
            if !fall.advance() {
                break;
            }
        }
        let (red, hole) = (Some(Checker::Red), Some(Checker::Empty));
        assert_eq!(
            seen,
            [
                [red, hole, hole, None],
                [hole, red, hole, None],
                [hole, hole, red, None],
            ]
        );
        assert_eq!(fall.shows(0, 3), None);
    }

    #[test]
    fn deep_columns_fall_faster_so_no_fall_is_long() {
        assert_eq!(Fall::new(Checker::Black, 5, 0).step(), PER_ROW);
        let deep = Fall::new(Checker::Black, 31, 0);
        assert!(deep.step() * 32 <= LONGEST);
    }
}
