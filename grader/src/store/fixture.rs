//! A record that holds something of every type a record stores (every failure, skip, build
//! ending, speed-up outcome, thread design, protection, window check and style finding), for the
//! golden record tests: what one of them is written as is pinned there.

use std::os::unix::process::ExitStatusExt;
use std::path::PathBuf;
use std::process::ExitStatus;
use std::time::{Duration, UNIX_EPOCH};

use jiff::SignedDuration;

use super::{Late, Record, Stamp, Who};
use crate::judge::fixtures::{case_result, student};
use crate::judge::result::build::Build;
use crate::judge::result::confinement::Confinement;
use crate::judge::result::design::{Design, Division, Unseen};
use crate::judge::result::speedup::{
    Busy, Counting, Judged, Measurement, Refusal, Scale, Speedup, SpeedupFault, SpeedupOutcome,
    Split, Uneven, Work,
};
use crate::judge::result::style::{
    Function, HeaderItem, LintOutcome, LintResult, SourceFile, Style, Unread, Unreadable,
};
use crate::judge::result::window::{
    Check, Measured, Observation, Step, StepResult, Trouble, WindowResult,
};
use crate::judge::result::{
    CaseResult, Exchange, Expect, Fault, NotRun, Skip, StudentResult, Variety, Verdict, Withheld,
};
use crate::kit::build_config::Redirection;
use crate::kit::late::{Lateness, Moment};
use crate::kit::roster::Member;
use crate::kit::style::Language;
use crate::kit::submitted::{Source, Submitted};
use crate::kit::supplied::{Change, SuppliedCopy};
use crate::kit::tree::{Cutoff, Entry, EntryKind, Link, Listing};
use crate::process::counters::Uncounted;
use crate::process::display::{DisplayError, Rect};
use crate::process::logged::Ended;
use crate::process::sandbox::{Protections, Reason, Status, Survivors};
use crate::process::topology::Chosen;
use crate::process::{Cpus, Detection, Ending, Failure, Limit, LimitHit, Stream};

/// `seconds` (and `millis`) as a duration.
fn secs(seconds: u64, millis: u64) -> Duration {
    Duration::from_secs(seconds) + Duration::from_millis(millis)
}

/// A program ended with `status`, having hit `limit` (if any).
fn ended(status: i32, limit: Option<(Limit, Detection)>) -> Failure {
    Failure::Ended(Ending {
        status: ExitStatus::from_raw(status),
        limit: limit.map(|(limit, evidence)| LimitHit {
            limit,
            amount: 512,
            evidence,
        }),
        escaped: 1,
        stderr: "killed".into(),
    })
}

/// Every way an answer can fail or go unjudged, one exchange each.
fn exchanges() -> Vec<Exchange> {
    let timed_out = Failure::TimedOut {
        limit: secs(2, 0),
        first: Some("= 3".into()),
    };
    let starved = Failure::Starved {
        limit: secs(2, 0),
        had: secs(1, 500),
        wall: secs(9, 0),
    };
    let verdicts = vec![
        Verdict::Pass,
        Verdict::Fail(Fault::WrongAnswer),
        Verdict::Fail(Fault::Program(timed_out)),
        Verdict::Fail(Fault::Program(starved)),
        Verdict::Fail(Fault::Program(ended(1 << 8, None))),
        Verdict::Fail(Fault::Program(ended(
            9,
            Some((
                Limit::CpuTime,
                Detection::Signal {
                    name: "SIGXCPU",
                    shell: Some(ExitStatus::from_raw(152 << 8)),
                },
            )),
        ))),
        Verdict::Fail(Fault::Program(ended(
            9,
            Some((Limit::Processes, Detection::Counted(64))),
        ))),
        Verdict::Fail(Fault::Program(ended(
            9,
            Some((Limit::JobMemory, Detection::ControlGroup)),
        ))),
        Verdict::Fail(Fault::Program(ended(
            1 << 8,
            Some((Limit::Disk, Detection::DiskFull)),
        ))),
        Verdict::Fail(Fault::Program(ended(
            1 << 8,
            Some((
                Limit::Memory,
                Detection::Stderr {
                    status: ExitStatus::from_raw(1 << 8),
                    line: "MemoryError".into(),
                },
            )),
        ))),
        Verdict::Fail(Fault::Program(ended(
            6,
            Some((Limit::FileSize, Detection::Counted(1))),
        ))),
        Verdict::Fail(Fault::Program(Failure::Closed {
            stream: Stream::Input,
            stderr: "closed".into(),
        })),
        Verdict::Fail(Fault::Program(Failure::Closed {
            stream: Stream::Output,
            stderr: String::new(),
        })),
        Verdict::Fail(Fault::Program(Failure::Garbage("hello".into()))),
        Verdict::Fail(Fault::Program(Failure::Flood)),
        Verdict::Skip(Skip::NotStarted(Failure::Io("no such file".into()))),
        Verdict::Skip(Skip::AfterFailure(3, "turn".into())),
        Verdict::Skip(Skip::AfterDivergence(4, "drop 3".into())),
        Verdict::Skip(Skip::NoFirstAnswer("first".into())),
    ];
    let expects = [
        Expect::OneOf(vec!["= red".into(), "= yellow".into()]),
        Expect::Shape("= 1 2 3".into()),
        Expect::Nothing(Skip::NoFirstAnswer("first".into())),
    ];
    verdicts
        .into_iter()
        .enumerate()
        .map(|(line, verdict)| Exchange {
            run: "threads 4".into(),
            line,
            sent: "turn".into(),
            silent: vec!["# a comment".into()],
            expected: expects[line % expects.len()].clone(),
            got: (line % 2 == 0).then(|| "= red".into()),
            verdict,
            weight: 0.5,
        })
        .collect()
}

