//! The supplied window, driven in-process under X as a person would use it, over a small
//! `Playable` that is not the reference (`support/tiny_game.rs`): clicks on cells and on New
//! game, the status label's words, and the pictures actually drawn (the window drawn into an
//! image).
//!
//! FLTK must stay on the thread that started it, so this file has one test that runs every
//! scenario in turn on that thread. Each wait is bounded and fails with what the label said.
#![cfg(feature = "gui")]

#[path = "support/display.rs"]
mod display;
#[path = "support/tiny_game.rs"]
mod tiny_game;

use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

use connect_four_supplied::gui::{GameWindow, OpponentDialog, CELL};
use connect_four_supplied::{Checker, MoveError, Opponent, Outcome, Playable, Player};
use fltk::app;
use fltk::image::RgbImage;
use fltk::prelude::*;
use fltk::surface::ImageSurface;
use tiny_game::TinyGame;

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
    gui.click_new_game();
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

/// A game whose computer player searches only when the test lets it, so that "during a long
/// search" lasts exactly as long as the test needs.
struct Gated {
    game: TinyGame,
    gate: Receiver<()>,
}

impl Playable for Gated {
    fn rows(&self) -> usize {
        self.game.rows()
    }
    fn cols(&self) -> usize {
        self.game.cols()
    }
    fn checker(&self, row: usize, col: usize) -> Checker {
        self.game.checker(row, col)
    }
    fn turn(&self) -> Checker {
        self.game.turn()
    }
    fn play(&mut self, col: usize) -> Result<usize, MoveError> {
        self.game.play(col)
    }
    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }
    fn computer_move(&mut self) -> Result<usize, MoveError> {
        self.gate
            .recv()
            .map_err(|_| MoveError::EngineFailed("the test closed the gate".into()))?;
        self.game.computer_move()
    }
    fn new_game(&mut self, first: Option<Player>) {
        self.game.new_game(first)
    }
}

fn clicks_wait_while_the_computer_thinks() {
    let (open_gate, gate) = channel();
    let gated = Gated {
        game: game(6, 7, Player::Red),
        gate,
    };
    let mut gui = open(gated, Opponent::Computer, None);
    assert_eq!(gui.status(), "Your move (red): click a column.");
    click(&mut gui, 0, 3);
    assert!(gui.is_thinking());
    assert_eq!(gui.status(), "The computer (black) is thinking...");
    click(&mut gui, 0, 0);
    gui.click_new_game();
    gui.handle_pending();
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
    let (open_gate, gate) = channel();
    drop(open_gate);
    let gated = Gated {
        game: game(6, 7, Player::Red),
        gate,
    };
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

fn game(rows: usize, cols: usize, first: Player) -> TinyGame {
    TinyGame::new(rows, cols, first)
}

/// Opens a window on `game`; later games start with `first` (random if `None`).
fn open<G: Playable + Send + 'static>(
    game: G,
    opponent: Opponent,
    first: Option<Player>,
) -> GameWindow<G> {
    let mut gui = GameWindow::new(game, opponent, first).unwrap();
    gui.show();
    pump_until(&mut gui, "the window to show", |gui| gui.window().shown());
    gui
}

fn close<G: Playable + Send + 'static>(gui: GameWindow<G>) {
    gui.window().hide();
    pause(0.0);
}

/// Clicks a cell and handles the click, as the event loop would.
fn click<G: Playable + Send + 'static>(gui: &mut GameWindow<G>, row: usize, col: usize) {
    gui.click(row, col);
    gui.handle_pending();
}

/// Runs the event loop until `done` holds, failing after [`PATIENCE`].
fn pump_until<G: Playable + Send + 'static>(
    gui: &mut GameWindow<G>,
    what: &str,
    done: impl Fn(&GameWindow<G>) -> bool,
) {
    let deadline = Instant::now() + PATIENCE;
    while !done(gui) {
        assert!(
            Instant::now() < deadline,
            "waited {PATIENCE:?} for {what}; the label says {:?}",
            gui.status()
        );
        pause(0.02);
        gui.handle_pending();
    }
}

/// The window drawn into an image, exactly as it is drawn on the screen.
fn capture<G: Playable + Send + 'static>(gui: &GameWindow<G>) -> RgbImage {
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
fn look<G: Playable + Send + 'static>(
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

/// What every cell shows, row by row, as [`look`] spells it. The whole board must be in view.
fn screen<G: Playable + Send + 'static>(gui: &GameWindow<G>) -> Vec<Vec<String>> {
    let image = capture(gui);
    let (rows, cols) = gui.size();
    (0..rows)
        .map(|row| (0..cols).map(|col| look(gui, &image, row, col)).collect())
        .collect()
}

fn assert_board<G: Playable + Send + 'static>(gui: &GameWindow<G>, expected: &[&str]) {
    let rows: Vec<String> = screen(gui).iter().map(|row| row.concat()).collect();
    assert_eq!(rows, expected, "the board on the screen");
}

/// How many cells on the screen show exactly `look` (as [`screen`] spells it).
fn count<G: Playable + Send + 'static>(gui: &GameWindow<G>, look: &str) -> usize {
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
