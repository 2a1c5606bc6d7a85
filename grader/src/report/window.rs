//! The window observation in words: one sentence per step with its status and what it
//! measured, the screenshots it took, and why a window was not observed. The terminal, the
//! Markdown report and Gradescope's results all say it with these words. Nothing is scored:
//! it is evidence for the GUI's hand grading.

use std::path::Path;

use super::building::build_headline;
use super::failure::failure;
use super::inert;
use super::numbers::{counted, seconds};
use crate::judge::result::window::{
    Cell, Check, Measured, Observation, Step, StepResult, Trouble, Unobserved, WindowResult,
};
use crate::process::display::Rect;
use crate::process::Failure;

/// What a report says before the observation, and what it says a supplied window costs.
pub const HEADING: &str = "Window (observed under Xvfb; not scored, evidence for the GUI's \
    hand grading)";
/// Said of a window found to be the supplied one.
pub const SUPPLIED: &str = "SUPPLIED WINDOW: the assignment grades the supplied window 0 of 15.";

/// The observation, a line per step (status word first), then where the screenshots are.
pub fn lines(window: &WindowResult) -> Vec<String> {
    let observation = match window {
        WindowResult::Unobserved(why) => return vec![unobserved(why)],
        WindowResult::Observed(observation) => observation,
    };
    let mut out: Vec<String> = observation
        .checks
        .iter()
        .map(|check| {
            format!(
                "{}: {}",
                status_word(check.status),
                sentence(check, observation)
            )
        })
        .collect();
    if observation
        .check(Step::OwnWindow)
        .is_some_and(|check| check.status == StepResult::Fail)
    {
        out.push(SUPPLIED.into());
    }
    out.push(match &observation.protections {
        Some(_) => "The window ran in the student's sandbox (see Sandbox), on an X server of \
                    its own that admits only clients with its cookie."
            .into(),
        None => "The window ran without the sandbox (--no-sandbox).".into(),
    });
    out.push(format!(
        "Observed at {} x {} in {}; screenshots in {}.",
        observation.board.0,
        observation.board.1,
        seconds(observation.elapsed),
        observation.screenshots.display()
    ));
    out
}

/// A check's screenshots, by file name (they are all in the observation's folder).
pub fn screenshots(check: &Check) -> Vec<String> {
    check
        .screenshots
        .iter()
        .map(|path| file_name(path))
        .collect()
}

/// The word for a status.
pub fn status_word(status: StepResult) -> &'static str {
    match status {
        StepResult::Pass => "seen",
        StepResult::Fail => "NOT SEEN",
        StepResult::NotObserved => "not observed",
    }
}

/// What a step is called.
pub fn step_name(step: Step) -> &'static str {
    match step {
        Step::Dialog => "Dialog first",
        Step::Grid => "Grid of 75 x 75 cells",
        Step::Drop => "Click drops to the bottom",
        Step::FullColumn => "Full column refused",
        Step::GameOver => "No move after a win",
        Step::Redraw => "Redraws while the computer thinks",
        Step::OwnWindow => "Own window, not the supplied one",
    }
}

/// One check's sentence: its step, what was measured, or why it was not observed.
pub fn sentence(check: &Check, observation: &Observation) -> String {
    let name = step_name(check.step);
    let said = match (&check.trouble, &check.measured) {
        (Some(trouble), _) => trouble_words(trouble),
        (None, measured) => measured_words(check, measured, observation),
    };
    format!("{name}: {said}")
}

