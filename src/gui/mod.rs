//! The FLTK window: a grid of 75 x 75 buttons with a status label under it.

use crate::cli::Opponent;
use crate::game::Game;

/// Opens the window and runs the game until the window is closed.
pub fn run(_game: Game, _opponent: Option<Opponent>) -> Result<(), String> {
    Err("the window is not built yet: use --text or --protocol".to_string())
}