/// A search's work.
fn work(workers: usize) -> Work {
    Work {
        wall: secs(1, 250),
        cpu: secs(3, 0),
        ready: secs(3, 500),
        span: secs(1, 0),
        workers,
        busiest: 0.75,
        accounted: true,
        instructions: Some(1_000_000_000 * workers as u64),
    }
}

/// A measurement of one and of four threads.
fn measurement() -> Measurement {
    Measurement {
        depth: 9,
        one: vec![work(1)],
        many: vec![work(4), work(4)],
        ceilings: vec![3.5, 3.25],
        cpus: Some(4.0),
        machine: vec![3.75],
        counted: Some(Counting::Instructions),
        machine_instructions: vec![1.25],
    }
}

/// Every speed-up outcome, each with a thread design of its own.
fn speedups() -> Vec<CaseResult> {
    let program = SpeedupFault::Program {
        command: "go".into(),
        threads: 4,
        failure: Failure::Flood,
    };
    let outcomes = vec![
        SpeedupOutcome::TooFewCpus,
        SpeedupOutcome::Failed(SpeedupFault::Script(7)),
        SpeedupOutcome::Failed(program.clone()),
        SpeedupOutcome::Failed(SpeedupFault::Refused("threads 4".into(), "no".into())),
        SpeedupOutcome::Failed(SpeedupFault::Differ {
            depth: 8,
            one: "= 3".into(),
            other: "= 4".into(),
            threads: 4,
        }),
        SpeedupOutcome::Busy(measurement(), Busy::Unsettled(2.5, 3.0)),
        SpeedupOutcome::Busy(measurement(), Busy::Ceiling(1.5)),
        SpeedupOutcome::Busy(
            Measurement {
                counted: Some(Counting::CpuTime(Uncounted::Denied)),
                ..measurement()
            },
            Busy::Unaccounted,
        ),
        SpeedupOutcome::Busy(measurement(), Busy::Unrepeated(2.0, 3.0)),
        SpeedupOutcome::Busy(measurement(), Busy::Waited(0.25, 0.2)),
        SpeedupOutcome::Refused(measurement(), Refusal::NoBaseline(0.5)),
        SpeedupOutcome::Refused(measurement(), Refusal::BusyWaiting(0.75)),
        SpeedupOutcome::Refused(measurement(), Refusal::IgnoresThreads(1)),
        SpeedupOutcome::Judged(
            measurement(),
            Judged {
                speedup: 2.5,
                ceiling: 3.5,
                gain: 0.6,
                full_at: 0.8,
                credit: 0.75,
                grew: Some(1.25),
                repeated: Some((2.25, 2.75)),
            },
        ),
    ];
    let designs = [
        Design::Pool {
            workers: 4,
            division: Division::Shared(0.5),
        },
        Design::PerSearch {
            workers: 4,
            new: 7,
            division: Division::Fixed(0.25),
            serial: true,
        },
        Design::IgnoresThreads {
            workers: 8,
            alone: 2,
            per_column: true,
        },
        Design::BusyWaiting {
            workers: 4,
            idle: 0.5,
        },
        Design::TakingTurns {
            workers: 4,
            at_once: 1.25,
        },
        Design::Polling {
            workers: 4,
            wakeups: 900.0,
        },
        Design::Duplicated {
            workers: 4,
            work: 3.5,
        },
        Design::OneWorker,
        Design::Unseen(Unseen::TooQuick),
        Design::Unseen(Unseen::NotSearched),
        Design::Pool {
            workers: 2,
            division: Division::Unknown,
        },
    ];
    outcomes
        .into_iter()
        .enumerate()
        .map(|(i, outcome)| CaseResult {
            speedup: Some(Speedup {
                threads: (1, 4),
                cpus: Cpus {
                    online: 8,
                    affinity: 4,
                    quota: (i % 2 == 0).then_some(3.5),
                },
                chosen: Some(Chosen {
                    cpus: vec![0, 2],
                    cores: vec![(0, 0), (0, 1)],
                    distinct: 2,
                    simulated_on: (i % 2 == 1).then_some(2),
                }),
                scaling: vec![Scale {
                    threads: 2,
                    speedup: 1.75,
                    ceiling: 2.0,
                }],
                outcome,
                uneven: match i % 3 {
                    0 => None,
                    1 => Some(Uneven {
                        columns: vec![0, 6],
                        seen: Ok(Split {
                            depth: 8,
                            work: work(4),
                        }),
                    }),
                    _ => Some(Uneven {
                        columns: vec![3],
                        seen: Err(program.clone()),
                    }),
                },
                design: designs[i % designs.len()],
            }),
            earned: 1.5,
            ..case_result(&format!("speedup_{i}"), "Speed-up", 3.0)
        })
        .collect()
}

