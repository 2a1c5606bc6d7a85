//! One student: how to start their program ([`Student`]), what to run beyond the correctness
//! cases and how to confine it ([`Options`]), and [`grade_student`], which sets their sandbox
//! up, builds them, runs every case one after another, applies the requirements between cases,
//! gathers their style facts and observes their window if asked, and kills whatever they left
//! running before their result is handed on; each [`Stage`] told as it starts, for progress.

use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

use super::build::BuildCommand;
use super::compare::run_case;
use super::confinement::{Policy, Prison};
use super::job::{Job, Student};
use super::requirement;
use super::result::build::Build;
use super::result::confinement::Confinement;
use super::result::window::{Unobserved, WindowResult};
use super::result::{CaseResult, NotRun, StudentResult};
use super::stop::Stop;
use super::style::{self, StyleCheck};
use super::window::WindowRun;
use crate::kit::build_config;
use crate::kit::supplied::SuppliedCopy;
use crate::kit::{sources, tree, Kit};

/// After this many cases in a row in which the program answered nothing and timed out, the
/// rest are not run: a program that never answers costs the class a few time limits, not one
/// for every case.
pub const UNRESPONSIVE_CASES: usize = 3;

/// What to run beyond the correctness cases, and for how long.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Options {
    /// Leave out the speed-up cases (their points count neither way): for noisy machines and
    /// for tests that must not depend on timing.
    pub skip_timing: bool,
    /// Build each submission first; a failed build loses every case.
    pub build: Option<BuildCommand>,
    /// The longest one student's cases may take: once it has passed, the cases not yet started
    /// are lost, not run.
    pub student_deadline: Option<Duration>,
    /// How the student's processes are confined; `None`: not at all (`--no-sandbox`).
    pub sandbox: Option<Policy>,
    /// Gather the style facts (`--style`), by the rubric's `[style]` table.
    pub style: Option<StyleCheck>,
    /// How their window is observed, after the cases (`--window`).
    pub window: Option<WindowRun>,
}

/// What a student's grading is doing: told as each stage starts, for a class's progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage<'a> {
    /// Their submission is being built.
    Build,
    /// A case is being run: the `number`th (from 1) of the `of` cases run for them (those
    /// left out by `--skip-timing` not counted), called `name`.
    Case {
        /// Which case, from 1.
        number: usize,
        /// Of how many.
        of: usize,
        /// The case's name.
        name: &'a str,
    },
    /// Their style facts are being gathered.
    Style,
    /// Their window is being observed.
    Window,
}

/// Builds one student (if `options` say so), grades them on every case of `kit`, one case after
/// another, and compares their copy of the supplied crate (in their directory, else the
/// grader's) with the kit's. Their processes run in a sandbox of their own; whatever is left of
/// them is killed before this returns.
pub fn grade_student(kit: &Kit, student: &Student, options: &Options) -> StudentResult {
    grade_until(kit, student, options, &Stop::default(), &|_| {})
}

/// [`grade_student`] in a run that may be asked to stop (`stop`): their sandbox is kept there,
/// to be killed when it is, and once it is no more of their grading starts; each [`Stage`] is
/// told to `step` as it starts. `None` when it was asked while they were graded: their result
/// was cut short, and is no grade.
pub fn grade_student_unless_stopped(
    kit: &Kit,
    student: &Student,
    options: &Options,
    stop: &Stop,
    step: &dyn Fn(Stage),
) -> Option<StudentResult> {
    let result = grade_until(kit, student, options, stop, step);
    (!stop.asked()).then_some(result)
}

