//! The tests whose verdicts are timings: programs on two CPUs, whose speed-up is judged. They
//! are `#[ignore]`d, so that the plain `cargo test`, which runs the other tests all at once, leaves
//! them out; `scripts/test` runs them afterwards, one at a time, so that each test decides how
//! busy the machine is: idle, or loaded by a busy loop per CPU that the test starts itself
//! ([`Load`]), with two students graded at once (`--jobs 2`), as a shared server grades. The
//! speed-up is judged by what the threads did, not by the clock, so the verdicts are the same
//! either way.
//!
//! - The reference, graded idle and under load, gets the whole speed-up each time; the completed
//!   starter, built by the kit as the handout says, gets it too.
//! - Every thread design a student might write in Rust (`tests/fixtures/designs/`), graded as a
//!   class idle, and those whose credit rests on timing evidence a busy machine could blur graded
//!   again under load ([`UNDER_LOAD`]): the pool and the pool made anew per search get every point; the
//!   busy-waiting pool, a thread per column whatever THREADS says, one worker, and one worker
//!   that burns CPU on one thread to forge a baseline get none, each with its reason; so do
//!   workers taking turns on one lock and a burner thread beside a one-thread search; a pool
//!   polling with sleeps is named so; a pool whose workers count in one cache line is judged
//!   as measured, its work named as grown idle (the line's hand-overs cost as on a big
//!   server); each design graded under load has the same name in the gradebook as idle. A timed
//!   verdict may always be the kit's answer to a noisy machine, not counted ("machine busy"),
//!   never a wrong number: noise never lowers a grade (the repeatability check measures how
//!   often it is not counted).
//! - Java students with the same search, built from source: the fixture's pool gets every point
//!   of the speed-up; one board shared by every thread behind one lock gets none, its workers
//!   named as taking turns; columns divided among the threads in advance are flagged for the
//!   hand grader on the uneven position. Each mistake is made in a copy of the Java fixture by replacing its exact lines, so a change to
//!   the fixture that would quietly undo one fails here instead.

use std::fs;
use std::path::Path;
use std::process::{Child, Command, Stdio};

use crate::designs::{design_submission, DESIGNS};
use crate::support::{
    column, completed_starter, grade, graded, java_available, java_sources, reference_submission,
    rows, speedup_kit, tests,
};

/// A busy loop per CPU, running until dropped: the load of a shared machine.
struct Load(Vec<Child>);

impl Load {
    fn start() -> Load {
        let cpus = std::thread::available_parallelism().map_or(2, |n| n.get());
        Load(
            (0..cpus)
                .map(|_| {
                    Command::new("sh")
                        .args(["-c", "while :; do :; done"])
                        .stdout(Stdio::null())
                        .spawn()
                        .expect("a busy loop")
                })
                .collect(),
        )
    }
}