/// Every reason a case is not run, one case each.
fn not_run() -> Vec<CaseResult> {
    let reasons = [
        NotRun::BuildFailed,
        NotRun::BuildTimedOut(secs(60, 0)),
        NotRun::BuildStarved {
            limit: secs(60, 0),
            had: secs(30, 0),
            wall: secs(200, 0),
        },
        NotRun::OutOfTime(secs(600, 0)),
        NotRun::NoSandbox("no user namespace".into()),
        NotRun::Unresponsive(3),
    ];
    reasons
        .into_iter()
        .enumerate()
        .map(|(i, why)| CaseResult {
            not_run: Some(why),
            ..case_result(&format!("not_run_{i}"), "Rules", 1.0)
        })
        .collect()
}

/// Every status and reason of a protection.
fn protections() -> Protections {
    Protections {
        user: Status::Unavailable(Reason::NotRoot),
        filesystem: Status::Partly(Reason::LandlockAbi {
            kernel: 3,
            needed: 4,
            missing: "network rules",
        }),
        network: Status::Unavailable(Reason::NoLandlock),
        processes: Status::InForce,
        survivors: Status::Partly(Reason::NoJobIdentity),
        signals: Status::Unavailable(Reason::Namespaces("EPERM".into())),
        tree: Status::Partly(Reason::NoOwnTree("EPERM".into())),
        sight: Status::Unavailable(Reason::NoFreshProc("EPERM".into())),
        objects: Status::Partly(Reason::Shared("/tmp".into())),
        memory: Status::Unavailable(Reason::Cgroup("not delegated".into())),
        cpu: Status::Unavailable(Reason::OldKernel {
            release: "4.19".into(),
            needed: "5.13",
        }),
        disk: Status::Partly(Reason::NoDisk("no tmpfs".into())),
    }
}

/// A protection's other reasons, for the window's observation.
fn more_protections() -> Protections {
    Protections {
        user: Status::NotRequested,
        filesystem: Status::Unavailable(Reason::NestedNamespaces("EPERM".into())),
        network: Status::Unavailable(Reason::NotKnown),
        ..protections()
    }
}

