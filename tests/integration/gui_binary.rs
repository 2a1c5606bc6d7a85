//! The real `connect_four` binary in a real window under X, driven from outside with `xdotool`
//! and looked at with ImageMagick's `import`, as a person (or the screenshot script) would:
//! the opening dialog, clicks and keys on the board, Undo and Redo by their keys, and closing
//! the window in the middle of a search or of the computer's game against itself. Each test
//! has a private X server of its own, and they take turns (see [`X::open`]).

use std::io::Read;
use std::process::{Child, Command, Output, Stdio};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::thread::sleep;
use std::time::{Duration, Instant};

use crate::display::{self, Display};

/// The longest any wait in these tests may take before it counts as a hang.
const PATIENCE: Duration = Duration::from_secs(60);
/// The side of a cell in pixels.
const CELL: i32 = 75;

#[test]
fn a_click_drops_a_checker() {
    let Some(x) = X::open() else {
        return;
    };
    let mut program = x.start(&["6", "7", "2", "1", "--opponent", "human", "--first", "red"]);
    let window = x.find(&mut program, "6 x 7");
    let bottom_of_column_3 = (3 * CELL + CELL / 2, 5 * CELL + CELL / 2);
    // The window is found once it is mapped, which can be before it is first drawn.
    x.wait_for("the empty board to be drawn", || {
        x.colour(&window, bottom_of_column_3) == "white"
    });
    x.click(&window, (3 * CELL + CELL / 2, CELL / 2));
    x.wait_for("a red checker at the bottom of column 3", || {
        x.colour(&window, bottom_of_column_3) == "red"
    });
    x.escape(&window);
    finish(&mut program);
}

#[test]
fn keys_drop_take_back_and_play_again() {
    let Some(x) = X::open() else {
        return;
    };
    let mut program = x.start(&["6", "7", "2", "1", "--opponent", "human", "--first", "red"]);
    let window = x.find(&mut program, "6 x 7");
    let bottom = |col: i32| (col * CELL + CELL / 2, 5 * CELL + CELL / 2);
    // 3 is the third column; then the arrow moves on to the fourth, and Enter drops there.
    x.keys(&window, &["3", "Right", "Return"]);
    x.wait_for("red in column 2 and black in column 3", || {
        x.colour(&window, bottom(2)) == "red" && x.colour(&window, bottom(3)) == "black"
    });
    // A clicked button (here Hint, under the board) does not keep space for itself.
    x.click(&window, (182, 6 * CELL + 65));
    x.keys(&window, &["Right", "space"]);
    x.wait_for("red in column 4", || x.colour(&window, bottom(4)) == "red");
    x.keys(&window, &["ctrl+z"]);
    x.wait_for("Ctrl+Z to take red back", || {
        x.colour(&window, bottom(4)) == "white"
    });
    x.keys(&window, &["ctrl+z"]);
    x.wait_for("Ctrl+Z to take black back", || {
        x.colour(&window, bottom(3)) == "white"
    });
    x.keys(&window, &["ctrl+y"]);
    x.wait_for("Ctrl+Y to play black again", || {
        x.colour(&window, bottom(3)) == "black"
    });
    x.escape(&window);
    finish(&mut program);
}

#[test]
fn closing_the_window_during_a_search_quits_at_once() {
    let Some(x) = X::open() else {
        return;
    };
    // Plain minimax 12 plies deep on a 12 x 12 board with one thread takes far longer than
    // the patience of `finish`: the program must not wait for it.
    let mut program = x.start(&[
        "12",
        "12",
        "12",
        "1",
        "--opponent",
        "computer",
        "--first",
        "black",
    ]);
    let window = x.find(&mut program, "12 x 12");
    x.escape(&window);
    finish(&mut program);
}