impl Drop for Load {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

#[test]
#[ignore = "timed: scripts/test runs it alone, after the rest"]
fn the_reference_gets_the_whole_speedup_idle_and_under_load() {
    let work = tempfile::tempdir().unwrap();
    let kit = work.path().join("kit");
    speedup_kit(&kit);
    let student = work.path().join("student");
    let program = reference_submission(&student);
    for loaded in [false, true] {
        let _load = loaded.then(Load::start);
        let (score, output) = speedup(&[&program], &kit, &student);
        assert!(
            score.is_none_or(|s| s == 10.0),
            "loaded: {loaded}: {output}"
        );
    }
}

/// What the speed-up column of a design's gradebook row says.
#[derive(Clone, Copy)]
enum Said {
    /// A measured speed-up (`1.72x of 1.75x`); like every timed verdict, or not counted (a
    /// pool polling with sleeps waits for a CPU at every wake-up, so a busy loop per CPU often
    /// leaves its rounds unsettled).
    Measured,
    /// A measured speed-up, with the work that grew named (`, work grew 1.90x`): the
    /// program's doing, not the machine's. Where instructions are counted, only measured.
    Grew,
    /// These words.
    Word(&'static str),
}

/// What each design gets from the speed-up case, in the gradebook: its points of 10 (`None`:
/// any), the speed-up column and the thread design column.
const EXPECTED: [(&str, Option<&str>, Said, &str); 12] = [
    ("pool", Some("10"), Said::Measured, "pool"),
    (
        "busy_waiting",
        Some("0"),
        Said::Word("busy-waiting"),
        "busy-waiting pool",
    ),
    (
        "fixed_division",
        None,
        Said::Measured,
        "pool, fixed division",
    ),
    (
        "per_search_fixed",
        None,
        Said::Measured,
        "threads per search, fixed division",
    ),
    (
        "per_column",
        Some("0"),
        Said::Word("ignores THREADS"),
        "thread per column",
    ),
    (
        "pool_per_move",
        Some("10"),
        Said::Measured,
        "pool per search",
    ),
    ("one_worker", Some("0"), Said::Measured, "one worker"),
    ("forger", Some("0"), Said::Word("no baseline"), "one worker"),
    (
        "taking_turns",
        Some("0"),
        Said::Measured,
        "workers taking turns",
    ),
    (
        "sleep_polling",
        None,
        Said::Measured,
        "pool polling with sleeps",
    ),
    (
        "burner",
        Some("0"),
        Said::Measured,
        "work beside the search",
    ),
    // Its workers' counts side by side in one cache line, each hand-over of the line costing
    // what it costs on a big server: judged as measured, the work that grew named, never the
    // machine's fault (or full credit, where its speed-up reaches the bar all the same).
    ("shared_lines", None, Said::Grew, "pool"),
];

/// The designs graded again under load, two at once: those whose credit rests on the timed
/// evidence, which a busy machine could blur: the honest pools, which must keep every point,
/// and the designs whose 0 comes from what their threads were measured doing, which must not
/// win points from the noise. The others' verdicts are the same words idle and loaded (read
/// from their threads' states or THREADS), or any credit.
const UNDER_LOAD: [&str; 6] = [
    "pool",
    "pool_per_move",
    "one_worker",
    "forger",
    "taking_turns",
    "burner",
];

#[test]
#[ignore = "timed: scripts/test runs it alone, after the rest"]
fn every_thread_design_gets_its_credit_and_its_name_idle_and_under_load() {
    let work = tempfile::tempdir().unwrap();
    let kit = work.path().join("kit");
    speedup_kit(&kit);
    assert_eq!(EXPECTED.map(|e| e.0), DESIGNS);
    for (loaded, jobs) in [(false, "1"), (true, "2")] {
        let class = work.path().join(format!("class-{loaded}"));
        for (design, ..) in EXPECTED {
            if loaded && !UNDER_LOAD.contains(&design) {
                continue;
            }
            let dir = class.join(design);
            let program = design_submission(&dir, design);
            fs::write(
                dir.join("run"),
                format!("cd \"$(dirname \"$0\")\"\nexec {program} \"$@\"\n"),
            )
            .unwrap();
        }
        let csv = work.path().join(format!("loaded-{loaded}.csv"));
        let reports = work.path().join(format!("reports-{loaded}"));
        let _load = loaded.then(Load::start);
        let output = grade()
            .arg("class")
            .arg(&class)
            .args(["--command", "sh {dir}/run", "--jobs", jobs, "--kit"])
            .arg(&kit)
            .arg("--csv")
            .arg(&csv)
            .arg("--report")
            .arg(&reports)
            .output()
            .unwrap();
        let printed = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success(), "{printed}");
        let rows = rows(&csv);
        let at = |name: &str| column(&rows[0], name);
        let (points, speedup, design) = (at("Threading ("), at("speed-up"), at("thread design"));
        for (name, credit, word, seen) in EXPECTED {
            if loaded && !UNDER_LOAD.contains(&name) {
                continue;
            }
            let row = rows.iter().find(|r| r[0] == name).expect("a row each");
            let said = format!("{name}, loaded: {loaded}: {row:?}\n{printed}");
            assert_eq!(row[design], seen, "{said}");
            // A timing verdict is the right one or the kit's own answer to a noisy machine:
            // not counted (a blank cell, "machine busy"), never a wrong number.
            if row[points].is_empty() && !matches!(word, Said::Word(_)) {
                assert_eq!(row[speedup], "machine busy", "{said}");
                continue;
            }
            if let Some(credit) = credit {
                assert_eq!(row[points], credit, "{said}");
            }
            let measured = row[speedup].contains("x of ");
            match word {
                Said::Word(word) => assert_eq!(row[speedup], word, "{said}"),
                Said::Measured => assert!(measured, "{said}"),
                Said::Grew => {
                    let report = fs::read_to_string(reports.join(format!("{name}.md")));
                    let report = report.unwrap_or_default();
                    // Counted in instructions (a machine with hardware counters), a cache
                    // line's hand-overs cost time, not instructions: measured, not grown. A
                    // speed-up that earns full credit is judged as measured: nothing is taken,
                    // so no cause is owed (on a busy machine the workers' turns on the CPUs
                    // can spare the line its hand-overs, and the speed-up reach the bar).
                    if report.contains("measured in the instructions the threads retired")
                        || report.contains(": 100% credit.")
                    {
                        assert!(measured, "{said}");
                        continue;
                    }
                    assert!(row[speedup].contains("work grew"), "{said}");
                    assert!(
                        report.contains("Cause: work grew, not the machine"),
                        "{report}"
                    );
                    assert!(report.contains("Where to look: a lock held"), "{report}");
                }
            }
        }
    }
}

#[test]
#[ignore = "timed: scripts/test runs it alone, after the rest"]
fn the_completed_starter_built_as_the_handout_says_gets_the_whole_speedup() {
    let work = tempfile::tempdir().unwrap();
    let kit = work.path().join("kit");
    speedup_kit(&kit);
    let student = work.path().join("student");
    completed_starter(&student);
    let (score, output) = speedup(
        &[
            "target/release/connect_four",
            "--build",
            "cargo build --release --no-default-features --locked",
        ],
        &kit,
        &student,
    );
    assert!(score.is_none_or(|s| s == 10.0), "{output}");
    assert!(output.contains("a pool: the same 2 threads"), "{output}");
}

/// The score and output of the speed-up case when `grade student` with `args`, run in `dir`
/// with `kit`, judged it: a busy machine's verdict ("not counted: grade again") is graded
/// again, as the report says, twice at most, and then is the kit's answer (`None`): a timing
/// verdict is the right one or that, never a wrong number.
fn speedup(args: &[&str], kit: &Path, dir: &Path) -> (Option<f64>, String) {
    let mut output = String::new();
    for _ in 0..3 {
        let graded = graded(
            grade()
                .arg("student")
                .args(args)
                .arg("--kit")
                .arg(kit)
                .current_dir(dir),
        );
        let score = tests(&graded.results)
            .iter()
            .find(|t| t["name"] == "Threading: threads/speedup")
            .expect("the timing case is a test")["score"]
            .as_f64();
        // The terminal report: the case's verdict, its details and the thread design seen.
        output = graded.stdout;
        if output.contains("the machine was busy: grade again") {
            eprintln!("graded again: {output}");
            continue;
        }
        assert!(output.contains("% credit."), "judged: {output}");
        return (Some(score.expect("a score")), output);
    }
    (None, output)
}

/// A mistake made in the Java fixture: each edit is a file, the fixture's exact text and what
/// replaces it.
struct Mistake {
    name: &'static str,
    edits: &'static [(&'static str, &'static str, &'static str)],
}

