//! Connect Four on many cores: the program's entry point, `connect_four ROWS COLS DEPTH THREADS`.
//! It reads the command line and hands your game to the front end asked for: the window (the
//! default), the terminal (`--text`) or the grading protocol (`--protocol`). It is wired for
//! you; your work is in `game.rs`, `pool.rs` and `window.rs`.
//!
//! Name: YOUR NAME
//! Course: YOUR COURSE
//! Project: Connect Four on many cores
//! Date: THE DATE

mod game;
mod pool;
mod window;

use std::process::ExitCode;

use connect_four_supplied::{launch, Arguments};

use crate::game::Game;

fn main() -> ExitCode {
    let args = Arguments::from_command_line();
    launch::run(Game::new(&args), &args, window::run)
}
