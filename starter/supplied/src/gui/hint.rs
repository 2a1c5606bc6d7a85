//! The hint's words on the board: each open column's minimax value, written in the cell its
//! checker would land in (always an empty hole, so no checker is hidden).

use crate::checker::Checker;
use crate::playable::Playable;
use crate::score::Score;

/// Where to write each column's value in `values` on `game`'s board, as `(row, col, text)`;
/// nothing for a full column (`None`).
pub fn notes(game: &impl Playable, values: &[Option<Score>]) -> Vec<(usize, usize, String)> {
    values
        .iter()
        .enumerate()
        .filter_map(|(col, value)| {
            let value = (*value)?;
            let row = (0..game.rows())
                .rev()
                .find(|&row| game.checker(row, col) == Checker::Empty)?;
            Some((row, col, value.to_string()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checker::Player;
    use crate::tiny_game::TinyGame;

    #[test]
    fn values_go_where_the_checkers_would_land() {
        let mut game = TinyGame::new(2, 3, Player::Red);
        for col in [0, 0, 1] {
            game.play(col).unwrap();
        }
        let values = [None, Some(Score::WIN), Some(Score(-4))];
        assert_eq!(
            notes(&game, &values),
            [(0, 1, "inf".to_string()), (1, 2, "-4".to_string())]
        );
    }
}
