//! The terminal front end (`--text`): the same game as the window, for a machine without a
//! display.

use std::io::{self, BufRead, Write};

use crate::cli::Opponent;
use crate::playable::Playable;

/// Plays a game on `input` and `output` until it ends, the player quits or input ends.
pub fn run(
    _game: &mut impl Playable,
    _opponent: Option<Opponent>,
    _input: impl BufRead,
    mut output: impl Write,
) -> io::Result<()> {
    writeln!(output, "the terminal front end is not built yet")
}
