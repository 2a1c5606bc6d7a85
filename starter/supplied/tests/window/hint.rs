//! The Hint button: each column's value written where its checker would land, and a click
//! during the hint's search.

use connect_four_supplied::gui::Control;
use connect_four_supplied::{Opponent, Player, StopSignal};

use super::drive::{click, close, game, open, press, pump_until, pump_until_stopped, with_gate};
use super::look::{capture, ink, look};
use crate::Test;

/// This module's scenarios, in the order they run.
pub fn tests() -> Vec<Test> {
    tests![
        the_hint_writes_each_column_s_value,
        a_click_during_the_hint_stops_it_and_plays,
    ]
}

fn the_hint_writes_each_column_s_value() {
    let mut gui = open(game(2, 4, Player::Red), Opponent::Human, None);
    for col in [0, 0, 1] {
        click(&mut gui, 0, col);
    }
    press(&mut gui, Control::Hint);
    pump_until(&mut gui, "the hint", |gui| !gui.is_thinking());
    // The tiny game's value of every open column is its depth, 1; column 0 is full.
    assert_eq!(gui.hints(), ["", "1", "1", "1"]);
    assert_eq!(
        gui.status(),
        "Each open column shows its value at depth 1. Black's move: click a column."
    );
    // Written where each checker would land, in the hole, and nowhere else.
    let image = capture(&gui);
    assert!(ink(&gui, &image, 1, 2) > 0, "no number in the hole");
    assert_eq!(ink(&gui, &image, 0, 2), 0);
    click(&mut gui, 0, 3);
    assert_eq!(ink(&gui, &capture(&gui), 0, 2), 0);
    assert_eq!(gui.hints(), ["", "", "", ""]);
    assert_eq!(gui.status(), "Red's move: click a column.");
    close(gui);
}

fn a_click_during_the_hint_stops_it_and_plays() {
    let (gated, _open_gate) = with_gate(game(6, 7, Player::Red), Some(StopSignal::new()));
    let mut gui = open(gated, Opponent::Human, None);
    press(&mut gui, Control::Hint);
    assert_eq!(gui.status(), "Working out each column's value...");
    click(&mut gui, 0, 2);
    pump_until_stopped(&mut gui);
    assert_eq!(gui.status(), "Black's move: click a column.");
    assert_eq!(gui.hints(), ["", "", "", "", "", "", ""]);
    assert_eq!(look(&gui, &capture(&gui), 5, 2), "R");
    close(gui);
}
