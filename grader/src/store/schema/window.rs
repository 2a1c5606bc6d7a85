//! A student's window as a record stores it: each step observed with what it measured, its
//! screenshots and its trouble, or why the window was not observed.

use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::build::Build;
use super::each::{all, back};
use super::process::{DisplayError, Ending, Failure, Protections, Rect};
use crate::judge::result::window as judge;

/// [`judge::WindowResult`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub enum WindowResult {
    Unobserved(Unobserved),
    Observed(Box<Observation>),
}

impl From<&judge::WindowResult> for WindowResult {
    fn from(window: &judge::WindowResult) -> WindowResult {
        use judge::Unobserved as U;
        match window {
            judge::WindowResult::Unobserved(why) => WindowResult::Unobserved(match why {
                U::NoWindow(build) => Unobserved::NoWindow(Box::new(build.as_ref().into())),
                U::NoDisplay(error) => Unobserved::NoDisplay(error.into()),
                U::NoSandbox(why) => Unobserved::NoSandbox(why.clone()),
            }),
            judge::WindowResult::Observed(seen) => WindowResult::Observed(Box::new(Observation {
                board: seen.board,
                depth: seen.depth,
                checks: all(&seen.checks),
                protections: seen.protections.as_ref().map(Into::into),
                screenshots: seen.screenshots.clone(),
                elapsed: seen.elapsed,
            })),
        }
    }
}

impl From<WindowResult> for judge::WindowResult {
    fn from(window: WindowResult) -> judge::WindowResult {
        use judge::Unobserved as U;
        match window {
            WindowResult::Unobserved(why) => judge::WindowResult::Unobserved(match why {
                Unobserved::NoWindow(build) => U::NoWindow(Box::new((*build).into())),
                Unobserved::NoDisplay(error) => U::NoDisplay(error.into()),
                Unobserved::NoSandbox(why) => U::NoSandbox(why),
            }),
            WindowResult::Observed(seen) => {
                judge::WindowResult::Observed(Box::new(judge::Observation {
                    board: seen.board,
                    depth: seen.depth,
                    checks: back(seen.checks),
                    protections: seen.protections.map(Into::into),
                    screenshots: seen.screenshots,
                    elapsed: seen.elapsed,
                }))
            }
        }
    }
}

/// [`judge::Unobserved`] as stored.
#[derive(Debug, Serialize, Deserialize)]
#[allow(clippy::enum_variant_names)]
pub enum Unobserved {
    NoWindow(Box<Build>),
    NoDisplay(DisplayError),
    NoSandbox(String),
}

/// [`judge::Observation`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub struct Observation {
    board: (usize, usize),
    depth: u32,
    checks: Vec<Check>,
    protections: Option<Protections>,
    screenshots: PathBuf,
    elapsed: Duration,
}

unit_enum!(
    Step = judge::Step {
        Dialog,
        Grid,
        Drop,
        FullColumn,
        GameOver,
        Redraw,
        OwnWindow
    }
);
unit_enum!(
    StepResult = judge::StepResult {
        Pass,
        Fail,
        NotObserved
    }
);

/// [`judge::Check`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub struct Check {
    step: Step,
    status: StepResult,
    measured: Measured,
    screenshots: Vec<PathBuf>,
    trouble: Option<Trouble>,
}

impl From<&judge::Check> for Check {
    fn from(check: &judge::Check) -> Check {
        Check {
            step: (&check.step).into(),
            status: (&check.status).into(),
            measured: (&check.measured).into(),
            screenshots: check.screenshots.clone(),
            trouble: check.trouble.as_ref().map(Into::into),
        }
    }
}

impl From<Check> for judge::Check {
    fn from(check: Check) -> judge::Check {
        judge::Check {
            step: check.step.into(),
            status: check.status.into(),
            measured: check.measured.into(),
            screenshots: check.screenshots,
            trouble: check.trouble.map(Into::into),
        }
    }
}

