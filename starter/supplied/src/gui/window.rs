//! The game window: the board, and under it the status label and the controls.
//!
//! Everything that happens is a [`Message`] posted on fltk's channel and handled in order on
//! the GUI thread by [`GameWindow::handle_pending`]. Searches (the computer's move, the hint)
//! run on a worker thread that owns the game meanwhile and posts [`Message::Done`] when it is
//! done, so the window keeps redrawing and answering during a long search. Undo, Redo or New
//! game during a search raise the game's stop signal, if it has one, and happen once the
//! worker hands the game back; its answer is then thrown away. Moves, refusals, new games, wins
//! and losses are told to the window's [`Speaker`] unless the Mute box is ticked, and with the
//! Adaptive box the [`Level`] sets the game's depth as each new game starts.

use std::time::Duration;

use fltk::app::{self, Receiver, Sender};
use fltk::enums::{Key, Shortcut};
use fltk::prelude::*;
use fltk::window::DoubleWindow;

use super::animation::{Animation, Fall};
use super::bar::{self, Bar, Control};
use super::board::Board;
use super::hint;
use super::images::{Images, Look, CELL};
use super::keys;
use super::message::{post_after, Action, Aim, Message};
use super::sound::{Silent, Sound, Speaker};
use super::status::{self, Phase, Refusal};
use super::undo;
use super::worker::{Answer, Holder, Job};
use crate::checker::Player;
use crate::error::MoveError;
use crate::history::History;
use crate::level::{self, Level, Step};
use crate::opponent::Opponent;
use crate::playable::Analyze;
use crate::score::Score;

/// Room kept free around the window on the screen, for the title bar and the desktop's panels.
const SCREEN_MARGIN: i32 = 120;
/// How often the clock on a long search is updated.
const TICK: Duration = Duration::from_secs(1);
/// The pause between moves when the computer plays itself, so that people can follow, until
/// [`GameWindow::set_pause`] sets another (`--pause`).
const PAUSE: Duration = Duration::from_millis(500);

/// The window and the game it shows. Build it with [`new`](Self::new), [`show`](Self::show)
/// it, and call [`handle_pending`](Self::handle_pending) after each `app::wait()`.
pub struct GameWindow<G> {
    window: DoubleWindow,
    board: Board,
    bar: Bar,
    sender: Sender<Message>,
    receiver: Receiver<Message>,
    opponent: Opponent,
    first: Option<Player>,
    holder: Holder<G>,
    history: History,
    /// How many workers and pauses were started: their numbers.
    started: u64,
    /// The computer failed to move; New game (or Undo) clears it.
    stuck: bool,
    /// The computers' game was stopped with the Stop button.
    paused: bool,
    /// The pause before the computers' next move, by number.
    pause: Option<u64>,
    /// How long that pause lasts.
    between_moves: Duration,
    /// What to do once the worker hands the game back.
    pending: Option<Action>,
    refusal: Option<Refusal>,
    /// The column the keyboard points at, once a board key was pressed.
    selected: Option<usize>,
    /// The checker falling into place.
    animation: Animation,
    /// The depth of the hint's values written on the board.
    hinted: Option<u32>,
    /// Where the sounds go.
    speaker: Box<dyn Speaker>,
    /// The computer's depth across games (the Adaptive box).
    level: Level,
}