/// Every task searches the game's own board, taking turns behind its lock.
const SHARED_BOARD: Mistake = Mistake {
    name: "shared_board",
    edits: &[(
        "Game.java",
        "            Board copy = board.copy();
            copy.place(row, col, turn);
            int c = col;
            open.add(col);
            jobs.add(() -> Search.value(copy, row, c, depth));",
        "            Board shared = board;
            char who = turn;
            int c = col;
            open.add(col);
            jobs.add(() -> {
                synchronized (shared) {
                    shared.place(row, c, who);
                    int value = Search.value(shared, row, c, depth);
                    shared.clear(row, c);
                    return value;
                }
            });",
    )],
};

/// Thread k of the pool is given columns k, k + THREADS, ... before the search starts.
const FIXED_DIVISION: Mistake = Mistake {
    name: "fixed_division",
    edits: &[
        (
            "Game.java",
            "    private final WorkerPool pool;",
            "    private final WorkerPool pool;
    private final int threads;",
        ),
        (
            "Game.java",
            "        this.pool = new WorkerPool(threads);",
            "        this.pool = new WorkerPool(threads);
        this.threads = threads;",
        ),
        (
            "Game.java",
            "        List<Integer> open = new ArrayList<>();
        List<Callable<Integer>> jobs = new ArrayList<>();
        for (int col = 0; col < cols; col++) {
            int row = board.landingRow(col);
            if (row < 0) {
                continue;
            }
            Board copy = board.copy();
            copy.place(row, col, turn);
            int c = col;
            open.add(col);
            jobs.add(() -> Search.value(copy, row, c, depth));
        }
        List<Integer> values = pool.runAll(jobs);
        Integer[] scores = new Integer[cols];
        for (int i = 0; i < open.size(); i++) {
            scores[open.get(i)] = values.get(i);
        }
        return scores;",
            "        Integer[] scores = new Integer[cols];
        List<Callable<Integer>> jobs = new ArrayList<>();
        for (int first = 0; first < threads; first++) {
            int start = first;
            jobs.add(() -> {
                for (int col = start; col < cols; col += threads) {
                    int row = board.landingRow(col);
                    if (row >= 0) {
                        Board copy = board.copy();
                        copy.place(row, col, turn);
                        scores[col] = Search.value(copy, row, col, depth);
                    }
                }
                return 0;
            });
        }
        pool.runAll(jobs);
        return scores;",
        ),
    ],
};

