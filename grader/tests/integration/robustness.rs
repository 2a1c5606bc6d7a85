//! The grader against programs that misbehave on purpose: one that leaves a process holding its
//! output, one that closes its output, and one each for the memory, process and file size
//! limits. Graded as a class with a plain correct student, each must be graded in seconds with
//! its own reason, nothing they started may outlive the grading, and the correct student must
//! still pass every case.

use std::fs::{self, File};
use std::process::Stdio;
use std::thread;
use std::time::{Duration, Instant};

use crate::support::{grade, kit, python_submission, running_in};

/// Each misbehaving fixture and words its report must hold.
const MISBEHAVING: [(&str, &[&str]); 5] = [
    (
        "escaped_background",
        &[
            "the program exited: exit status: 0; it left ",
            "process(es) running that held its output, now killed",
        ],
    ),
    (
        "closes_stdout",
        &["the program closed its standard output but went on running"],
    ),
    (
        "memory_hog",
        &[
            "the program probably exceeded its memory limit of 512 MiB",
            "MemoryError",
        ],
    ),
    ("fork_bomb_bounded", &["exceeded its process limit of 50: "]),
    (
        "big_file",
        &[
            "the program probably exceeded its file size limit of 16 MiB",
            "File too large",
        ],
    ),
];

/// Far beyond what the class needs (about half a minute on two cores): only a hang exceeds it.
const HANG: Duration = Duration::from_secs(120);

#[test]
fn misbehaving_programs_are_graded_in_seconds_with_their_reasons() {
    let work = tempfile::tempdir().unwrap();
    let class = work.path().join("class");
    for (name, _) in MISBEHAVING {
        python_submission(&class.join(name), name);
    }
    python_submission(&class.join("connect_four"), "connect_four");
    let reports = work.path().join("reports");
    // Files, not pipes: the test itself must not wait for a pipe a stray process holds.
    let output = work.path().join("output.txt");
    let started = Instant::now();
    let mut grading = grade()
        .arg("class")
        .arg(&class)
        .arg("--kit")
        .arg(kit())
        .args(["--command", "sh {dir}/run", "--jobs", "2", "--skip-timing"])
        .args(["--limit-memory", "512", "--limit-processes", "50"])
        .args(["--limit-file-size", "16", "--csv"])
        .arg(work.path().join("grades.csv"))
        .arg("--report")
        .arg(&reports)
        .stdout(File::create(&output).unwrap())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let status = loop {
        if let Some(status) = grading.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > HANG {
            let _ = grading.kill();
            let _ = grading.wait();
            panic!("grading the class took over {HANG:?}");
        }
        thread::sleep(Duration::from_millis(100));
    };
    let took = started.elapsed();
    let printed = fs::read_to_string(&output).unwrap();
    assert!(status.success(), "{printed}");
    eprintln!("graded the class in {:.1} s", took.as_secs_f64());
    let mut problems = Vec::new();
    for (name, reason) in MISBEHAVING {
        let report = fs::read_to_string(reports.join(format!("{name}.md"))).unwrap();
        let named = reason.iter().all(|words| report.contains(words));
        if !named || report.contains("no answer within the time limit") {
            problems.push(format!(
                "{name}: expected {reason:?} and no time-out in\n{report}"
            ));
        }
    }
    let correct = fs::read_to_string(reports.join("connect_four.md")).unwrap();
    if !correct.contains("Every case passed.") {
        problems.push(format!("connect_four:\n{correct}"));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
    let left = running_in(&class);
    assert!(left.is_empty(), "still running: {left:#?}");
}
