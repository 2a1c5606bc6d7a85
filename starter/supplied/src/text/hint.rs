//! The terminal's hint: each column's minimax value for the player to move, written under the
//! column numbers, and the best columns.

use super::words::columns;
use crate::playable::Analyze;
use crate::protocol::value_text;

/// Each column's minimax value for the player to move at the game's depth, in a line under the
/// column numbers (as wide as the widest value needs), and the best columns; or why not.
pub(super) fn hint(game: &mut impl Analyze) -> String {
    let Some(player) = game.turn().player() else {
        return "The game is over: there is nothing to hint.".to_string();
    };
    let depth = game.depth();
    let scores = match game.scores(depth) {
        Ok(scores) => scores,
        Err(error) => return format!("No hint: {error}."),
    };
    let shown: Vec<String> = scores.iter().map(|&score| value_text(score)).collect();
    let width = shown.iter().map(String::len).max().unwrap_or(0).max(2) + 1;
    let numbers: String = (0..shown.len())
        .map(|col| format!("{col:>width$}"))
        .collect();
    let values: String = shown
        .iter()
        .map(|value| format!("{value:>width$}"))
        .collect();
    let best = scores.iter().flatten().max();
    let best_cols: Vec<usize> = (0..scores.len())
        .filter(|&col| best.is_some() && scores[col].as_ref() == best)
        .collect();
    format!(
        "Each column's minimax value for {player} at depth {depth} (higher is better, - is full):\n\
         {numbers}\n{values}\nBest: {}.",
        columns(&best_cols)
    )
}

#[cfg(test)]
mod tests {
    use super::super::testing::{game, session};

    use crate::checker::Checker;
    use crate::opponent::Opponent;
    use crate::playable::Playable;

    #[test]
    fn a_hint_writes_each_column_s_value_under_its_number() {
        let mut game = game(2, 3);
        let out = session(&mut game, Some(Opponent::Human), "0\n0\nhint\nquit\n");
        let expected = "Each column's minimax value for red at depth 1 \
                        (higher is better, - is full):\n  0  1  2\n  -  1  1\nBest: columns 1 and 2.\n";
        assert!(out.contains(expected), "{out}");
        assert_eq!(game.turn(), Checker::Red);
    }
}