#[test]
fn closing_the_window_while_the_computer_plays_itself_quits() {
    let Some(x) = X::open() else {
        return;
    };
    let mut program = x.start(&["6", "7", "2", "1", "--opponent", "computer-vs-computer"]);
    let window = x.find(&mut program, "6 x 7");
    let bottom_row: Vec<(i32, i32)> = (0..7)
        .map(|col| (col * CELL + CELL / 2, 5 * CELL + CELL / 2))
        .collect();
    x.wait_for("the computers to play", || {
        bottom_row
            .iter()
            .any(|&place| x.colour(&window, place) != "white")
    });
    x.escape(&window);
    finish(&mut program);
}

#[test]
fn the_computer_playing_itself_pauses_as_the_command_line_says() {
    let Some(x) = X::open() else {
        return;
    };
    let mut program = x.start(&[
        "4",
        "7",
        "0",
        "1",
        "--opponent",
        "computer-vs-computer",
        "--pause",
        "60",
    ]);
    // Seven columns: a narrower board would be centred in the window, away from these places.
    let window = x.find(&mut program, "4 x 7");
    let cells: Vec<(i32, i32)> = (0..4)
        .flat_map(|row| (0..7).map(move |col| (col * CELL + CELL / 2, row * CELL + CELL / 2)))
        .collect();
    let checkers = || {
        cells
            .iter()
            .filter(|&&place| x.colour(&window, place) != "white")
            .count()
    };
    x.wait_for("the first move", || checkers() > 0);
    // The window's own pause was half a second: in three seconds it would have played on.
    sleep(Duration::from_secs(3));
    assert_eq!(checkers(), 1, "the next move waits out --pause 60");
    x.escape(&window);
    finish(&mut program);
}

#[test]
fn closing_the_dialog_quits() {
    let Some(x) = X::open() else {
        return;
    };
    let mut program = x.start(&["6", "7", "2", "1"]);
    let dialog = x.find(&mut program, "^Connect Four$");
    x.escape(&dialog);
    finish(&mut program);
}

#[test]
fn the_dialog_choice_opens_the_board() {
    let Some(x) = X::open() else {
        return;
    };
    let mut program = x.start(&["6", "7", "2", "1", "--first", "red"]);
    let dialog = x.find(&mut program, "^Connect Four$");
    x.click(&dialog, (260, 97));
    let window = x.find(&mut program, "6 x 7");
    // Against the computer, a red move is answered by a black one.
    x.click(&window, (CELL / 2, CELL / 2));
    let places: Vec<(i32, i32)> = (1..7)
        .map(|col| (col, 5))
        .chain([(0, 4)])
        .map(|(col, row)| (col * CELL + CELL / 2, row * CELL + CELL / 2))
        .collect();
    x.wait_for("the computer's black checker", || {
        places
            .iter()
            .any(|&place| x.colour(&window, place) == "black")
    });
    x.escape(&window);
    finish(&mut program);
}

/// Waits for `program` to exit with success, killing it and failing after [`PATIENCE`].
fn finish(program: &mut Child) {
    let deadline = Instant::now() + PATIENCE;
    let status = loop {
        if let Some(status) = program.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            program.kill().ok();
            panic!("connect_four did not exit within {PATIENCE:?} of its window closing");
        }
        sleep(Duration::from_millis(50));
    };
    assert!(
        status.success(),
        "connect_four failed ({status}): {}",
        errors(program)
    );
}

/// What an exited `program` wrote on stderr.
fn errors(program: &mut Child) -> String {
    let mut text = String::new();
    if let Some(stderr) = &mut program.stderr {
        stderr.read_to_string(&mut text).ok();
    }
    format!("{:?}", text.trim())
}

/// The X display one test has to itself, and the tools that act on it.
struct X {
    display: Display,
    /// Held until the test ends: the window tests take turns.
    _turn: MutexGuard<'static, ()>,
}

impl X {
    /// A display with `xdotool` and `import`, once no other window test holds one: one at a
    /// time, the tests do not compete for the processors, nor for the focus where they share
    /// `$DISPLAY`. A private Xvfb is stopped when the test ends, even by a failure. `None` if
    /// the test is to be skipped (never under CI, where it fails instead: see [`display`]).
    fn open() -> Option<X> {
        static TURN: Mutex<()> = Mutex::new(());
        let turn = TURN.lock().unwrap_or_else(PoisonError::into_inner);
        Some(X {
            display: display::display(&["xdotool", "import"])?,
            _turn: turn,
        })
    }

