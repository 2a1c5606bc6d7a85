//! The window while the computer searches: clicks wait and the clock ticks, and a search
//! that fails is reported.

use connect_four_supplied::{Opponent, Player};

use super::drive::{click, close, game, open, pump_until, with_gate};
use super::look::{assert_board, count};
use crate::Test;

/// This module's scenarios, in the order they run.
pub fn tests() -> Vec<Test> {
    tests![
        clicks_wait_while_the_computer_thinks,
        a_failing_computer_is_reported,
    ]
}

fn clicks_wait_while_the_computer_thinks() {
    let (gated, open_gate) = with_gate(game(6, 7, Player::Red), None);
    let mut gui = open(gated, Opponent::Computer, None);
    assert_eq!(gui.status(), "Your move (red): click a column.");
    click(&mut gui, 0, 3);
    assert!(gui.is_thinking());
    assert_eq!(gui.status(), "The computer (black) is thinking...");
    click(&mut gui, 0, 0);
    assert_eq!(
        gui.status(),
        "Please wait for the computer's move. The computer (black) is thinking..."
    );
    // The event loop still runs: the clock ticks and the board is still drawn, unchanged.
    pump_until(&mut gui, "the clock to tick during the search", |gui| {
        gui.status().ends_with("thinking... 1 s")
    });
    assert_board(
        &gui,
        &[
            ".......", ".......", ".......", ".......", ".......", "...R...",
        ],
    );
    open_gate.send(()).unwrap();
    pump_until(&mut gui, "the computer's move", |gui| !gui.is_thinking());
    assert_eq!(gui.status(), "Your move (red): click a column.");
    assert_eq!(count(&gui, "B"), 1);
    assert_eq!(count(&gui, "R"), 1);
    close(gui);
}

fn a_failing_computer_is_reported() {
    let (gated, open_gate) = with_gate(game(6, 7, Player::Red), None);
    drop(open_gate);
    let mut gui = open(gated, Opponent::Computer, None);
    click(&mut gui, 0, 3);
    pump_until(&mut gui, "the search to fail", |gui| !gui.is_thinking());
    assert_eq!(
        gui.status(),
        "The computer player failed: the test closed the gate. \
         The computer cannot move: press New game, or close the window."
    );
    click(&mut gui, 0, 2);
    assert!(
        gui.status().starts_with("It is the computer's move."),
        "{}",
        gui.status()
    );
    assert_eq!(count(&gui, "R"), 1);
    close(gui);
}
