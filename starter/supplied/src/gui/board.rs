//! The board on the screen: a grid of 75 x 75 buttons, one per cell, in a scroll area when it
//! is larger than the screen. It draws what it is told (each cell's look, the column the
//! keyboard points at, the hint's values) and posts a [`Message::Drop`] for each click; it
//! knows nothing of the game.

use std::cell::Cell;
use std::rc::Rc;

use fltk::app::{self, Sender};
use fltk::button::Button;
use fltk::draw;
use fltk::enums::{Align, Color, Font, FrameType};
use fltk::group::Scroll;
use fltk::prelude::*;

use super::images::{Images, Look, CELL};
use super::message::Message;

/// The colour of the frame around the keyboard's column.
const MARK: Color = Color::from_rgb(255, 255, 255);
/// The width of that frame, inside the column's cells, clear of the checkers.
const MARK_WIDTH: i32 = 3;
/// The size of the hint's numbers.
const NOTE_SIZE: i32 = 15;

/// The grid of cells and what they show.
pub struct Board {
    rows: usize,
    cols: usize,
    cells: Vec<Button>,
    shown: Vec<Option<Look>>,
    images: Images,
    /// The column framed for the keyboard, shared with the cells' drawing.
    marked: Rc<Cell<Option<usize>>>,
    /// The cells with a hint's number written on them.
    noted: Vec<usize>,
}

impl Board {
    /// Builds the grid of `rows` x `cols` cells in a `width` x `height` view at (`left`, 0),
    /// scrolled to the bottom row, where the checkers land.
    pub fn new(
        (rows, cols): (usize, usize),
        (left, width, height): (i32, i32, i32),
        images: Images,
        sender: Sender<Message>,
    ) -> Board {
        let mut scroll = Scroll::new(left, 0, width, height, None);
        let marked = Rc::new(Cell::new(None));
        let mut cells = Vec::new();
        for row in 0..rows {
            for col in 0..cols {
                let (x, y) = (left + col as i32 * CELL, row as i32 * CELL);
                let mut cell = Button::new(x, y, CELL, CELL, None);
                cell.set_frame(FrameType::NoBox);
                cell.set_down_frame(FrameType::NoBox);
                cell.visible_focus(false);
                cell.set_align(Align::ImageBackdrop | Align::Center);
                cell.set_label_font(Font::HelveticaBold);
                cell.set_label_size(NOTE_SIZE);
                cell.emit(sender, Message::Drop(col));
                let marked = Rc::clone(&marked);
                let edges = (row == 0, row + 1 == rows);
                cell.draw(move |cell| {
                    if marked.get() == Some(col) {
                        frame(cell, edges);
                    }
                });
                cells.push(cell);
            }
        }
        scroll.end();
        let (board_w, board_h) = (cols as i32 * CELL, rows as i32 * CELL);
        let scrollbar = if board_w > width {
            app::scrollbar_size()
        } else {
            0
        };
        scroll.scroll_to(0, (board_h - (height - scrollbar)).max(0));
        Board {
            rows,
            cols,
            shown: vec![None; cells.len()],
            cells,
            images,
            marked,
            noted: Vec::new(),
        }
    }

    /// The board's size, rows by columns.
    pub fn size(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    /// Shows in each cell what `look` says it holds (`None`: as it is), redrawing only the
    /// cells that change.
    pub fn show(&mut self, look: impl Fn(usize, usize) -> Option<Look>) {
        for (index, cell) in self.cells.iter_mut().enumerate() {
            let Some(look) = look(index / self.cols, index % self.cols) else {
                continue;
            };
            if self.shown[index] != Some(look) {
                cell.set_image(Some(self.images.get(look)));
                cell.redraw();
                self.shown[index] = Some(look);
            }
        }
    }

    /// Frames column `col` for the keyboard, or no column.
    pub fn mark(&mut self, col: Option<usize>) {
        let old = self.marked.replace(col);
        if old != col {
            for col in [old, col].into_iter().flatten() {
                for index in self.column(col) {
                    self.cells[index].redraw();
                }
            }
        }
    }

    /// Writes each `(row, col, text)` on its cell, and clears what was written before.
    pub fn write(&mut self, notes: &[(usize, usize, String)]) {
        for index in self.noted.drain(..) {
            self.cells[index].set_label("");
            self.cells[index].redraw();
        }
        for (row, col, text) in notes {
            let index = row * self.cols + col;
            self.cells[index].set_label(text);
            self.cells[index].redraw();
            self.noted.push(index);
        }
    }

    /// What is written on each column's cells (at most one per column), left to right.
    pub fn notes(&self) -> Vec<String> {
        (0..self.cols)
            .map(|col| {
                self.column(col)
                    .map(|index| self.cells[index].label())
                    .collect()
            })
            .collect()
    }

    /// Clicks the cell at (`row`, `col`) as the mouse would.
    pub fn click(&mut self, row: usize, col: usize) {
        self.cells[row * self.cols + col].do_callback();
    }

    /// The centre of the cell at (`row`, `col`), in window coordinates as currently scrolled.
    pub fn cell_center(&self, row: usize, col: usize) -> (i32, i32) {
        let cell = &self.cells[row * self.cols + col];
        (cell.x() + CELL / 2, cell.y() + CELL / 2)
    }

    /// The indices of column `col`'s cells, top to bottom.
    fn column(&self, col: usize) -> impl Iterator<Item = usize> {
        (col..self.cells.len()).step_by(self.cols)
    }
}

/// Draws the keyboard's frame on `cell`: its sides, and its top or bottom edge if it is the
/// column's top or bottom cell.
fn frame(cell: &Button, (top, bottom): (bool, bool)) {
    let (x, y, w, h) = (cell.x(), cell.y(), cell.w(), cell.h());
    draw::set_draw_color(MARK);
    draw::draw_rectf(x, y, MARK_WIDTH, h);
    draw::draw_rectf(x + w - MARK_WIDTH, y, MARK_WIDTH, h);
    if top {
        draw::draw_rectf(x, y, w, MARK_WIDTH);
    }
    if bottom {
        draw::draw_rectf(x, y + h - MARK_WIDTH, w, MARK_WIDTH);
    }
}
