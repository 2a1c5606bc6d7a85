//! Small cases, exchanges and students for the unit tests of the judge and the reports: one
//! place that builds them, so that every test speaks of the same shapes.

use std::time::Duration;

use super::result::confinement::Confinement;
use super::result::{CaseResult, Exchange, Expect, StudentResult, Verdict};

use crate::kit::tree::Listing;
use crate::kit::Case;

/// Students named `names`, as a class folder's submissions would be (no command, no folder).
pub(crate) fn students(names: &[&str]) -> Vec<super::Student> {
    names
        .iter()
        .map(|name| super::Student {
            name: name.to_string(),
            command: String::new(),
            dir: None,
            limits: crate::process::Limits::default(),
        })
        .collect()
}

/// A student named `name` whose submission is the folder `dir` (no command).
pub(crate) fn student_in(name: &str, dir: &std::path::Path) -> super::Student {
    super::Student {
        dir: Some(dir.to_path_buf()),
        ..students(&[name]).remove(0)
    }
}

/// A case `name` of the Threading category, requiring `requires`, loaded from a case file
/// written for it (so that it is checked as the kit checks one).
pub(crate) fn case(name: &str, requires: &[&str]) -> Case {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(format!("{name}.toml"));
    std::fs::write(
        &path,
        format!(
            "category = \"Threading\"\npoints = 1\nrows = 4\ncols = 4\ndepth = 1\n\
             threads = 1\ntime_limit = 5\nrequires = {requires:?}\nscript = \"new red\"\n"
        ),
    )
    .unwrap();
    crate::kit::case::load(&path, dir.path()).unwrap()
}

/// `sent` on line 3, expected to answer `expected`, answered `got`, judged `verdict`.
pub(crate) fn exchange(
    sent: &str,
    expected: &str,
    got: Option<&str>,
    verdict: Verdict,
) -> Exchange {
    Exchange {
        run: String::new(),
        line: 3,
        sent: sent.into(),
        silent: Vec::new(),
        expected: Expect::OneOf(vec![expected.into()]),
        got: got.map(String::from),
        verdict,
        weight: 1.0,
    }
}

/// A case result of `category` worth `points`, with nothing judged.
pub(crate) fn case_result(name: &str, category: &str, points: f64) -> CaseResult {
    CaseResult {
        description: format!("what {name} tests"),
        ..CaseResult::named(name, category, points)
    }
}

/// A student named `name` with these case results, graded in `seconds`.
pub(crate) fn student(name: &str, cases: Vec<CaseResult>, seconds: u64) -> StudentResult {
    StudentResult {
        student: name.into(),
        cases,
        left_out: Vec::new(),
        elapsed: Duration::from_secs(seconds),
        build: None,
        supplied: None,
        special: Listing::default(),
        confinement: Confinement::Off,
        style: None,
        window: None,
        language: None,
    }
}

/// A rubric of an automatic category (`AI`, 1 point) and one graded by hand (`GUI`, 5 points: a
/// checklist of `(3) A <grid>` and `(2) A dialog`).
pub(crate) fn hand_rubric() -> crate::kit::Rubric {
    toml::from_str(
        "title = \"Connect Four\"\n[[category]]\nname = \"AI\"\npoints = 1\n\
         [[category]]\nname = \"GUI\"\npoints = 5\nevidence = \"window\"\nmanual = [\"(3) A <grid>\", \"(2) A dialog\"]\n\
         [speedup]\nfull_gain = 0.5\nno_gain = 0.2\nbusy_ceiling = 0.5\nbusy_credit_range = 0.2\n",
    )
    .unwrap()
}

/// A timing case of `category` worth `points` whose speed-up the machine could not judge: the
/// program could use one CPU of two, so it counts neither way.
pub(crate) fn not_counted(name: &str, category: &str, points: f64) -> CaseResult {
    use super::result::design::{Design, Unseen};
    use super::result::speedup::{Speedup, SpeedupOutcome};
    CaseResult {
        speedup: Some(Speedup {
            threads: (1, 2),
            cpus: crate::process::Cpus {
                online: 2,
                affinity: 1,
                quota: None,
            },
            chosen: None,
            scaling: Vec::new(),
            outcome: SpeedupOutcome::TooFewCpus,
            uneven: None,
            design: Design::Unseen(Unseen::NotSearched),
        }),
        ..case_result(name, category, points)
    }
}

