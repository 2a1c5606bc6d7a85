//! A speed-up not counted is never a zero, end to end: a class of two Python students graded
//! under `taskset -c 0`, where the grader (and every program it starts) has one CPU. `ann`
//! keeps the same values on every thread count, so her speed-up cannot be judged there and is
//! not counted; `bob`'s values change with the thread count, so his fails, counted, at 0. The
//! gradebook leaves ann's Threading and her totals blank with the reason beside them, and the
//! class summary names her to grade again and leaves her out of those figures (both pinned by
//! snapshots). Hand scores and a comment are saved as the gallery saves them: into the students'
//! records, the gradebook written again. Then `grade class --not-counted` grades ann alone again: her
//! row is still blank with the reason (one CPU still cannot judge it), her hand scores are
//! kept, and bob's row, report and gallery page are what they were, byte for byte. Ann hands
//! in a program whose values change with the thread count, `--only ann` grades her again, and
//! her blank is filled (0, counted) with her total. Last, what cannot be graded again: a name
//! with no submission folder and a report directory where no class was graded exit with status
//! 2 and say why, and
//! `--not-counted` with nobody left says so and changes nothing.

use std::fs;
use std::path::PathBuf;
use std::process::{Command, Output};

use connect_four_grader::commands::gallery::{save_marks, Saved};
use connect_four_grader::judge::result::hand::{CategoryMarks, Marks};
use connect_four_grader::kit::Rubric;
use connect_four_grader::store::Store;

use crate::snapshots::assert_snapshot;
use crate::support::{column, python_submission, rows, speedup_kit};

/// The class's work folder: `kit/`, `class/` (ann and bob), `reports/`, `gradebook.csv`.
struct Class {
    _dir: tempfile::TempDir,
    work: PathBuf,
}

impl Class {
    /// Ann (the plain Python student) and bob (values that change with the thread count), on
    /// a kit with the speed-up case.
    fn new() -> Class {
        let dir = tempfile::tempdir().unwrap();
        let work = dir.path().to_path_buf();
        speedup_kit(&work.join("kit"));
        python_submission(&work.join("class/ann"), "connect_four");
        python_submission(&work.join("class/bob"), "thread_dependent");
        Class { _dir: dir, work }
    }

    /// `grade class` on one CPU with `extra` arguments, in the work folder, into the gradebook
    /// `csv`.
    fn grade_into(&self, csv: &str, extra: &[&str]) -> Output {
        Command::new("taskset")
            .args(["-c", "0"])
            .arg(env!("CARGO_BIN_EXE_grade"))
            .current_dir(&self.work)
            .args(["class", "class", "--kit", "kit", "--report", "reports"])
            .args(["--csv", csv, "--command", "sh {dir}/run"])
            .args(extra)
            .output()
            .expect("grade starts")
    }

    /// [`Class::grade_into`] the class's gradebook.
    fn grade(&self, extra: &[&str]) -> Output {
        self.grade_into("gradebook.csv", extra)
    }

    /// `grade class` with `extra` arguments, which must succeed: its standard output and error.
    fn graded(&self, extra: &[&str]) -> (String, String) {
        let output = self.grade(extra);
        let (out, err) = printed(&output);
        assert!(output.status.success(), "{out}{err}");
        (out, err)
    }

    /// The file `name` of the work folder.
    fn path(&self, name: &str) -> PathBuf {
        self.work.join(name)
    }

