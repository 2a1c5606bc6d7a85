//! A student's window played under a private Xvfb, in their sandbox, as a grader would: started
//! without an opponent (does a dialog come first?), then past the dialog with the supplied
//! command line's `--opponent human --first red` for a scripted two-player game (the grid
//! measured, a drop, a full column, a vertical four and a click after it), then with
//! `--opponent computer` at a depth whose search takes seconds, hidden and shown while the
//! computer searches (does it draw itself again?). Every step takes screenshots and ends as a
//! typed [`Check`]; the window is compared with the supplied window's stored screenshots of the
//! same states, since the supplied window is graded 0.
//!
//! The grid is looked for where the supplied window puts it: at the top of the window, centred
//! across it; its cells are then measured from where the first checkers land.

use std::path::{Path, PathBuf};
use std::thread;
use std::time::{Duration, Instant};

use super::build::BuildCommand;
use super::job::{Job, Student};
use super::result::window::{
    Cell, Check, Measured, Observation, Step, StepResult, Trouble, Unobserved, WindowResult,
};
use crate::process::display::{Display, DisplayError, Image, Rect, Window};
use crate::process::sandbox::Prepared;
use crate::process::Program;

/// A grid cell's side, in pixels, as the assignment asks.
pub const CELL: u32 = 75;
/// How far a measured cell may be from [`CELL`], in pixels.
const CELL_SLACK: u32 = 2;
/// The least height of the strip under the grid for the label, in pixels.
const MIN_STRIP: u32 = 10;
/// The screen's size.
const SCREEN: (u32, u32) = (1280, 1024);
/// How long a program may take to show its first window.
const WINDOW_LIMIT: Duration = Duration::from_secs(20);
/// How long a window may take to settle after a click.
const SETTLE_LIMIT: Duration = Duration::from_secs(5);
/// How long apart two screenshots must be the same for a window to be settled.
const SETTLE_GAP: Duration = Duration::from_millis(150);
/// How long a window stays hidden.
const HIDDEN: Duration = Duration::from_millis(300);
/// How long a window shown again has to draw itself.
const REDRAW: Duration = Duration::from_millis(700);
/// How long the computer's reply is waited for after the redraw check.
const REPLY_LIMIT: Duration = Duration::from_secs(60);
/// How late after the click a player's move first drawn together with the computer's reply
/// shows that the window drew nothing while the computer searched (sooner, the search was only
/// too short to tell).
const HELD_AFTER: Duration = Duration::from_millis(1500);
/// How far in from a cell's edges its pixels are compared, so that a focus frame or a border
/// drawn on a clicked button is not taken for a checker.
const CELL_MARGIN: u32 = 15;
/// The share of a cell's compared pixels that must differ for the cell to have changed.
const CHANGED: f64 = 0.2;
/// The share of pixels equal to the supplied window's above which a window is the supplied one.
const SUPPLIED: f64 = 0.9;
/// The supplied window's stored screenshots, in the kit's `window/` folder, for the states
/// compared: the empty board, after the first drop, after the vertical four.
pub const REFERENCE_STATES: [&str; 3] = ["empty", "first-drop", "won"];

/// How every student's window is observed in a run of the grader (`--window`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WindowRun {
    /// The shell command that starts a student's window build, `{dir}` standing for their
    /// submission (the arguments are appended).
    pub command: String,
    /// The window's own build (default features, FLTK), if it needs one.
    pub build: Option<BuildCommand>,
    /// The observation's settings; its screenshots go to `<screenshots>/<student>/`.
    pub settings: WindowPlan,
}

impl WindowRun {
    /// Builds the window of `job`'s student in `dir` (if it needs a build) and observes it, in
    /// their sandbox.
    pub fn run(&self, job: &Job, dir: &Path) -> WindowResult {
        if let Some(build) = &self.build {
            let built = build.run(job, Vec::new(), None);
            if !built.succeeded() {
                return WindowResult::Unobserved(Unobserved::NoWindow(Box::new(built)));
            }
        }
        let student = Student {
            command: Student::with_dir(&self.command, dir),
            ..job.student.clone()
        };
        let window_job = Job {
            student: &student,
            sandbox: job.sandbox,
        };
        let settings = WindowPlan {
            screenshots: self.settings.screenshots.join(student.file_stem()),
            ..self.settings.clone()
        };
        observe(&window_job, &settings)
    }
}

