//! `grade match A B`: plays the match with its progress on standard error (a bar on a terminal,
//! with any forfeit on a line above it; elsewhere one line per game) and prints its standings.

use std::io::Write;

use crate::judge::matchup::{play, Conditions, MatchError, Spec};
use crate::report::matchup::{bar, error, game, text};
use crate::report::progress::Progress;

/// Why a match could not be played: the judge's reason, and how the report words it (naming
/// the players).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{shown}")]
pub struct MatchupError {
    /// Why (boxed: a forfeit is large).
    pub error: Box<MatchError>,
    /// The report's words for it.
    shown: String,
}

/// Plays the match between `specs`; `Err` says why it could not be played (a player that
/// cannot start).
pub fn run(specs: &[Spec; 2], settings: &Conditions) -> Result<(), MatchupError> {
    let out = Progress::stderr();
    out.status(&bar(0, settings.games));
    let standings = play(specs, settings, |record| {
        if !out.live() || record.forfeit.is_some() {
            out.line(&game(record, specs, settings.games));
        }
        out.status(&bar(record.number, settings.games));
    });
    out.finish();
    let standings = standings.map_err(|why| MatchupError {
        shown: error(&why, specs),
        error: Box::new(why),
    })?;
    let _ = write!(
        std::io::stdout().lock(),
        "{}",
        text(specs, settings, &standings)
    );
    Ok(())
}