/// [`judge::Measured`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub enum Measured {
    Nothing,
    Dialog {
        title: String,
        geometry: Rect,
        holds_grid: bool,
    },
    Grid {
        title: String,
        window: Rect,
        pitch: Option<(u32, u32)>,
        grid: Option<Rect>,
        strip: Option<u32>,
    },
    Cells {
        column: usize,
        expected: Vec<(usize, usize)>,
        changed: Vec<(usize, usize)>,
    },
    Redraw {
        reply: Option<Duration>,
        before_hiding: bool,
        held: bool,
        lost: Vec<(usize, usize)>,
    },
    Likeness {
        same: f64,
        reference: Vec<PathBuf>,
    },
}

impl From<&judge::Measured> for Measured {
    fn from(measured: &judge::Measured) -> Measured {
        use judge::Measured as M;
        match measured.clone() {
            M::Nothing => Measured::Nothing,
            M::Dialog {
                title,
                geometry,
                holds_grid,
            } => Measured::Dialog {
                title,
                geometry: (&geometry).into(),
                holds_grid,
            },
            M::Grid {
                title,
                window,
                pitch,
                grid,
                strip,
            } => Measured::Grid {
                title,
                window: (&window).into(),
                pitch,
                grid: grid.as_ref().map(Into::into),
                strip,
            },
            M::Cells {
                column,
                expected,
                changed,
            } => Measured::Cells {
                column,
                expected,
                changed,
            },
            M::Redraw {
                reply,
                before_hiding,
                held,
                lost,
            } => Measured::Redraw {
                reply,
                before_hiding,
                held,
                lost,
            },
            M::Likeness { same, reference } => Measured::Likeness { same, reference },
        }
    }
}

impl From<Measured> for judge::Measured {
    fn from(measured: Measured) -> judge::Measured {
        use judge::Measured as M;
        match measured {
            Measured::Nothing => M::Nothing,
            Measured::Dialog {
                title,
                geometry,
                holds_grid,
            } => M::Dialog {
                title,
                geometry: geometry.into(),
                holds_grid,
            },
            Measured::Grid {
                title,
                window,
                pitch,
                grid,
                strip,
            } => M::Grid {
                title,
                window: window.into(),
                pitch,
                grid: grid.map(Into::into),
                strip,
            },
            Measured::Cells {
                column,
                expected,
                changed,
            } => M::Cells {
                column,
                expected,
                changed,
            },
            Measured::Redraw {
                reply,
                before_hiding,
                held,
                lost,
            } => M::Redraw {
                reply,
                before_hiding,
                held,
                lost,
            },
            Measured::Likeness { same, reference } => M::Likeness { same, reference },
        }
    }
}

/// [`judge::Trouble`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub enum Trouble {
    NotStarted(Failure),
    Ended(Ending),
    NoWindow(Duration),
    Unsettled(Duration),
    Display(DisplayError),
    Needs(Step),
    Misplayed(usize),
    NoReference,
}

impl From<&judge::Trouble> for Trouble {
    fn from(trouble: &judge::Trouble) -> Trouble {
        use judge::Trouble as T;
        match trouble {
            T::NotStarted(failure) => Trouble::NotStarted(failure.into()),
            T::Ended(ending) => Trouble::Ended(ending.into()),
            T::NoWindow(waited) => Trouble::NoWindow(*waited),
            T::Unsettled(waited) => Trouble::Unsettled(*waited),
            T::Display(error) => Trouble::Display(error.into()),
            T::Needs(step) => Trouble::Needs(step.into()),
            T::Misplayed(count) => Trouble::Misplayed(*count),
            T::NoReference => Trouble::NoReference,
        }
    }
}

impl From<Trouble> for judge::Trouble {
    fn from(trouble: Trouble) -> judge::Trouble {
        use judge::Trouble as T;
        match trouble {
            Trouble::NotStarted(failure) => T::NotStarted(failure.into()),
            Trouble::Ended(ending) => T::Ended(ending.into()),
            Trouble::NoWindow(waited) => T::NoWindow(waited),
            Trouble::Unsettled(waited) => T::Unsettled(waited),
            Trouble::Display(error) => T::Display(error.into()),
            Trouble::Needs(step) => T::Needs(step.into()),
            Trouble::Misplayed(count) => T::Misplayed(count),
            Trouble::NoReference => T::NoReference,
        }
    }
}
