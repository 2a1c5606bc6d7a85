//! A class run loses nothing, end to end: five Python students, each slowed by a pause in
//! their `run` script so that a run can be stopped part way, graded with `--jobs 2` on a kit of
//! two quick cases. Killed with `SIGKILL` once the first record is in the class store, a run
//! leaves that record there; the same command again carries on (and says so), grades every other
//! student once (and again the one whose submission changed meanwhile), and writes a
//! gradebook whose scores are those of a run never stopped. Ctrl-C (`SIGINT`) in the middle
//! ends the run with status 130, a gradebook of the students graded, and the others named;
//! carried on, the class is complete, and `--restart` grades everyone again.
//!
//! A panic while grading one student is tested at the seam where it is caught (`judge::class`'s
//! unit tests): no submission can make the grader panic on purpose. One in a reporter of a
//! student's is made by the debug build's switch for it (`publish`'s), one reporter a student:
//! every student keeps their row and files, the failed one saying "report failed: why", they
//! are named, and the same command then writes theirs. A full disk is made by the debug build's
//! switch for it (`store::disk`'s): the gradebook is written where `--csv` puts it, those not
//! graded are named, and the same command with room again completes the class.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use connect_four_grader::commands::gallery::{save_marks, Saved};
use connect_four_grader::judge::result::hand::{CategoryMarks, Marks};
use connect_four_grader::kit::Rubric;
use connect_four_grader::store::Store;

use crate::support::{column, grade, python_submission, rows, running_in, small_kit, QUICK_CASES};

/// The students, by the fixture each hands in: each quick to grade, not all to the same score.
const STUDENTS: [(&str, &str); 5] = [
    ("ann", "connect_four"),
    ("bob", "garbage"),
    ("cy", "closes_stdout"),
    ("dee", "weights_123"),
    ("eve", "no_diagonal"),
];

/// A class's work folder: `kit/`, `class/`, and what `grade class` writes there.
struct Class {
    _dir: tempfile::TempDir,
    work: PathBuf,
}

/// A pause of 0.3 s before each start of a student's program.
const EVERY_START: &str = "sleep 0.3\n";
/// How long a student's pause lasts where the test asks for one: far beyond a stop's moments,
/// so that a run that waited for it, rather than stopping it, is told apart on any machine.
const PAUSE: Duration = Duration::from_secs(60);

impl Class {
    /// The five students, each pausing as `pause` says (a shell command) before their program
    /// starts; `{pause}` in it is a command that waits [`PAUSE`], found by [`Class::pausing`].
    fn new(pause: &str) -> Class {
        let dir = tempfile::tempdir().unwrap();
        let work = dir.path().to_path_buf();
        small_kit(&work.join("kit"), &QUICK_CASES);
        let pause = pause.replace(
            "{pause}",
            &format!(
                "python3 -c 'import time; time.sleep({})' {}",
                PAUSE.as_secs(),
                work.join("pause").display()
            ),
        );
        for (name, fixture) in STUDENTS {
            let submission = work.join("class").join(name);
            python_submission(&submission, fixture);
            fs::write(
                submission.join("run"),
                format!("cd \"$(dirname \"$0\")\"\n{pause}exec python3 {fixture}.py \"$@\"\n"),
            )
            .unwrap();
        }
        Class { _dir: dir, work }
    }

    /// `grade class` on the class, two at a time, into `csv` (its summary and store beside
    /// it), with `extra` arguments; its output goes to files, so that it never waits on a pipe.
    fn start(&self, csv: &str, extra: &[&str]) -> Run {
        let (out, err) = (self.work.join("stdout"), self.work.join("stderr"));
        let child = grade()
            .current_dir(&self.work)
            .args(["class", "class", "--kit", "kit", "--jobs", "2"])
            .args(["--csv", csv, "--command", "sh {dir}/run"])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(fs::File::create(&out).unwrap())
            .stderr(fs::File::create(&err).unwrap())
            .spawn()
            .expect("grade starts");
        Run { child, out, err }
    }

    /// [`Class::start`] to its end.
    fn graded(&self, csv: &str, extra: &[&str]) -> Finished {
        self.start(csv, extra).wait()
    }

