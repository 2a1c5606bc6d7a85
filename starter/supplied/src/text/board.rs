//! The board as the terminal draws it: one line per row under a line of column numbers.

use crate::playable::Playable;
use crate::protocol::board_rows;

/// The board, one line per row under a line of column numbers, three characters a cell.
pub(super) fn draw_board(game: &impl Playable) -> String {
    let mut text: String = (0..game.cols()).map(|col| format!("{col:>3}")).collect();
    text.push('\n');
    for row in board_rows(game) {
        text.extend(row.chars().map(|letter| format!("{letter:>3}")));
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::super::testing::game;
    use super::*;

    #[test]
    fn the_board_has_column_numbers_over_its_cells() {
        let mut game = game(2, 3);
        game.play(1).unwrap();
        game.play(1).unwrap();
        assert_eq!(draw_board(&game), "  0  1  2\n  .  B  .\n  .  R  .\n");
    }

    #[test]
    fn wide_boards_keep_columns_aligned() {
        let board = draw_board(&game(1, 12));
        let lines: Vec<&str> = board.lines().collect();
        assert!(lines[0].ends_with(" 10 11"), "{board}");
        assert_eq!(lines[0].len(), lines[1].len());
    }
}
