//! The tests whose verdicts are timings: programs on two CPUs, whose speed-up is judged. They
//! are `#[ignore]`d, so that the plain `cargo test`, which runs the other tests all at once and
//! keeps both CPUs busy, leaves them out; `scripts/test` runs them afterwards, one at a time, on
//! a machine doing nothing else (`cargo test -- --ignored --test-threads=1`), as an instructor
//! grades. A student the grader finds the machine too busy to judge is graded again, as its
//! report says to, twice at most: a machine busy three times running fails them.
//!
//! - The reference graded three times gets the same Threading credit each time, all of it; the
//!   completed starter, built by the kit as the handout says, gets all of it too.
//! - Java students with the same search, built from source: the fixture's pool gets every point
//!   of the speed-up; one worker whatever THREADS says, and one board shared by every thread
//!   behind one lock, get none of them; columns divided among the threads in advance are
//!   flagged for the hand grader on the uneven position. Each mistake is made in a copy of the
//!   Java fixture by replacing its exact lines, so a change to the fixture that would quietly
//!   undo one fails here instead.

use std::fs;
use std::path::Path;

use crate::support::{
    completed_starter, grade, graded, java_available, java_sources, reference_submission,
    speedup_kit, tests,
};

#[test]
#[ignore = "timed: scripts/test runs it alone, after the rest"]
fn the_reference_graded_three_times_gets_the_same_threading_credit() {
    let work = tempfile::tempdir().unwrap();
    let kit = work.path().join("kit");
    speedup_kit(&kit);
    let student = work.path().join("student");
    let program = reference_submission(&student);
    for _ in 0..3 {
        let (score, output) = speedup(&[&program], &kit, &student);
        assert_eq!(score, 10.0, "{output}");
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
    assert_eq!(score, 10.0, "{output}");
    assert!(output.contains("a pool: the same 2 threads"), "{output}");
}

/// The score and output of the speed-up case when `grade student` with `args`, run in `dir`
/// with `kit`, judged it: a busy machine's verdict is graded again, as the report says, twice
/// at most.
fn speedup(args: &[&str], kit: &Path, dir: &Path) -> (f64, String) {
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
        let output = graded.stdout;
        if output.contains("the machine was busy: grade again") {
            eprintln!("graded again: {output}");
            continue;
        }
        assert!(output.contains("% credit."), "judged: {output}");
        return (score.expect("a score"), output);
    }
    panic!("the machine was busy three times running: run the timed tests alone");
}

/// A mistake made in the Java fixture: each edit is a file, the fixture's exact text and what
/// replaces it.
struct Mistake {
    name: &'static str,
    edits: &'static [(&'static str, &'static str, &'static str)],
}

/// The pool handed one thread, whatever THREADS says.
const ONE_WORKER: Mistake = Mistake {
    name: "one_worker",
    edits: &[(
        "Game.java",
        "this.pool = new WorkerPool(threads);",
        "this.pool = new WorkerPool(1);",
    )],
};

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
    let (pool, one) = ("a pool: the same 2 threads", "one thread did all the work");
    let fixed = "a pool with a fixed division of the columns: the same 2 threads";
    // The design seen: one of these. Behind one lock the shared board's pool threads take
    // turns, and Java's lock is not fair: one of them may do all the work.
    for (mistake, credit, designs) in [
        (None, Some(10.0), &[pool][..]),
        (Some(ONE_WORKER), Some(0.0), &[one][..]),
        (Some(SHARED_BOARD), Some(0.0), &[pool, one][..]),
        (Some(FIXED_DIVISION), None, &[fixed][..]),
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
        if let Some(credit) = credit {
            assert_eq!(score, credit, "{name}: {output}");
        }
        assert!(
            designs.iter().any(|design| output.contains(design)),
            "{name}: {output}"
        );
        let flagged = output.contains(flag);
        assert_eq!(flagged, name == FIXED_DIVISION.name, "{name}: {output}");
    }
}