    /// The students with a record of this run in the store beside `csv`.
    fn journaled(&self, csv: &str) -> Vec<String> {
        let (_, records) = self.store(csv).class_records().unwrap_or_default();
        records.into_iter().map(|r| r.student).collect()
    }

    /// Whether a student is in their pause (`{pause}` in [`Class::new`]) now.
    fn pausing(&self) -> bool {
        !running_in(&self.work.join("pause")).is_empty()
    }

    /// The class store beside `csv`.
    fn store(&self, csv: &str) -> Store {
        let csv = self.work.join(csv);
        Store::of(csv.parent().unwrap())
    }

    /// The gradebook `csv`, each student's cells but the time it took, by student.
    fn scores(&self, csv: &str) -> Vec<Vec<String>> {
        let rows = rows(&self.work.join(csv));
        let time = column(&rows[0], "time (s)");
        rows.into_iter()
            .map(|mut row| {
                row.remove(time);
                row
            })
            .collect()
    }

    /// The students the gradebook `csv` has rows for.
    fn in_gradebook(&self, csv: &str) -> BTreeSet<String> {
        rows(&self.work.join(csv))
            .into_iter()
            .skip(1)
            .map(|row| row[0].clone())
            .collect()
    }
}

/// A `grade class` running.
struct Run {
    child: Child,
    out: PathBuf,
    err: PathBuf,
}

/// A `grade class` that ended: how, and what it printed.
struct Finished {
    status: ExitStatus,
    stdout: String,
    stderr: String,
}

impl Run {
    /// Waits until `ready` is true (polled), at most a minute.
    fn until(&self, what: &str, ready: impl Fn() -> bool) {
        let start = Instant::now();
        while !ready() {
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "waited for {what}"
            );
            thread::sleep(Duration::from_millis(5));
        }
    }

    /// Waits for the run to end.
    fn wait(mut self) -> Finished {
        let status = self.child.wait().unwrap();
        let read = |path: &Path| fs::read_to_string(path).unwrap_or_default();
        let (stdout, stderr) = (read(&self.out), read(&self.err));
        Finished {
            status,
            stdout,
            stderr,
        }
    }
}

impl Finished {
    /// The students its progress says it graded, one name per line.
    fn graded(&self) -> Vec<String> {
        self.stderr
            .lines()
            .filter_map(|line| line.strip_prefix("graded ")?.split_once(": "))
            .map(|(_, name)| name.to_string())
            .collect()
    }

    /// Both its outputs, for a failed assertion.
    fn printed(&self) -> String {
        format!("{}{}", self.stdout, self.stderr)
    }
}

/// Names, sorted.
fn sorted(names: &[String]) -> Vec<String> {
    let mut names = names.to_vec();
    names.sort();
    names
}