/// How a window is observed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WindowPlan {
    /// The board: rows and columns.
    pub board: (usize, usize),
    /// The depth of the quick games.
    pub depth: u32,
    /// The depth of the game whose search is watched for redraws: a few seconds' search.
    pub search_depth: u32,
    /// Where the screenshots go (made if missing).
    pub screenshots: PathBuf,
    /// The folder of the supplied window's screenshots ([`REFERENCE_STATES`]), if the kit has
    /// them.
    pub reference: Option<PathBuf>,
}

/// Observes the window `job` starts (its student's command, in their sandbox), each step's
/// screenshots under `settings.screenshots`.
pub fn observe(job: &Job, settings: &WindowPlan) -> WindowResult {
    let started = Instant::now();
    if let Err(why) = std::fs::create_dir_all(&settings.screenshots) {
        return WindowResult::Unobserved(Unobserved::NoDisplay(DisplayError::Tool(
            format!("mkdir {}", settings.screenshots.display()),
            why.to_string(),
        )));
    }
    let display = match Display::start(SCREEN.0, SCREEN.1) {
        Ok(display) => display,
        Err(why) => return WindowResult::Unobserved(Unobserved::NoDisplay(why)),
    };
    if let Some(sandbox) = job.sandbox {
        if let Err(why) = sandbox.admit(&display.socket()) {
            return WindowResult::Unobserved(Unobserved::NoDisplay(DisplayError::Tool(
                format!("putting {} into the sandbox", display.socket().display()),
                why.to_string(),
            )));
        }
    }
    let observer = Observer {
        job,
        display: &display,
        settings,
    };
    let mut checks = vec![observer.dialog()];
    let (played, shots) = observer.two_players();
    checks.extend(played);
    checks.push(observer.redraw());
    checks.push(observer.own_window(&shots));
    WindowResult::Observed(Box::new(Observation {
        board: settings.board,
        depth: settings.search_depth,
        checks,
        protections: job.sandbox.map(|s| s.protections().clone()),
        screenshots: settings.screenshots.clone(),
        elapsed: started.elapsed(),
    }))
}

/// One observation under way.
struct Observer<'a> {
    job: &'a Job<'a>,
    display: &'a Display,
    settings: &'a WindowPlan,
}

/// A running window: its program, its window and its geometry.
struct OpenWindow {
    program: Program,
    window: Window,
    geometry: Rect,
}