/// A build that ended `ended`, its redirections refused.
fn build(ended: Ended) -> Build {
    Build {
        ended,
        elapsed: secs(12, 345),
        tail: "error[E0425]".into(),
        log: Some("/r/ann.build.log".into()),
        offline: true,
        set_aside: vec![".cargo/config.toml".into()],
        refused: vec![
            Redirection::Patch("crates-io".into()),
            Redirection::Replace("serde".into()),
            Redirection::Supplied {
                manifest: "Cargo.toml".into(),
                to: "../elsewhere".into(),
            },
            Redirection::Compiled("build.rs".into()),
        ],
        supplied_unseen: true,
        not_put_back: Some(("supplied".into(), "/kept/supplied".into())),
    }
}

/// Every style finding.
fn style() -> Style {
    let endings = [
        Ended::Succeeded,
        Ended::Failed(ExitStatus::from_raw(101 << 8)),
        Ended::DiskFull(ExitStatus::from_raw(1 << 8)),
        Ended::TimedOut(secs(30, 0)),
        Ended::Starved {
            limit: secs(30, 0),
            had: secs(10, 0),
            wall: secs(100, 0),
        },
        Ended::Flooded,
        Ended::NotStarted("no such file".into()),
        Ended::NoLog("EACCES".into()),
    ];
    let mut lints: Vec<LintResult> = endings
        .into_iter()
        .map(|ended| LintResult {
            name: "cargo clippy".into(),
            counts: "warnings".into(),
            outcome: LintOutcome::Failed {
                ended,
                tail: "error".into(),
            },
            log: None,
        })
        .collect();
    lints.push(LintResult {
        name: "pylint".into(),
        counts: "messages".into(),
        outcome: LintOutcome::Counted(4),
        log: Some("/r/ann.pylint.log".into()),
    });
    lints.push(LintResult {
        name: "checkstyle".into(),
        counts: "warnings".into(),
        outcome: LintOutcome::NoSandbox("no user".into()),
        log: None,
    });
    let unreadable = [
        Unreadable::TooLarge(1 << 20),
        Unreadable::NotText,
        Unreadable::NotAFile,
        Unreadable::Io("EACCES".into()),
        Unreadable::Unparsed("expected item".into()),
    ];
    Style {
        files: vec![SourceFile {
            path: "src/main.rs".into(),
            language: Language::Rust,
            lines: 120,
            missing: vec![HeaderItem::Name, HeaderItem::Course, HeaderItem::Project],
            placeholder: vec![HeaderItem::Date, HeaderItem::Description],
        }],
        unread: unreadable
            .into_iter()
            .map(|why| Unread {
                path: "src/odd.rs".into(),
                why,
            })
            .collect(),
        more_files: 2,
        lints,
        unlinted: vec![Language::Java],
        longest: vec![Function {
            path: "src/main.rs".into(),
            name: "main".into(),
            line: 3,
            lines: 80,
        }],
        unmeasured: vec![Language::Python],
    }
}

/// A window observed, with every step, measurement and trouble.
fn window() -> WindowResult {
    let rect = |x| Rect {
        x,
        y: -2,
        width: 640,
        height: 480,
    };
    let measured = [
        Measured::Nothing,
        Measured::Dialog {
            title: "Connect Four".into(),
            geometry: rect(1),
            holds_grid: true,
        },
        Measured::Grid {
            title: "Board".into(),
            window: rect(2),
            pitch: Some((40, 41)),
            grid: Some(rect(3)),
            strip: Some(20),
        },
        Measured::Cells {
            column: 3,
            expected: vec![(5, 3)],
            changed: vec![(5, 3), (4, 3)],
        },
        Measured::Redraw {
            reply: Some(secs(0, 150)),
            before_hiding: true,
            held: false,
            lost: vec![(0, 0)],
        },
        Measured::Likeness {
            same: 0.875,
            reference: vec!["/kit/reference/grid.png".into()],
        },
        Measured::Nothing,
    ];
    let troubles = [
        Some(Trouble::NotStarted(Failure::Io("ENOENT".into()))),
        Some(Trouble::Ended(Ending {
            status: ExitStatus::from_raw(11),
            limit: None,
            escaped: 0,
            stderr: "segfault".into(),
        })),
        Some(Trouble::NoWindow(secs(10, 0))),
        Some(Trouble::Unsettled(secs(5, 0))),
        Some(Trouble::Display(DisplayError::Missing("xdotool"))),
        Some(Trouble::Display(DisplayError::NoDisplay("no".into()))),
        Some(Trouble::Display(DisplayError::Tool(
            "import".into(),
            "exit 1".into(),
        ))),
        Some(Trouble::Display(DisplayError::Picture("bad PNG".into()))),
        Some(Trouble::Needs(Step::Grid)),
        Some(Trouble::Misplayed(2)),
        Some(Trouble::NoReference),
        None,
    ];
    let steps = [
        Step::Dialog,
        Step::Grid,
        Step::Drop,
        Step::FullColumn,
        Step::GameOver,
        Step::Redraw,
        Step::OwnWindow,
    ];
    let statuses = [StepResult::Pass, StepResult::Fail, StepResult::NotObserved];
    let checks = troubles
        .into_iter()
        .enumerate()
        .map(|(i, trouble)| Check {
            step: steps[i % steps.len()],
            status: statuses[i % statuses.len()],
            measured: measured[i % measured.len()].clone(),
            screenshots: vec![PathBuf::from(format!("/r/ann/{i}.png"))],
            trouble,
        })
        .collect();
    WindowResult::Observed(Box::new(Observation {
        board: (6, 7),
        depth: 5,
        checks,
        protections: Some(more_protections()),
        screenshots: "/r/ann".into(),
        elapsed: secs(42, 5),
    }))
}