/// What was measured, in words.
fn measured_words(check: &Check, measured: &Measured, observation: &Observation) -> String {
    let (rows, cols) = observation.board;
    match measured {
        Measured::Nothing => "nothing was measured.".into(),
        Measured::Dialog {
            title,
            geometry,
            holds_grid,
        } => {
            let what = match holds_grid {
                false => "too small to be the board: a dialog",
                true => "big enough to hold the board: no dialog came first",
            };
            format!(
                "started without --opponent, the program first showed {title:?} ({}), {what}.",
                size(*geometry)
            )
        }
        Measured::Grid {
            title,
            window,
            pitch,
            grid,
            strip,
        } => match (pitch, grid, strip) {
            (Some((across, down)), Some(grid), Some(strip)) => format!(
                "the window {:?} is {}; checkers landed {across} pixels apart across and \
                 {down} down, a {rows} x {cols} grid of {} at ({}, {}) in it, with a strip \
                 of {strip} pixels under it{}.",
                title,
                size(*window),
                size(*grid),
                grid.x - window.x,
                grid.y - window.y,
                match check.status {
                    StepResult::Pass => "",
                    _ => " (cells must be 75 x 75, with room under the grid for the label)",
                }
            ),
            _ => format!(
                "the window {:?} is {}, but the first checkers were not seen where a \
                 {rows} x {cols} grid at the top of the window, centred across it, would \
                 show them.",
                title,
                size(*window)
            ),
        },
        Measured::Cells {
            column,
            expected,
            changed,
        } => {
            let what = match check.step {
                Step::Drop => format!("a click on the top cell of the empty column {column}"),
                Step::FullColumn => format!("a click on the full column {column}"),
                _ => format!("after black's vertical four in column 3, a click on column {column}"),
            };
            match (changed.as_slice(), check.status) {
                ([], _) => format!("{what} changed no cell of the grid."),
                (_, StepResult::Pass) => format!("{what} changed {} only.", cells(changed)),
                _ => format!(
                    "{what} changed {} (expected: {}).",
                    cells(changed),
                    if expected.is_empty() {
                        "nothing".into()
                    } else {
                        cells(expected)
                    }
                ),
            }
        }
        Measured::Redraw {
            reply,
            before_hiding,
            held,
            lost,
        } => {
            if *held {
                return format!(
                    "red's move appeared only together with the computer's reply, \
                     {} after the click (depth {}): the window drew nothing while the computer \
                     searched, so the search seems to run on the GUI thread.",
                    reply.map_or_else(|| "long".into(), seconds),
                    observation.depth
                );
            }
            let reply = match reply {
                Some(after) => format!(
                    "the computer's move came {} after the click",
                    seconds(*after)
                ),
                None => "the computer's move had not come a minute after the click".into(),
            };
            match (before_hiding, lost.is_empty()) {
                (true, _) => format!(
                    "{reply}, before the window could be hidden during its search: a deeper \
                     --window-depth would make the search long enough to watch (depth {} \
                     was used).",
                    observation.depth
                ),
                (false, true) => format!(
                    "hidden and shown again while the computer searched (depth {}), the window \
                     drew itself again; {reply}.",
                    observation.depth
                ),
                (false, false) => format!(
                    "hidden and shown again while the computer searched (depth {}), the window \
                     did not draw {} again until the search ended ({reply}): the search seems \
                     to run on the GUI thread.",
                    observation.depth,
                    counted(lost.len(), "cell")
                ),
            }
        }
        Measured::Likeness { same, .. } => {
            let share = format!("{:.1} %", same * 100.0);
            match check.status {
                StepResult::Fail => format!(
                    "{share} of the window's pixels are the supplied window's in the same \
                     states: it is the supplied window."
                ),
                _ => format!(
                    "at most {share} of the window's pixels are the supplied window's in the \
                     same states: it is not the supplied window."
                ),
            }
        }
    }
}

/// What stood in a step's way, in words.
fn trouble_words(trouble: &Trouble) -> String {
    match trouble {
        Trouble::NotStarted(why) => format!("the program could not be started: {}.", failure(why)),
        Trouble::Ended(ending) => format!(
            "the program ended: {}.",
            failure(&Failure::Ended(ending.clone()))
        ),
        Trouble::NoWindow(limit) => format!("no window appeared within {}.", seconds(*limit)),
        Trouble::Unsettled(limit) => format!(
            "the window did not come to rest (or show what was awaited) within {}.",
            seconds(*limit)
        ),
        // The display's tools may quote what they read of the student's window.
        Trouble::Display(why) => format!("the display failed: {}.", inert::line(&why.to_string())),
        Trouble::Needs(step) => format!("not observed, as \"{}\" was not.", step_name(*step)),
        Trouble::Misplayed(number) => format!(
            "move {number} of the scripted game did not land where it should have, so the \
             game could not go on."
        ),
        Trouble::NoReference => {
            "the kit has no pictures of the supplied window (its window/ folder) to compare \
             with."
                .into()
        }
    }
}

/// Why a window was not observed at all.
fn unobserved(why: &Unobserved) -> String {
    match why {
        Unobserved::NoWindow(build) => format!(
            "No window: the window's build did not succeed. {}",
            build_headline(build)
        ),
        Unobserved::NoDisplay(why) => format!("Not observed: {}.", inert::line(&why.to_string())),
        Unobserved::NoSandbox(why) => format!(
            "Not observed: the sandbox could not be set up, and no student code runs \
             unconfined: {}.",
            inert::line(why)
        ),
    }
}

