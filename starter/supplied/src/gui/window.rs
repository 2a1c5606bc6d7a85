//! The game window: a grid of 75 x 75 buttons (in a scroll area when the board is larger than
//! the screen), a status label and a New game button under it.
//!
//! Everything that happens is a [`Message`] posted on fltk's channel and handled in order on
//! the GUI thread by [`GameWindow::handle_pending`]. The computer's search runs on a worker
//! thread that owns the game meanwhile and posts [`Message::Searched`] when it is done, so the
//! window keeps redrawing and answering clicks during a long search.

use std::mem;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use fltk::app::{self, Receiver, Sender};
use fltk::button::Button;
use fltk::enums::{Align, FrameType};
use fltk::frame::Frame;
use fltk::group::Scroll;
use fltk::prelude::*;
use fltk::window::DoubleWindow;

use super::images::{Images, Look, CELL};
use super::status::{self, Phase, Refusal};
use crate::checker::Player;
use crate::error::MoveError;
use crate::opponent::Opponent;
use crate::playable::Playable;

/// Room kept free around the window on the screen, for the title bar and the desktop's panels.
const SCREEN_MARGIN: i32 = 120;
/// The narrowest window: wide enough for the status label and the New game button.
const MIN_WIDTH: i32 = 480;
/// The height of the strip under the board.
const BAR: i32 = 60;
/// How often the clock on a long search is updated.
const TICK: Duration = Duration::from_secs(1);

/// What happens in the window, in the order it happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Message {
    /// A click on a cell of this column.
    Drop(usize),
    /// A click on New game.
    NewGame,
    /// The search with this number has finished: its worker holds the answer.
    Searched(u64),
    /// A tick of the clock of the search with this number.
    Tick(u64),
}

/// The game, and the computer's answer, as a worker thread hands them back.
type Answer<G> = (G, Result<usize, MoveError>);

/// Where the game is.
enum Holder<G> {
    /// Here, waiting for a click.
    Ready(G),
    /// With a worker thread, which is searching.
    Thinking {
        worker: JoinHandle<Answer<G>>,
        search: u64,
        started: Instant,
    },
    /// Lost with a worker thread that died; only closing the window helps.
    Lost,
}

/// The window and the game it shows. Build it with [`new`](Self::new), [`show`](Self::show)
/// it, and call [`handle_pending`](Self::handle_pending) after each `app::wait()`.
pub struct GameWindow<G> {
    window: DoubleWindow,
    cols: usize,
    cells: Vec<Button>,
    shown: Vec<Option<Look>>,
    status: Frame,
    new_game: Button,
    images: Images,
    sender: Sender<Message>,
    receiver: Receiver<Message>,
    opponent: Opponent,
    first: Option<Player>,
    holder: Holder<G>,
    searches: u64,
    stuck: bool,
    refusal: Option<Refusal>,
}