/// The states of the two-player game kept for the supplied window's comparison: each state's
/// name and the window's part of the screenshot then (`window-<state>.png`).
type States = Vec<(&'static str, Image)>;

/// The two-player game: columns played in turn, red first. Column 0 is filled (four moves,
/// then a fifth click refused); then black's checkers in column 3 make a vertical four against
/// red's three in column 4, and a click after it must change nothing.
const GAME: [usize; 12] = [0, 0, 1, 0, 0, 3, 4, 3, 4, 3, 4, 3];
/// The move after which column 0 is full.
const COLUMN_FULL: usize = 5;
/// The steps the two-player game observes.
const PLAYED: [Step; 4] = [Step::Grid, Step::Drop, Step::FullColumn, Step::GameOver];

impl Observer<'_> {
    /// The path of the screenshot named `name`.
    fn shot_path(&self, name: &str) -> PathBuf {
        self.settings.screenshots.join(format!("{name}.png"))
    }

    /// `ROWS COLS DEPTH 1` and `extra`.
    fn arguments(&self, depth: u32, extra: &str) -> String {
        let (rows, cols) = self.settings.board;
        format!("{rows} {cols} {depth} 1 {extra}")
    }

    /// Starts the window with `arguments` and waits for its first window (the largest, once
    /// one has appeared).
    fn start(&self, arguments: &str) -> Result<OpenWindow, Trouble> {
        // The display's cookie, in the job's scratch folder when it has one.
        let authority = match self.job.sandbox.and_then(Prepared::scratch) {
            Some(scratch) => self.display.grant(scratch).map_err(Trouble::Display)?,
            None => self.display.authority(),
        };
        let authority = authority.to_string_lossy();
        let env = [("DISPLAY", self.display.name()), ("XAUTHORITY", &authority)];
        let known = self.display.windows().map_err(Trouble::Display)?;
        let mut program = self
            .job
            .start_with(arguments, &env)
            .map_err(Trouble::NotStarted)?;
        let deadline = Instant::now() + WINDOW_LIMIT;
        loop {
            if let Some(ending) = program.exited() {
                return Err(Trouble::Ended(ending));
            }
            let fresh = self
                .display
                .wait_for_new(&known, Duration::from_millis(200))
                .map_err(Trouble::Display)?;
            if let Some(window) = fresh {
                // Other windows of the same program may come a moment later: the largest is
                // its main one.
                thread::sleep(SETTLE_GAP);
                let mut largest = (
                    window,
                    self.display.geometry(window).map_err(Trouble::Display)?,
                );
                for other in self.display.windows().map_err(Trouble::Display)? {
                    if known.contains(&other) {
                        continue;
                    }
                    if let Ok(geometry) = self.display.geometry(other) {
                        if area(geometry) > area(largest.1) {
                            largest = (other, geometry);
                        }
                    }
                }
                return Ok(OpenWindow {
                    program,
                    window: largest.0,
                    geometry: largest.1,
                });
            }
            if Instant::now() >= deadline {
                return Err(Trouble::NoWindow(WINDOW_LIMIT));
            }
        }
    }

    /// Ends a window's program and waits (a little) for its windows to go.
    fn stop(&self, running: OpenWindow) {
        drop(running.program);
        let deadline = Instant::now() + Duration::from_secs(2);
        while self.display.windows().is_ok_and(|w| !w.is_empty()) && Instant::now() < deadline {
            thread::sleep(Duration::from_millis(50));
        }
    }

    /// Screenshots into `name` until two taken [`SETTLE_GAP`] apart are the same and the
    /// window is drawn (not one colour); the last.
    fn settled(&self, name: &str, running: &mut OpenWindow) -> Result<Image, Trouble> {
        let path = self.shot_path(name);
        let deadline = Instant::now() + SETTLE_LIMIT;
        let mut last = self.display.screenshot(&path).map_err(Trouble::Display)?;
        loop {
            thread::sleep(SETTLE_GAP);
            if let Some(ending) = running.program.exited() {
                return Err(Trouble::Ended(ending));
            }
            let next = self.display.screenshot(&path).map_err(Trouble::Display)?;
            if next == last && !next.uniform(running.geometry) {
                return Ok(next);
            }
            if Instant::now() >= deadline {
                return Err(Trouble::Unsettled(SETTLE_LIMIT));
            }
            last = next;
        }
    }

    /// Started without `--opponent`: whether the first window is a dialog (too small to hold
    /// the grid).
    fn dialog(&self) -> Check {
        let arguments = self.arguments(self.settings.depth, "");
        let mut running = match self.start(&arguments) {
            Ok(running) => running,
            Err(trouble) => return not_observed(Step::Dialog, Vec::new(), trouble),
        };
        let shot = self.settled("dialog", &mut running);
        let title = self.display.title(running.window).unwrap_or_default();
        let geometry = running.geometry;
        self.stop(running);
        let shot = match shot {
            Ok(shot) => shot,
            Err(trouble) => return not_observed(Step::Dialog, Vec::new(), trouble),
        };
        let (rows, cols) = self.settings.board;
        let holds_grid =
            geometry.width >= cols as u32 * CELL && geometry.height >= rows as u32 * CELL;
        Check {
            step: Step::Dialog,
            status: status(!holds_grid),
            measured: Measured::Dialog {
                title,
                geometry,
                holds_grid,
            },
            screenshots: vec![shot.path],
            trouble: None,
        }
    }

    /// The grid's cell at `cell`, where the supplied window's would be in `window`.
    fn nominal(&self, window: Rect, (row, col): Cell) -> Rect {
        let cols = self.settings.board.1 as u32;
        let left = window.x + (window.width.saturating_sub(cols * CELL) / 2) as i32;
        Rect {
            x: left + (col as u32 * CELL) as i32,
            y: window.y + (row as u32 * CELL) as i32,
            width: CELL,
            height: CELL,
        }
    }

    /// The grid cells that look different in `after` from `before`.
    fn changed(&self, window: Rect, before: &Image, after: &Image) -> Vec<Cell> {
        let (rows, cols) = self.settings.board;
        (0..rows)
            .flat_map(|row| (0..cols).map(move |col| (row, col)))
            .filter(|&cell| {
                let area = self.nominal(window, cell).inset(CELL_MARGIN);
                after.differs(before, area) > CHANGED
            })
            .collect()
    }

    /// Clicks the top cell of `column` and screenshots the settled window as `name`.
    fn click(&self, running: &mut OpenWindow, column: usize, name: &str) -> Result<Image, Trouble> {
        let (x, y) = self.nominal(running.geometry, (0, column)).centre();
        self.display.click(x, y).map_err(Trouble::Display)?;
        self.settled(name, running)
    }

    /// The scripted two-player game: the grid, the drop, the full column and the click after
    /// the four, with the states kept for the supplied window's comparison.
    fn two_players(&self) -> (Vec<Check>, States) {
        let arguments = self.arguments(self.settings.depth, "--opponent human --first red");
        let mut running = match self.start(&arguments) {
            Ok(running) => running,
            Err(trouble) => return (unobserved(Vec::new(), &trouble), Vec::new()),
        };
        let played = self.play(&mut running);
        self.stop(running);
        played
    }

    /// [`Observer::two_players`] on the running window.
    fn play(&self, running: &mut OpenWindow) -> (Vec<Check>, States) {
        let (rows, _) = self.settings.board;
        let title = self.display.title(running.window).unwrap_or_default();
        let window = running.geometry;
        let mut checks = Vec::new();
        let mut states = Vec::new();
        let mut heights = vec![0; self.settings.board.1];
        let empty = match self.settled("empty", running) {
            Ok(empty) => empty,
            Err(trouble) => return (unobserved(Vec::new(), &trouble), states),
        };
        self.keep(&mut states, "empty", &empty, window);
        let mut shots = vec![empty.clone()];
        let mut previous = empty;
        // The first move that did not land where it should have, and what stopped the game.
        let mut misplayed: Option<Trouble> = None;
        for (index, &column) in GAME.iter().enumerate() {
            let number = index + 1;
            let after = match self.click(running, column, &format!("move-{number}")) {
                Ok(after) => after,
                Err(trouble) => {
                    misplayed = Some(trouble);
                    break;
                }
            };
            let expected = (rows - 1 - heights[column], column);
            heights[column] += 1;
            let changed = self.changed(window, &previous, &after);
            if number == 1 {
                self.keep(&mut states, "first-drop", &after, window);
                checks.push(Check {
                    step: Step::Drop,
                    status: status(changed == [expected]),
                    measured: Measured::Cells {
                        column,
                        expected: vec![expected],
                        changed: changed.clone(),
                    },
                    screenshots: vec![previous.path.clone(), after.path.clone()],
                    trouble: None,
                });
            }
            shots.push(after.clone());
            previous = after;
            if !changed.contains(&expected) {
                misplayed = Some(Trouble::Misplayed(number));
                break;
            }
            if number == 3 {
                checks.insert(0, self.grid(title.clone(), window, &shots));
            }
            if number == COLUMN_FULL {
                checks.push(self.refused(running, Step::FullColumn, 0, &previous));
            }
        }
        match misplayed {
            None => {
                self.keep(&mut states, "won", &previous, window);
                checks.push(self.refused(running, Step::GameOver, 2, &previous));
            }
            Some(trouble) => {
                let missing = unobserved(vec![previous.path.clone()], &trouble);
                let made: Vec<Step> = checks.iter().map(|check| check.step).collect();
                checks.extend(missing.into_iter().filter(|c| !made.contains(&c.step)));
            }
        }
        checks.sort_by_key(|check| check.step);
        (checks, states)
    }

    /// Keeps the window's part of `shot` as the state `name` (a picture that cannot be written
    /// is left out, and the comparison then says it was not made).
    fn keep(&self, states: &mut States, name: &'static str, shot: &Image, window: Rect) {
        if let Ok(crop) = shot.crop(window, &self.shot_path(&format!("window-{name}"))) {
            states.push((name, crop));
        }
    }

    /// A click on `column` that must change no grid cell of `before`.
    fn refused(
        &self,
        running: &mut OpenWindow,
        step: Step,
        column: usize,
        before: &Image,
    ) -> Check {
        let name = match step {
            Step::FullColumn => "full-column",
            _ => "after-four",
        };
        match self.click(running, column, name) {
            Ok(after) => {
                let changed = self.changed(running.geometry, before, &after);
                Check {
                    step,
                    status: status(changed.is_empty()),
                    measured: Measured::Cells {
                        column,
                        expected: Vec::new(),
                        changed,
                    },
                    screenshots: vec![before.path.clone(), after.path],
                    trouble: None,
                }
            }
            Err(trouble) => not_observed(step, vec![before.path.clone()], trouble),
        }
    }

    /// The grid measured from the first three moves' screenshots (`shots`: the empty board
    /// and after each move): where each checker appeared gives the cells' pitch across and
    /// down, which puts the grid in the window and leaves the strip under it.
    fn grid(&self, title: String, window: Rect, shots: &[Image]) -> Check {
        let (rows, cols) = (self.settings.board.0 as u32, self.settings.board.1 as u32);
        // Where the grid should be: the label under it, which changes too, left out.
        let top_left = self.nominal(window, (0, 0));
        let nominal = Rect {
            width: cols * CELL,
            height: rows * CELL,
            ..top_left
        };
        let centres: Vec<Option<(i32, i32)>> = shots
            .windows(2)
            .map(|pair| pair[1].changed(&pair[0], nominal).map(|r| r.centre()))
            .collect();
        let measured = match centres[..] {
            [Some(first), Some(above), Some(beside)] => {
                let across = (beside.0 - first.0).max(0) as u32;
                let down = (first.1 - above.1).max(0) as u32;
                let grid = Rect {
                    x: first.0 - (across / 2) as i32,
                    y: first.1 + (down / 2) as i32 - (rows * down) as i32,
                    width: cols * across,
                    height: rows * down,
                };
                let bottom = window.y + window.height as i32;
                let strip = (bottom - (grid.y + grid.height as i32)).max(0) as u32;
                Some(((across, down), grid, strip))
            }
            _ => None,
        };
        let slack = CELL_SLACK as i32;
        let pass = measured.is_some_and(|((across, down), grid, strip)| {
            across.abs_diff(CELL) <= CELL_SLACK
                && down.abs_diff(CELL) <= CELL_SLACK
                && strip >= MIN_STRIP
                && grid.x + slack >= window.x
                && grid.y + slack >= window.y
                && grid.x + grid.width as i32 <= window.x + window.width as i32 + slack
        });
        Check {
            step: Step::Grid,
            status: status(pass),
            measured: Measured::Grid {
                title,
                window,
                pitch: measured.map(|m| m.0),
                grid: measured.map(|m| m.1),
                strip: measured.map(|m| m.2),
            },
            screenshots: shots.iter().map(|shot| shot.path.clone()).collect(),
            trouble: None,
        }
    }

    /// Against the computer: red drops in column 0, and while the computer searches the window
    /// is hidden and shown; it must look as before (or show the computer's reply).
    fn redraw(&self) -> Check {
        let arguments = self.arguments(
            self.settings.search_depth,
            "--opponent computer --first red",
        );
        let mut running = match self.start(&arguments) {
            Ok(running) => running,
            Err(trouble) => return not_observed(Step::Redraw, Vec::new(), trouble),
        };
        let check = self.watch_search(&mut running);
        self.stop(running);
        check
    }

    /// [`Observer::redraw`] on the running window.
    fn watch_search(&self, running: &mut OpenWindow) -> Check {
        let rows = self.settings.board.0;
        let window = running.geometry;
        let mut shots = Vec::new();
        let empty = match self.settled("search-empty", running) {
            Ok(empty) => empty,
            Err(trouble) => return not_observed(Step::Redraw, shots, trouble),
        };
        shots.push(empty.path.clone());
        let (x, y) = self.nominal(window, (0, 0)).centre();
        let clicked = Instant::now();
        if let Err(why) = self.display.click(x, y) {
            return not_observed(Step::Redraw, shots, Trouble::Display(why));
        }
        let mine = (rows - 1, 0);
        // Red's checker shown: the search is under way.
        let before = match self.wait_until("search-before", running, REPLY_LIMIT, |shot| {
            self.changed(window, &empty, shot).contains(&mine)
        }) {
            Ok(before) => before,
            Err(trouble) => return not_observed(Step::Redraw, shots, trouble),
        };
        shots.push(before.path.clone());
        if self.changed(window, &empty, &before).len() > 1 {
            // The player's move first seen with the reply: a window that drew nothing while
            // the computer searched, or a search too short to tell.
            let seen = clicked.elapsed();
            let held = seen >= HELD_AFTER;
            return Check {
                step: Step::Redraw,
                status: match held {
                    true => StepResult::Fail,
                    false => StepResult::NotObserved,
                },
                measured: Measured::Redraw {
                    reply: Some(seen),
                    before_hiding: true,
                    held,
                    lost: Vec::new(),
                },
                screenshots: shots,
                trouble: None,
            };
        }
        // The reply shown: one cell more than before hiding, and every other as it was (a
        // window not yet drawn again differs in many).
        let replied = |shot: &Image| self.changed(window, &before, shot).len() == 1;
        let hidden = self
            .display
            .hide(running.window)
            .and_then(|()| {
                thread::sleep(HIDDEN);
                self.display.show(running.window)
            })
            .map(|()| thread::sleep(REDRAW))
            .and_then(|()| self.display.screenshot(&self.shot_path("search-shown")));
        let shown = match hidden {
            Ok(shown) => shown,
            Err(why) => return not_observed(Step::Redraw, shots, Trouble::Display(why)),
        };
        let shown_at = clicked.elapsed();
        shots.push(shown.path.clone());
        let reply = self.wait_until("search-reply", running, REPLY_LIMIT, replied);
        let reply_at = clicked.elapsed();
        // The reply's checker may still be falling: the window at rest is kept.
        let (reply, final_shot) = match reply {
            Ok(shot) => (
                Some(reply_at),
                Some(self.settled("search-reply", running).unwrap_or(shot)),
            ),
            Err(_) => (None, None),
        };
        // A cell lost: one that looks neither as before hiding nor as once the reply came.
        let lost: Vec<Cell> = self
            .changed(window, &before, &shown)
            .into_iter()
            .filter(|&cell| {
                final_shot.as_ref().is_none_or(|last| {
                    let area = self.nominal(window, cell).inset(CELL_MARGIN);
                    last.differs(&shown, area) > CHANGED
                })
            })
            .collect();
        if let Some(last) = &final_shot {
            shots.push(last.path.clone());
        }
        let too_short = reply.is_some_and(|at| at <= shown_at);
        Check {
            step: Step::Redraw,
            status: match (too_short, lost.is_empty()) {
                (true, _) => StepResult::NotObserved,
                (false, redrawn) => status(redrawn),
            },
            measured: Measured::Redraw {
                reply,
                before_hiding: too_short,
                held: false,
                lost,
            },
            screenshots: shots,
            trouble: None,
        }
    }

    /// Screenshots into `name` until `done` says yes of one, or `limit` passes.
    fn wait_until(
        &self,
        name: &str,
        running: &mut OpenWindow,
        limit: Duration,
        done: impl Fn(&Image) -> bool,
    ) -> Result<Image, Trouble> {
        let path = self.shot_path(name);
        let deadline = Instant::now() + limit;
        loop {
            let shot = self.display.screenshot(&path).map_err(Trouble::Display)?;
            if done(&shot) {
                return Ok(shot);
            }
            if let Some(ending) = running.program.exited() {
                return Err(Trouble::Ended(ending));
            }
            if Instant::now() >= deadline {
                return Err(Trouble::Unsettled(limit));
            }
            thread::sleep(Duration::from_millis(100));
        }
    }

    /// Whether the window is the supplied one: its pictures of the two-player game's states
    /// (those it reached) compared with the supplied window's, pixel for pixel.
    fn own_window(&self, states: &States) -> Check {
        let Some(reference) = &self.settings.reference else {
            return not_observed(Step::OwnWindow, Vec::new(), Trouble::NoReference);
        };
        // As many of the states as the game reached.
        if states.is_empty() {
            return not_observed(Step::OwnWindow, Vec::new(), Trouble::Needs(Step::Grid));
        }
        let mut same: f64 = 1.0;
        let mut screenshots = Vec::new();
        let mut compared = Vec::new();
        for (name, mine) in states {
            let Ok(theirs) = Image::load(&reference.join(format!("{name}.png"))) else {
                return not_observed(Step::OwnWindow, screenshots, Trouble::NoReference);
            };
            same = same.min(likeness(mine, &theirs));
            screenshots.push(mine.path.clone());
            compared.push(theirs.path);
        }
        Check {
            step: Step::OwnWindow,
            status: status(same < SUPPLIED),
            measured: Measured::Likeness {
                same,
                reference: compared,
            },
            screenshots,
            trouble: None,
        }
    }
}

