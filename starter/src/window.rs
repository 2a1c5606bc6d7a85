//! The window the game is played in. Until you write your own (graded: GUI, 15 points), this
//! runs the course's supplied window, which earns no GUI points but lets you play and test
//! everything else.
//!
//! Name: YOUR NAME
//! Course: YOUR COURSE
//! Project: Connect Four on many cores
//! Date: THE DATE

use connect_four_supplied::{launch, Opponent, Player};

use crate::game::Game;

/// Plays `game` in a window until it is closed, against `opponent` (asked for in a dialog if
/// `None`); `first` moves first in every game (random if `None`).
pub fn run(game: Game, opponent: Option<Opponent>, first: Option<Player>) -> Result<(), String> {
    launch::supplied_window(game, opponent, first)
}