impl<G: Analyze + Send + 'static> GameWindow<G> {
    /// Builds the (hidden) window for `game`, which must not have begun, against `opponent`,
    /// with `first` to move first in each new game (random if `None`); if the computer moves
    /// first, its search starts at once. Checkers fall into place (see
    /// [`set_animation`](Self::set_animation)); it is silent until
    /// [`set_speaker`](Self::set_speaker), and its level stays until
    /// [`set_adaptive`](Self::set_adaptive). Fails only if an embedded picture is broken.
    pub fn new(
        game: G,
        opponent: Opponent,
        first: Option<Player>,
    ) -> Result<GameWindow<G>, String> {
        let images = Images::load()?;
        let (rows, cols) = (game.rows(), game.cols());
        let (screen_w, screen_h) = app::screen_size();
        let (board_w, board_h) = (cols as i32 * CELL, rows as i32 * CELL);
        let view_w = board_w.min((screen_w as i32 - SCREEN_MARGIN).max(bar::MIN_WIDTH));
        let view_h = board_h.min((screen_h as i32 - SCREEN_MARGIN - bar::HEIGHT).max(4 * CELL));
        let width = view_w.max(bar::MIN_WIDTH);
        let title = title(game.connect(), rows, cols);
        let mut window = DoubleWindow::default()
            .with_size(width, view_h + bar::HEIGHT)
            .center_screen()
            .with_label(&title);
        let (sender, receiver) = app::channel::<Message>();
        let view = ((width - view_w) / 2, view_w, view_h);
        let board = Board::new((rows, cols), view, images, sender);
        let bar = Bar::new(view_h, width, sender);
        window.end();
        // No widget takes the keyboard focus (a focused button would take space and Enter
        // from the board): the buttons are worked by their shortcuts instead.
        app::set_visible_focus(false);
        keys::listen(&mut window, sender);
        let level = Level::new(&game, false);
        let mut this = GameWindow {
            window,
            board,
            bar,
            sender,
            receiver,
            opponent,
            first,
            holder: Holder::Ready(game),
            history: History::new(),
            started: 0,
            stuck: false,
            paused: false,
            pause: None,
            between_moves: PAUSE,
            pending: None,
            refusal: None,
            selected: None,
            animation: Animation::default(),
            hinted: None,
            speaker: Box::new(Silent),
            level,
        };
        this.bar.show_stop(this.watching().then_some(false));
        this.refresh();
        this.start_search_if_due();
        this.update_status();
        Ok(this)
    }

    /// Shows the window.
    pub fn show(&mut self) {
        self.window.show();
    }

    /// Handles every message posted since the last call: clicks, keys, finished searches,
    /// timers.
    pub fn handle_pending(&mut self) {
        while let Some(message) = self.receiver.recv() {
            self.handle(message);
        }
    }

    /// Clicks the cell at (`row`, `col`) as the mouse would: the click is posted, and handled
    /// by the next [`handle_pending`](Self::handle_pending).
    // Hidden from the students' documentation: for the window tests (tests/window/).
    #[doc(hidden)]
    pub fn click(&mut self, row: usize, col: usize) {
        self.board.click(row, col);
    }

    /// Presses a control under the board as a click (or its key) would.
    // Hidden from the students' documentation: for the window tests (tests/window/).
    #[doc(hidden)]
    pub fn press(&mut self, control: Control) {
        self.bar.press(control);
    }

    /// Presses `key` on the board as the keyboard would (digits, arrows, Enter, space; other
    /// keys do nothing here).
    // Hidden from the students' documentation: for the window tests (tests/window/).
    #[doc(hidden)]
    pub fn key(&mut self, key: Key) {
        if let Some(message) = keys::message(key, Shortcut::None) {
            self.sender.send(message);
        }
    }

    /// Sets the pause between moves when the computer plays itself.
    pub fn set_pause(&mut self, pause: Duration) {
        self.between_moves = pause;
    }

    /// Turns the falling of checkers on or off, as the Animate box does.
    pub fn set_animation(&mut self, on: bool) {
        self.bar.set_animate(on);
        self.follow_animate_box();
    }

    /// Plays the window's sounds on `speaker` (the sound device: [`speaker`](super::speaker)).
    pub fn set_speaker(&mut self, speaker: Box<dyn Speaker>) {
        self.speaker = speaker;
    }

    /// Ticks or clears the Mute box: no sounds while it is ticked.
    pub fn set_mute(&mut self, on: bool) {
        self.bar.set_mute(on);
    }

    /// Ticks or clears the Adaptive box: against the computer, its depth rises by one as each
    /// new game starts after the person won, up to [`level::CAP`].
    pub fn set_adaptive(&mut self, on: bool) {
        self.bar.set_adaptive(on);
        self.level.set_on(on);
        self.update_status();
    }

    /// The text of the status label.
    // Hidden from the students' documentation: for the window tests (tests/window/).
    #[doc(hidden)]
    pub fn status(&self) -> String {
        self.bar.status()
    }

    /// The board's size, rows by columns.
    // Hidden from the students' documentation: for the window tests (tests/window/).
    #[doc(hidden)]
    pub fn size(&self) -> (usize, usize) {
        self.board.size()
    }

    /// Whether a search (the computer's move or the hint) is running.
    pub fn is_thinking(&self) -> bool {
        self.holder.is_busy()
    }

    /// Whether a checker is falling into place.
    // Hidden from the students' documentation: for the window tests (tests/window/).
    #[doc(hidden)]
    pub fn is_falling(&self) -> bool {
        self.animation.current().is_some()
    }

    /// The column the keyboard points at, if a board key was pressed since the last click.
    // Hidden from the students' documentation: for the window tests (tests/window/).
    #[doc(hidden)]
    pub fn selected(&self) -> Option<usize> {
        self.selected
    }

    /// What the hint wrote in each column, left to right (empty where nothing is written).
    // Hidden from the students' documentation: for the window tests (tests/window/).
    #[doc(hidden)]
    pub fn hints(&self) -> Vec<String> {
        self.board.notes()
    }

    /// The window itself, for reading its title or capturing what it shows.
    // Hidden from the students' documentation: for the window tests (tests/window/).
    #[doc(hidden)]
    pub fn window(&self) -> DoubleWindow {
        self.window.clone()
    }

    /// The centre of the cell at (`row`, `col`), in window coordinates as currently scrolled.
    // Hidden from the students' documentation: for the window tests (tests/window/).
    #[doc(hidden)]
    pub fn cell_center(&self, row: usize, col: usize) -> (i32, i32) {
        self.board.cell_center(row, col)
    }

    fn handle(&mut self, message: Message) {
        match message {
            Message::Drop(col) => {
                self.select(None);
                self.person_plays(col);
            }
            Message::Choose(col) if col < self.board.size().1 => {
                self.select(Some(col));
                self.person_plays(col);
            }
            // A digit past the board's last column.
            Message::Choose(_) => {}
            Message::Select(aim) => self.aim(aim),
            Message::DropSelected => match self.selected {
                Some(col) => self.person_plays(col),
                // The first board key only shows the keyboard's column.
                None => self.aim(Aim::First),
            },
            Message::NewGame => self.ask(Action::NewGame),
            Message::Undo => self.ask(Action::Undo),
            Message::Redo => self.ask(Action::Redo),
            // Only the computer's game against itself has a Stop button.
            Message::StopOrGoOn if !self.watching() => {}
            Message::StopOrGoOn if self.paused => {
                self.paused = false;
                self.bar.show_stop(Some(false));
                self.start_search_if_due();
            }
            Message::StopOrGoOn => self.ask(Action::Stop),
            Message::Hint => self.hint(),
            Message::Animation => self.follow_animate_box(),
            Message::Adaptive => self.level.set_on(self.bar.adaptive()),
            Message::Done(number) => self.finish_search(number),
            Message::Tick(number) => self.tick(number),
            Message::Frame(number) => {
                if self.animation.frame(number, self.sender) {
                    self.refresh();
                }
            }
            Message::Resume(number) => {
                if self.pause == Some(number) {
                    self.pause = None;
                    if self.search_due() {
                        self.start(Job::Move);
                    }
                }
            }
        }
        self.update_status();
    }

    /// Moves the keyboard's column; the first board key shows it in the middle column.
    fn aim(&mut self, aim: Aim) {
        self.select(Some(aim.from(self.selected, self.board.size().1)));
    }

    fn select(&mut self, col: Option<usize>) {
        self.selected = col;
        self.board.mark(col);
    }

    /// A person's move in `col`: plays it, or says why not. During the hint's search it stops
    /// the hint and plays once the game is back.
    fn person_plays(&mut self, col: usize) {
        let computer_to_move = self.computer_to_move();
        let game = match &mut self.holder {
            Holder::Ready(game) => game,
            Holder::Busy(worker) if worker.job == Job::Hint => return self.ask(Action::Drop(col)),
            Holder::Busy(_) => return self.refuse(Refusal::Thinking),
            Holder::Lost => return self.refuse(Refusal::Error(lost())),
        };
        if game.is_over() {
            return self.refuse(Refusal::GameOver);
        }
        if computer_to_move {
            return self.refuse(Refusal::ComputersTurn);
        }
        match self.play(col, true) {
            Ok(()) => self.start_search_if_due(),
            Err(MoveError::ColumnFull { .. }) => self.refuse(Refusal::ColumnFull),
            Err(error) => self.refuse(Refusal::Error(error.to_string())),
        }
    }

    /// Plays `col` for the player to move (the game must be here), and lets the checker fall
    /// if `animate` and the Animate box say so.
    fn play(&mut self, col: usize, animate: bool) -> Result<(), MoveError> {
        let Holder::Ready(game) = &mut self.holder else {
            return Err(MoveError::EngineFailed(lost()));
        };
        let checker = game.turn();
        let row = self.history.play(game, col)?;
        let ending = game
            .outcome()
            .and_then(|outcome| Sound::ending(outcome, self.opponent));
        self.sound(Sound::Move);
        if let Some(sound) = ending {
            self.sound(sound);
        }
        self.changed();
        if animate && self.bar.animate() {
            let fall = Fall::new(checker, row, col);
            self.animation.start(fall, self.sender);
        }
        self.refresh();
        Ok(())
    }

    /// Lands a falling checker at once if the Animate box was cleared.
    fn follow_animate_box(&mut self) {
        if !self.bar.animate() {
            self.animation.stop();
            self.refresh();
        }
    }

    /// Forgets what belonged to the board as it was: the hint, the last refusal, the pause
    /// before the computer's next move.
    fn changed(&mut self) {
        self.pause = None;
        self.board.write(&[]);
        self.hinted = None;
        self.refusal = None;
    }

    /// Does `action` now if the game is here, or once the worker hands it back (stopping its
    /// search if the game can be stopped).
    fn ask(&mut self, action: Action) {
        // Nothing to take back (or play again) leaves a search running.
        if action == Action::Undo && !self.history.can_undo() {
            return self.refuse(Refusal::NothingToUndo);
        }
        if action == Action::Redo && !self.history.can_redo() {
            return self.refuse(Refusal::NothingToRedo);
        }
        if action == Action::Stop || (self.watching() && action != Action::NewGame) {
            self.paused = true;
            self.pause = None;
            self.bar.show_stop(Some(true));
        }
        match &self.holder {
            Holder::Ready(_) => self.act(action),
            Holder::Busy(worker) => {
                self.pending = Some(action);
                self.refusal = None;
                worker.stop();
            }
            Holder::Lost => self.refuse(Refusal::Error(lost())),
        }
    }

    /// Does `action` on the game, which is here.
    fn act(&mut self, action: Action) {
        let Holder::Ready(game) = &mut self.holder else {
            return;
        };
        if let Action::Drop(col) = action {
            return self.person_plays(col);
        }
        if action == Action::NewGame {
            let ended = game.outcome();
            if self.level.next_game(ended, self.opponent, game) == Step::Refused {
                self.bar.set_adaptive(false);
                eprintln!("connect_four: {}", level::REFUSED);
            }
        }
        let done = undo::apply(action, (&mut self.history, game), self.opponent, self.first);
        match done {
            Ok(true) => {
                if action == Action::NewGame {
                    self.sound(Sound::NewGame);
                    self.paused = false;
                    self.bar.show_stop(self.watching().then_some(false));
                }
                self.stuck = false;
                self.animation.stop();
                self.changed();
                self.refresh();
                self.start_search_if_due();
            }
            Ok(false) if action == Action::Undo => self.refuse(Refusal::NothingToUndo),
            Ok(false) if action == Action::Redo => self.refuse(Refusal::NothingToRedo),
            Ok(false) => {}
            Err(error) => {
                self.stuck = true;
                self.refusal = Some(Refusal::Error(error.to_string()));
                self.refresh();
            }
        }
    }

    /// Starts working out the hint's values, if a person is to move.
    fn hint(&mut self) {
        match &self.holder {
            Holder::Ready(game) if game.is_over() => self.refuse(Refusal::GameOver),
            Holder::Ready(_) if self.computer_to_move() && !self.paused => {
                self.refuse(Refusal::ComputersTurn)
            }
            Holder::Ready(_) => self.start(Job::Hint),
            Holder::Busy(worker) if worker.job == Job::Move => self.refuse(Refusal::Thinking),
            Holder::Busy(_) => {}
            Holder::Lost => self.refuse(Refusal::Error(lost())),
        }
    }

    fn refuse(&mut self, refusal: Refusal) {
        self.refusal = Some(refusal);
        self.sound(Sound::Refused);
    }

    /// Plays `sound`, unless the Mute box is ticked.
    fn sound(&mut self, sound: Sound) {
        if !self.bar.mute() {
            self.speaker.play(sound);
        }
    }

    /// Whether the computer plays both sides.
    fn watching(&self) -> bool {
        self.opponent == Opponent::ComputerVsComputer
    }

    /// Whether the game waits for the computer's move (searching or not).
    fn computer_to_move(&self) -> bool {
        match &self.holder {
            Holder::Ready(game) => game
                .turn()
                .player()
                .is_some_and(|player| self.opponent.computer_plays(player)),
            Holder::Busy(worker) => worker.job == Job::Move,
            Holder::Lost => false,
        }
    }

    /// Starts the computer's search if it is its move; when it plays itself, after a pause
    /// that lets people see the last move.
    fn start_search_if_due(&mut self) {
        if !self.search_due() || self.pause.is_some() {
            return;
        }
        if self.watching() && !self.history.moves().is_empty() {
            self.started += 1;
            self.pause = Some(self.started);
            post_after(
                self.between_moves,
                self.sender,
                Message::Resume(self.started),
            );
        } else {
            self.start(Job::Move);
        }
    }

    /// Whether the computer should search now: it is its move, it can, and it was not stopped.
    fn search_due(&self) -> bool {
        !self.stuck && !self.paused && self.computer_to_move() && !self.is_thinking()
    }

    /// Hands the game, if it is here, to a worker thread for `job`.
    fn start(&mut self, job: Job) {
        self.started += 1;
        if self.holder.start(job, self.started, self.sender) {
            post_after(TICK, self.sender, Message::Tick(self.started));
        }
    }

    /// Takes the game back from worker `number`, and uses its answer or does what was asked
    /// meanwhile.
    fn finish_search(&mut self, number: u64) {
        if !matches!(&self.holder, Holder::Busy(worker) if worker.number == number) {
            return;
        }
        let Some(answer) = self.holder.take_back() else {
            return self.refuse(Refusal::Error(lost()));
        };
        if let Some(action) = self.pending.take() {
            return self.act(action);
        }
        match answer {
            // A fall still going on is not held up, nor does it hold up the reply.
            Answer::Move(choice) => {
                let animate = self.animation.current().is_none();
                match choice.and_then(|col| self.play(col, animate)) {
                    Ok(()) => self.start_search_if_due(),
                    Err(error) => {
                        self.stuck = true;
                        self.refusal = Some(Refusal::Error(error.to_string()));
                    }
                }
            }
            Answer::Hint(Ok(values)) => self.show_hint(&values),
            Answer::Hint(Err(error)) => self.refuse(Refusal::Error(error.to_string())),
        }
    }

    /// Writes each open column's value in the cell its checker would land in.
    fn show_hint(&mut self, values: &[Option<Score>]) {
        let Holder::Ready(game) = &self.holder else {
            return;
        };
        let notes = hint::notes(game, values);
        self.hinted = Some(game.depth());
        self.board.write(&notes);
    }

    fn tick(&mut self, number: u64) {
        if matches!(&self.holder, Holder::Busy(worker) if worker.number == number) {
            post_after(TICK, self.sender, Message::Tick(number));
        }
    }

    /// Shows each cell's checker, the falling one where it is, and rings the winning line once
    /// nothing falls. While a worker has the game, only the falling checker's column changes.
    fn refresh(&mut self) {
        let fall = self.animation.current();
        let game = match &self.holder {
            Holder::Ready(game) => Some(game),
            _ => None,
        };
        let line = game
            .filter(|_| fall.is_none())
            .and_then(|game| game.winning_line());
        self.board.show(|row, col| {
            let checker = fall
                .and_then(|fall| fall.shows(row, col))
                .or_else(|| game.map(|game| game.checker(row, col)))?;
            let won = line.as_ref().is_some_and(|line| line.contains(&(row, col)));
            Some(Look { checker, won })
        });
    }

    fn update_status(&mut self) {
        let phase = match (&self.holder, self.pending) {
            (Holder::Busy(_), Some(action)) => Phase::Waiting(action),
            (Holder::Busy(worker), None) => match worker.job {
                Job::Move => Phase::Thinking(worker.player, worker.started.elapsed()),
                Job::Hint => Phase::Hinting(worker.started.elapsed()),
            },
            (Holder::Lost, _) => Phase::Stuck,
            (Holder::Ready(_), _) if self.stuck => Phase::Stuck,
            (Holder::Ready(game), _) => match (game.outcome(), game.turn().player()) {
                (Some(outcome), _) => Phase::Over(outcome),
                (None, Some(player)) if self.paused => Phase::Paused(player),
                (None, Some(player)) => Phase::ToMove(player),
                (None, None) => Phase::Stuck,
            },
        };
        let ended = match phase {
            Phase::Over(outcome) => Some(outcome),
            _ => None,
        };
        let level = self.level.words(self.opponent, ended);
        let text = status::label(
            phase,
            self.opponent,
            self.hinted,
            self.refusal.as_ref(),
            level,
        );
        if self.bar.set_status(&text) {
            self.window.redraw();
        }
    }
}

/// The window's title: the game (Connect Four, or Connect M for the extension) and the board.
fn title(connect: usize, rows: usize, cols: usize) -> String {
    match connect {
        crate::limits::CONNECT => format!("Connect Four \u{2014} {rows} x {cols}"),
        m => format!("Connect {m} \u{2014} {rows} x {cols}"),
    }
}

/// What to say once the worker thread was lost with the game.
fn lost() -> String {
    "the computer player stopped unexpectedly: close the window and start again".to_string()
}
