//! Undo and Redo in the window: between people, against the computer (its reply too), and
//! during a search, which a game that can stop is stopped for.

use connect_four_supplied::gui::Control;
use connect_four_supplied::{Opponent, Player, StopSignal};

use super::drive::{
    click, close, game, open, pause, press, pump_until, pump_until_stopped, with_gate,
};
use super::look::{assert_bottom, count};
use crate::Test;

/// This module's scenarios, in the order they run.
pub fn tests() -> Vec<Test> {
    tests![
        undo_and_redo_between_people,
        undo_against_the_computer_takes_back_the_reply_too,
        undo_during_a_search_waits_for_a_game_that_cannot_stop,
        undo_during_a_search_stops_a_game_that_can,
        undo_with_nothing_to_take_back_leaves_the_search_alone,
    ]
}

fn undo_and_redo_between_people() {
    let mut gui = open(game(6, 7, Player::Red), Opponent::Human, None);
    press(&mut gui, Control::Undo);
    assert_eq!(
        gui.status(),
        "There is no move to take back. Red's move: click a column."
    );
    for col in [3, 4, 5] {
        click(&mut gui, 0, col);
    }
    press(&mut gui, Control::Undo);
    assert_eq!(gui.status(), "Red's move: click a column.");
    press(&mut gui, Control::Undo);
    assert_bottom(&gui, &["...R..."]);
    assert_eq!(gui.status(), "Black's move: click a column.");
    press(&mut gui, Control::Redo);
    assert_bottom(&gui, &["...RB.."]);
    assert_eq!(gui.status(), "Red's move: click a column.");
    // A new move forgets what was taken back.
    click(&mut gui, 0, 0);
    press(&mut gui, Control::Redo);
    assert_eq!(
        gui.status(),
        "There is no move to play again. Black's move: click a column."
    );
    assert_bottom(&gui, &["R..RB.."]);
    close(gui);
}

fn undo_against_the_computer_takes_back_the_reply_too() {
    let mut gui = open(game(6, 7, Player::Red), Opponent::Computer, None);
    // Stop (its key, S, is only for the computer playing itself) does not stop this computer.
    press(&mut gui, Control::Stop);
    for col in [6, 5] {
        click(&mut gui, 0, col);
        pump_until(&mut gui, "the computer's move", |gui| !gui.is_thinking());
    }
    assert_bottom(&gui, &["B......", "B....RR"]);
    press(&mut gui, Control::Undo);
    assert_bottom(&gui, &["B.....R"]);
    assert_eq!(gui.status(), "Your move (red): click a column.");
    assert!(!gui.is_thinking());
    press(&mut gui, Control::Redo);
    assert_bottom(&gui, &["B......", "B....RR"]);
    assert_eq!(gui.status(), "Your move (red): click a column.");
    close(gui);
}

fn undo_during_a_search_waits_for_a_game_that_cannot_stop() {
    let (gated, open_gate) = with_gate(game(6, 7, Player::Red), None);
    let mut gui = open(gated, Opponent::Computer, None);
    click(&mut gui, 0, 3);
    press(&mut gui, Control::Undo);
    assert_eq!(gui.status(), "Taking the move back...");
    // Still searching, and the window still answers.
    pause(0.3);
    gui.handle_pending();
    assert!(gui.is_thinking());
    assert_eq!(count(&gui, "R"), 1);
    open_gate.send(()).unwrap();
    pump_until(&mut gui, "the search to end", |gui| !gui.is_thinking());
    // The computer's answer is thrown away and the move taken back.
    assert_eq!(gui.status(), "Your move (red): click a column.");
    assert_eq!(count(&gui, "."), 42);
    close(gui);
}

fn undo_during_a_search_stops_a_game_that_can() {
    let (gated, _open_gate) = with_gate(game(6, 7, Player::Red), Some(StopSignal::new()));
    let mut gui = open(gated, Opponent::Computer, Some(Player::Red));
    click(&mut gui, 0, 3);
    assert!(gui.is_thinking());
    press(&mut gui, Control::Undo);
    pump_until_stopped(&mut gui);
    assert_eq!(gui.status(), "Your move (red): click a column.");
    assert_eq!(count(&gui, "."), 42);
    // New game during a search stops it too.
    click(&mut gui, 0, 2);
    press(&mut gui, Control::NewGame);
    assert_eq!(gui.status(), "Starting a new game...");
    pump_until_stopped(&mut gui);
    assert_eq!(gui.status(), "Your move (red): click a column.");
    assert_eq!(count(&gui, "."), 42);
    close(gui);
}

fn undo_with_nothing_to_take_back_leaves_the_search_alone() {
    let (gated, open_gate) = with_gate(game(6, 7, Player::Black), Some(StopSignal::new()));
    // The computer's opening search starts at once.
    let mut gui = open(gated, Opponent::Computer, Some(Player::Black));
    press(&mut gui, Control::Undo);
    press(&mut gui, Control::Redo);
    assert_eq!(
        gui.status(),
        "There is no move to play again. The computer (black) is thinking..."
    );
    pause(0.2);
    gui.handle_pending();
    assert!(gui.is_thinking());
    open_gate.send(()).unwrap();
    pump_until(&mut gui, "the computer's move", |gui| !gui.is_thinking());
    assert_eq!(count(&gui, "B"), 1);
    // Its opening move alone is not taken back: undo goes a turn of yours at a time.
    press(&mut gui, Control::Undo);
    assert_eq!(
        gui.status(),
        "There is no move to take back. Your move (red): click a column."
    );
    close(gui);
}
