//! A student's whole result kept on disk as JSON, so that what is made of it (the feedback files
//! returned to students) can be made again later without grading again. The file carries a
//! [`VERSION`]: a result kept by a `grade` whose types differ is refused with the versions
//! named, never read as something else.

use serde::{Deserialize, Serialize};

use super::StudentResult;

/// The version of the kept results this `grade` writes and reads.
pub const VERSION: u32 = 1;

/// A result as it is written.
#[derive(Serialize)]
struct Writing<'a> {
    version: u32,
    result: &'a StudentResult,
}

/// A result as it is read, once its version is known to be [`VERSION`].
#[derive(Deserialize)]
struct Reading {
    result: StudentResult,
}

/// The version alone, read first, so that another version is named rather than misread.
#[derive(Deserialize)]
struct Versioned {
    version: u32,
}

/// Why a kept result could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeptError {
    /// It is not a kept result at all (no version): the parser's words.
    NotKept(String),
    /// It was kept by a `grade` of another version.
    Version(u32),
    /// It has this version but not its shape: the parser's words.
    Malformed(String),
}

impl std::fmt::Display for KeptError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KeptError::NotKept(why) => write!(f, "not a student's result kept by grade: {why}"),
            KeptError::Version(found) => write!(
                f,
                "kept by another version of grade (version {found}; this grade reads version \
                 {VERSION}): grade the student again with this grade"
            ),
            KeptError::Malformed(why) => write!(f, "a kept result, but malformed: {why}"),
        }
    }
}

/// `result` as the JSON text kept, with its version.
pub fn to_json(result: &StudentResult) -> String {
    let writing = Writing {
        version: VERSION,
        result,
    };
    let json = serde_json::to_string_pretty(&writing).expect("a result is plain data");
    format!("{json}\n")
}

/// The result kept in `text`, if it is one of this version.
pub fn from_json(text: &str) -> Result<StudentResult, KeptError> {
    let versioned: Versioned =
        serde_json::from_str(text).map_err(|e| KeptError::NotKept(e.to_string()))?;
    if versioned.version != VERSION {
        return Err(KeptError::Version(versioned.version));
    }
    let reading: Reading =
        serde_json::from_str(text).map_err(|e| KeptError::Malformed(e.to_string()))?;
    Ok(reading.result)
}

#[cfg(test)]
mod tests {
    use std::os::unix::process::ExitStatusExt;
    use std::path::PathBuf;
    use std::process::ExitStatus;
    use std::time::Duration;

    use super::*;
    use crate::judge::fixtures::{self, hostile_student, HOSTILE};
    use crate::judge::result::confinement::Confinement;
    use crate::judge::result::design::{Design, Division};
    use crate::judge::result::speedup::{
        Judged, Measurement, Outcome, Speedup, Split, Uneven, Work,
    };
    use crate::judge::result::window::{
        Check, Measured, Observation, Status, Step, Trouble, WindowResult,
    };
    use crate::judge::result::{NotRun, Withheld};
    use crate::kit::tree::{Entry, Kind, Link, Listing};
    use crate::process::display::{DisplayError, Rect};
    use crate::process::sandbox::{Protections, Reason, Status as Protection, Survivors};
    use crate::process::{Cpus, Evidence, Failure, Limit, LimitHit};

