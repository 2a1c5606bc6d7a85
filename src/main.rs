//! `connect_four ROWS COLS DEPTH THREADS [OPTIONS]`: parses the command line, sets up the game and
//! hands it to the front end asked for (window, terminal or grading protocol).
//!
//! Exit codes: 0 after a normal end, 1 when input or output fails, 2 for bad arguments.

use std::io::{self, ErrorKind};
use std::process::ExitCode;

use clap::Parser;
use connect_four::cli::{Cli, FrontEnd, Opponent};
use connect_four::{protocol, text, Checker, Game};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut game = match Game::new(&cli.game_config(), cli.first_player()) {
        Ok(game) => game,
        Err(error) => {
            eprintln!("connect_four: {error}");
            return ExitCode::from(2);
        }
    };
    let result = match cli.front_end() {
        FrontEnd::Protocol => protocol::serve(&mut game, io::stdin().lock(), io::stdout().lock()),
        FrontEnd::Text => text::run(
            &mut game,
            cli.opponent,
            cli.first_player(),
            io::stdin().lock(),
            io::stdout().lock(),
        ),
        FrontEnd::Window => return window(game, cli.opponent, cli.first_player()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The reader went away (for example `| head`): nothing is left to say.
        Err(error) if error.kind() == ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("connect_four: {error}");
            ExitCode::FAILURE
        }
    }
}

/// Runs the FLTK window; `first` moves first in every game (random if `None`).
#[cfg(feature = "gui")]
fn window(game: Game, opponent: Option<Opponent>, first: Option<Checker>) -> ExitCode {
    match connect_four::gui::run(game, opponent, first) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("connect_four: {error}");
            ExitCode::FAILURE
        }
    }
}

/// Without the `gui` feature there is no window: say what to use instead.
#[cfg(not(feature = "gui"))]
fn window(_game: Game, _opponent: Option<Opponent>, _first: Option<Checker>) -> ExitCode {
    eprintln!(
        "connect_four: this build has no window (it was built without the `gui` feature); \
         use --text to play in the terminal or --protocol for the grading protocol"
    );
    ExitCode::from(2)
}