impl<G: Playable + Send + 'static> GameWindow<G> {
    /// Builds the (hidden) window for `game` against `opponent`, with `first` to move first in
    /// each new game (random if `None`); if the computer moves first, its search starts at once.
    /// Fails only if an embedded picture is broken.
    pub fn new(
        game: G,
        opponent: Opponent,
        first: Option<Player>,
    ) -> Result<GameWindow<G>, String> {
        let images = Images::load()?;
        let (rows, cols) = (game.rows() as i32, game.cols() as i32);
        let (screen_w, screen_h) = app::screen_size();
        let view_w = (cols * CELL).min((screen_w as i32 - SCREEN_MARGIN).max(MIN_WIDTH));
        let view_h = (rows * CELL).min((screen_h as i32 - SCREEN_MARGIN - BAR).max(4 * CELL));
        let width = view_w.max(MIN_WIDTH);
        let left = (width - view_w) / 2;
        let title = format!("Connect Four \u{2014} {rows} x {cols}");
        let window = DoubleWindow::default()
            .with_size(width, view_h + BAR)
            .center_screen()
            .with_label(&title);
        let (sender, receiver) = app::channel::<Message>();
        let mut scroll = Scroll::new(left, 0, view_w, view_h, None);
        let mut cells = Vec::new();
        for row in 0..rows {
            for col in 0..cols {
                let mut cell = Button::new(left + col * CELL, row * CELL, CELL, CELL, None);
                cell.set_frame(FrameType::NoBox);
                cell.set_down_frame(FrameType::NoBox);
                cell.visible_focus(false);
                cell.emit(sender, Message::Drop(col as usize));
                cells.push(cell);
            }
        }
        scroll.end();
        // Checkers fall to the bottom: a board taller than the view starts scrolled down to it.
        let scrollbar = if cols * CELL > view_w {
            app::scrollbar_size()
        } else {
            0
        };
        scroll.scroll_to(0, (rows * CELL - (view_h - scrollbar)).max(0));
        let mut status = Frame::new(10, view_h + 5, width - 150, BAR - 10, None);
        status.set_align(Align::Left | Align::Inside | Align::Wrap);
        let mut new_game = Button::new(width - 130, view_h + 15, 120, 30, "&New game");
        new_game.emit(sender, Message::NewGame);
        window.end();
        let shown = vec![None; cells.len()];
        let mut this = GameWindow {
            window,
            cols: cols as usize,
            cells,
            shown,
            status,
            new_game,
            images,
            sender,
            receiver,
            opponent,
            first,
            holder: Holder::Ready(game),
            searches: 0,
            stuck: false,
            refusal: None,
        };
        this.refresh();
        this.start_search_if_due();
        this.update_status();
        Ok(this)
    }

    /// Shows the window.
    pub fn show(&mut self) {
        self.window.show();
    }

    /// Handles every message posted since the last call: clicks, finished searches, ticks.
    pub fn handle_pending(&mut self) {
        while let Some(message) = self.receiver.recv() {
            self.handle(message);
        }
    }

    /// Clicks the cell at (`row`, `col`) as the mouse would: the click is posted, and handled
    /// by the next [`handle_pending`](Self::handle_pending).
    pub fn click(&mut self, row: usize, col: usize) {
        self.cells[row * self.cols + col].do_callback();
    }

    /// Clicks New game as the mouse would.
    pub fn click_new_game(&mut self) {
        self.new_game.do_callback();
    }

    /// The text of the status label.
    pub fn status(&self) -> String {
        self.status.label()
    }

    /// The board's size, rows by columns.
    pub fn size(&self) -> (usize, usize) {
        (self.cells.len() / self.cols, self.cols)
    }

    /// Whether the computer is searching.
    pub fn is_thinking(&self) -> bool {
        matches!(self.holder, Holder::Thinking { .. })
    }

    /// The window itself, for reading its title or capturing what it shows.
    pub fn window(&self) -> DoubleWindow {
        self.window.clone()
    }

    /// The centre of the cell at (`row`, `col`), in window coordinates as currently scrolled.
    pub fn cell_center(&self, row: usize, col: usize) -> (i32, i32) {
        let cell = &self.cells[row * self.cols + col];
        (cell.x() + CELL / 2, cell.y() + CELL / 2)
    }

    fn handle(&mut self, message: Message) {
        match message {
            Message::Drop(col) => self.drop_in(col),
            Message::NewGame => self.new_game(),
            Message::Searched(search) => self.finish_search(search),
            Message::Tick(search) => self.tick(search),
        }
        self.update_status();
    }

    /// A person's click in `col`: plays it, or says why not.
    fn drop_in(&mut self, col: usize) {
        let computer_to_move = self.computer_to_move();
        let game = match &mut self.holder {
            Holder::Ready(game) => game,
            Holder::Thinking { .. } => return self.refuse(Refusal::Thinking),
            Holder::Lost => return self.refuse(Refusal::Error(lost())),
        };
        if game.is_over() {
            return self.refuse(Refusal::GameOver);
        }
        if computer_to_move {
            return self.refuse(Refusal::ComputersTurn);
        }
        match game.play(col) {
            Ok(_) => {
                self.refusal = None;
                self.refresh();
                self.start_search_if_due();
            }
            Err(MoveError::ColumnFull { .. }) => self.refuse(Refusal::ColumnFull),
            Err(error) => self.refuse(Refusal::Error(error.to_string())),
        }
    }

    fn new_game(&mut self) {
        match &mut self.holder {
            Holder::Ready(game) => game.new_game(self.first),
            Holder::Thinking { .. } => return self.refuse(Refusal::Thinking),
            Holder::Lost => return self.refuse(Refusal::Error(lost())),
        }
        self.stuck = false;
        self.refusal = None;
        self.refresh();
        self.start_search_if_due();
    }

    fn refuse(&mut self, refusal: Refusal) {
        self.refusal = Some(refusal);
    }

    /// Whether the game waits for the computer's move (searching or not).
    fn computer_to_move(&self) -> bool {
        match &self.holder {
            Holder::Ready(game) => game
                .turn()
                .player()
                .is_some_and(|player| self.opponent.computer_plays(player)),
            Holder::Thinking { .. } => true,
            Holder::Lost => false,
        }
    }

    /// Hands the game to a worker thread to search, if it is the computer's move.
    fn start_search_if_due(&mut self) {
        if self.stuck || !self.computer_to_move() || self.is_thinking() {
            return;
        }
        let mut game = match mem::replace(&mut self.holder, Holder::Lost) {
            Holder::Ready(game) => game,
            other => {
                self.holder = other;
                return;
            }
        };
        self.searches += 1;
        let search = self.searches;
        let sender = self.sender;
        let worker = thread::spawn(move || {
            let choice =
                catch_unwind(AssertUnwindSafe(|| game.computer_move())).unwrap_or_else(|_| {
                    Err(MoveError::EngineFailed(
                        "the search stopped with a panic".into(),
                    ))
                });
            sender.send(Message::Searched(search));
            (game, choice)
        });
        self.holder = Holder::Thinking {
            worker,
            search,
            started: Instant::now(),
        };
        self.schedule_tick(search);
    }

    /// Takes the game back from the worker of search `search` and plays its choice.
    fn finish_search(&mut self, search: u64) {
        let worker = match mem::replace(&mut self.holder, Holder::Lost) {
            Holder::Thinking {
                worker,
                search: current,
                ..
            } if current == search => worker,
            other => {
                self.holder = other;
                return;
            }
        };
        let Ok((mut game, choice)) = worker.join() else {
            return self.refuse(Refusal::Error(lost()));
        };
        match choice.and_then(|col| game.play(col)) {
            Ok(_) => self.refusal = None,
            Err(error) => {
                self.stuck = true;
                self.refusal = Some(Refusal::Error(error.to_string()));
            }
        }
        self.holder = Holder::Ready(game);
        self.refresh();
    }

    fn tick(&mut self, search: u64) {
        if matches!(self.holder, Holder::Thinking { search: current, .. } if current == search) {
            self.schedule_tick(search);
        }
    }

    fn schedule_tick(&self, search: u64) {
        let sender = self.sender;
        app::add_timeout3(TICK.as_secs_f64(), move |_| {
            sender.send(Message::Tick(search));
        });
    }

    /// Shows each cell's checker, and rings the winning four.
    fn refresh(&mut self) {
        let Holder::Ready(game) = &self.holder else {
            return;
        };
        let cols = self.cols;
        let line = game.winning_line();
        for (index, cell) in self.cells.iter_mut().enumerate() {
            let (row, col) = (index / cols, index % cols);
            let look = Look {
                checker: game.checker(row, col),
                won: line.is_some_and(|line| line.contains(&(row, col))),
            };
            if self.shown[index] != Some(look) {
                cell.set_image(Some(self.images.get(look)));
                cell.redraw();
                self.shown[index] = Some(look);
            }
        }
    }

    fn update_status(&mut self) {
        let phase = match &self.holder {
            Holder::Thinking { started, .. } => Phase::Thinking(started.elapsed()),
            Holder::Lost => Phase::Stuck,
            Holder::Ready(_) if self.stuck => Phase::Stuck,
            Holder::Ready(game) => match (game.outcome(), game.turn().player()) {
                (Some(outcome), _) => Phase::Over(outcome),
                (None, Some(player)) => Phase::ToMove(player),
                (None, None) => Phase::Stuck,
            },
        };
        let mut text = status::describe(phase, self.opponent);
        if let Some(refusal) = &self.refusal {
            text = format!("{} {text}", status::explain(refusal));
        }
        if self.status.label() != text {
            self.status.set_label(&text);
            self.window.redraw();
        }
    }
}

/// What to say once the worker thread was lost with the game.
fn lost() -> String {
    "the computer player stopped unexpectedly: close the window and start again".to_string()
}