/// The record that holds something of every type a record stores.
pub fn full() -> Record {
    let answers = CaseResult {
        description: "answers".into(),
        hidden: true,
        earned: 0.25,
        exchanges: exchanges(),
        variety: Some(Variety {
            count: 3,
            always: Some("= 4".into()),
        }),
        withheld: Some(Withheld {
            requires: vec!["a".into(), "b".into()],
            failed: vec!["b".into()],
        }),
        silent: true,
        ..case_result("answers", "Rules", 2.0)
    };
    let mut cases = vec![answers];
    cases.extend(not_run());
    cases.extend(speedups());
    let result = StudentResult {
        left_out: vec!["timing_big".into()],
        build: Some(build(Ended::TimedOut(secs(60, 0)))),
        supplied: Some(SuppliedCopy {
            folder: "supplied".into(),
            changes: vec![
                Change::Changed("src/lib.rs".into()),
                Change::Added("src/extra.rs".into()),
                Change::Removed("README.md".into()),
            ],
            replaced: true,
            not_put_back: None,
        }),
        special: Listing {
            entries: ["file", "folder", "link", "out", "fifo", "socket", "device"]
                .into_iter()
                .zip([
                    EntryKind::File,
                    EntryKind::Folder,
                    EntryKind::Link(Link {
                        target: "../x".into(),
                        within: true,
                    }),
                    EntryKind::Link(Link {
                        target: "/etc/passwd".into(),
                        within: false,
                    }),
                    EntryKind::Fifo,
                    EntryKind::Socket,
                    EntryKind::Device,
                ])
                .map(|(path, kind)| Entry {
                    path: path.into(),
                    kind,
                })
                .collect(),
            unlisted: vec!["target".into()],
            stopped: Some(Cutoff::TooMany(10_000)),
        },
        confinement: Confinement::On {
            protections: Box::new(protections()),
            uid: Some(100_042),
            swept: Err(Survivors {
                pids: vec![4242, 4243],
            }),
        },
        style: Some(style()),
        window: Some(window()),
        language: Some(Language::Python),
        ..student("ann", cases, 75)
    };
    let stamp = Stamp {
        entries: 12,
        bytes: 34_567,
        digest: "fedcba9876543210".into(),
    };
    let run = Some(UNIX_EPOCH + secs(1_760_000_000, 0));
    let who = Who {
        members: vec![Member {
            student_id: "0042".into(),
            name: "Ann Lee".into(),
            email: "ann@example.edu".into(),
            login: "alee".into(),
        }],
        submitted: Some(Submitted {
            at: Moment::parse("2026-11-20T23:10:05.5-08:00").unwrap(),
            source: Source::Gradescope,
        }),
        late: Late::Judged(Lateness {
            late: SignedDuration::new(3_605, 500_000_000),
            periods: 2,
            penalty: 2.5,
        }),
    };
    let mut record = Record::new(result, Some(stamp), run, Some(who));
    record.graded = UNIX_EPOCH + secs(1_760_000_075, 125);
    record.hand =
        serde_json::from_str(r#"{"GUI": {"items": [3, null, 0.5], "comment": ""}}"#).unwrap();
    record
}
