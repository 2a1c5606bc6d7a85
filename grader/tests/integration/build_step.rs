//! The build step, the student deadline and the class summary, through the real `grade` binary:
//! a small class (a good student, a build that fails like a compiler, a build that hangs, a
//! program too slow for the student deadline, a mutant) graded with `--build`, and one student
//! graded the way the Gradescope wrapper does (`grade student ... --build ... --gradescope`).

use std::fs;
use std::path::Path;

use assert_cmd::prelude::*;

use crate::support::{column, fixtures, grade, graded, rows, small_kit};

/// The cases of the small kit: three of Basic gameplay (two with diagonal wins), two of AI.
const CASES: [&str; 5] = [
    "rules/gravity_6x7",
    "wins/diagonal_down_corner_4x4",
    "wins/diagonal_left_edge_10x10",
    "heuristic/room_for_four",
    "scores/depth1",
];

/// The student deadline given, in seconds: more than the good students need, less than two
/// cases of a program that never answers (5 s each).
const DEADLINE: &str = "8";

/// A build script that writes `run`, starting `program` in the submission's folder, then prints
/// `then` (shell commands).
fn build_script(program: &str, then: &str) -> String {
    format!("cd \"$(dirname \"$0\")\"\necho '   Compiling connect_four v0.1.0'\nprintf '%s\\n' 'cd \"$(dirname \"$0\")\"' '{program}' > run\n{then}\n")
}

/// `exec python3 FIXTURE "$@"` for the fixture student `name`, copied into the submission by
/// [`submission`].
fn exec_python(name: &str) -> String {
    format!("exec python3 {name}.py \"$@\"")
}

/// A submission directory `dir` whose `build.sh` is `script`, with the fixture students' files
/// (which the scripts that `build.sh` writes start), as a student hands them in.
fn submission(dir: &Path, script: &str) {
    fs::create_dir_all(dir).unwrap();
    fs::write(dir.join("build.sh"), script).unwrap();
    for entry in fs::read_dir(fixtures()).unwrap() {
        let path = entry.unwrap().path();
        fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
    }
}

/// A failing compiler's output: 40 lines of notes, then errors on standard error.
const COMPILER_ERRORS: &str = "for i in $(seq 1 40); do echo \"note: line $i\"; done\n\
    echo 'error[E0425]: cannot find value `board` in this scope' >&2\n\
    echo 'error: could not compile `connect_four` (bin \"connect_four\") due to 1 previous error' >&2\n\
    exit 101";

