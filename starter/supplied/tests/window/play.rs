//! Playing in the window: two people to a win and a new game, a full column, a whole game
//! against the computer, the opening dialog, and a board larger than the screen.

use connect_four_supplied::gui::{Control, OpponentDialog, CELL};
use connect_four_supplied::{Opponent, Player};
use fltk::app;
use fltk::prelude::*;

use super::drive::{click, close, game, open, pump_until};
use super::look::{assert_board, capture, count, look};
use crate::Test;

/// This module's scenarios, in the order they run.
pub fn tests() -> Vec<Test> {
    tests![
        two_people_play_to_a_win_and_start_again,
        a_full_column_refuses_a_click,
        a_whole_game_against_the_computer_ends,
        the_dialog_answers_or_closes,
        a_huge_board_fits_on_the_screen,
    ]
}

fn two_people_play_to_a_win_and_start_again() {
    let mut gui = open(
        game(6, 7, Player::Red),
        Opponent::Human,
        Some(Player::Black),
    );
    assert_eq!(gui.window().label(), "Connect Four \u{2014} 6 x 7");
    assert_eq!(gui.status(), "Red's move: click a column.");
    assert_board(
        &gui,
        &[
            ".......", ".......", ".......", ".......", ".......", ".......",
        ],
    );
    // A click anywhere in a column drops to its bottom: here, on the top cell of column 3.
    click(&mut gui, 0, 3);
    assert_eq!(gui.status(), "Black's move: click a column.");
    for col in [1, 0, 1, 0, 1, 0, 6] {
        click(&mut gui, 5, col);
    }
    click(&mut gui, 2, 0);
    assert_eq!(gui.status(), "Red wins! Press New game to play again.");
    let won = [
        ".......", ".......", "R*......", "R*B.....", "R*B.....", "R*B.R..B",
    ];
    assert_board(&gui, &won);
    click(&mut gui, 0, 6);
    assert_eq!(
        gui.status(),
        "The game is over. Red wins! Press New game to play again."
    );
    assert_board(&gui, &won);
    gui.press(Control::NewGame);
    gui.handle_pending();
    // New games start with the player asked for, here black.
    assert_eq!(gui.status(), "Black's move: click a column.");
    assert_board(
        &gui,
        &[
            ".......", ".......", ".......", ".......", ".......", ".......",
        ],
    );
    close(gui);
}

fn a_full_column_refuses_a_click() {
    let mut gui = open(game(2, 4, Player::Red), Opponent::Human, None);
    click(&mut gui, 0, 0);
    click(&mut gui, 0, 0);
    click(&mut gui, 1, 0);
    assert_eq!(
        gui.status(),
        "That column is full: choose another. Red's move: click a column."
    );
    assert_board(&gui, &["B...", "R..."]);
    click(&mut gui, 1, 1);
    assert_eq!(gui.status(), "Black's move: click a column.");
    close(gui);
}

fn a_whole_game_against_the_computer_ends() {
    // The computer moves first, so its search starts as soon as the window exists.
    let mut gui = open(game(5, 5, Player::Black), Opponent::Computer, None);
    for col in 0..100 {
        pump_until(&mut gui, "the computer's move", |gui| !gui.is_thinking());
        if gui.status().contains("Press New game") {
            break;
        }
        assert!(gui.status().contains("Your move (red)"), "{}", gui.status());
        click(&mut gui, 0, col % 5);
    }
    let status = gui.status();
    let rings = count(&gui, "R*") + count(&gui, "B*");
    match status.as_str() {
        "You win! Press New game to play again."
        | "The computer wins. Press New game to play again." => {
            assert_eq!(rings, 4, "{status}")
        }
        "It's a tie: the board is full. Press New game to play again." => assert_eq!(rings, 0),
        _ => panic!("the game did not end: {status}"),
    }
    close(gui);
}

fn the_dialog_answers_or_closes() {
    let mut dialog = OpponentDialog::new();
    let mut clicker = dialog.clone();
    app::add_timeout3(0.2, move |_| clicker.press(Opponent::Computer));
    assert_eq!(dialog.ask(), Some(Opponent::Computer));
    let mut watcher = dialog.clone();
    app::add_timeout3(0.2, move |_| watcher.press(Opponent::ComputerVsComputer));
    assert_eq!(dialog.ask(), Some(Opponent::ComputerVsComputer));
    let mut closer = dialog.clone();
    app::add_timeout3(0.2, move |_| closer.close());
    assert_eq!(dialog.ask(), None);
}

fn a_huge_board_fits_on_the_screen() {
    let mut gui = open(game(32, 32, Player::Red), Opponent::Human, None);
    let window = gui.window();
    let (screen_w, screen_h) = app::screen_size();
    assert_eq!(window.label(), "Connect Four \u{2014} 32 x 32");
    assert!(window.w() < screen_w as i32 && window.h() < screen_h as i32);
    assert!(window.w() < 32 * CELL);
    // The view starts at the bottom, where the checkers land.
    let (x, y) = gui.cell_center(31, 0);
    assert!(
        x > 0 && y > 0 && x < window.w() && y < window.h(),
        "({x}, {y}) is off the window"
    );
    click(&mut gui, 0, 0);
    assert_eq!(gui.status(), "Black's move: click a column.");
    assert_eq!(look(&gui, &capture(&gui), 31, 0), "R");
    close(gui);
}
