//! scripts/bench, the side-by-side timing of the reference and the Java baseline, run with
//! `--quick` (small depths, two rounds): it must build both programs, agree on their values and
//! print the Markdown table with every row and a number in every cell that should have one.
//! Without a JDK it runs with `--no-java` and checks the reference's cells only, except under CI
//! (`CI` set), where it fails.

use std::path::Path;

use crate::jdk;
use crate::process::run_program;

/// The longest the quick run may take, in seconds: it builds the release binary first.
const LIMIT_SECONDS: &str = "1200";

/// The exit status `timeout` reports when it had to stop the script.
const TIMED_OUT: i32 = 124;

/// The table's first column in a quick run, row by row.
const ROWS: [&str; 6] = [
    "plain minimax, empty 6x7, depth 5, 1 thread",
    "alpha-beta (`--prune`), empty 6x7, depth 9, 2 threads",
    "plain minimax, empty 6x7, depth 6, 1 thread",
    "plain minimax, empty 6x7, depth 6, 2 threads",
    "speed-up from 1 to 2 threads, depth 6",
    "two 1-thread runs at once, depth 6: the most a second thread can give here",
];

/// A cell's number with its unit (` s` or `x`) removed; fails if there is none.
fn number(cell: &str, unit: &str, row: &str) -> f64 {
    let value: f64 = cell
        .strip_suffix(unit)
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{row}: {cell:?} is not a number followed by {unit:?}"));
    assert!(value > 0.0, "{row}: {cell:?} is not positive");
    value
}

#[test]
fn the_quick_run_prints_every_row_with_numbers() {
    let java = jdk::found();
    if !java {
        jdk::missing(
            "the_quick_run_prints_every_row_with_numbers",
            "running scripts/bench --no-java, reference rows only",
        );
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/bench");
    let script = script.to_str().expect("a UTF-8 repository path");
    let mut args = vec![LIMIT_SECONDS, script, "--quick"];
    args.push(if java { "--java-threads" } else { "--no-java" });
    let output = run_program("timeout", &args, "");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_ne!(
        output.status.code(),
        Some(TIMED_OUT),
        "took over {LIMIT_SECONDS} s: {stderr}"
    );
    assert!(output.status.success(), "{:?}: {stderr}", output.status);
    let stdout = String::from_utf8(output.stdout).expect("the table is UTF-8");

    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find_map(|l| l.strip_prefix("model name")?.split_once(':'))
                .map(|(_, name)| name.trim().to_string())
        });
    if let Some(cpu) = cpu {
        assert!(stdout.starts_with("Performance, "), "{stdout}");
        assert!(
            stdout.contains(&format!("on {cpu} (")),
            "names the CPU: {stdout}"
        );
    }
    assert!(
        stdout.contains("Quick run"),
        "says it is not a measurement: {stdout}"
    );

    let table: Vec<Vec<&str>> = stdout
        .lines()
        .filter(|line| line.starts_with('|'))
        .map(|line| line.trim_matches('|').split('|').map(str::trim).collect())
        .collect();
    assert_eq!(
        table[0],
        [
            "what",
            "Java baseline",
            "reference",
            "ratio",
            "target",
            "result"
        ],
        "{stdout}"
    );
    assert_eq!(
        table.len(),
        2 + ROWS.len(),
        "header, rule and one line per row: {stdout}"
    );
    for (cells, row) in table[2..].iter().zip(ROWS) {
        assert_eq!(cells.len(), 6, "{row}: six cells: {cells:?}");
        assert_eq!(cells[0], row, "{stdout}");
    }
    let [plain, prune, one, two, speedup, pair] = [2, 3, 4, 5, 6, 7].map(|i| &table[i]);
    for timed in [plain, prune, one, two, pair] {
        number(timed[2], " s", timed[0]);
    }
    number(speedup[2], "x", speedup[0]);
    number(pair[3], "x", pair[0]);
    assert_eq!(prune[1], "no pruning");
    for judged in [plain, prune, speedup] {
        let expected = if java || judged != plain {
            "not judged (--quick)"
        } else {
            "not run"
        };
        assert_eq!(judged[5], expected, "{judged:?}");
    }
    let rounds: Vec<&str> = stdout
        .lines()
        .skip_while(|line| !line.starts_with("Every round's time"))
        .filter_map(|line| line.strip_prefix("- "))
        .collect();
    assert_eq!(
        rounds.len(),
        if java { 8 } else { 6 },
        "one line a program and row: {stdout}"
    );
    for line in rounds {
        let (_, times) = line.split_once(": ").expect("a label, then the times");
        let times: Vec<f64> = times.split(' ').map(|t| number(t, "", line)).collect();
        assert_eq!(times.len(), 2, "two rounds: {line}");
    }
    if java {
        for timed in [plain, one, two] {
            number(timed[1], " s", timed[0]);
        }
        number(plain[3], "x", plain[0]);
        number(speedup[1], "x", speedup[0]);
    } else {
        for row in [plain, one, two, speedup] {
            assert_eq!(row[1], "not run", "{row:?}");
        }
    }
}