    /// A result with something in every part: the hostile student's, with a speed-up measured,
    /// a case withheld, one not run, special files, a sandbox and an observed window.
    fn full() -> StudentResult {
        let mut result = hostile_student(false);
        let work = Work {
            wall: Duration::from_millis(1500),
            cpu: Duration::from_millis(2900),
            ready: Duration::from_millis(3000),
            span: Duration::from_millis(1450),
            workers: 2,
            busiest: 0.52,
            accounted: true,
        };
        let speedup = Speedup {
            threads: (1, 2),
            cpus: Cpus {
                online: 2,
                affinity: 2,
                quota: Some(1.5),
            },
            chosen: Some(crate::process::topology::Chosen {
                cpus: vec![2, 5],
                cores: vec![(0, 2), (1, 0)],
                distinct: 2,
                simulated_on: None,
            }),
            scaling: vec![crate::judge::result::speedup::Scale {
                threads: 1,
                speedup: 1.0,
                ceiling: 1.0,
            }],
            outcome: Outcome::Judged(
                Measurement {
                    depth: 8,
                    one: vec![work],
                    many: vec![work],
                    ceilings: vec![1.9],
                },
                Judged {
                    speedup: 1.8,
                    ceiling: 1.9,
                    gain: 0.89,
                    full_at: 1.6,
                    credit: 1.0,
                    grew: None,
                    unsettled: None,
                },
            ),
            uneven: Some(Uneven {
                columns: vec![0, 3],
                seen: Ok(Split { depth: 7, work }),
            }),
            design: Design::Pool {
                workers: 2,
                division: Division::Shared(0.55),
            },
        };
        result.cases.push(crate::judge::result::CaseResult {
            speedup: Some(speedup),
            earned: 10.0,
            ..fixtures::case_result("speedup", "Threading", 10.0)
        });
        result.cases.push(crate::judge::result::CaseResult {
            withheld: Some(Withheld {
                requires: vec!["a".into(), "b".into()],
                failed: vec!["b".into()],
            }),
            not_run: Some(NotRun::OutOfTime(Duration::from_secs(900))),
            ..fixtures::case_result("later", "AI", 2.0)
        });
        let failed = Failure::Ended(crate::process::Ending {
            status: ExitStatus::from_raw(9),
            limit: Some(LimitHit {
                limit: Limit::CpuTime,
                amount: 10,
                evidence: Evidence::Signal {
                    name: "SIGXCPU",
                    shell: Some(ExitStatus::from_raw(152 << 8)),
                },
            }),
            escaped: 1,
            stderr: HOSTILE.into(),
        });
        result.special = Listing {
            entries: vec![Entry {
                path: format!("out{HOSTILE}"),
                kind: Kind::Link(Link {
                    target: "/etc/passwd".into(),
                    within: false,
                }),
            }],
            unlisted: vec!["locked".into()],
            stopped: None,
        };
        result.confinement = Confinement::On {
            protections: Box::new(Protections {
                user: Protection::Unavailable(Reason::NotRoot),
                filesystem: Protection::InForce,
                network: Protection::InForce,
                processes: Protection::Partly(Reason::LandlockAbi {
                    kernel: 3,
                    needed: 6,
                    missing: "signal scoping",
                }),
                survivors: Protection::InForce,
                signals: Protection::NotRequested,
                tree: Protection::Unavailable(Reason::OldKernel {
                    release: "5.10".into(),
                    needed: "6.7",
                }),
                sight: Protection::Partly(Reason::NoFreshProc("no own tree".into())),
                objects: Protection::Unavailable(Reason::Namespaces("refused".into())),
                memory: Protection::InForce,
                cpu: Protection::Unavailable(Reason::Cgroup("not delegated".into())),
                disk: Protection::Unavailable(Reason::NoDisk("no overlay".into())),
            }),
            uid: Some(60000),
            swept: Err(Survivors { pids: vec![12, 13] }),
        };
        let rect = Rect {
            x: 1,
            y: 2,
            width: 375,
            height: 400,
        };
        result.window = Some(WindowResult::Observed(Box::new(Observation {
            board: (4, 5),
            depth: 8,
            checks: vec![
                Check {
                    step: Step::Grid,
                    status: Status::Pass,
                    measured: Measured::Grid {
                        title: HOSTILE.into(),
                        window: rect,
                        pitch: Some((75, 75)),
                        grid: Some(rect),
                        strip: Some(30),
                    },
                    screenshots: vec![PathBuf::from("grid.png")],
                    trouble: None,
                },
                Check {
                    step: Step::Redraw,
                    status: Status::NotObserved,
                    measured: Measured::Nothing,
                    screenshots: Vec::new(),
                    trouble: Some(Trouble::Display(DisplayError::Missing("xdotool"))),
                },
                Check {
                    step: Step::Drop,
                    status: Status::Fail,
                    measured: Measured::Cells {
                        column: 2,
                        expected: vec![(3, 2)],
                        changed: vec![],
                    },
                    screenshots: Vec::new(),
                    trouble: Some(Trouble::NotStarted(failed)),
                },
            ],
            protections: None,
            screenshots: PathBuf::from("/r/window/ann"),
            elapsed: Duration::from_millis(12_345),
        })));
        result
    }

    #[test]
    fn a_full_result_reads_back_as_it_was() {
        for result in [full(), hostile_student(true)] {
            let json = to_json(&result);
            assert!(json.contains("\"version\": 1"), "{json}");
            assert_eq!(from_json(&json), Ok(result));
        }
    }

    #[test]
    fn another_version_or_another_file_is_refused_with_why() {
        let json = to_json(&full()).replacen("\"version\": 1", "\"version\": 2", 1);
        let error = from_json(&json).unwrap_err();
        assert_eq!(error, KeptError::Version(2));
        assert!(error
            .to_string()
            .contains("version 2; this grade reads version 1"));
        assert!(matches!(
            from_json("{\"students\": {}}"),
            Err(KeptError::NotKept(_))
        ));
        assert!(matches!(
            from_json("{\"version\": 1, \"result\": {}}"),
            Err(KeptError::Malformed(_))
        ));
    }
}
