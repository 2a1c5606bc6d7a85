//! The supplied window, driven in-process under X as a person would use it, over a small
//! `Playable` that is not the reference (`support/tiny_game.rs`): clicks on cells and on the
//! controls (New game, Undo, Redo, Hint, Stop, Animate), board keys, the status label's words,
//! and the pictures actually drawn (the window drawn into an image).
//!
//! FLTK must stay on the thread that started it, so this file has one test that runs every
//! scenario in turn on that thread. Each wait is bounded and fails with what the label said.
#![cfg(feature = "gui")]

#[path = "support/display.rs"]
mod display;
#[path = "support/tiny_game.rs"]
mod tiny_game;

use std::sync::mpsc::{channel, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use connect_four_supplied::gui::{Control, GameWindow, OpponentDialog, CELL};
use connect_four_supplied::{Analyze, MoveError, Opponent, Player, StopSignal};
use fltk::app;
use fltk::enums::Key;
use fltk::image::RgbImage;
use fltk::prelude::*;
use fltk::surface::ImageSurface;
use tiny_game::{Hooked, TinyGame};

/// The longest any wait in these tests may take before it counts as a hang.
const PATIENCE: Duration = Duration::from_secs(120);

#[test]
fn the_window_plays_as_a_person_sees_it() {
    let Some(display) = display::display(&[]) else {
        return;
    };
    std::env::set_var("DISPLAY", &display.name);
    let _app = app::App::default();
    two_people_play_to_a_win_and_start_again();
    a_full_column_refuses_a_click();
    clicks_wait_while_the_computer_thinks();
    a_failing_computer_is_reported();
    a_whole_game_against_the_computer_ends();
    the_dialog_answers_or_closes();
    a_huge_board_fits_on_the_screen();
    keys_choose_and_drop();
    checkers_fall_unless_switched_off();
    a_reply_during_a_fall_is_not_held_up();
    undo_and_redo_between_people();
    undo_against_the_computer_takes_back_the_reply_too();
    undo_during_a_search_waits_for_a_game_that_cannot_stop();
    undo_during_a_search_stops_a_game_that_can();
    undo_with_nothing_to_take_back_leaves_the_search_alone();
    the_hint_writes_each_column_s_value();
    a_click_during_the_hint_stops_it_and_plays();
    the_computer_plays_itself_to_the_end();
    the_computer_against_itself_stops_and_goes_on();
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

/// `game` with searches (the computer's move, the hint) that finish only when the test lets
/// them, so that "during a long search" lasts exactly as long as the test needs, and the sender
/// that opens its gate, once per search. With `stop` as its stop signal, a raised signal ends a
/// search early too, with an error the window must ignore.
fn with_gate(game: TinyGame, stop: Option<StopSignal>) -> (Hooked, Sender<()>) {
    let (open_gate, gate) = channel();
    let wait = move |stop: Option<&StopSignal>| loop {
        match gate.recv_timeout(Duration::from_millis(5)) {
            Ok(()) => return Ok(()),
            Err(RecvTimeoutError::Disconnected) => {
                return Err(MoveError::EngineFailed("the test closed the gate".into()))
            }
            Err(RecvTimeoutError::Timeout) => {
                if stop.is_some_and(StopSignal::is_raised) {
                    return Err(MoveError::EngineFailed("stopped".into()));
                }
            }
        }
    };
    (Hooked::new(game, stop, wait), open_gate)
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

fn game(rows: usize, cols: usize, first: Player) -> TinyGame {
    TinyGame::new(rows, cols, first)
}

/// Opens a window on `game`; later games start with `first` (random if `None`).
fn open<G: Analyze + Send + 'static>(
    game: G,
    opponent: Opponent,
    first: Option<Player>,
) -> GameWindow<G> {
    let mut gui = GameWindow::new(game, opponent, first).unwrap();
    // Checkers appear at once, unless a test switches falling on.
    gui.set_animation(false);
    gui.show();
    pump_until(&mut gui, "the window to show", |gui| gui.window().shown());
    gui
}

fn close<G: Analyze + Send + 'static>(gui: GameWindow<G>) {
    gui.window().hide();
    pause(0.0);
}

/// Clicks a cell and handles the click, as the event loop would.
fn click<G: Analyze + Send + 'static>(gui: &mut GameWindow<G>, row: usize, col: usize) {
    gui.click(row, col);
    gui.handle_pending();
}

/// Presses a control and handles the press, as the event loop would.
fn press<G: Analyze + Send + 'static>(gui: &mut GameWindow<G>, control: Control) {
    gui.press(control);
    gui.handle_pending();
}

/// Presses a key on the board and handles it, as the event loop would.
fn key<G: Analyze + Send + 'static>(gui: &mut GameWindow<G>, key: Key) {
    gui.key(key);
    gui.handle_pending();
}

/// Whether the bottom cell of column `col` shows the keyboard's frame on its left edge.
fn marked<G: Analyze + Send + 'static>(gui: &GameWindow<G>, col: usize) -> bool {
    let image = capture(gui);
    let (x, y) = gui.cell_center(gui.size().0 - 1, col);
    let at = (((y * image.data_w()) + x - CELL / 2 + 1) * 3) as usize;
    image.to_rgb_data()[at..at + 3] == [255, 255, 255]
}