    /// The text of the file `name` of the work folder.
    fn read(&self, name: &str) -> String {
        fs::read_to_string(self.path(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
    }

    /// The gradebook's cell of `student` in the column `name`.
    fn cell(&self, student: &str, name: &str) -> String {
        let rows = rows(&self.path("gradebook.csv"));
        let at = column(&rows[0], name);
        let row = rows.iter().find(|r| r[0] == student).expect("a row each");
        row[at].clone()
    }

    /// `student`'s row of the gradebook, its cells.
    fn row(&self, student: &str) -> Vec<String> {
        let rows = rows(&self.path("gradebook.csv"));
        rows.into_iter()
            .find(|r| r[0] == student)
            .unwrap_or_else(|| panic!("no row of {student}"))
    }

    /// What the class run wrote of `student` that must stay as it was when others are graded
    /// again: their gradebook row, their report, their gallery page and their class page row.
    fn kept(&self, student: &str) -> [String; 4] {
        let class_row = self
            .read("reports/gallery.html")
            .split("<tr ")
            .find(|l| l.starts_with(&format!("data-student=\"{student}\"")))
            .expect("a class page row")
            .to_string();
        [
            self.row(student).join("\u{1f}"),
            self.read(&format!("reports/{student}.md")),
            self.read(&format!("reports/gallery/{student}.html")),
            class_row,
        ]
    }
}

/// A run's standard output and error.
fn printed(output: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Every checklist item of the rubric given its points, with a comment on Threading: the marks
/// a grader types on a student's page.
fn full_marks(rubric: &Rubric, comment: &str) -> Marks {
    rubric
        .categories
        .iter()
        .filter(|c| !c.manual.is_empty())
        .map(|category| {
            let marks = CategoryMarks {
                items: category.checklist().iter().map(|(p, _)| Some(*p)).collect(),
                comment: match category.name.as_str() {
                    "Threading" => comment.into(),
                    _ => String::new(),
                },
            };
            (category.name.clone(), marks)
        })
        .collect()
}

/// Saves each student's marks of `scores` as the gallery does: into their record, the class's
/// files written again.
fn save(class: &Class, rubric: &Rubric, scores: &[(&str, Marks)]) {
    for (student, marks) in scores {
        let saved = save_marks(&class.path("reports"), rubric, None, student, marks.clone());
        assert!(matches!(saved, Ok(Saved::Republished { .. })), "{saved:?}");
    }
}

/// Every student's hand scores, as the store holds them.
fn hand(class: &Class) -> Vec<(String, Marks)> {
    let (_, records) = Store::of(&class.path("reports")).class_records().unwrap();
    records.into_iter().map(|r| (r.student, r.hand)).collect()
}

#[test]
fn a_speedup_not_counted_is_blank_named_and_graded_again_alone() {
    let class = Class::new();
    let (stdout, stderr) = class.graded(&[]);
    let rubric = Rubric::load(&class.path("kit/rubric.toml")).unwrap();
    let header = &rows(&class.path("gradebook.csv"))[0];
    let beside = column(header, "Threading: not counted");
    assert!(header[beside - 1].starts_with("Threading ("), "{header:?}");
    let threading = header[beside - 1].clone();
    let cells = |student: &str| {
        [&threading, "Threading: not counted", "automatic total"]
            .map(|name| class.cell(student, name))
    };
    assert_eq!(cells("ann"), ["", "not judged on 1 CPU", ""]);
    let bob = cells("bob");
    assert_eq!(bob[..2], ["0", ""], "{stdout}");
    assert!(bob[2].parse::<f64>().is_ok(), "{bob:?}");
    assert!(
        stderr.contains(
            "grade: the speed-up of 1 student was not counted (the machine could not judge it): \
             ann; grade them again with --not-counted"
        ),
        "{stderr}"
    );
    assert_snapshot("not_counted_gradebook_csv", &class.read("gradebook.csv"));
    assert_snapshot(
        "not_counted_class_summary_md",
        &class.read("reports/class-summary.md"),
    );

    // The graders type every item and a comment for both, as the gallery saves them.
    let scores = [("ann", "a pool, \"tidy\""), ("bob", "threads per move")]
        .map(|(student, comment)| (student, full_marks(&rubric, comment)));
    save(&class, &rubric, &scores);
    let typed = hand(&class);
    // Ann's total waits for her speed-up; bob's is known: his automatic points and 30 by hand.
    assert_eq!(class.cell("ann", "total"), "");
    assert_eq!(class.cell("ann", "hand-scored items"), "11 of 11");
    let bob_total: f64 = class.cell("bob", "total").parse().unwrap();
    let bob_automatic: f64 = class.cell("bob", "automatic total").parse().unwrap();
    assert!((bob_total - bob_automatic - 30.0).abs() < 1e-9);
    let bob_before = class.kept("bob");

    // Graded again: still one CPU, so still blank with the reason, and nothing else moved.
    let (stdout, stderr) = class.graded(&["--not-counted"]);
    assert!(
        stderr.contains("grade: grading again 1 of the class into gradebook.csv: ann"),
        "{stderr}"
    );
    assert!(
        stdout.contains(": ann\n") && !stdout.contains(": bob\n"),
        "{stdout}"
    );
    assert!(stdout.contains("**Grade again: 1 student**"), "{stdout}");
    assert_eq!(class.kept("bob"), bob_before);
    assert_eq!(hand(&class), typed);
    assert_eq!(cells("ann"), ["", "not judged on 1 CPU", ""]);
    assert_eq!(class.cell("ann", "hand-scored items"), "11 of 11");
    assert_eq!(class.cell("ann", "total"), "");
    assert_eq!(
        class.cell("ann", "hand comments"),
        "Threading: a pool, \"tidy\""
    );
    let summary = class.read("reports/class-summary.md");
    assert!(
        summary.starts_with("# Class summary: Connect Four"),
        "{summary}"
    );
    assert!(summary.contains("2 students."), "{summary}");
    let page = class.read("reports/gallery/ann.html");
    assert!(
        page.contains("a pool, &quot;tidy&quot;</textarea>"),
        "{page}"
    );
    assert!(
        page.contains("<tr><td>Threading</td><td>not counted: not judged on 1 CPU</td></tr>"),
        "{page}"
    );

    // Ann hands in again, and her speed-up now fails (counted): the blank is filled.
    python_submission(&class.path("class/ann"), "thread_dependent");
    let (_, stderr) = class.graded(&["--only", "ann"]);
    assert!(!stderr.contains("was not counted"), "{stderr}");
    assert_eq!(class.kept("bob"), bob_before);
    let ann = cells("ann");
    assert_eq!(ann[..2], ["0", ""]);
    let ann_automatic: f64 = ann[2].parse().unwrap();
    let ann_total: f64 = class.cell("ann", "total").parse().unwrap();
    assert!((ann_total - ann_automatic - 30.0).abs() < 1e-9);
    assert_eq!(hand(&class), typed);
    let summary = class.read("reports/class-summary.md");
    assert!(!summary.contains("Grade again"), "{summary}");
    let json: serde_json::Value =
        serde_json::from_str(&class.read("reports/class-summary.json")).unwrap();
    assert_eq!(json["students"].as_array().map(Vec::len), Some(2));

    // What cannot be graded again, and nobody left to.
    let everything = [
        "gradebook.csv",
        "reports/class-summary.md",
        "reports/gallery.html",
    ]
    .map(|name| class.read(name));
    let unknown = class.grade(&["--only", "zed"]);
    let (_, err) = printed(&unknown);
    assert_eq!(unknown.status.code(), Some(2), "{err}");
    assert!(
        err.contains("grade: no submission folder \"zed\" in class (its students: ann, bob)"),
        "{err}"
    );
    let nowhere = Command::new(env!("CARGO_BIN_EXE_grade"))
        .current_dir(&class.work)
        .args(["class", "class", "--kit", "kit", "--report", "elsewhere"])
        .args(["--csv", "elsewhere.csv", "--command", "sh {dir}/run"])
        .args(["--only", "ann"])
        .output()
        .expect("grade starts");
    let (_, err) = printed(&nowhere);
    assert_eq!(nowhere.status.code(), Some(2), "{err}");
    assert!(
        err.contains("elsewhere/records: no class graded there to grade again into"),
        "{err}"
    );
    let (out, err) = class.graded(&["--not-counted"]);
    assert!(
        err.contains(
            "nothing to grade again: gradebook.csv names no student whose speed-up was not counted"
        ),
        "{out}{err}"
    );
    let after = [
        "gradebook.csv",
        "reports/class-summary.md",
        "reports/gallery.html",
    ]
    .map(|name| class.read(name));
    assert_eq!(after, everything);
}
