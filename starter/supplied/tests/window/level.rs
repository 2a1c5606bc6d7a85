//! The rising level in the window: with the Adaptive box ticked, a game won against the
//! computer makes it look one ply deeper in the next (the label and the hint's depth say so),
//! and a lost one leaves it there.

use connect_four_supplied::gui::Control;
use connect_four_supplied::{Opponent, Player};

use super::drive::{close, game, open, press, pump_until};
use super::sounds::drop_in;
use crate::Test;

/// This module's scenarios, in the order they run.
pub fn tests() -> Vec<Test> {
    tests![the_level_rises_after_a_won_game_and_stays_after_a_lost_one]
}

fn the_level_rises_after_a_won_game_and_stays_after_a_lost_one() {
    // The tiny game starts at depth 1, and its computer plays the leftmost open column.
    let mut gui = open(
        game(6, 7, Player::Red),
        Opponent::Computer,
        Some(Player::Red),
    );
    press(&mut gui, Control::Adaptive);
    assert_eq!(
        gui.status(),
        "Your move (red): click a column. Level 1 (depth 1)."
    );
    for col in [3, 3, 3, 3] {
        drop_in(&mut gui, col);
    }
    assert_eq!(
        gui.status(),
        "You win! Press New game to play again. Level 1 (depth 1). Next game: level 2."
    );
    press(&mut gui, Control::NewGame);
    assert_eq!(
        gui.status(),
        "Your move (red): click a column. Level 2 (depth 2)."
    );
    // The game itself searches deeper now: the hint's values are worked out at depth 2.
    press(&mut gui, Control::Hint);
    pump_until(&mut gui, "the hint", |gui| !gui.is_thinking());
    assert!(
        gui.status()
            .starts_with("Each open column shows its value at depth 2."),
        "{}",
        gui.status()
    );
    for col in [1, 1, 1, 2] {
        drop_in(&mut gui, col);
    }
    assert!(
        gui.status().starts_with("The computer wins."),
        "{}",
        gui.status()
    );
    press(&mut gui, Control::NewGame);
    assert_eq!(
        gui.status(),
        "Your move (red): click a column. Level 2 (depth 2)."
    );
    close(gui);
}