#[test]
fn a_run_killed_part_way_is_carried_on_and_grades_each_student_once() {
    let class = Class::new(EVERY_START);
    let run = class.start("gradebook.csv", &[]);
    run.until("the first record in the store", || {
        !class.journaled("gradebook.csv").is_empty()
    });
    // The kernel's out-of-memory killer, or anyone's kill -9: no chance to clean up.
    let mut run = run;
    run.child.kill().unwrap();
    let killed = run.wait();
    assert!(!killed.status.success());
    let kept = class.journaled("gradebook.csv");
    assert!(
        (1..STUDENTS.len()).contains(&kept.len()),
        "killed part way: {kept:?}"
    );
    // One student kept changes their submission before the run is carried on.
    let changed = kept[0].clone();
    let fixture = STUDENTS
        .iter()
        .find(|(name, _)| *name == changed)
        .unwrap()
        .1;
    let file = class.work.join(format!("class/{changed}/{fixture}.py"));
    let text = fs::read_to_string(&file).unwrap();
    fs::write(&file, format!("{text}# handed in again\n")).unwrap();

    let carried = class.graded("gradebook.csv", &[]);
    assert!(carried.status.success(), "{}", carried.printed());
    let already = kept.len() - 1;
    assert!(
        carried.stderr.contains(&format!(
            "carrying on: {already} of 5 students already graded in an earlier run (started "
        )),
        "{}",
        carried.stderr
    );
    assert!(
        carried.stderr.contains(&format!(
            "graded again, their submission changed since: {changed}\n"
        )),
        "{}",
        carried.stderr
    );
    // Every student graded once: those kept (but the one who changed) before, the rest now.
    let now = carried.graded();
    let before: Vec<String> = kept.iter().filter(|n| **n != changed).cloned().collect();
    let mut everyone = before.clone();
    everyone.extend(now.iter().cloned());
    let all: Vec<String> = STUDENTS.iter().map(|(n, _)| n.to_string()).collect();
    assert_eq!(
        sorted(&everyone),
        all,
        "kept {before:?}, graded now {now:?}"
    );
    assert!(now.contains(&changed), "{now:?}");
    // The store holds each student once, and the run is finished.
    assert_eq!(sorted(&class.journaled("gradebook.csv")), all);
    let stored = class.store("gradebook.csv").class().unwrap().unwrap();
    assert!(stored.finished.is_some(), "{stored:?}");
    // Every student's summary is printed, those carried on too.
    for name in &all {
        assert!(
            carried.stdout.contains(&format!(": {name}\n")),
            "{}",
            carried.stdout
        );
    }

    // The same class graded in one go, into a folder of its own.
    fs::create_dir(class.work.join("whole")).unwrap();
    let whole = class.graded("whole/gradebook.csv", &[]);
    assert!(whole.status.success(), "{}", whole.printed());
    assert!(!whole.stderr.contains("carrying on"), "{}", whole.stderr);
    assert_eq!(
        class.scores("gradebook.csv"),
        class.scores("whole/gradebook.csv")
    );
    let scores = class.scores("gradebook.csv");
    let total = column(&scores[0], "automatic total");
    let totals: BTreeSet<&str> = scores[1..].iter().map(|r| r[total].as_str()).collect();
    assert!(totals.len() > 1, "the students' scores differ: {scores:?}");

    // A run after a finished one grades everyone again, as it always has.
    let again = class.graded("gradebook.csv", &[]);
    assert!(again.status.success(), "{}", again.printed());
    assert!(!again.stderr.contains("carrying on"), "{}", again.stderr);
    assert_eq!(sorted(&again.graded()), all);
}

#[test]
fn ctrl_c_writes_what_is_graded_names_the_rest_and_the_run_carries_on() {
    // Every student but ann pauses while a `.pause` the test leaves in their folder is there:
    // ann is graded at once, while whoever is graded beside her is in their pause.
    let class = Class::new("[ -e .pause ] && {pause}\n");
    let pause = |name: &str| class.work.join("class").join(name).join(".pause");
    let others = || STUDENTS.iter().map(|(n, _)| *n).filter(|n| *n != "ann");
    for name in others() {
        fs::write(pause(name), "").unwrap();
    }
    let run = class.start("gradebook.csv", &[]);
    run.until("the first record, and a student in their pause", || {
        !class.journaled("gradebook.csv").is_empty() && class.pausing()
    });
    let pid = i32::try_from(run.child.id()).unwrap();
    let asked = Instant::now();
    // SAFETY: signals the child just started, not yet reaped.
    unsafe { libc::kill(pid, libc::SIGINT) };
    let stopped = run.wait();
    assert_eq!(stopped.status.code(), Some(130), "{}", stopped.printed());
    // The student in their pause was stopped, not waited for, and nothing of theirs is left.
    assert!(asked.elapsed() < PAUSE, "the pause was waited for");
    assert!(!class.pausing(), "a pause outlived the run");
    // Those not graded yet have no pause when the run carries on.
    for name in others() {
        fs::remove_file(pause(name)).unwrap();
    }
    let kept = sorted(&class.journaled("gradebook.csv"));
    assert!((1..STUDENTS.len()).contains(&kept.len()), "{kept:?}");
    // The gradebook of the students graded, and the class summary of them.
    let graded: BTreeSet<String> = kept.iter().cloned().collect();
    assert_eq!(class.in_gradebook("gradebook.csv"), graded);
    let summary = fs::read_to_string(class.work.join("class-summary.md")).unwrap();
    assert!(
        summary.contains(&format!("{} student", kept.len())),
        "{summary}"
    );
    let said = stopped
        .stderr
        .lines()
        .find(|l| l.starts_with("grade: stopped (SIGINT, Ctrl-C): "))
        .unwrap_or_else(|| panic!("{}", stopped.stderr));
    assert!(
        said.contains(&format!(
            "{} of 5 students graded, in gradebook.csv; not graded: ",
            kept.len()
        )),
        "{said}"
    );
    assert!(said.contains("(interrupted)"), "{said}");
    for (name, _) in STUDENTS.iter().filter(|(n, _)| !graded.contains(*n)) {
        assert!(said.contains(name), "{name} named: {said}");
    }
    assert!(
        stopped
            .stderr
            .contains("run the same command again to carry on"),
        "{}",
        stopped.stderr
    );

    let carried = class.graded("gradebook.csv", &[]);
    assert!(carried.status.success(), "{}", carried.printed());
    let mut everyone = kept.clone();
    everyone.extend(carried.graded());
    let all: Vec<String> = STUDENTS.iter().map(|(n, _)| n.to_string()).collect();
    assert_eq!(sorted(&everyone), all);
    assert_eq!(class.in_gradebook("gradebook.csv").len(), 5);

    // --restart grades everyone, and says so.
    let restarted = class.graded("gradebook.csv", &["--restart"]);
    assert!(restarted.status.success(), "{}", restarted.printed());
    assert!(
        restarted.stderr.contains(
            "starting over, grading everyone: the run the store holds (records/) is set \
             aside: --restart was given"
        ),
        "{}",
        restarted.stderr
    );
    assert_eq!(sorted(&restarted.graded()), all);
}

