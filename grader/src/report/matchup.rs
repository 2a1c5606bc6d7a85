//! `grade match` in words: one line per game for a log, why a player forfeited, a progress bar,
//! and the standings table with A's score and its 95% interval.

use std::fmt::Write;

use super::failure;
use super::inert;
use super::numbers::counted;
use crate::judge::matchup::{
    wilson, Conditions, Forfeit, GameRecord, MatchError, Scoreboard, Spec, NAMES,
};

/// How wide the progress bar is, in characters.
const BAR: usize = 30;

/// Why a player lost a game without losing on the board.
pub fn forfeit(forfeit: &Forfeit) -> String {
    match forfeit {
        Forfeit::NotStarted(failure) => format!("it did not start: {}", failure::failure(failure)),
        Forfeit::Failed(line, failure) => format!("`{line}`: {}", failure::failure(failure)),
        Forfeit::Refused(line, first) => format!("answered {first:?} to `{line}`"),
        Forfeit::Disagreed(line, got, wanted) => {
            format!(
                "answered `= {}` to `{line}`, not `= {wanted}`",
                inert::line(got)
            )
        }
        Forfeit::NotAColumn(column) => {
            format!(
                "answered `= {}` to `genmove`: not a column",
                inert::line(column)
            )
        }
        Forfeit::Illegal(col, error) => format!("chose column {col}: {error}"),
        Forfeit::Engine(Some(error)) => format!("the engine failed: {error}"),
        Forfeit::Engine(None) => "the engine found no move".into(),
    }
}

/// Why the match could not be played.
pub fn error(error: &MatchError, specs: &[Spec; 2]) -> String {
    match error {
        MatchError::Board(why) => why.clone(),
        MatchError::CannotStart(side, why) => format!(
            "player {} ({}) cannot start: {}",
            NAMES[*side],
            specs[*side],
            forfeit(why)
        ),
    }
}

/// One line for a log: who moved first, who won and how.
pub fn game(record: &GameRecord, specs: &[Spec; 2], games: u32) -> String {
    let head = format!(
        "game {}/{games}, {} first: ",
        record.number, NAMES[record.first]
    );
    let moves = counted(record.moves, "move");
    match (record.winner, &record.forfeit) {
        (None, _) => format!("{head}a tie after {moves}"),
        (Some(winner), None) => format!("{head}{} won in {moves}", NAMES[winner]),
        (Some(winner), Some(why)) => {
            let loser = 1 - winner;
            format!(
                "{head}{} won: {} ({}) failed after {moves}: {}",
                NAMES[winner],
                NAMES[loser],
                specs[loser],
                forfeit(why)
            )
        }
    }
}

/// A progress bar: `[######        ] 3/7`.
pub fn bar(done: u32, total: u32) -> String {
    let filled = (done as usize * BAR)
        .checked_div(total as usize)
        .unwrap_or(BAR);
    format!(
        "[{}{}] {done}/{total}",
        "#".repeat(filled),
        " ".repeat(BAR - filled.min(BAR))
    )
}

/// The standings for people: the players, the settings, a table of the games by first player and
/// in all, with A's score and its interval, and the games lost by failing.
pub fn text(specs: &[Spec; 2], settings: &Conditions, standings: &Scoreboard) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "A (red):   {}", specs[0]);
    let _ = writeln!(out, "B (black): {}", specs[1]);
    let _ = writeln!(
        out,
        "{} games on {} x {}, the first player alternating (A first in game 1), seed {}\n",
        settings.games, settings.rows, settings.cols, settings.seed
    );
    let _ = writeln!(
        out,
        "{:<10} {:>6} {:>7} {:>7} {:>5}  {:>9}  95% interval",
        "", "games", "A wins", "B wins", "ties", "A's score"
    );
    let rows = [
        ("A first", standings.by_first[0]),
        ("B first", standings.by_first[1]),
        ("all", standings.total()),
    ];
    for (name, tally) in rows {
        let score = tally.score();
        let (low, high) = wilson(score, tally.games);
        let _ = writeln!(
            out,
            "{name:<10} {:>6} {:>7} {:>7} {:>5}  {score:>9.3}  {low:.3} to {high:.3}",
            tally.games, tally.wins[0], tally.wins[1], tally.ties
        );
    }
    let _ = writeln!(
        out,
        "\nA's score is (A wins + ties / 2) / games; the interval is the 95% Wilson score \
         interval, a tie counted as half a win."
    );
    let failures = standings.total().failures;
    if failures != [0, 0] {
        let _ = writeln!(
            out,
            "Games lost by failing (a move that cannot be played, a crash, a timeout, garbage): \
             A {}, B {}.",
            failures[0], failures[1]
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bar_fills_with_the_games() {
        assert_eq!(bar(0, 3), format!("[{}] 0/3", " ".repeat(BAR)));
        assert_eq!(
            bar(1, 3),
            format!("[{}{}] 1/3", "#".repeat(10), " ".repeat(20))
        );
        assert_eq!(bar(3, 3), format!("[{}] 3/3", "#".repeat(BAR)));
    }
}
