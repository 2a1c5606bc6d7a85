//! Checkers falling into place: what is drawn during a fall, the Animate box, and a reply
//! that comes during a fall.

use connect_four_supplied::gui::Control;
use connect_four_supplied::{Opponent, Player};

use super::drive::{click, close, game, open, press, pump_until};
use super::look::{assert_bottom, capture, look};
use crate::Test;

/// This module's scenarios, in the order they run.
pub fn tests() -> Vec<Test> {
    tests![
        checkers_fall_unless_switched_off,
        a_reply_during_a_fall_is_not_held_up,
    ]
}

fn checkers_fall_unless_switched_off() {
    let mut gui = open(game(6, 7, Player::Red), Opponent::Human, None);
    gui.set_animation(true);
    click(&mut gui, 5, 3);
    assert!(gui.is_falling());
    // The checker starts in the top cell of its column, and the game has moved on already.
    assert_eq!(look(&gui, &capture(&gui), 0, 3), "R");
    assert_eq!(look(&gui, &capture(&gui), 5, 3), ".");
    assert_eq!(gui.status(), "Black's move: click a column.");
    pump_until(&mut gui, "the checker to land", |gui| !gui.is_falling());
    assert_bottom(&gui, &["...R..."]);
    // A click during a fall lands the falling checker first.
    click(&mut gui, 0, 3);
    click(&mut gui, 0, 4);
    assert_eq!(look(&gui, &capture(&gui), 4, 3), "B");
    pump_until(&mut gui, "the checker to land", |gui| !gui.is_falling());
    assert_eq!(look(&gui, &capture(&gui), 5, 4), "R");
    // Switched off, checkers appear at once.
    press(&mut gui, Control::Animate);
    click(&mut gui, 0, 5);
    assert!(!gui.is_falling());
    assert_eq!(look(&gui, &capture(&gui), 5, 5), "B");
    close(gui);
}

fn a_reply_during_a_fall_is_not_held_up() {
    let mut gui = open(game(6, 7, Player::Red), Opponent::Computer, None);
    gui.set_animation(true);
    click(&mut gui, 0, 6);
    // The computer's reply (column 0) comes at once; the red checker is still falling.
    pump_until(&mut gui, "the computer's move", |gui| !gui.is_thinking());
    assert!(gui.is_falling(), "the fall ended before the reply came");
    assert_eq!(look(&gui, &capture(&gui), 5, 0), "B");
    assert_eq!(gui.status(), "Your move (red): click a column.");
    pump_until(&mut gui, "the checker to land", |gui| !gui.is_falling());
    assert_eq!(look(&gui, &capture(&gui), 5, 6), "R");
    close(gui);
}