    /// Starts `connect_four` with `args` on this display.
    fn start(&self, args: &[&str]) -> Child {
        Command::new(env!("CARGO_BIN_EXE_connect_four"))
            .args(args)
            .env("DISPLAY", &self.display.name)
            .stdin(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("connect_four starts")
    }

    fn run(&self, program: &str, args: &[&str]) -> Output {
        Command::new(program)
            .args(args)
            .env("DISPLAY", &self.display.name)
            .output()
            .unwrap_or_else(|e| panic!("cannot run {program}: {e}"))
    }

    /// The id of `program`'s visible window whose title matches `title`, waiting for it to
    /// appear; fails if the program exits first.
    fn find(&self, program: &mut Child, title: &str) -> String {
        let mut found = String::new();
        self.wait_for(&format!("a window titled {title:?}"), || {
            if let Some(status) = program.try_wait().unwrap() {
                panic!(
                    "connect_four exited ({status}) before showing a window titled {title:?}: {}",
                    errors(program)
                );
            }
            let output = self.run("xdotool", &["search", "--onlyvisible", "--name", title]);
            found = String::from_utf8_lossy(&output.stdout)
                .lines()
                .next()
                .unwrap_or("")
                .to_string();
            !found.is_empty()
        });
        found
    }

    /// Clicks the left button at `(x, y)` inside `window`.
    fn click(&self, window: &str, (x, y): (i32, i32)) {
        let (x, y) = (x.to_string(), y.to_string());
        let output = self.run(
            "xdotool",
            &["mousemove", "--window", window, &x, &y, "click", "1"],
        );
        assert!(output.status.success(), "xdotool click failed: {output:?}");
    }

    /// Presses Escape in `window`, which closes an FLTK window.
    fn escape(&self, window: &str) {
        self.keys(window, &["Escape"]);
    }

    /// Presses `keys` (xdotool's names, such as `Return` or `ctrl+z`) in `window`, in order.
    fn keys(&self, window: &str, keys: &[&str]) {
        let args = ["windowfocus", "--sync", window, "key", "--delay", "100"];
        let output = self.run("xdotool", &[&args[..], keys].concat());
        assert!(output.status.success(), "xdotool key failed: {output:?}");
    }

    /// The colour at `(x, y)` in `window` as the screen shows it: the nearest of the cell colours.
    fn colour(&self, window: &str, (x, y): (i32, i32)) -> &'static str {
        let format = format!("%[fx:int(255*p{{{x},{y}}}.r)],%[fx:int(255*p{{{x},{y}}}.g)],%[fx:int(255*p{{{x},{y}}}.b)]");
        let output = self.run("import", &["-window", window, "-format", &format, "info:"]);
        let text = String::from_utf8_lossy(&output.stdout);
        let rgb: Vec<i32> = text
            .trim()
            .split(',')
            .filter_map(|v| v.parse().ok())
            .collect();
        assert_eq!(rgb.len(), 3, "cannot read a pixel with import: {output:?}");
        let palette = [
            ("white", [242, 242, 242]),
            ("red", [224, 32, 27]),
            ("black", [34, 34, 34]),
            ("blue", [31, 79, 180]),
        ];
        let distance = |c: [i32; 3]| (0..3).map(|i| (c[i] - rgb[i]).pow(2)).sum::<i32>();
        palette.iter().min_by_key(|(_, c)| distance(*c)).unwrap().0
    }

    /// Polls `done` until it holds, failing after [`PATIENCE`].
    fn wait_for(&self, what: &str, mut done: impl FnMut() -> bool) {
        let deadline = Instant::now() + PATIENCE;
        while !done() {
            assert!(Instant::now() < deadline, "waited {PATIENCE:?} for {what}");
            sleep(Duration::from_millis(100));
        }
    }
}
