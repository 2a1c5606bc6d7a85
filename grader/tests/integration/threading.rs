//! The speed-up case where the machine decides nothing: under `taskset -c 0` the grader, and so
//! every program it starts, may use one CPU, so the speed-up is not timed and counts neither
//! way, and the thread design is still seen. The reference loses no point there and its report
//! says why (Gradescope's results show the speed-up pending, 0 of its points until it is graded
//! again), and Gradescope's zero-point test of the thread design shows its pool; three Python
//! students with the same values (one thread, a pool of threads created once, new threads for
//! every search, each taking columns
//! `c % THREADS`) are told apart in the gradebook, whatever the machine: the kernel's account
//! of their threads, not the clock, tells them apart.

use std::process::Command;

use crate::support::{
    column, graded, kit, python_submission, reference_submission, rows, speedup_kit, tests,
};

/// `grade ARGS` run under `taskset -c 0`: on the first CPU only.
fn on_one_cpu() -> Command {
    let mut command = Command::new("taskset");
    command.args(["-c", "0"]).arg(env!("CARGO_BIN_EXE_grade"));
    command
}

#[test]
fn under_one_cpu_the_reference_loses_no_point_and_the_report_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let program = reference_submission(dir.path());
    let graded = graded(
        on_one_cpu()
            .args(["student", &program, "--kit"])
            .arg(kit())
            .current_dir(dir.path()),
    );
    let results = &graded.results;
    // Pending (the default): 0 of the speed-up's 10 points until it is graded again, and the
    // score says so first.
    assert_eq!(results["score"], 60.0, "{}", graded.printed);
    assert_eq!(results["max_score"], 70.0, "{}", graded.printed);
    let speedup = tests(results)
        .iter()
        .find(|t| t["name"] == "Threading: threads/speedup")
        .expect("the timing case is a test");
    assert_eq!(
        (&speedup["score"], &speedup["max_score"], &speedup["status"]),
        (&0.0.into(), &10.0.into(), &"failed".into()),
        "{speedup}"
    );
    assert!(
        speedup["output"].as_str().unwrap().starts_with(
            "Not counted yet (not judged on 1 CPU): 0 of its 10 points until your instructor \
             grades it again."
        ),
        "{speedup}"
    );
    let output = results["output"].as_str().unwrap();
    assert!(
        output.starts_with("PENDING: the score leaves out the 10 points"),
        "{output}"
    );
    let design = tests(results)
        .iter()
        .find(|t| t["name"] == "Threading (graded by hand): the thread design seen")
        .expect("the thread design is a test");
    assert_eq!(
        (&design["score"], &design["max_score"], &design["status"]),
        (&0.0.into(), &0.0.into(), &"passed".into()),
        "{design}"
    );
    for said in [
        "Not counted: threads/speedup (not judged on 1 CPU)",
        "Not judged, and not counted either way: the program could use 1 CPU",
        "Grade on a machine with 2 CPUs or more",
        "Thread design seen (for the hand grader): a pool",
    ] {
        assert!(output.contains(said), "{said:?} in {output}");
    }
}

#[test]
fn one_worker_a_pool_and_threads_per_search_are_told_apart() {
    let work = tempfile::tempdir().unwrap();
    let (kit, class, csv) = (
        work.path().join("kit"),
        work.path().join("class"),
        work.path().join("grades.csv"),
    );
    speedup_kit(&kit);
    let students = [
        ("connect_four", "one worker"),
        ("thread_pool", "pool"),
        ("threads_per_search", "threads per search, fixed division"),
    ];
    for (name, _) in students {
        python_submission(&class.join(name), name);
    }
    let output = on_one_cpu()
        .arg("class")
        .arg(&class)
        .args(["--command", "sh {dir}/run", "--kit"])
        .arg(&kit)
        .arg("--csv")
        .arg(&csv)
        .output()
        .unwrap();
    let printed = String::from_utf8_lossy(&output.stdout);
    let errors = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{printed}{errors}");
    let rows = rows(&csv);
    let (design, speedup) = (
        column(&rows[0], "thread design"),
        column(&rows[0], "speed-up"),
    );
    for (name, seen) in students {
        let row = rows.iter().find(|r| r[0] == name).expect("a row each");
        assert_eq!(
            (row[design].as_str(), row[speedup].as_str()),
            (seen, "not judged: 1 CPU"),
            "{name}: {printed}"
        );
    }
    assert!(
        printed.contains(
            "threads started for every search with a fixed division of the columns (2 of the 2 \
             that searched the second time were new), but with some columns full one of them ran"
        ),
        "{printed}"
    );
}
