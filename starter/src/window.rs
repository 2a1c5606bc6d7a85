//! The window the game is played in. Until you write your own (graded: GUI, 15 points), this
//! runs the course's supplied window, which earns no GUI points but lets you play and test
//! everything else.
//!
//! Name: YOUR NAME
//! Course: YOUR COURSE
//! Project: Connect Four on many cores
//! Date: THE DATE

use connect_four_supplied::{launch, Arguments};

use crate::game::Game;

/// Plays `game` in a window until it is closed, against `args.opponent` (asked for in a dialog
/// if `None`); `args.first` moves first in every game (random if `None`); the computer playing
/// itself pauses `args.pause` between moves.
pub fn run(game: Game, args: &Arguments) -> Result<(), String> {
    launch::supplied_window(game, args)
}
