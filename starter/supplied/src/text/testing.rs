//! What the terminal front end's tests share: a whole session run on typed text, with
//! everything it wrote returned.

use std::io::{self, BufRead};
use std::time::Duration;

use super::run;
use crate::checker::Player;
use crate::opponent::Opponent;
use crate::playable::Analyze;
use crate::tiny_game::TinyGame;

/// An empty `rows` x `cols` tiny game, red to move.
pub(super) fn game(rows: usize, cols: usize) -> TinyGame {
    TinyGame::new(rows, cols, Player::Red)
}

/// Runs a session with `typed` as the input, red first and no pause, and returns everything
/// written.
pub(super) fn session(game: &mut TinyGame, opponent: Option<Opponent>, typed: &str) -> String {
    let typed = io::Cursor::new(typed.as_bytes().to_vec());
    session_with(game, opponent, Player::Red, Duration::ZERO, typed)
}

/// Runs a session with `first` to move first in each game and `pause` between the moves of a
/// computer playing itself, and returns everything written.
pub(super) fn session_with<G: Analyze>(
    game: &mut G,
    opponent: Option<Opponent>,
    first: Player,
    pause: Duration,
    typed: impl BufRead + Send + 'static,
) -> String {
    let mut output = Vec::new();
    let adaptive = false;
    run(
        game,
        opponent,
        Some(first),
        pause,
        adaptive,
        typed,
        &mut output,
    )
    .unwrap();
    String::from_utf8(output).unwrap()
}