/// Runs the event loop until `done` holds, failing after [`PATIENCE`].
fn pump_until<G: Analyze + Send + 'static>(
    gui: &mut GameWindow<G>,
    what: &str,
    done: impl Fn(&GameWindow<G>) -> bool,
) {
    pump_within(gui, what, PATIENCE, done);
}

/// Runs the event loop until a stopped search hands the game back: at once, so well within
/// ten seconds.
fn pump_until_stopped<G: Analyze + Send + 'static>(gui: &mut GameWindow<G>) {
    let what = "the stopped search to hand the game back";
    pump_within(gui, what, Duration::from_secs(10), |gui| !gui.is_thinking());
}

/// Runs the event loop until `done` holds, failing after `patience`.
fn pump_within<G: Analyze + Send + 'static>(
    gui: &mut GameWindow<G>,
    what: &str,
    patience: Duration,
    done: impl Fn(&GameWindow<G>) -> bool,
) {
    let deadline = Instant::now() + patience;
    while !done(gui) {
        assert!(
            Instant::now() < deadline,
            "waited {patience:?} for {what}; the label says {:?}",
            gui.status()
        );
        pause(0.02);
        gui.handle_pending();
    }
}

/// The window drawn into an image, exactly as it is drawn on the screen.
fn capture<G: Analyze + Send + 'static>(gui: &GameWindow<G>) -> RgbImage {
    let window = gui.window();
    pause(0.0);
    let surface = ImageSurface::new(window.w(), window.h(), false);
    ImageSurface::push_current(&surface);
    surface.draw(&window, 0, 0);
    let image = surface
        .image()
        .expect("the window can be drawn into an image");
    ImageSurface::pop_current();
    image
}

/// What the cell at (`row`, `col`) shows in `image`: `.` empty, `R` red, `B` black, with `*`
/// after a ringed (winning) checker. The cell must be in view.
fn look<G: Analyze + Send + 'static>(
    gui: &GameWindow<G>,
    image: &RgbImage,
    row: usize,
    col: usize,
) -> String {
    let (width, pixels) = (image.data_w(), image.to_rgb_data());
    let nearest = |(x, y): (i32, i32), palette: &[((i32, i32, i32), &'static str)]| {
        let at = ((y * width + x) * 3) as usize;
        let seen = pixels[at..at + 3].iter().map(|&v| i32::from(v));
        let distance = |(r, g, b): (i32, i32, i32)| {
            seen.clone()
                .zip([r, g, b])
                .map(|(a, b)| (a - b).pow(2))
                .sum::<i32>()
        };
        palette
            .iter()
            .min_by_key(|(colour, _)| distance(*colour))
            .unwrap()
            .1
    };
    let discs = [
        ((242, 242, 242), "."),
        ((224, 32, 27), "R"),
        ((34, 34, 34), "B"),
    ];
    let rings = [((31, 79, 180), ""), ((255, 210, 31), "*")];
    let (x, y) = gui.cell_center(row, col);
    format!(
        "{}{}",
        nearest((x, y), &discs),
        nearest((x, y - 32), &rings)
    )
}

/// How many dark pixels (text) the middle of the cell at (`row`, `col`) shows in `image`: a
/// box in the light hole, clear of its rim, where the hint writes its numbers.
fn ink<G: Analyze + Send + 'static>(
    gui: &GameWindow<G>,
    image: &RgbImage,
    row: usize,
    col: usize,
) -> usize {
    let (width, pixels) = (image.data_w(), image.to_rgb_data());
    let (x, y) = gui.cell_center(row, col);
    let dark = |(dx, dy): (i32, i32)| {
        let at = (((y + dy) * width + x + dx) * 3) as usize;
        pixels[at..at + 3].iter().all(|&v| v < 128)
    };
    (-15..=15)
        .flat_map(|dx| (-10..=10).map(move |dy| (dx, dy)))
        .filter(|&offset| dark(offset))
        .count()
}

/// What every cell shows, row by row, as [`look`] spells it. The whole board must be in view.
fn screen<G: Analyze + Send + 'static>(gui: &GameWindow<G>) -> Vec<Vec<String>> {
    let image = capture(gui);
    let (rows, cols) = gui.size();
    (0..rows)
        .map(|row| (0..cols).map(|col| look(gui, &image, row, col)).collect())
        .collect()
}

fn assert_board<G: Analyze + Send + 'static>(gui: &GameWindow<G>, expected: &[&str]) {
    let rows: Vec<String> = screen(gui).iter().map(|row| row.concat()).collect();
    assert_eq!(rows, expected, "the board on the screen");
}

/// Like [`assert_board`], for the `bottom` rows of the board; every row above is empty.
fn assert_bottom<G: Analyze + Send + 'static>(gui: &GameWindow<G>, bottom: &[&str]) {
    let (rows, cols) = gui.size();
    let empty = ".".repeat(cols);
    let above = vec![empty.as_str(); rows - bottom.len()];
    assert_board(gui, &[&above[..], bottom].concat());
}

/// How many cells on the screen show exactly `look` (as [`screen`] spells it).
fn count<G: Analyze + Send + 'static>(gui: &GameWindow<G>, look: &str) -> usize {
    screen(gui)
        .iter()
        .flatten()
        .filter(|cell| *cell == look)
        .count()
}

/// Runs the event loop for up to `seconds`. A wait cut short by a signal (Rust's test harness
/// and the search threads raise some) is harmless: every caller waits again or moves on.
fn pause(seconds: f64) {
    app::wait_for(seconds).ok();
}
