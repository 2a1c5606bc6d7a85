//! The strip under the board: the status label on top, and two rows of controls under it (Undo,
//! Redo, Hint, Stop in a game of the computer against itself, and New game; then the Animate,
//! Mute and Adaptive boxes), each with its key as an fltk shortcut. Pressing one posts its
//! [`Message`] (the Mute box none: the window reads it before each sound).

use fltk::app::Sender;
use fltk::button::{Button, CheckButton};
use fltk::enums::{Align, Shortcut};
use fltk::frame::Frame;
use fltk::prelude::*;

use super::message::Message;

/// The height of the strip.
pub const HEIGHT: i32 = 125;
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
    /// The Mute box (M): no sounds.
    Mute,
    /// The Adaptive box (L): the computer looks one ply deeper after each game the person wins.
    Adaptive,
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
    mute: CheckButton,
    adaptive: CheckButton,
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
        let y = top + 88;
        #[rustfmt::skip]
        let boxes = [
            (10, 90, "Animate", 'a', "Checkers fall into place (A)"),
            (105, 70, "Mute", 'm', "No sounds (M)"),
            (180, 100, "Adaptive", 'l', "Against the computer: it looks one ply deeper after each game you win (L)"),
        ];
        let [mut animate, mute, mut adaptive] = boxes.map(|(x, w, label, letter, tip)| {
            let mut check = CheckButton::new(x, y, w, 30, None);
            check.set_label(label);
            check.set_shortcut(key(letter));
            check.set_tooltip(tip);
            check
        });
        animate.set_checked(true);
        animate.emit(sender, Message::Animation);
        adaptive.emit(sender, Message::Adaptive);
        Bar {
            status,
            undo,
            redo,
            hint,
            stop,
            animate,
            mute,
            adaptive,
            new_game,
        }
    }

    /// Presses `control` as a click would (a box changes first).
    pub fn press(&mut self, control: Control) {
        match control {
            Control::Undo => self.undo.do_callback(),
            Control::Redo => self.redo.do_callback(),
            Control::Hint => self.hint.do_callback(),
            Control::Stop => self.stop.do_callback(),
            Control::NewGame => self.new_game.do_callback(),
            Control::Animate => toggle(&mut self.animate),
            Control::Mute => toggle(&mut self.mute),
            Control::Adaptive => toggle(&mut self.adaptive),
        }
    }

    /// Whether the Mute box is ticked.
    pub fn mute(&self) -> bool {
        self.mute.is_checked()
    }

    /// Whether the Adaptive box is ticked.
    pub fn adaptive(&self) -> bool {
        self.adaptive.is_checked()
    }

    /// Ticks or clears the Mute box.
    pub fn set_mute(&mut self, on: bool) {
        self.mute.set_checked(on);
    }

    /// Ticks or clears the Adaptive box, without posting a message.
    pub fn set_adaptive(&mut self, on: bool) {
        self.adaptive.set_checked(on);
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

/// Ticks `check` if it was clear, clears it otherwise, and runs its callback, as a click does.
fn toggle(check: &mut CheckButton) {
    check.set_checked(!check.is_checked());
    check.do_callback();
}
