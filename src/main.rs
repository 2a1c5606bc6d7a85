//! `connect_four ROWS COLS DEPTH THREADS [OPTIONS]`: parses the command line, sets up the
//! reference's game and hands it to the supplied front end asked for (window, terminal or
//! grading protocol).
//!
//! Exit codes: 0 after a normal end, 1 when input or output fails or the computer player's
//! threads cannot be started, 2 for bad arguments.

use std::process::ExitCode;

use clap::Parser;
use connect_four::cli::Cli;
use connect_four::{error_chain, Game, GameError};
use connect_four_supplied::launch;

fn main() -> ExitCode {
    let cli = Cli::parse();
    cli.game.exit_on_bad_connect::<Cli>();
    match Game::new(&cli.game_config(), cli.game.first) {
        Ok(game) => launch::run(game, &cli.game, launch::supplied_window),
        Err(error) => {
            eprintln!("connect_four: {}", error_chain(&error));
            match error {
                GameError::Size(_) | GameError::Connect(_) => ExitCode::from(2),
                GameError::Threads(_) => ExitCode::FAILURE,
            }
        }
    }
}
