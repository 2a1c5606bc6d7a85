//! What the window observer saw of one student's window, typed until a reporter renders it:
//! for each [`Step`] of the observation its [`StepResult`], the values it measured and the
//! screenshots it took (PNG files, kept for the graders' gallery), or why the student has no
//! window to observe at all ([`Unobserved`]).

use std::path::PathBuf;
use std::time::Duration;

use super::build::Build;
use crate::process::display::{DisplayError, Rect};
use crate::process::sandbox::Protections;
use crate::process::{Ending, Failure};

/// One student's window, observed or not.
#[derive(Clone, Debug, PartialEq)]
pub enum WindowResult {
    /// Nothing could be observed: why.
    Unobserved(Unobserved),
    /// The observation.
    Observed(Box<Observation>),
}

/// Why a student's window was not observed at all.
#[derive(Clone, Debug, PartialEq)]
pub enum Unobserved {
    /// The student has no window build: the window's build failed or ran out of time.
    NoWindow(Box<Build>),
    /// The private X display could not be started.
    NoDisplay(DisplayError),
    /// The student's sandbox could not be set up (why), and no student code runs unconfined.
    NoSandbox(String),
}

/// The observation of one student's window.
#[derive(Clone, Debug, PartialEq)]
pub struct Observation {
    /// The board it was played at: rows and columns.
    pub board: (usize, usize),
    /// The depth of the search whose redraw was watched.
    pub depth: u32,
    /// Every step, in the order observed.
    pub checks: Vec<Check>,
    /// The sandbox the window ran in (`None`: not sandboxed, `--no-sandbox`).
    pub protections: Option<Protections>,
    /// The directory of the screenshots.
    pub screenshots: PathBuf,
    /// How long the observation took.
    pub elapsed: Duration,
}

impl Observation {
    /// The check of `step`, if it was made.
    pub fn check(&self, step: Step) -> Option<&Check> {
        self.checks.iter().find(|check| check.step == step)
    }
}

/// A step of the observation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Step {
    /// Started without `--opponent`: a dialog comes first.
    Dialog,
    /// The window holds a ROWS x COLS grid of 75 x 75 cells with a strip under it.
    Grid,
    /// A click on a column's top cell fills its bottom cell and nothing else.
    Drop,
    /// A click on a full column changes nothing.
    FullColumn,
    /// After a vertical four, a click changes nothing.
    GameOver,
    /// Hidden and shown while the computer searches, the window draws itself again.
    Redraw,
    /// The window is not the supplied one.
    OwnWindow,
}

/// How a step came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StepResult {
    /// What the assignment asks for was seen.
    Pass,
    /// Something else was seen.
    Fail,
    /// Nothing could be seen: see the check's trouble.
    NotObserved,
}

/// One step's outcome: its status, what it measured, its screenshots.
#[derive(Clone, Debug, PartialEq)]
pub struct Check {
    /// The step.
    pub step: Step,
    /// How it came out.
    pub status: StepResult,
    /// What it measured.
    pub measured: Measured,
    /// Its screenshots, in the order taken.
    pub screenshots: Vec<PathBuf>,
    /// Why it was not observed (or failed) when the program, the display or an earlier step
    /// stood in its way.
    pub trouble: Option<Trouble>,
}

/// A grid cell: row (0 at the top) and column.
pub type Cell = (usize, usize);

/// What a step measured.
#[derive(Clone, Debug, PartialEq)]
pub enum Measured {
    /// Nothing (the step was not observed).
    Nothing,
    /// The first window the program showed without `--opponent`.
    Dialog {
        /// Its title.
        title: String,
        /// Where it was and its size.
        geometry: Rect,
        /// Whether it could hold the grid (then it is taken for the game's window, not a
        /// dialog).
        holds_grid: bool,
    },
    /// The game's window and its grid.
    Grid {
        /// The window's title.
        title: String,
        /// Where the window was and its size (xdotool).
        window: Rect,
        /// The distance between the centres of the first cells filled, across and down
        /// (pixels), from the screenshots.
        pitch: Option<(u32, u32)>,
        /// The grid's place and size in the window, as the pitch puts it.
        grid: Option<Rect>,
        /// The height of the strip under the grid, in pixels.
        strip: Option<u32>,
    },
    /// The grid cells that changed after a click, and the cells expected to.
    Cells {
        /// The column clicked.
        column: usize,
        /// The cells expected to change.
        expected: Vec<Cell>,
        /// The cells that changed.
        changed: Vec<Cell>,
    },
    /// The redraw after hiding and showing the window during the computer's search.
    Redraw {
        /// When the computer's move showed, counted from the click it answered; `None` if it
        /// had not shown by the end of the wait.
        reply: Option<Duration>,
        /// Whether the computer's move had already shown when the window was hidden (the search
        /// was too short to observe).
        before_hiding: bool,
        /// Whether the player's own move was drawn only together with the computer's, so late
        /// that the window cannot have been drawing while the computer searched.
        held: bool,
        /// The cells that looked different after the window was shown again.
        lost: Vec<Cell>,
    },
    /// The screenshots compared with the supplied window's of the same states.
    Likeness {
        /// The share (0 to 1) of the window's pixels that match the supplied window's, the
        /// lowest over the states compared.
        same: f64,
        /// The supplied window's screenshots compared with.
        reference: Vec<PathBuf>,
    },
}

/// What stood in a step's way.
#[derive(Clone, Debug, PartialEq)]
pub enum Trouble {
    /// The program could not be started.
    NotStarted(Failure),
    /// The program ended (crashed or quit) during the step.
    Ended(Ending),
    /// No window appeared within this time.
    NoWindow(Duration),
    /// The window stayed the same for no longer than this while it was awaited: it never
    /// settled after a click.
    Unsettled(Duration),
    /// The display or one of its tools failed.
    Display(DisplayError),
    /// An earlier step this one needs did not pass.
    Needs(Step),
    /// The moves played before this step did not land where they should have: the move (its
    /// number, counting from 1) that did not.
    Misplayed(usize),
    /// No stored screenshots of the supplied window to compare with.
    NoReference,
}
