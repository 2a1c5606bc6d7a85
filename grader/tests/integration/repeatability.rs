//! The repeatability check of the Threading credit: a class of honest pools of several kinds
//! and of designs that earn nothing, graded again and again, idle and beside a noisy neighbour
//! (a thread per CPU that alternates bursts of work with sleeps of random lengths), with the
//! spread of each program's credit printed. It is a measurement, not a timed test of the
//! suite: `scripts/repeatability` runs it (`#[ignore]`d here, and `scripts/test` runs only the
//! `timed::` tests among the ignored ones). It fails when noise cost an honest pool a point
//! (a counted grade below full), when a program that gains nothing got a point, or when a
//! program's counted grades differ by more than one point.
//!
//! `CONNECT_FOUR_REPEATS` (default 5) sets how many gradings each condition gets;
//! `CONNECT_FOUR_CONDITIONS` (default `idle,noisy`) which conditions run.

use std::collections::BTreeMap;
use std::fs;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use crate::designs::design_submission;
use crate::support::{column, grade, rows, speedup_kit};

/// The programs graded, each with the points of 10 it deserves on two CPUs: honest pools every
/// point, the rest none.
const PROGRAMS: [(&str, f64); 16] = [
    ("pool", 10.0),
    ("queue_copies", 10.0),
    ("channel_pool", 10.0),
    ("book_pool", 10.0),
    ("stealing", 10.0),
    ("slow_pool", 10.0),
    ("pool_per_move", 10.0),
    ("forger", 0.0),
    ("busy_waiting", 0.0),
    ("relay", 0.0),
    ("burner", 0.0),
    ("duplicated", 0.0),
    ("per_column", 0.0),
    ("sequential", 0.0),
    ("one_worker", 0.0),
    ("machine_sized", 0.0),
];

/// A noisy neighbour: a thread per CPU that works for 20 to 300 ms and sleeps for 20 to 300
/// ms, at random, until dropped: the load of a shared machine that comes and goes.
struct Neighbour {
    stop: Arc<AtomicBool>,
    threads: Vec<JoinHandle<()>>,
}

impl Neighbour {
    fn start() -> Neighbour {
        let stop = Arc::new(AtomicBool::new(false));
        let cpus = thread::available_parallelism().map_or(2, |n| n.get());
        let threads = (0..cpus)
            .map(|cpu| {
                let stop = Arc::clone(&stop);
                thread::spawn(move || {
                    let mut state = 0x9E37_79B9_7F4A_7C15_u64 ^ cpu as u64;
                    let mut next = move || {
                        state ^= state << 13;
                        state ^= state >> 7;
                        state ^= state << 17;
                        Duration::from_millis(20 + state % 281)
                    };
                    while !stop.load(Ordering::Relaxed) {
                        let until = Instant::now() + next();
                        while Instant::now() < until {
                            std::hint::black_box(state.wrapping_mul(3));
                        }
                        thread::sleep(next());
                    }
                })
            })
            .collect();
        Neighbour { stop, threads }
    }
}

impl Drop for Neighbour {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

/// One grading of one program: its points (`None`: not counted, a blank cell), and the
/// speed-up and thread design columns.
struct Graded {
    points: Option<f64>,
    speedup: String,
    design: String,
}

/// A setting from the environment, or `default`.
fn setting(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.into())
}

#[test]
#[ignore = "a measurement of repeatability: scripts/repeatability runs it"]
fn honest_pools_get_full_credit_or_none_counted_and_every_grade_repeats() {
    let repeats: usize = setting("CONNECT_FOUR_REPEATS", "5")
        .parse()
        .expect("CONNECT_FOUR_REPEATS: a whole number");
    let conditions = setting("CONNECT_FOUR_CONDITIONS", "idle,noisy");
    let work = tempfile::tempdir().unwrap();
    let (kit, class) = (work.path().join("kit"), work.path().join("class"));
    speedup_kit(&kit);
    for (name, _) in PROGRAMS {
        let dir = class.join(name);
        let program = design_submission(&dir, name);
        fs::write(
            dir.join("run"),
            format!("cd \"$(dirname \"$0\")\"\nexec {program} \"$@\"\n"),
        )
        .unwrap();
    }
    let mut graded: BTreeMap<(&str, &str), Vec<Graded>> = BTreeMap::new();
    for condition in conditions.split(',') {
        for round in 0..repeats {
            let _neighbour = (condition == "noisy").then(Neighbour::start);
            let csv = work.path().join(format!("{condition}-{round}.csv"));
            let started = Instant::now();
            let output = grade()
                .arg("class")
                .arg(&class)
                .args(["--command", "sh {dir}/run", "--jobs", "1", "--kit"])
                .arg(&kit)
                .arg("--csv")
                .arg(&csv)
                .output()
                .unwrap();
            assert!(
                output.status.success(),
                "{}",
                String::from_utf8_lossy(&output.stdout)
            );
            eprintln!(
                "{condition} grading {}: {:.0} s",
                round + 1,
                started.elapsed().as_secs_f64()
            );
            let rows = rows(&csv);
            let at = |name: &str| column(&rows[0], name);
            let (points, speedup, design) =
                (at("Threading ("), at("speed-up"), at("thread design"));
            for (name, _) in PROGRAMS {
                let row = rows.iter().find(|r| r[0] == name).expect("a row each");
                graded.entry((name, condition)).or_default().push(Graded {
                    points: row[points].parse().ok(),
                    speedup: row[speedup].clone(),
                    design: row[design].clone(),
                });
            }
        }
    }
    let mut wrong = Vec::new();
    let (mut total, mut deducted, mut again) = (0, 0, 0);
    println!("program        condition  points (- not counted)          designs named");
    for ((name, condition), gradings) in &graded {
        let deserved = PROGRAMS.iter().find(|p| p.0 == *name).map(|p| p.1);
        let shown: Vec<String> = gradings
            .iter()
            .map(|g| g.points.map_or("-".into(), |p| format!("{p:.2}")))
            .collect();
        let mut designs: Vec<&str> = gradings.iter().map(|g| g.design.as_str()).collect();
        designs.dedup();
        println!(
            "{name:<14} {condition:<10} {:<32} {}",
            shown.join(" "),
            designs.join(" / ")
        );
        for g in gradings {
            total += 1;
            match g.points {
                None => again += 1,
                Some(p) if Some(p) != deserved => {
                    deducted += usize::from(deserved == Some(10.0));
                    wrong.push(format!("{name} ({condition}): {p} ({})", g.speedup));
                }
                Some(_) => {}
            }
        }
    }
    for (name, _) in PROGRAMS {
        let counted: Vec<f64> = graded
            .iter()
            .filter(|((n, _), _)| *n == name)
            .flat_map(|(_, gradings)| gradings.iter().filter_map(|g| g.points))
            .collect();
        let spread = counted.iter().copied().fold(f64::NAN, f64::max)
            - counted.iter().copied().fold(f64::NAN, f64::min);
        if spread > 1.0 {
            wrong.push(format!(
                "{name}: counted grades {counted:?} differ by over a point"
            ));
        }
    }
    println!(
        "{total} gradings: {deducted} honest pools given less than full credit, {again} not \
         counted (grade again)"
    );
    assert!(wrong.is_empty(), "{wrong:#?}");
}
