//! The computer playing itself: to the end with its pauses, and Stop, Undo and Go on.

use std::time::{Duration, Instant};

use connect_four_supplied::gui::Control;
use connect_four_supplied::{Opponent, Player};

use super::drive::{close, game, open, pause, press, pump_until};
use super::look::{assert_board, count};
use crate::Test;

/// This module's scenarios, in the order they run.
pub fn tests() -> Vec<Test> {
    tests![
        the_computer_plays_itself_to_the_end,
        the_computer_against_itself_stops_and_goes_on,
    ]
}

fn the_computer_plays_itself_to_the_end() {
    // The tiny computer fills columns from the left: red makes the bottom row and wins.
    let mut gui = open(game(2, 4, Player::Red), Opponent::ComputerVsComputer, None);
    let started = Instant::now();
    pump_until(&mut gui, "the end of the game", |gui| {
        gui.status().contains("Press New game")
    });
    assert_eq!(gui.status(), "Red wins! Press New game to play again.");
    assert_board(&gui, &["BBB.", "R*R*R*R*"]);
    // Six pauses between seven moves.
    assert!(started.elapsed() >= Duration::from_millis(2900));
    close(gui);
}

fn the_computer_against_itself_stops_and_goes_on() {
    let mut gui = open(game(6, 7, Player::Red), Opponent::ComputerVsComputer, None);
    pump_until(&mut gui, "two moves", |gui| count(gui, ".") == 40);
    press(&mut gui, Control::Stop);
    pump_until(&mut gui, "the computers to stop", |gui| !gui.is_thinking());
    assert_eq!(
        gui.status(),
        "Stopped, red to move: press Go on to watch the rest."
    );
    pause(1.2);
    gui.handle_pending();
    assert_eq!(count(&gui, "."), 40, "a move was played after Stop");
    // Undo takes back one move; Go on plays on from there.
    press(&mut gui, Control::Undo);
    assert_eq!(count(&gui, "."), 41);
    press(&mut gui, Control::Stop);
    pump_until(&mut gui, "the next move", |gui| count(gui, ".") == 40);
    // Undo while they play stops them too.
    press(&mut gui, Control::Undo);
    pump_until(&mut gui, "the computers to stop", |gui| !gui.is_thinking());
    assert!(gui.status().starts_with("Stopped"), "{}", gui.status());
    let left = count(&gui, ".");
    pause(1.2);
    gui.handle_pending();
    assert_eq!(count(&gui, "."), left);
    close(gui);
}
