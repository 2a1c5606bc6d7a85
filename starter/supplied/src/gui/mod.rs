//! The FLTK window, the default front end: a grid of 75 x 75 buttons, one per cell, with a
//! status label and a New game button under it, after a dialog that asks who the opponent is.
//!
//! `images` embeds the checker pictures, `dialog` asks for the opponent, `status` words the
//! label, and `window` owns the widgets and drives the game through [`Playable`].
//!
//! [`Playable`]: crate::Playable

mod dialog;
mod images;
mod status;
mod window;

pub use dialog::OpponentDialog;
pub use images::CELL;
pub use window::GameWindow;

use fltk::app;

use crate::checker::Player;
use crate::opponent::Opponent;
use crate::playable::Playable;

/// Asks for the opponent unless `opponent` is given, then runs the game until the window is
/// closed; `first` moves first in each new game (random if `None`). Closing the dialog, or the
/// window during a search, ends the program at once: the search thread is left to die with the
/// process, never waited for.
pub fn run<G: Playable + Send + 'static>(
    game: G,
    opponent: Option<Opponent>,
    first: Option<Player>,
) -> Result<(), String> {
    let app = app::App::default();
    let opponent = match opponent {
        Some(opponent) => opponent,
        None => match OpponentDialog::new().ask() {
            Some(opponent) => opponent,
            None => return Ok(()),
        },
    };
    let mut window = GameWindow::new(game, opponent, first)?;
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