/// Each student's reporter that the debug build's switch makes panic, by its word there.
const FAULTS: [(&str, &str, &str); 5] = [
    ("ann", "terminal", "their terminal line"),
    ("bob", "markdown", "their Markdown report"),
    ("cy", "page", "their gallery page"),
    ("dee", "feedback", "their feedback"),
    ("eve", "row", "their gradebook row"),
];

#[test]
fn a_reporter_that_panics_costs_that_file_alone_which_says_report_failed() {
    let class = Class::new("");
    let reports = ["--report", "reports"];
    let first = class.graded("gradebook.csv", &reports);
    assert!(first.status.success(), "{}", first.printed());
    // Every student scored in full, so that each has feedback to write.
    let rubric = Rubric::load(&class.work.join("kit/rubric.toml")).unwrap();
    for (name, _) in STUDENTS {
        let mut marks = Marks::new();
        for category in rubric.categories.iter().filter(|c| !c.manual.is_empty()) {
            let items = category.checklist().iter().map(|(p, _)| Some(*p)).collect();
            let comment = String::new();
            marks.insert(category.name.clone(), CategoryMarks { items, comment });
        }
        let saved = save_marks(&class.work.join("reports"), &rubric, None, name, marks);
        assert_eq!(saved.unwrap(), Saved::Republished { done: true });
    }

    // One reporter of each student fails, graded again from the start.
    let told: Vec<String> = FAULTS.iter().map(|(n, w, _)| format!("{n}:{w}")).collect();
    let panicking = grade()
        .current_dir(&class.work)
        .env("CONNECT_FOUR_GRADER_TEST_PANIC_REPORTING", told.join(","))
        .args(["class", "class", "--kit", "kit", "--jobs", "2", "--restart"])
        .args(["--csv", "gradebook.csv", "--command", "sh {dir}/run"])
        .args(reports)
        .output()
        .expect("grade starts");
    let said = String::from_utf8_lossy(&panicking.stderr);
    let printed = String::from_utf8_lossy(&panicking.stdout);
    assert_eq!(panicking.status.code(), Some(1), "{said}");
    assert!(
        said.contains(
            "the grader failed while writing files of 5 students (a bug of grade's: please \
             report it with this message); they are graded and in gradebook.csv, but each file \
             named says \"report failed\" instead (the same command writes them again):\n"
        ),
        "{said}"
    );
    let why = |what: &str| {
        format!("{what}: a reporter failed (CONNECT_FOUR_GRADER_TEST_PANIC_REPORTING)")
    };
    for (name, _, what) in FAULTS {
        assert!(
            said.contains(&format!("\n  {name}: {}\n", why(what))),
            "{said}"
        );
    }
    // Every student has their row, eve's saying why it has no points.
    let all: BTreeSet<String> = STUDENTS.iter().map(|(n, _)| n.to_string()).collect();
    assert_eq!(class.in_gradebook("gradebook.csv"), all);
    let rows = rows(&class.work.join("gradebook.csv"));
    let build = column(&rows[0], "build");
    let eve = rows.iter().find(|r| r[0] == "eve").unwrap();
    assert_eq!(
        eve[build],
        format!("report failed: {}", why("their gradebook row"))
    );
    // Each failed file stands, saying so; the student's others are as ever.
    let read = |path: &str| fs::read_to_string(class.work.join(path)).unwrap();
    let failed = |text: &str, what: &str| text.contains(&format!("report failed: {}", why(what)));
    assert!(failed(&printed, "their terminal line"), "{printed}");
    assert!(printed.contains("ann: report failed: "), "{printed}");
    assert!(failed(&read("reports/bob.md"), "their Markdown report"));
    assert!(failed(
        &read("reports/gallery/cy.html"),
        "their gallery page"
    ));
    assert!(failed(&read("reports/feedback/dee.html"), "their feedback"));
    assert!(failed(&read("reports/feedback/dee.md"), "their feedback"));
    for file in [
        "reports/ann.md",
        "reports/gallery/bob.html",
        "reports/feedback/cy.html",
    ] {
        assert!(!read(file).contains("report failed"), "{file}");
    }
    let summary = read("reports/class-summary.md");
    assert!(summary.contains("5 students"), "{summary}");

    // Graded, and kept: the same command writes their files, grading nobody again.
    let carried = class.graded("gradebook.csv", &reports);
    assert!(carried.status.success(), "{}", carried.printed());
    assert!(carried.graded().is_empty(), "{}", carried.printed());
    assert!(
        !carried.stdout.contains("report failed"),
        "{}",
        carried.stdout
    );
    assert_eq!(class.in_gradebook("gradebook.csv"), all);
    for file in [
        "gradebook.csv",
        "reports/bob.md",
        "reports/gallery/cy.html",
        "reports/feedback/dee.html",
    ] {
        assert!(!read(file).contains("report failed"), "{file}");
    }
}