/// Makes `dir` a Java submission: the fixture's sources, with `mistake`'s edits made.
fn java_submission(dir: &Path, mistake: Option<&Mistake>) {
    java_sources(dir);
    for (file, from, to) in mistake.map_or(&[][..], |m| m.edits) {
        let path = dir.join(file);
        let text = fs::read_to_string(&path).unwrap();
        assert_eq!(
            text.matches(from).count(),
            1,
            "{file} of the Java fixture has changed: update the mistake that edits {from:?}"
        );
        fs::write(&path, text.replacen(from, to, 1)).unwrap();
    }
}

#[test]
#[ignore = "timed: scripts/test runs it alone, after the rest"]
fn java_threading_mistakes_cost_the_speedup_or_are_flagged_for_the_hand_grader() {
    assert!(java_available(), "the timed tests need javac and java");
    let work = tempfile::tempdir().unwrap();
    let kit = work.path().join("kit");
    speedup_kit(&kit);
    let flag = "FLAG for the hand grader";
    let pool = "a pool: the same 2 threads";
    let turns = "workers taking turns: 2 threads searched";
    let fixed = "a pool with a fixed division of the columns: the same 2 threads";
    // Behind one lock the shared board's pool threads take turns, even where Java's unfair
    // lock lets one of them take nearly every task.
    for (mistake, credit, design) in [
        (None, Some(10.0), pool),
        (Some(SHARED_BOARD), Some(0.0), turns),
        (Some(FIXED_DIVISION), None, fixed),
    ] {
        let name = mistake.as_ref().map_or("pool", |m| m.name);
        let dir = work.path().join(name);
        java_submission(&dir, mistake.as_ref());
        let (score, output) = speedup(
            &[
                "java -cp build ConnectFour",
                "--build",
                "javac -d build *.java",
            ],
            &kit,
            &dir,
        );
        if let (Some(credit), Some(score)) = (credit, score) {
            assert_eq!(score, credit, "{name}: {output}");
        }
        assert!(output.contains(design), "{name}: {output}");
        let flagged = output.contains(flag);
        assert_eq!(flagged, name == FIXED_DIVISION.name, "{name}: {output}");
    }
}