/// `W x H pixels`.
fn size(rect: Rect) -> String {
    format!("{} x {} pixels", rect.width, rect.height)
}

/// Cells as `(row 3, column 0)`, joined.
fn cells(cells: &[Cell]) -> String {
    cells
        .iter()
        .map(|(row, col)| format!("(row {row}, column {col})"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A path's file name.
fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;
    use std::time::Duration;

    fn check(step: Step, status: StepResult, measured: Measured) -> Check {
        Check {
            step,
            status,
            measured,
            screenshots: vec![PathBuf::from(format!("/r/window/ann/{step:?}.png"))],
            trouble: None,
        }
    }

    /// An observation of the supplied window whose search was on the GUI thread.
    fn observation() -> WindowResult {
        let window = Rect {
            x: 380,
            y: 317,
            width: 520,
            height: 390,
        };
        WindowResult::Observed(Box::new(Observation {
            board: (4, 5),
            depth: 10,
            checks: vec![
                check(
                    Step::Dialog,
                    StepResult::Pass,
                    Measured::Dialog {
                        title: "Connect Four".into(),
                        geometry: Rect {
                            width: 380,
                            height: 175,
                            ..window
                        },
                        holds_grid: false,
                    },
                ),
                check(
                    Step::Grid,
                    StepResult::Pass,
                    Measured::Grid {
                        title: "Connect Four \u{2014} 4 x 5".into(),
                        window,
                        pitch: Some((75, 75)),
                        grid: Some(Rect {
                            x: 452,
                            y: 317,
                            width: 375,
                            height: 300,
                        }),
                        strip: Some(90),
                    },
                ),
                check(
                    Step::Drop,
                    StepResult::Fail,
                    Measured::Cells {
                        column: 0,
                        expected: vec![(3, 0)],
                        changed: vec![(0, 0), (3, 0)],
                    },
                ),
                check(
                    Step::FullColumn,
                    StepResult::Pass,
                    Measured::Cells {
                        column: 0,
                        expected: Vec::new(),
                        changed: Vec::new(),
                    },
                ),
                Check {
                    trouble: Some(Trouble::Misplayed(7)),
                    ..check(Step::GameOver, StepResult::NotObserved, Measured::Nothing)
                },
                check(
                    Step::Redraw,
                    StepResult::Fail,
                    Measured::Redraw {
                        reply: Some(Duration::from_millis(3300)),
                        before_hiding: false,
                        held: false,
                        lost: vec![(0, 0), (0, 1)],
                    },
                ),
                check(
                    Step::OwnWindow,
                    StepResult::Fail,
                    Measured::Likeness {
                        same: 0.998,
                        reference: Vec::new(),
                    },
                ),
            ],
            protections: None,
            screenshots: PathBuf::from("/r/window/ann"),
            elapsed: Duration::from_millis(21_500),
        }))
    }

    #[test]
    fn every_step_is_said_with_what_it_measured() {
        insta::assert_snapshot!(lines(&observation()).join("\n"));
    }

    #[test]
    fn a_window_not_observed_says_why() {
        let missing = WindowResult::Unobserved(Unobserved::NoDisplay(
            crate::process::display::DisplayError::Missing("Xvfb"),
        ));
        assert_eq!(
            lines(&missing),
            [
                "Not observed: Xvfb is not installed (scripts/setup.sh xvfb installs it with \
              xdotool and ImageMagick)."
            ]
        );
    }

    #[test]
    fn a_move_drawn_only_with_the_reply_is_a_held_window() {
        let WindowResult::Observed(mut observation) = observation() else {
            unreachable!()
        };
        let redraw = observation
            .checks
            .iter()
            .position(|check| check.step == Step::Redraw)
            .unwrap();
        observation.checks[redraw].measured = Measured::Redraw {
            reply: Some(Duration::from_millis(3100)),
            before_hiding: true,
            held: true,
            lost: Vec::new(),
        };
        let said = sentence(&observation.checks[redraw], &observation);
        assert_eq!(
            said,
            "Redraws while the computer thinks: red's move appeared only together with the \
             computer's reply, 3.10 s after the click (depth 10): the window drew nothing while \
             the computer searched, so the search seems to run on the GUI thread."
        );
    }
}
