//! The FLTK window, the default front end: a grid of 75 x 75 buttons, one per cell, with a
//! status label and a row of controls under it, after a dialog that asks who plays.
//!
//! `window` owns the game and handles every `Message` in order; `board`
//! draws the cells, `bar` holds the label and the controls, `keys` turns board keys into
//! messages, `animation` lets a checker fall, `worker` runs searches off the GUI thread,
//! `status` words the label, `dialog` asks for the opponent, `images` embeds the checker
//! pictures and `sound` the sounds, which it plays on the sound device (feature `sound`). The game is driven only through [`Analyze`] (and so [`Playable`]).
//!
//! [`Analyze`]: crate::Analyze
//! [`Playable`]: crate::Playable

mod animation;
mod bar;
mod board;
mod dialog;
mod hint;
mod images;
mod keys;
mod message;
mod sound;
mod status;
mod undo;
mod window;
mod worker;

// Hidden from the students' documentation: for the window tests (tests/window/).
#[doc(hidden)]
pub use bar::Control;
pub use dialog::OpponentDialog;
// Hidden from the students' documentation: for the window tests (tests/window/).
#[doc(hidden)]
pub use images::CELL;
pub use sound::{speaker, Silent, Sound, Speaker};
pub use window::GameWindow;

use fltk::app;

use crate::cli::Arguments;
use crate::playable::Analyze;

/// Set (to anything but the empty string), this environment variable starts the window with
/// checkers appearing at once instead of falling (the Animate box).
pub const NO_ANIMATION: &str = "CONNECT_FOUR_NO_ANIMATION";

/// Asks for the opponent unless `args.opponent` is given, then runs the game until the window
/// is closed; `args.first` moves first in each new game (random if `None`), the computer
/// playing itself pauses `args.pause` between moves, `args.mute` ticks the Mute box and
/// `args.adaptive` the Adaptive box. Without a sound device the window plays on in silence and
/// says why once, on standard error. Closing the dialog, or the window during a search, ends
/// the program at once: the search thread is left to die with the process, never waited for.
pub fn run<G: Analyze + Send + 'static>(game: G, args: &Arguments) -> Result<(), String> {
    let app = app::App::default();
    let opponent = match args.opponent {
        Some(opponent) => opponent,
        None => match OpponentDialog::new().ask() {
            Some(opponent) => opponent,
            None => return Ok(()),
        },
    };
    let mut window = GameWindow::new(game, opponent, args.first)?;
    window.set_pause(args.pause);
    window.set_mute(args.mute);
    window.set_adaptive(args.adaptive);
    let (speaker, silence) = speaker();
    if let Some(why) = silence {
        eprintln!("connect_four: {why}; the game goes on without sound");
    }
    window.set_speaker(speaker);
    if std::env::var_os(NO_ANIMATION).is_some_and(|value| !value.is_empty()) {
        window.set_animation(false);
    }
    window.show();
    while app.wait() {
        window.handle_pending();
    }
    if window.is_thinking() {
        // The worker thread still has the game and may search for a long time yet: exit now,
        // so that nothing (a destructor, the runtime) can ever wait for it.
        std::process::exit(0);
    }
    Ok(())
}
