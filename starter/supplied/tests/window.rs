//! The supplied window, driven in-process under X as a person would use it, over the tiny game
//! (`support/tiny_game.rs`): clicks on cells and on the controls (New game, Undo, Redo, Hint,
//! Stop, Animate, Mute, Adaptive), board keys, the status label's words, the sounds told to the
//! speaker, and the pictures actually drawn. Every scenario is a trial of its own, run on the
//! main thread (`main.rs` says why); each wait is bounded and fails with what the label said.
//!
//! The scenarios, by subject: `play`, `search`, `keys`, `fall`, `undo`, `hint`, `watch`,
//! `sounds` and `level`; `drive` works the window as the event loop would and `look` reads what
//! it draws.
//!
//! The display (`support/display.rs`: `$DISPLAY`, or a private Xvfb) is started by the first
//! scenario that runs, so that listing or running other tests never needs one, and stopped
//! after the last. Without one every scenario is reported ignored, with a note that says what
//! is missing; under CI (`CI` set) every scenario fails instead.

mod drive;
mod fall;
mod hint;
mod keys;
mod level;
mod look;
mod play;
mod search;
mod sounds;
mod undo;
mod watch;

use std::sync::{Mutex, PoisonError};

use fltk::app;
use fltk::prelude::*;
use libtest_mimic::{Completion, Failed, Trial};

use crate::support::display::{self, Display};

/// The display the scenarios share: `None` until the first of them asks, then the display, or
/// `None` inside if there is none (the scenarios are then ignored).
static DISPLAY: Mutex<Option<Option<Display>>> = Mutex::new(None);

/// Every scenario, as a trial that runs it on the shared display.
pub fn trials() -> Vec<Trial> {
    [
        play::tests(),
        search::tests(),
        keys::tests(),
        fall::tests(),
        undo::tests(),
        hint::tests(),
        watch::tests(),
        sounds::tests(),
        level::tests(),
    ]
    .into_iter()
    .flatten()
    .map(|test| Trial::ignorable_test(test.name(), move || on_screen(test.run)))
    .collect()
}

/// Stops the private Xvfb, if the scenarios started one: call it once they have all run.
pub fn stop_display() {
    DISPLAY
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take();
}

/// Runs `scenario` on the shared display, which the first scenario starts. Without a display
/// the scenario is ignored; under CI [`display::display`] panics instead, failing it.
fn on_screen(scenario: fn()) -> Result<Completion, Failed> {
    let shown = DISPLAY
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get_or_insert_with(start)
        .is_some();
    if !shown {
        return Ok(Completion::ignored_with("no X display: see the note above"));
    }
    let _tidy = Tidy;
    scenario();
    Ok(Completion::Completed)
}

/// A display for the scenarios, made the one FLTK opens, with FLTK started on this thread;
/// `None` (with a note on stderr) if there is none.
fn start() -> Option<Display> {
    let display = display::display(&[])?;
    std::env::set_var("DISPLAY", &display.name);
    app::App::default();
    Some(display)
}

/// Hides every window still shown when it is dropped, so that a scenario that failed before
/// closing its own leaves the next one a clear screen.
struct Tidy;

impl Drop for Tidy {
    fn drop(&mut self) {
        for mut window in app::windows().unwrap_or_default() {
            window.hide();
        }
    }
}
