//! What `main` does once the command line is parsed: hand the game to the front end asked for
//! (the window, the terminal or the grading protocol) and turn the result into an exit code.
//! The reference and the starter both call [`run`], so they start and fail the same way.
//!
//! Exit codes: 0 after a normal end (also when the reader of the output went away), 1 when
//! input or output fails or the window cannot run.

use std::io::{self, ErrorKind};
use std::process::ExitCode;

use crate::cli::{Arguments, FrontEnd};
use crate::playable::Analyze;
use crate::{protocol, text};

/// Runs `game` on the front end that `args` asks for; `window` is the window front end (the
/// supplied one is [`supplied_window`]), given the command line for its options (`opponent`,
/// `first`, `pause`). Messages go to standard error, prefixed `connect_four:`.
pub fn run<G: Analyze + Send + 'static>(
    mut game: G,
    args: &Arguments,
    window: impl FnOnce(G, &Arguments) -> Result<(), String>,
) -> ExitCode {
    let result = match args.front_end() {
        FrontEnd::Protocol => protocol::serve(&mut game, io::stdin().lock(), io::stdout().lock()),
        FrontEnd::Text => text::run(
            &mut game,
            args.opponent,
            args.first,
            args.pause,
            args.adaptive,
            io::BufReader::new(io::stdin()),
            io::stdout().lock(),
        ),
        FrontEnd::Window => window(game, args).map_err(io::Error::other),
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

/// The supplied window: asks for the opponent unless `args` gives it (`--opponent`), then
/// plays until the window is closed; `args.first` moves first in every game (random if `None`),
/// the computer playing itself pauses `args.pause` between moves, and `--mute` and
/// `--adaptive` tick the window's boxes.
#[cfg(feature = "gui")]
pub fn supplied_window<G: Analyze + Send + 'static>(
    game: G,
    args: &Arguments,
) -> Result<(), String> {
    crate::gui::run(game, args)
}

/// Without the `gui` feature there is no window: the error says what to use instead.
#[cfg(not(feature = "gui"))]
pub fn supplied_window<G>(_game: G, _args: &Arguments) -> Result<(), String> {
    Err(
        "this build has no window (it was built without the `gui` feature); \
         use --text to play in the terminal or --protocol for the grading protocol"
            .to_string(),
    )
}
