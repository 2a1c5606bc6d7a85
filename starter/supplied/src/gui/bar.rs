//! The strip under the board: the status label on top, and a row of controls under it (Undo,
//! Redo, Hint, the Animate box, Stop in a game of the computer against itself, and New game),
//! each with its key as an fltk shortcut. Pressing one posts its [`Message`].

use fltk::app::Sender;
use fltk::button::{Button, CheckButton};
use fltk::enums::{Align, Shortcut};
use fltk::frame::Frame;
use fltk::prelude::*;

use super::message::Message;

/// The height of the strip.
pub const HEIGHT: i32 = 90;
/// The narrowest strip that holds every control.
pub const MIN_WIDTH: i32 = 520;

/// A control under the board, for [`GameWindow::press`](super::GameWindow::press).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// Undo (Ctrl+Z): takes back the last move, and against the computer its reply too.
    Undo,
    /// Redo (Ctrl+Y): plays again what Undo took back.
    Redo,
    /// Hint (H): writes each column's minimax value in the column.
    Hint,
    /// Stop or Go on (S): pauses or resumes a game of the computer against itself.
    Stop,
    /// The Animate box (A): checkers fall into place, or appear at once.
    Animate,
    /// New game (N).
    NewGame,
}

/// The status label and the controls.
pub struct Bar {
    status: Frame,
    undo: Button,
    redo: Button,
    hint: Button,
    stop: Button,
    animate: CheckButton,
    new_game: Button,
}

impl Bar {
    /// Builds the strip `width` pixels wide with its top at `top`; the Stop button is hidden.
    pub fn new(top: i32, width: i32, sender: Sender<Message>) -> Bar {
        let mut status = Frame::new(10, top + 5, width - 20, 40, None);
        status.set_align(Align::Left | Align::Inside | Align::Wrap);
        let y = top + 50;
        let key = Shortcut::from_char;
        // x, width, label, shortcut (New game's is the N marked by &), tooltip, message; a
        // table, so one line each.
        #[rustfmt::skip]
        let buttons = [
            (10, 65, "Undo", Shortcut::Ctrl | 'z', "Take back a move (Ctrl+Z)", Message::Undo),
            (80, 65, "Redo", Shortcut::Ctrl | 'y', "Play it again (Ctrl+Y)", Message::Redo),
            (150, 65, "Hint", key('h'), "Each column's value (H)", Message::Hint),
            (width - 190, 70, "Stop", key('s'), "Pause or resume (S)", Message::StopOrGoOn),
            (width - 110, 100, "&New game", Shortcut::None, "Start again (N)", Message::NewGame),
        ];
        let [undo, redo, hint, mut stop, new_game] =
            buttons.map(|(x, w, label, key, tip, message)| {
                let mut button = Button::new(x, y, w, 30, None);
                button.set_label(label);
                button.set_shortcut(key);
                button.set_tooltip(tip);
                button.emit(sender, message);
                button
            });
        stop.hide();
        let mut animate = CheckButton::new(225, y, 90, 30, "Animate");
        animate.set_shortcut(key('a'));
        animate.set_tooltip("Checkers fall into place (A)");
        animate.set_checked(true);
        animate.emit(sender, Message::Animation);
        Bar {
            status,
            undo,
            redo,
            hint,
            stop,
            animate,
            new_game,
        }
    }

    /// Presses `control` as a click would (the Animate box changes first).
    pub fn press(&mut self, control: Control) {
        match control {
            Control::Undo => self.undo.do_callback(),
            Control::Redo => self.redo.do_callback(),
            Control::Hint => self.hint.do_callback(),
            Control::Stop => self.stop.do_callback(),
            Control::NewGame => self.new_game.do_callback(),
            Control::Animate => {
                self.animate.set_checked(!self.animate.is_checked());
                self.animate.do_callback();
            }
        }
    }

    /// Whether the Animate box is ticked.
    pub fn animate(&self) -> bool {
        self.animate.is_checked()
    }

    /// Ticks or clears the Animate box, without posting a message.
    pub fn set_animate(&mut self, on: bool) {
        self.animate.set_checked(on);
    }

    /// Shows the Stop button, labelled Stop while the computers play and Go on when paused;
    /// or hides it (`None`).
    pub fn show_stop(&mut self, paused: Option<bool>) {
        match paused {
            None => self.stop.hide(),
            Some(paused) => {
                self.stop.set_label(if paused { "Go on" } else { "Stop" });
                self.stop.show();
            }
        }
    }

    /// The text of the status label.
    pub fn status(&self) -> String {
        self.status.label()
    }

    /// Sets the status label to `text`; true if it changed.
    pub fn set_status(&mut self, text: &str) -> bool {
        let changed = self.status.label() != text;
        if changed {
            self.status.set_label(text);
        }
        changed
    }
}
