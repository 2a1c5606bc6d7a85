//! Progress on standard error, shared by the long runs (a class, a match): on a terminal, bars
//! drawn in place by indicatif, with messages printed above them; elsewhere (a log file) no bar,
//! only plain lines, so that a log reads top to bottom. A class shows its bar (students graded
//! of all, the time spent and an estimate of the time left) and, under it, one line per student
//! being graded with the step they are on (case n of m); a match shows its status line. What is
//! shown is made [`inert`](super::inert) (it names students), kept to one line.

use std::io::IsTerminal;
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::inert;
use crate::judge::Stage;

/// How often a bar is drawn again while nothing happens, so that its clock keeps going.
const TICK: Duration = Duration::from_secs(1);

/// The class's bar before any student is graded: no rate to estimate the time left from yet.
const CLASS_STARTING: &str = "graded {pos}/{len} [{bar:30}] {elapsed} so far";
/// The class's bar once a student is graded.
const CLASS: &str = "graded {pos}/{len} [{bar:30}] {elapsed} so far, about {eta} left";
/// A student's line: their name and the step they are on.
const STUDENT: &str = "  {prefix}: {msg}";
/// A status line of its own (a match's).
const STATUS: &str = "{msg}";

/// Where progress goes: the bars of standard error when it is a terminal, else nothing but
/// plain lines. Every `Progress` of the process draws into the same bars, so that a message
/// from anywhere (Ctrl-C caught) is printed above them.
#[derive(Debug)]
pub struct Progress {
    /// The bars, when standard error is a terminal.
    bars: Option<MultiProgress>,
    /// The status line, once [`status`](Self::status) is first called.
    status: OnceLock<ProgressBar>,
}

impl Progress {
    /// Progress for standard error as it is now.
    pub fn stderr() -> Progress {
        static BARS: OnceLock<Option<MultiProgress>> = OnceLock::new();
        let bars = BARS.get_or_init(|| {
            std::io::stderr()
                .is_terminal()
                .then(|| MultiProgress::with_draw_target(ProgressDrawTarget::stderr()))
        });
        Progress {
            bars: bars.clone(),
            status: OnceLock::new(),
        }
    }

    /// Whether bars are shown (standard error is a terminal).
    pub fn live(&self) -> bool {
        self.bars.is_some()
    }

    /// On a terminal, shows `status` on this progress's status line; elsewhere does nothing.
    pub fn status(&self, status: &str) {
        if let Some(bars) = &self.bars {
            let line = self
                .status
                .get_or_init(|| bars.add(styled(ProgressBar::new(0), STATUS)));
            line.set_message(inert::line(status));
        }
    }

    /// Writes `line` on a line of its own: on a terminal above the bars.
    pub fn line(&self, line: &str) {
        let line = inert::line(line);
        match &self.bars {
            Some(bars) if bars.println(&line).is_ok() => {}
            _ => eprintln!("{line}"),
        }
    }

    /// Leaves the status line as it last was, so that what follows starts below it.
    pub fn finish(&self) {
        if let Some(line) = self.status.get() {
            line.finish();
        }
    }

    /// A class's bars for `total` students (none when standard error is not a terminal).
    pub fn class(&self, total: usize) -> ClassBars {
        let class = self.bars.as_ref().map(|bars| {
            let class = bars.add(styled(ProgressBar::new(total as u64), CLASS_STARTING));
            class.enable_steady_tick(TICK);
            class
        });
        ClassBars {
            bars: self.bars.clone(),
            class,
            students: Mutex::new(Vec::new()),
        }
    }
}

/// `bar` drawn by `template` (one of this module's, which are valid).
fn styled(bar: ProgressBar, template: &str) -> ProgressBar {
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style.progress_chars("#>-"));
    }
    bar
}

/// A step of a student's grading, as their line shows it.
fn step(step: &Stage) -> String {
    match step {
        Stage::Build => "building".into(),
        Stage::Case { number, of, name } => format!("case {number} of {of}: {name}"),
        Stage::Style => "gathering the style facts".into(),
        Stage::Window => "observing the window".into(),
    }
}

/// A class's bars: its own, and one line per student being graded. Without a terminal, every
/// call does nothing.
#[derive(Debug)]
pub struct ClassBars {
    /// Where they are drawn.
    bars: Option<MultiProgress>,
    /// The class's bar.
    class: Option<ProgressBar>,
    /// Each student being graded, by name, with their line.
    students: Mutex<Vec<(String, ProgressBar)>>,
}

impl ClassBars {
    /// `name`'s grading has started: their line is added below the others.
    pub fn started(&self, name: &str) {
        let (Some(bars), Ok(mut students)) = (&self.bars, self.students.lock()) else {
            return;
        };
        let line = bars.add(styled(ProgressBar::new(0), STUDENT));
        line.set_prefix(inert::line(name));
        line.set_message("starting");
        students.push((name.to_string(), line));
    }

    /// `name` has started `now`: their line says so.
    pub fn step(&self, name: &str, now: &Stage) {
        let Ok(students) = self.students.lock() else {
            return;
        };
        if let Some((_, line)) = students.iter().find(|(n, _)| n == name) {
            line.set_message(step(now));
        }
    }

    /// `name`'s grading has ended, the `done`th of the class: their line goes, the class's bar
    /// moves on.
    pub fn finished(&self, name: &str, done: usize) {
        let (Some(bars), Some(class), Ok(mut students)) =
            (&self.bars, &self.class, self.students.lock())
        else {
            return;
        };
        if let Some(at) = students.iter().position(|(n, _)| n == name) {
            let (_, line) = students.remove(at);
            line.finish_and_clear();
            bars.remove(&line);
        }
        if class.position() == 0 {
            styled(class.clone(), CLASS);
        }
        class.set_position(done as u64);
    }

    /// The class is done (or stopped): the class's bar stays as it last was.
    pub fn finish(&self) {
        if let Some(class) = &self.class {
            class.finish();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_says_which_case_of_how_many() {
        let case = Stage::Case {
            number: 3,
            of: 45,
            name: "genmove/any_best_column",
        };
        assert_eq!(step(&case), "case 3 of 45: genmove/any_best_column");
        assert_eq!(step(&Stage::Build), "building");
    }

    #[test]
    fn every_template_is_valid() {
        for template in [CLASS_STARTING, CLASS, STUDENT, STATUS] {
            assert!(ProgressStyle::with_template(template).is_ok(), "{template}");
        }
    }
}