/// The supplied window's pictures for [`REFERENCE_STATES`], copied from `observation` (of the
/// supplied window) into `dir` as `<state>.png`: the kit's `window/` folder.
pub fn store_reference(observation: &Observation, dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    for state in REFERENCE_STATES {
        let shot = observation.screenshots.join(format!("window-{state}.png"));
        std::fs::copy(shot, dir.join(format!("{state}.png")))?;
    }
    Ok(())
}

/// The share of `mine`'s pixels equal to `theirs`' (0 when their sizes differ).
fn likeness(mine: &Image, theirs: &Image) -> f64 {
    if (mine.width, mine.height) != (theirs.width, theirs.height) {
        return 0.0;
    }
    let whole = Rect {
        x: 0,
        y: 0,
        width: mine.width,
        height: mine.height,
    };
    1.0 - mine.differs(theirs, whole)
}

/// A rectangle's area.
fn area(rect: Rect) -> u64 {
    u64::from(rect.width) * u64::from(rect.height)
}

/// Pass or fail.
fn status(passed: bool) -> StepResult {
    if passed {
        StepResult::Pass
    } else {
        StepResult::Fail
    }
}

/// Every step of the two-player game, not observed because of `trouble`.
fn unobserved(screenshots: Vec<PathBuf>, trouble: &Trouble) -> Vec<Check> {
    PLAYED
        .into_iter()
        .map(|step| not_observed(step, screenshots.clone(), trouble.clone()))
        .collect()
}

/// A step not observed because of `trouble`.
fn not_observed(step: Step, screenshots: Vec<PathBuf>, trouble: Trouble) -> Check {
    Check {
        step,
        status: StepResult::NotObserved,
        measured: Measured::Nothing,
        screenshots,
        trouble: Some(trouble),
    }
}