/// [`grade_student`], stopping early (with a result cut short) once `stop` is asked, telling
/// `step` each step as it starts.
fn grade_until(
    kit: &Kit,
    student: &Student,
    options: &Options,
    stop: &Stop,
    step: &dyn Fn(Stage),
) -> StudentResult {
    let started = Instant::now();
    let prison = options
        .sandbox
        .as_ref()
        .map(|policy| Prison::prepare(policy, student));
    let sandbox = match &prison {
        Some(Ok(prison)) => Some(&prison.prepared),
        _ => None,
    };
    let _running = sandbox.map(|prepared| stop.enter(prepared));
    let job = Job { student, sandbox };
    let dir = student.dir.as_deref().unwrap_or(Path::new("."));
    // What the submission holds that is never read, as handed in.
    let special = tree::survey(dir);
    let language = sources::main_language(dir);
    // A program the kit builds is built with the course's copy of the supplied crate, which
    // stays in place until grading is over.
    let restored = match (&options.build, &kit.supplied) {
        (Some(_), Some(course)) => course.restore(dir),
        _ => Ok(None),
    };
    let unconfined = match &prison {
        Some(Err(why)) => Some(NotRun::NoSandbox(why.to_string())),
        _ => None,
    };
    // The build is the course's: the submission's own cargo and rustup configuration is set
    // aside until grading is over, a manifest that would take the supplied crate from elsewhere
    // is refused, and so is a build that cargo's log says built it from elsewhere.
    let builds = options.build.as_ref().filter(|_| unconfined.is_none());
    let configured = builds.map(|_| build_config::set_aside(dir));
    let mut build = builds
        .zip(configured.as_ref())
        .map(|(command, (set, moved))| {
            step(Stage::Build);
            if let Err(why) = moved {
                return Build::not_started(why.to_string());
            }
            let folder = match &restored {
                Ok(Some((comparison, _))) => Some(comparison.folder.as_str()),
                Ok(None) => None,
                Err(why) => return Build::not_started(why.to_string()),
            };
            let refused = match &kit.supplied {
                Some(_) => build_config::redirections(dir, folder.unwrap_or("supplied")),
                None => Vec::new(),
            };
            if !refused.is_empty() {
                return Build {
                    refused,
                    set_aside: set.files.clone(),
                    ..Build::not_started("refused".into())
                };
            }
            // As cargo names it: the submission's real path, which the build runs in.
            let checked = folder.map(|folder| {
                fs::canonicalize(dir)
                    .unwrap_or_else(|_| dir.to_path_buf())
                    .join(folder)
            });
            command.run(&job, set.files.clone(), checked.as_deref())
        });
    let runs = |case: &crate::kit::Case| !(options.skip_timing && case.is_timing());
    let of = kit.cases.iter().filter(|(case, _)| runs(case)).count();
    let graded = Instant::now();
    let mut cases = Vec::new();
    let mut left_out = Vec::new();
    // How many cases in a row the program has answered nothing and timed out.
    let mut silent = 0;
    for (case, solution) in &kit.cases {
        if stop.asked() {
            break;
        }
        let out_of_time = options.student_deadline.filter(|d| graded.elapsed() >= *d);
        if !runs(case) {
            left_out.push(case.name.clone());
        } else if let Some(why) = unconfined.clone().or_else(|| build.as_ref()?.not_run()) {
            cases.push(CaseResult::lost(case, why));
        } else if let Some(deadline) = out_of_time {
            cases.push(CaseResult::lost(case, NotRun::OutOfTime(deadline)));
        } else if silent >= UNRESPONSIVE_CASES {
            cases.push(CaseResult::lost(case, NotRun::Unresponsive(silent)));
        } else {
            step(Stage::Case {
                number: cases.len() + 1,
                of,
                name: &case.name,
            });
            let result = run_case(case, solution, &job, &kit.rubric);
            silent = if result.silent { silent + 1 } else { 0 };
            cases.push(result);
        }
    }
    requirement::apply(kit.cases.iter().map(|(case, _)| case), &mut cases);
    let why = match &unconfined {
        Some(NotRun::NoSandbox(why)) => Some(why.as_str()),
        _ => None,
    };
    let style = options
        .style
        .as_ref()
        .filter(|_| !stop.asked())
        .map(|check| {
            step(Stage::Style);
            style::gather(&kit.rubric.style, check, &job, dir, why)
        });
    let window = options
        .window
        .as_ref()
        .filter(|_| !stop.asked())
        .map(|run| match why {
            Some(why) => WindowResult::Unobserved(Unobserved::NoSandbox(why.to_owned())),
            None => {
                step(Stage::Window);
                run.run(&job, dir)
            }
        });
    let confinement = match &prison {
        None => Confinement::Off,
        Some(Err(why)) => Confinement::Failed(why.to_string()),
        Some(Ok(prison)) => prison.release(),
    };
    // Put back once nothing of the student's runs any more.
    if let (Some(build), Some((set, _))) = (&mut build, configured) {
        build.not_put_back = set.put_back().err();
    }
    let supplied = match restored {
        Ok(Some((comparison, swap))) => Some(SuppliedCopy {
            not_put_back: swap.and_then(|swap| swap.put_back(dir).err()),
            ..comparison
        }),
        // Not restored (no build step, or it could not be): compare what is there.
        _ => kit.supplied.as_ref().and_then(|course| course.compare(dir)),
    };
    StudentResult {
        student: student.name.clone(),
        cases,
        left_out,
        elapsed: started.elapsed(),
        build,
        supplied,
        special,
        confinement,
        style,
        window,
        language,
    }
}
