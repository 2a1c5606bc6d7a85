//! The board keys: digits, arrows, Home and End choose a column, Enter, space and Down drop.

use connect_four_supplied::{Opponent, Player};
use fltk::enums::Key;

use super::drive::{click, close, game, key, open};
use super::look::{assert_bottom, marked};
use crate::Test;

/// This module's scenarios, in the order they run.
pub fn tests() -> Vec<Test> {
    tests![keys_choose_and_drop,]
}

fn keys_choose_and_drop() {
    let mut gui = open(game(6, 7, Player::Red), Opponent::Human, None);
    assert_eq!(gui.selected(), None);
    // The first board key only shows the keyboard's column: the middle one.
    key(&mut gui, Key::Right);
    assert_eq!(gui.selected(), Some(3));
    assert!(marked(&gui, 3) && !marked(&gui, 4));
    key(&mut gui, Key::Right);
    key(&mut gui, Key::Enter);
    assert_eq!(gui.status(), "Black's move: click a column.");
    // Digits count columns from 1, and move the keyboard's column there.
    key(&mut gui, Key::from_char('1'));
    assert_eq!(gui.selected(), Some(0));
    assert!(marked(&gui, 0) && !marked(&gui, 4));
    key(&mut gui, Key::Left);
    key(&mut gui, Key::from_char(' '));
    key(&mut gui, Key::End);
    key(&mut gui, Key::Down);
    // No eighth column: nothing happens.
    key(&mut gui, Key::from_char('8'));
    assert_eq!(gui.selected(), Some(6));
    assert_eq!(gui.status(), "Red's move: click a column.");
    assert_bottom(&gui, &["R......", "B...R.B"]);
    // A click hides the keyboard's column.
    click(&mut gui, 0, 2);
    assert_eq!(gui.selected(), None);
    assert!(!marked(&gui, 6));
    close(gui);
}
