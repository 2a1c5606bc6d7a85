//! The scaling view beyond this machine's 2 CPUs: `grade student` given a simulated 16-CPU
//! machine (two packages of four cores, two SMT siblings each: `CONNECT_FOUR_GRADER_SYSFS` and
//! `CONNECT_FOUR_GRADER_CPUS`) measures the reference on CPUs of distinct physical cores, says
//! the machine was simulated, and gives the view for 1, 2, 4 and 7 threads (the 6x7 board's
//! columns); `--no-scaling` leaves the view out. Asserted on the report's structure, not on
//! the figures, which 2 real CPUs under 7 threads cannot make those of 16.

use std::path::Path;

use connect_four_grader::process::topology::{write_layout, SIMULATED_CPUS, SIMULATED_SYSFS};

use crate::support::{grade, graded, reference_submission, speedup_kit, tests};

/// Everything the report said: the summary and every test's output.
fn said(results: &serde_json::Value) -> String {
    let mut all = vec![results["output"].as_str().unwrap_or_default().to_string()];
    all.extend(
        tests(results)
            .iter()
            .map(|t| t["output"].as_str().unwrap_or_default().to_string()),
    );
    all.join("\n")
}

/// The report of the reference graded on the simulated machine under `sysfs`, with `extra`
/// arguments.
fn simulated(kit: &Path, sysfs: &Path, student: &Path, extra: &[&str]) -> String {
    let program = reference_submission(student);
    let graded = graded(
        grade()
            .args(["student", &program, "--kit"])
            .arg(kit)
            .args(extra)
            .env(SIMULATED_SYSFS, sysfs)
            .env(SIMULATED_CPUS, "0-15")
            .current_dir(student),
    );
    said(&graded.results)
}

#[test]
fn on_a_simulated_16_cpu_machine_the_view_goes_to_7_threads_on_a_core_each() {
    let work = tempfile::tempdir().unwrap();
    let (kit, sysfs, student) = (
        work.path().join("kit"),
        work.path().join("sysfs"),
        work.path().join("student"),
    );
    speedup_kit(&kit);
    write_layout(&sysfs, 2, 4, 2).unwrap();
    let report = simulated(&kit, &sysfs, &student, &[]);
    for said in [
        "Measured on CPUs 0 and 1, the program and the calibration alike (0: core 0 of package \
         0, 1: core 1 of package 0), a physical core each.",
        "SIMULATED machine (a test's CONNECT_FOUR_GRADER_CPUS or CONNECT_FOUR_GRADER_SYSFS)",
        "run on this machine's",
    ] {
        assert!(report.contains(said), "{said:?} in {report}");
    }
    let line = report
        .lines()
        .find(|l| l.contains("Scaling (not scored)"))
        .unwrap_or_else(|| panic!("a scaling line in {report}"));
    let (_, cells) = line
        .split_once("as many CPUs: ")
        .unwrap_or_else(|| panic!("{line}"));
    let rows: Vec<(usize, f64, f64)> = cells
        .trim_end_matches('.')
        .split(" | ")
        .map(|cell| {
            let (threads, figures) = cell.split_once(": ").expect("threads: figures");
            let (speedup, ceiling) = figures.split_once(" of ").expect("speed-up of ceiling");
            let times = |text: &str| -> f64 { text.trim_end_matches('x').parse().unwrap() };
            (threads.parse().unwrap(), times(speedup), times(ceiling))
        })
        .collect();
    let threads: Vec<usize> = rows.iter().map(|r| r.0).collect();
    assert_eq!(threads, [1, 2, 4, 7], "{line}");
    assert!(rows.iter().all(|&(_, s, c)| s > 0.0 && c > 0.0), "{line}");
    // Without the view: no scaling line, the CPUs still named.
    let report = simulated(&kit, &sysfs, &work.path().join("again"), &["--no-scaling"]);
    assert!(!report.contains("Scaling (not scored)"), "{report}");
    assert!(report.contains("a physical core each"), "{report}");
}
