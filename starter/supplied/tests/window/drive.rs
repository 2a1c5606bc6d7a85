//! Working the window as a person and its event loop would: the games the scenarios open
//! (the tiny game, or one whose searches wait at a gate the scenario opens), opening and
//! closing the window, clicks, presses and keys each handled at once, and bounded waits.

use std::sync::mpsc::{channel, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use connect_four_supplied::gui::{Control, GameWindow};
use connect_four_supplied::{Analyze, MoveError, Opponent, Player, StopSignal};
use fltk::app;
use fltk::enums::Key;
use fltk::prelude::*;

use crate::support::hooked::Hooked;
use crate::support::tiny_game::TinyGame;

/// The longest any wait in these tests may take before it counts as a hang.
const PATIENCE: Duration = Duration::from_secs(120);

pub(super) fn game(rows: usize, cols: usize, first: Player) -> TinyGame {
    TinyGame::new(rows, cols, first)
}

/// `game` with searches (the computer's move, the hint) that finish only when the test lets
/// them, so that "during a long search" lasts exactly as long as the test needs, and the sender
/// that opens its gate, once per search. With `stop` as its stop signal, a raised signal ends a
/// search early too, with an error the window must ignore.
pub(super) fn with_gate(game: TinyGame, stop: Option<StopSignal>) -> (Hooked, Sender<()>) {
    let (open_gate, gate) = channel();
    let wait = move |stop: Option<&StopSignal>| loop {
        match gate.recv_timeout(Duration::from_millis(5)) {
            Ok(()) => return Ok(()),
            Err(RecvTimeoutError::Disconnected) => {
                return Err(MoveError::EngineFailed("the test closed the gate".into()))
            }
            Err(RecvTimeoutError::Timeout) => {
                if stop.is_some_and(StopSignal::is_raised) {
                    return Err(MoveError::EngineFailed("stopped".into()));
                }
            }
        }
    };
    (Hooked::new(game, stop, wait), open_gate)
}

/// Opens a window on `game`; later games start with `first` (random if `None`).
pub(super) fn open<G: Analyze + Send + 'static>(
    game: G,
    opponent: Opponent,
    first: Option<Player>,
) -> GameWindow<G> {
    let mut gui = GameWindow::new(game, opponent, first).unwrap();
    // Checkers appear at once, unless a test switches falling on.
    gui.set_animation(false);
    gui.show();
    pump_until(&mut gui, "the window to show", |gui| gui.window().shown());
    gui
}

pub(super) fn close<G: Analyze + Send + 'static>(gui: GameWindow<G>) {
    gui.window().hide();
    pause(0.0);
}

/// Clicks a cell and handles the click, as the event loop would.
pub(super) fn click<G: Analyze + Send + 'static>(gui: &mut GameWindow<G>, row: usize, col: usize) {
    gui.click(row, col);
    gui.handle_pending();
}

/// Presses a control and handles the press, as the event loop would.
pub(super) fn press<G: Analyze + Send + 'static>(gui: &mut GameWindow<G>, control: Control) {
    gui.press(control);
    gui.handle_pending();
}

/// Presses a key on the board and handles it, as the event loop would.
pub(super) fn key<G: Analyze + Send + 'static>(gui: &mut GameWindow<G>, key: Key) {
    gui.key(key);
    gui.handle_pending();
}

/// Runs the event loop until `done` holds, failing after [`PATIENCE`].
pub(super) fn pump_until<G: Analyze + Send + 'static>(
    gui: &mut GameWindow<G>,
    what: &str,
    done: impl Fn(&GameWindow<G>) -> bool,
) {
    pump_within(gui, what, PATIENCE, done);
}

/// Runs the event loop until a stopped search hands the game back: at once, so well within
/// ten seconds.
pub(super) fn pump_until_stopped<G: Analyze + Send + 'static>(gui: &mut GameWindow<G>) {
    let what = "the stopped search to hand the game back";
    pump_within(gui, what, Duration::from_secs(10), |gui| !gui.is_thinking());
}

/// Runs the event loop until `done` holds, failing after `patience`.
pub(super) fn pump_within<G: Analyze + Send + 'static>(
    gui: &mut GameWindow<G>,
    what: &str,
    patience: Duration,
    done: impl Fn(&GameWindow<G>) -> bool,
) {
    let deadline = Instant::now() + patience;
    while !done(gui) {
        assert!(
            Instant::now() < deadline,
            "waited {patience:?} for {what}; the label says {:?}",
            gui.status()
        );
        pause(0.02);
        gui.handle_pending();
    }
}

/// Runs the event loop for up to `seconds`. A wait cut short by a signal (Rust's test harness
/// and the search threads raise some) is harmless: every caller waits again or moves on.
pub(super) fn pause(seconds: f64) {
    app::wait_for(seconds).ok();
}