#[test]
fn a_full_disk_stops_the_run_writes_the_gradebook_elsewhere_and_names_who_is_not_graded() {
    let class = Class::new("");
    let reports = class.work.join("reports");
    // The report directory's disk fills as bob's gallery page is written; the gradebook's
    // (the work folder's) has room.
    let full = grade()
        .current_dir(&class.work)
        .env(
            "CONNECT_FOUR_GRADER_TEST_DISK_FULL",
            format!("{}:bob.html", reports.display()),
        )
        .args(["class", "class", "--kit", "kit", "--jobs", "2"])
        .args(["--csv", "gradebook.csv", "--command", "sh {dir}/run"])
        .args(["--report", "reports"])
        .output()
        .expect("grade starts");
    let said = String::from_utf8_lossy(&full.stderr);
    assert_eq!(full.status.code(), Some(75), "{said}");
    let line = said
        .lines()
        .find(|l| l.starts_with("grade: disk full at reports/gallery/bob.html: "))
        .unwrap_or_else(|| panic!("{said}"));
    assert!(
        said.contains(
            "run the same command again when there is room: the students graded are kept"
        ),
        "{said}"
    );
    // Bob's record was kept before his page: he is in the gradebook; each student is either
    // there or named as not graded.
    let graded = class.in_gradebook("gradebook.csv");
    assert!(graded.contains("bob"), "{graded:?}");
    assert!(
        line.contains(&format!(
            "{} of 5 students graded, in gradebook.csv",
            graded.len()
        )),
        "{line}"
    );
    for (name, _) in STUDENTS.iter().filter(|(n, _)| !graded.contains(*n)) {
        assert!(line.contains(name), "{name} named: {line}");
    }
    assert!(!reports.join("gallery/bob.html").exists());

    // With room again, the same command carries the run on and completes the class.
    let carried = class.graded("gradebook.csv", &["--report", "reports"]);
    assert!(carried.status.success(), "{}", carried.printed());
    assert_eq!(class.in_gradebook("gradebook.csv").len(), 5);
    let again: BTreeSet<String> = carried.graded().into_iter().collect();
    assert!(again.is_disjoint(&graded), "{again:?} graded twice");
    assert!(reports.join("gallery/bob.html").is_file());
    assert!(reports.join("class-summary.md").is_file());
}
