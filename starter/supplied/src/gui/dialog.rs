//! The modal dialog that asks, at start, whether to play against a human or the computer, or
//! to watch the computer play itself. Closing it (or pressing Escape) means "none of these":
//! the program then quits.

use std::cell::Cell;
use std::rc::Rc;

use fltk::app;
use fltk::button::Button;
use fltk::enums::{Align, Shortcut};
use fltk::frame::Frame;
use fltk::prelude::*;
use fltk::window::Window;

use crate::opponent::Opponent;

/// The opponent dialog. [`ask`](Self::ask) shows it and waits for an answer; tests can press
/// its buttons through a clone, with `press` from a timeout while `ask` waits.
#[derive(Clone)]
pub struct OpponentDialog {
    window: Window,
    human: Button,
    computer: Button,
    watch: Button,
    choice: Rc<Cell<Option<Opponent>>>,
}

impl OpponentDialog {
    /// Builds the dialog, hidden, titled "Connect Four".
    pub fn new() -> OpponentDialog {
        let mut window = Window::default()
            .with_size(380, 175)
            .center_screen()
            .with_label("Connect Four");
        let mut question = Frame::new(10, 10, 360, 60, None);
        question.set_label(
            "Play against a human or the computer, or watch the computer play itself?\n\
             Against the computer, you play red.",
        );
        question.set_align(Align::Inside | Align::Wrap);
        let mut human = Button::new(60, 80, 120, 35, "&Human");
        let mut computer = Button::new(200, 80, 120, 35, "&Computer");
        let mut watch = Button::new(60, 125, 260, 35, "&Watch the computer play itself");
        human.set_shortcut(Shortcut::from_char('h'));
        computer.set_shortcut(Shortcut::from_char('c'));
        watch.set_shortcut(Shortcut::from_char('w'));
        window.end();
        window.make_modal(true);
        let choice = Rc::new(Cell::new(None));
        for (button, opponent) in [
            (&mut human, Opponent::Human),
            (&mut computer, Opponent::Computer),
            (&mut watch, Opponent::ComputerVsComputer),
        ] {
            let choice = Rc::clone(&choice);
            let mut window = window.clone();
            button.set_callback(move |_| {
                choice.set(Some(opponent));
                window.hide();
            });
        }
        OpponentDialog {
            window,
            human,
            computer,
            watch,
            choice,
        }
    }

    /// Shows the dialog and waits until a button is pressed (the answer) or the dialog is
    /// closed (`None`).
    pub fn ask(&mut self) -> Option<Opponent> {
        self.choice.set(None);
        self.window.show();
        while self.window.shown() && app::wait() {}
        self.window.hide();
        self.choice.get()
    }

    /// Presses the button for `opponent`, as a click would.
    // Hidden from the students' documentation: for the window tests (tests/window/).
    #[doc(hidden)]
    pub fn press(&mut self, opponent: Opponent) {
        match opponent {
            Opponent::Human => self.human.do_callback(),
            Opponent::Computer => self.computer.do_callback(),
            Opponent::ComputerVsComputer => self.watch.do_callback(),
        }
    }

    /// Closes the dialog without an answer, as the window manager's close button would.
    // Hidden from the students' documentation: for the window tests (tests/window/).
    #[doc(hidden)]
    pub fn close(&mut self) {
        self.window.hide();
    }
}

impl Default for OpponentDialog {
    fn default() -> Self {
        OpponentDialog::new()
    }
}