/// Points as reports print them, for comparing with the summary.
fn short(value: f64) -> String {
    let text = format!("{value:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[test]
fn a_class_is_built_graded_within_its_deadline_and_summed_up() {
    let work = tempfile::tempdir().unwrap();
    let kit = work.path().join("kit");
    small_kit(&kit, &CASES);
    let class = work.path().join("class");
    // Every program but too_slow's would get full marks if it were run.
    submission(
        &class.join("good"),
        &build_script(&exec_python("connect_four"), ""),
    );
    submission(
        &class.join("broken"),
        &build_script(&exec_python("connect_four"), COMPILER_ERRORS),
    );
    submission(
        &class.join("hung"),
        &build_script(&exec_python("connect_four"), "sleep 60"),
    );
    submission(&class.join("too_slow"), &build_script("exec sleep 60", ""));
    submission(
        &class.join("no_diagonal"),
        &build_script(&exec_python("no_diagonal"), ""),
    );
    let csv = work.path().join("grades.csv");
    let reports = work.path().join("reports");
    let output = grade()
        .arg("class")
        .arg(&class)
        .arg("--kit")
        .arg(&kit)
        .args([
            "--build",
            "sh {dir}/build.sh",
            "--build-timeout",
            "3",
            "--student-deadline",
            DEADLINE,
            "--command",
            "sh {dir}/run",
            "--jobs",
            "5",
            "--skip-timing",
            "--csv",
        ])
        .arg(&csv)
        .arg("--report")
        .arg(&reports)
        .assert()
        .success()
        .get_output()
        .clone();
    let stdout = String::from_utf8_lossy(&output.stdout);

    // The gradebook: the build and the time of each student.
    let text = fs::read_to_string(&csv).unwrap();
    let mut rows = rows(&csv);
    let header = rows.remove(0);
    let (basic, ai, total) = (
        column(&header, "Basic gameplay"),
        column(&header, "AI"),
        column(&header, "automatic total"),
    );
    let (build, time) = (column(&header, "build"), column(&header, "time (s)"));
    assert_eq!(time, build + 1, "{header:?}");
    let row = |name: &str| {
        rows.iter()
            .find(|r| r[0] == name)
            .unwrap_or_else(|| panic!("no row {name}: {text}"))
    };
    let built = |name: &str| row(name)[build].clone();
    let seconds = |name: &str| -> f64 { row(name)[time].parse().unwrap() };
    let score = |name: &str, i: usize| -> f64 { row(name)[i].parse().unwrap() };
    assert_eq!(rows.len(), 5, "{text}");
    assert_eq!(
        ["good", "broken", "hung", "too_slow", "no_diagonal"].map(built),
        ["ok", "failed", "timed out", "ok", "ok"],
        "{text}"
    );
    assert_eq!(
        (
            score("good", basic),
            score("good", ai),
            score("good", total)
        ),
        (4.5, 4.5, 9.0),
        "the good student gets every automatic point: {text}"
    );
    for name in ["broken", "hung", "too_slow"] {
        assert_eq!(score(name, total), 0.0, "{name}: {text}");
    }
    assert!(score("no_diagonal", basic) < 4.5 && score("no_diagonal", ai) == 4.5);
    assert!(seconds("too_slow") >= 8.0, "{text}");
    assert!(seconds("hung") >= 3.0 && seconds("hung") < 8.0, "{text}");

    // The reports: the compiler's last lines, the time-out, the deadline.
    let report = |name: &str| fs::read_to_string(reports.join(format!("{name}.md"))).unwrap();
    let broken = report("broken");
    assert!(
        broken.contains("The build failed (exit status: 101) after ")
            && broken.contains("error[E0425]: cannot find value `board` in this scope")
            && broken.contains("could not compile `connect_four`")
            && broken.contains("note: line 13\n")
            && !broken.contains("note: line 12\n"),
        "the last 30 lines: {broken}"
    );
    assert!(!broken.contains("## Failed cases"), "no case was run");
    let log = fs::read_to_string(reports.join("broken.build.log")).unwrap();
    assert!(log.starts_with("   Compiling") && log.contains("note: line 1\n"));
    assert!(report("hung").contains("The build timed out after 3 s: no case was run"));
    let too_slow = report("too_slow");
    assert!(
        too_slow.contains("not run: the student's overall time limit of 8 s ran out"),
        "{too_slow}"
    );
    assert!(report("good").contains("Every case passed."));
    assert!(
        stdout.contains("The build failed (exit status: 101)"),
        "{stdout}"
    );

    // The class summary, printed and written beside the reports.
    let summary = fs::read_to_string(reports.join("class-summary.md")).unwrap();
    assert!(stdout.contains(&summary), "printed: {stdout}");
    assert!(
        summary.contains("5 students.\nFailed builds: 2 of 5 (1 failed, 1 timed out);"),
        "{summary}"
    );
    let basic_scores: Vec<f64> = rows.iter().map(|r| r[basic].parse().unwrap()).collect();
    let mean = basic_scores.iter().sum::<f64>() / 5.0;
    assert!(
        summary.contains(&format!(
            "| Basic gameplay | 4.5 | {} | 0 | 0 | 4.5 |",
            short(mean)
        )),
        "{summary}"
    );
    assert!(
        summary.contains("| AI | 4.5 | 1.8 | 0 | 0 | 4.5 |"),
        "{summary}"
    );
    let ranking: Vec<&str> = summary
        .split("|---|---|---:|---:|---:|\n")
        .nth(1)
        .expect("the most failed cases")
        .lines()
        .take_while(|line| line.starts_with('|'))
        .collect();
    // Columns: case, category, students, timed out, crashed. too_slow's first case timed out;
    // the ones its deadline left unrun count as failed, neither timed out nor crashed.
    assert_eq!(
        ranking[..3],
        [
            "| wins/diagonal_down_corner_4x4 | Basic gameplay | 2 of 3 | 0 | 0 |",
            "| wins/diagonal_left_edge_10x10 | Basic gameplay | 2 of 3 | 0 | 0 |",
            "| heuristic/room_for_four | AI | 1 of 3 | 1 | 0 |",
        ],
        "{summary}"
    );
    assert_eq!(
        ranking.last(),
        Some(&"| scores/depth1 | AI | 1 of 3 | 0 | 0 |"),
        "{summary}"
    );
}

/// Grades the submission in `dir` as the Gradescope wrapper does (its reports out of the
/// submission's reach, in `reports`) and returns its results.
fn gradescope(dir: &Path, kit: &Path, reports: &Path) -> serde_json::Value {
    graded(
        grade()
            .current_dir(dir)
            .args(["student", "sh run", "--kit"])
            .arg(kit)
            .args(["--build", "sh build.sh", "--skip-timing", "--report"])
            .arg(reports),
    )
    .results
}

#[test]
fn gradescope_shows_a_failed_build_to_the_student_and_scores_it_0() {
    let work = tempfile::tempdir().unwrap();
    let kit = work.path().join("kit");
    small_kit(&kit, &CASES);
    let broken = work.path().join("broken");
    submission(
        &broken,
        &build_script(&exec_python("connect_four"), COMPILER_ERRORS),
    );
    let reports = work.path().join("broken-results");
    let results = gradescope(&broken, &kit, &reports);
    assert_eq!(
        (results["score"].as_f64(), results["max_score"].as_f64()),
        (Some(0.0), Some(9.0))
    );
    assert!(
        results["output"]
            .as_str()
            .unwrap()
            .contains("The build failed (exit status: 101)"),
        "{results:#}"
    );
    let build = &results["tests"][0];
    assert_eq!(
        (&build["name"], &build["status"], &build["visibility"]),
        (&"Build".into(), &"failed".into(), &"visible".into())
    );
    let log = build["output"].as_str().unwrap();
    assert!(
        log.contains("The last lines of its log:") && log.contains("error[E0425]"),
        "{log}"
    );
    assert!(reports.read_dir().unwrap().any(|e| {
        e.unwrap()
            .file_name()
            .to_string_lossy()
            .ends_with(".build.log")
    }));

    let good = work.path().join("good");
    submission(&good, &build_script(&exec_python("connect_four"), ""));
    let results = gradescope(&good, &kit, &work.path().join("good-results"));
    assert_eq!(results["score"].as_f64(), Some(9.0), "{results:#}");
    assert_eq!(results["tests"][0]["status"], "passed");
}

#[test]
fn a_crate_the_grading_machine_has_not_got_fails_the_build_at_once_and_says_why() {
    let work = tempfile::tempdir().unwrap();
    let kit = work.path().join("kit");
    small_kit(&kit, &CASES);
    let project = work.path().join("student");
    fs::create_dir_all(project.join("src")).unwrap();
    fs::write(
        project.join("Cargo.toml"),
        "[package]\nname = \"connect_four\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
         [dependencies]\nno-such-crate-on-this-machine = \"1\"\n",
    )
    .unwrap();
    fs::write(project.join("src/main.rs"), "fn main() {}\n").unwrap();
    let graded = graded(
        grade()
            .current_dir(&project)
            .args(["student", "./target/release/connect_four", "--kit"])
            .arg(&kit)
            .args(["--build", "cargo build --release", "--skip-timing"]),
    );
    let build = &graded.results["tests"][0];
    assert_eq!(build["status"], "failed", "{:#}", graded.results);
    let said = build["output"].as_str().unwrap();
    assert!(
        said.contains("The build runs offline, in the sandbox")
            && said.contains("no-such-crate-on-this-machine"),
        "{said}"
    );
}