/// What a hostile student puts wherever the reports show something of theirs: a terminal's
/// commands (clear the screen, a green "All 75 of 75 points", a window title, their text put in
/// the reader's clipboard), a C1 control that some terminals take as ESC [, and a right-to-left
/// override.
pub(crate) const HOSTILE: &str = "\x1b[2J\x1b[32mAll 75 of 75 points\x1b[0m\x1b]0;graded\x07\
                                  \x1b]52;c;cm0gLXJmIH4=\x07\u{9b}1m\u{202e}";

/// A student who put [`HOSTILE`] in everything of theirs that a report shows: their folder's
/// name, their answers and standard error, their build's log (a failed build when
/// `build_failed`), their copy of the supplied crate's folder and files, their source files'
/// and functions' names; and a sandbox and window that failed for reasons quoting it.
pub(crate) fn hostile_student(build_failed: bool) -> StudentResult {
    use std::os::unix::process::ExitStatusExt;
    use std::path::PathBuf;
    use std::process::ExitStatus;

    use super::result::build::Build;
    use super::result::style::{
        Function, HeaderItem, LintOutcome, LintResult, SourceFile, Style, Unread, Unreadable,
    };
    use super::result::window::{Unobserved, WindowResult};
    use super::result::{Fault, Variety};
    use crate::kit::style::Language;
    use crate::kit::supplied::{Change, SuppliedCopy};
    use crate::process::logged::Ended;
    use crate::process::{Ending, Failure, Stream};

    let failed = |failure| Verdict::Fail(Fault::Program(failure));
    let said = |verdict| exchange("turn", "= red", Some(&format!("= {HOSTILE}")), verdict);
    let case = CaseResult {
        exchanges: vec![
            said(Verdict::Fail(Fault::WrongAnswer)),
            said(failed(Failure::Ended(Ending {
                status: ExitStatus::from_raw(1 << 8),
                limit: None,
                escaped: 0,
                stderr: format!("Traceback\n{HOSTILE}"),
            }))),
            said(failed(Failure::Garbage(HOSTILE.into()))),
            said(failed(Failure::TimedOut {
                limit: Duration::from_secs(1),
                first: Some(HOSTILE.into()),
            })),
            said(failed(Failure::Closed {
                stream: Stream::Output,
                stderr: HOSTILE.into(),
            })),
        ],
        variety: Some(Variety {
            count: 3,
            always: Some(HOSTILE.into()),
        }),
        ..case_result("c", "AI", 1.0)
    };
    let file = format!("src/{HOSTILE}.rs");
    StudentResult {
        build: Some(Build {
            ended: match build_failed {
                true => Ended::Failed(ExitStatus::from_raw(101 << 8)),
                false => Ended::Succeeded,
            },
            elapsed: Duration::from_secs(1),
            tail: format!("error[E0425]\n{HOSTILE}"),
            log: Some(PathBuf::from(format!("/r/ann{HOSTILE}.build.log"))),
            offline: false,
            set_aside: Vec::new(),
            refused: Vec::new(),
            supplied_unseen: false,
            not_put_back: None,
        }),
        supplied: Some(SuppliedCopy {
            folder: format!("supplied{HOSTILE}"),
            changes: vec![Change::Added(file.clone())],
            replaced: true,
            not_put_back: Some((HOSTILE.into(), format!("/kept{HOSTILE}"))),
        }),
        confinement: Confinement::Failed(HOSTILE.into()),
        style: Some(Style {
            files: vec![SourceFile {
                path: file.clone(),
                language: Language::Rust,
                lines: 1,
                missing: vec![HeaderItem::Name],
                placeholder: Vec::new(),
            }],
            unread: vec![Unread {
                path: file.clone(),
                why: Unreadable::Io(HOSTILE.into()),
            }],
            lints: vec![LintResult {
                name: "cargo clippy".into(),
                counts: "warnings".into(),
                outcome: LintOutcome::NoSandbox(HOSTILE.into()),
                log: Some(PathBuf::from(format!("/r/{HOSTILE}.log"))),
            }],
            longest: vec![Function {
                path: file,
                name: HOSTILE.into(),
                line: 1,
                lines: 2,
            }],
            ..Style::default()
        }),
        window: Some(WindowResult::Unobserved(Unobserved::NoSandbox(
            HOSTILE.into(),
        ))),
        ..student(&format!("ann{HOSTILE}"), vec![case], 1)
    }
}
