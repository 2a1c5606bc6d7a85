//! The Java baseline of the benchmark (benches/java) against the reference: scripts/bench times
//! the two side by side, which is fair only if they do the same work, so here they must give
//! the same `scores` and `heuristic` answers, the baseline on one thread and on three. When
//! `javac` or `java` is not on PATH each test says it was skipped and passes, except under CI
//! (`CI` set), where each fails.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use crate::binary::replies;
use crate::jdk;
use crate::process::run_program;

/// The longest one protocol session may take, in seconds, before `timeout` stops it.
const LIMIT_SECONDS: &str = "120";

/// The exit status `timeout` reports when it had to stop the program.
const TIMED_OUT: i32 = 124;

/// Runs `check` with the directory of the baseline's classes (compiled once for this test
/// binary), or says that `test` was skipped (fails under CI) when there is no JDK.
fn with_baseline(test: &str, check: impl FnOnce(&Path)) {
    static CLASSES: OnceLock<Option<PathBuf>> = OnceLock::new();
    match CLASSES.get_or_init(|| jdk::found().then(compile)) {
        Some(classes) => check(classes),
        None => jdk::missing(test, "SKIPPED, the Java baseline was not built"),
    }
}

/// Compiles benches/java into a fresh directory under cargo's temporary directory for tests,
/// with every javac warning an error.
fn compile() -> PathBuf {
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("java_baseline");
    if out.exists() {
        std::fs::remove_dir_all(&out).expect("the old classes can be removed");
    }
    std::fs::create_dir_all(&out).expect("the class directory can be made");
    let sources = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/java");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&sources)
        .expect("benches/java exists")
        .map(|entry| entry.expect("benches/java can be listed").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "java"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .java files in {}", sources.display());
    let javac = Command::new("javac")
        .args(["-Xlint:all", "-Werror", "-d"])
        .arg(&out)
        .args(&files)
        .output()
        .expect("javac starts");
    assert!(
        javac.status.success(),
        "javac failed:\n{}",
        String::from_utf8_lossy(&javac.stderr)
    );
    out
}

/// Runs `program ARGS ROWS COLS 1 THREADS --protocol` with `commands`, stopped by `timeout` if it
/// takes too long, and returns its responses (checked for success and framing).
fn session(
    program: &str,
    args: &[&str],
    size: (u32, u32),
    threads: u32,
    commands: &str,
) -> Vec<String> {
    let (rows, cols) = (size.0.to_string(), size.1.to_string());
    let threads = threads.to_string();
    let mut all = vec![LIMIT_SECONDS, program];
    all.extend_from_slice(args);
    all.extend([
        rows.as_str(),
        cols.as_str(),
        "1",
        threads.as_str(),
        "--protocol",
    ]);
    let output = run_program("timeout", &all, commands);
    assert_ne!(
        output.status.code(),
        Some(TIMED_OUT),
        "{program} did not answer {commands:?} within {LIMIT_SECONDS} s"
    );
    replies(output)
}

/// The reference's responses on two threads, after checking that the baseline (compiled in
/// `classes`) gives the same ones on one thread and on three.
fn agree(classes: &Path, size: (u32, u32), commands: &str) -> Vec<String> {
    let reference = session(env!("CARGO_BIN_EXE_connect_four"), &[], size, 2, commands);
    let classpath = classes.to_str().expect("a UTF-8 temporary path");
    for threads in [1, 3] {
        let java = session(
            "java",
            &["-cp", classpath, "ConnectFour"],
            size,
            threads,
            commands,
        );
        assert_eq!(
            java, reference,
            "the Java baseline on {threads} thread(s) differs from the reference on {size:?} for {commands:?}"
        );
    }
    reference
}

/// The values of `scores D` for each of `depths` after `moves`, answered alike by both programs
/// (see `agree`); fails unless each answer is a success with one value per column.
fn scores(classes: &Path, size: (u32, u32), moves: &str, depths: &[u32]) -> Vec<Vec<String>> {
    let asks: String = depths.iter().map(|d| format!("scores {d}\n")).collect();
    let replies = agree(classes, size, &format!("{moves}{asks}"));
    replies[replies.len() - depths.len()..]
        .iter()
        .map(|reply| {
            let values: Vec<String> = reply
                .strip_prefix("= ")
                .unwrap_or_else(|| panic!("not a successful answer: {reply:?}"))
                .split(' ')
                .map(str::to_string)
                .collect();
            assert_eq!(
                values.len(),
                size.1 as usize,
                "one value per column: {reply:?}"
            );
            values
        })
        .collect()
}

#[test]
fn scores_agree_on_the_empty_board_at_depths_one_to_five() {
    with_baseline(
        "scores_agree_on_the_empty_board_at_depths_one_to_five",
        |classes| {
            scores(classes, (6, 7), "new red\n", &[1, 2, 3, 4, 5]);
        },
    );
}

#[test]
fn scores_agree_after_some_moves() {
    with_baseline("scores_agree_after_some_moves", |classes| {
        for moves in [
            "new red\nplay 3\nplay 3\nplay 2\nplay 4\n",
            "new black\nplay 0\nplay 6\nplay 1\nplay 5\n",
            "new red\nplay 3\nplay 4\nplay 4\nplay 2\nplay 5\nplay 5\nplay 6\n",
        ] {
            scores(classes, (6, 7), moves, &[1, 2, 3, 4]);
        }
    });
}

#[test]
fn scores_see_an_immediate_win_in_both() {
    with_baseline("scores_see_an_immediate_win_in_both", |classes| {
        // Red has 0, 1 and 2 on the bottom row and is to move: column 3 wins at every depth.
        let moves = "new red\nplay 0\nplay 0\nplay 1\nplay 1\nplay 2\nplay 2\n";
        for values in scores(classes, (6, 7), moves, &[0, 3]) {
            assert_eq!(values[3], "inf", "{values:?}");
        }
    });
}

#[test]
fn scores_agree_on_a_small_odd_board() {
    with_baseline("scores_agree_on_a_small_odd_board", |classes| {
        for moves in ["new red\n", "new red\nplay 1\nplay 2\nplay 1\n"] {
            scores(classes, (5, 4), moves, &[1, 2, 3, 4, 5, 6, 7]);
        }
    });
}

#[test]
fn scores_agree_with_a_full_column() {
    with_baseline("scores_agree_with_a_full_column", |classes| {
        let moves = format!("new red\n{}", "play 3\n".repeat(6));
        for values in scores(classes, (6, 7), &moves, &[1, 2, 3, 4]) {
            assert_eq!(values[3], "-", "{values:?}");
        }
    });
}

#[test]
fn heuristic_agrees_for_every_column() {
    with_baseline("heuristic_agrees_for_every_column", |classes| {
        let every_column: String = (0..7).map(|c| format!("heuristic {c}\n")).collect();
        let positions = [
            "new red\n",
            // The handout's worked example: red's move in column 3 is worth 19.
            "new red\nplay 3\nplay 4\nplay 4\nplay 2\n",
            // Black has 0, 1 and 2 on the bottom row and is to move.
            "new black\nplay 0\nplay 0\nplay 1\nplay 1\nplay 2\nplay 6\nplay 6\nplay 6\n",
            "new red\nplay 3\nplay 3\nplay 3\nplay 3\nplay 3\nplay 3\nplay 2\nplay 4\n",
        ];
        let mut answers = Vec::new();
        for moves in positions {
            let replies = agree(classes, (6, 7), &format!("{moves}{every_column}"));
            answers.extend(replies[replies.len() - 7..].to_vec());
        }
        assert_eq!(answers[7 + 3], "= 19", "the worked example");
        assert_eq!(
            answers[2 * 7 + 3],
            "= inf",
            "black completes the bottom row"
        );
        assert_eq!(answers[3 * 7 + 3], "? column full");
    });
}
