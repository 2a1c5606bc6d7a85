//! The feedback returned to students, through the real `grade`: a class of two Python students
//! graded with `--report` on a small kit whose rubric has checklists graded by hand keeps each
//! result; hand scores posted to a running `grade gallery` write the feedback of the student
//! whose checklist they complete, and only theirs, linked from the class page; the class page's
//! button needs the token; `grade feedback --all` writes everyone's, the unfinished marked so;
//! a record kept by another version is refused (by `grade feedback` and `grade class`) and never
//! written over; and `grade class` run again writes the feedback of the student scored before. No window, no style facts: a plain HTTP client is enough.

use std::fs;
use std::path::Path;

use connect_four_grader::kit::Rubric;

use crate::gallery::Served;
use crate::support::{grade, python_submission, small_kit, QUICK_CASES};

/// Grades the class of `ann` and `bob` in `work` (its `kit/`, `class/`, `reports/` and
/// `gradebook.csv`).
fn grade_class(work: &Path) {
    let output = grade_class_output(work);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// [`grade_class`]'s output, whether it succeeds or not.
fn grade_class_output(work: &Path) -> std::process::Output {
    grade()
        .current_dir(work)
        .args(["class", "class", "--kit", "kit", "--report", "reports"])
        .args(["--csv", "gradebook.csv", "--skip-timing", "--jobs", "2"])
        .args(["--command", "python3 \"{dir}/connect_four.py\""])
        .output()
        .expect("grade starts")
}

/// A save of every hand-graded category of `student`: each item its full points, but the last
/// item of the last category left unscored unless `complete`; a comment with markup in GUI.
fn save(rubric: &Rubric, student: &str, complete: bool) -> String {
    let graded: Vec<_> = rubric
        .categories
        .iter()
        .filter(|c| !c.manual.is_empty())
        .collect();
    let mut categories = serde_json::Map::new();
    for (index, category) in graded.iter().enumerate() {
        let mut items: Vec<serde_json::Value> = category
            .checklist()
            .iter()
            .map(|(points, _)| (*points).into())
            .collect();
        if !complete && index + 1 == graded.len() {
            *items.last_mut().expect("a checklist item") = serde_json::Value::Null;
        }
        let comment = match category.name.contains("GUI") {
            true => "Tidy grid. <script>alert(1)</script>",
            false => "",
        };
        categories.insert(
            category.name.clone(),
            serde_json::json!({ "items": items, "comment": comment }),
        );
    }
    serde_json::json!({ "student": student, "categories": categories }).to_string()
}

#[test]
fn feedback_is_written_once_the_hand_grading_is_done_and_again_on_demand() {
    let work = tempfile::tempdir().unwrap();
    let work = work.path();
    small_kit(&work.join("kit"), &QUICK_CASES);
    for student in ["ann", "bob"] {
        python_submission(&work.join("class").join(student), "connect_four");
    }
    grade_class(work);
    let reports = work.join("reports");
    for student in ["ann", "bob"] {
        let kept = fs::read_to_string(reports.join(format!("records/{student}.json"))).unwrap();
        assert!(kept.starts_with("{\n  \"version\": 2,"), "{kept}");
    }
    assert!(
        !reports.join("feedback").exists(),
        "nobody is scored by hand yet"
    );

    let rubric = Rubric::load(&work.join("kit/rubric.toml")).unwrap();
    let served = Served::start(work);
    let (status, said) = served.post("/scores", &save(&rubric, "ann", true), true);
    assert_eq!((status, said.as_str()), (200, "saved; feedback written"));
    let (status, said) = served.post("/scores", &save(&rubric, "bob", false), true);
    assert_eq!((status, said.as_str()), (200, "saved"));

    let ann = fs::read_to_string(reports.join("feedback/ann.md")).unwrap();
    assert!(!ann.contains("Hand grading not finished"), "{ann}");
    assert!(ann.contains("- [x] 3 / 3 "), "every item's score: {ann}");
    assert!(ann.contains("> Tidy grid. <script>"), "the comment: {ann}");
    assert!(ann.contains("| By hand | 30 / 30 |"), "{ann}");
    assert!(ann.contains("| **Total** | **"), "{ann}");
    let page = fs::read_to_string(reports.join("feedback/ann.html")).unwrap();
    assert!(page.contains("Tidy grid. &lt;script&gt;"), "{page}");
    for markup in ["<script", "<a ", "<link", "src="] {
        assert!(!page.contains(markup), "{markup} in {page}");
    }
    assert!(!reports.join("feedback/bob.md").exists());
    assert!(!reports.join("feedback/bob.html").exists());
    let class = fs::read_to_string(reports.join("gallery.html")).unwrap();
    assert!(class.contains("href=\"feedback/ann.html\""), "{class}");
    assert!(!class.contains("href=\"feedback/bob.html\""), "{class}");

    // The class page's button: only with the token.
    assert_eq!(served.post("/feedback", "{}", false).0, 403);
    let (status, said) = served.post("/feedback", "{}", true);
    assert_eq!(status, 200, "{said}");
    assert!(
        said.starts_with("wrote the feedback of 1 student; hand grading not finished"),
        "{said}"
    );
    drop(served);

    let output = grade()
        .current_dir(work)
        .args(["feedback", "reports", "--kit", "kit", "--all"])
        .output()
        .expect("grade starts");
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{said}");
    assert!(said.contains("wrote the feedback of 2 students"), "{said}");
    let bob = fs::read_to_string(reports.join("feedback/bob.md")).unwrap();
    assert!(
        bob.contains("**Hand grading not finished:** 10 of 11"),
        "{bob}"
    );
    assert!(bob.contains("| **Total** | **____ / "), "{bob}");
    assert!(reports.join("feedback/bob.html").is_file());

    // A record kept by another version of grade is refused, named, and never written over.
    let kept = reports.join("records/bob.json");
    let text = fs::read_to_string(&kept).unwrap();
    let newer = text.replacen("\"version\": 2", "\"version\": 99", 1);
    fs::write(&kept, &newer).unwrap();
    let output = grade()
        .current_dir(work)
        .args(["feedback", "reports", "--kit", "kit"])
        .output()
        .expect("grade starts");
    let said = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{said}");
    assert!(
        said.contains(
            "records/bob.json: written by another version of grade (version 99; this grade \
             reads versions 1 to 2)"
        ),
        "{said}"
    );
    let output = grade_class_output(work);
    let said = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{said}");
    assert!(
        said.contains("records/bob.json: written by another version"),
        "{said}"
    );
    assert_eq!(fs::read_to_string(&kept).unwrap(), newer);
    fs::write(&kept, &text).unwrap();

    // Graded again, the class writes the feedback of the student scored before at once.
    fs::remove_dir_all(reports.join("feedback")).unwrap();
    grade_class(work);
    assert!(reports.join("feedback/ann.html").is_file());
    assert!(!reports.join("feedback/bob.html").exists());
    let class = fs::read_to_string(reports.join("gallery.html")).unwrap();
    assert!(class.contains("href=\"feedback/ann.html\""), "{class}");

    // A record cut short costs its student alone: named, left out, the others' feedback made.
    fs::write(&kept, &text.as_bytes()[..text.len() / 2]).unwrap();
    fs::remove_dir_all(reports.join("feedback")).unwrap();
    let output = grade()
        .current_dir(work)
        .args(["feedback", "reports", "--kit", "kit"])
        .output()
        .expect("grade starts");
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(
        said.contains("grade feedback: bob: record unreadable, left out: ")
            && said.contains("records/bob.json: not a record of grade's: "),
        "{said}"
    );
    assert!(reports.join("feedback/ann.html").is_file(), "{said}");
    assert!(!reports.join("feedback/bob.html").exists(), "{said}");
    // And by the exports, which go on with the others (ann's row names no one: no roster).
    let output = grade()
        .current_dir(work)
        .args([
            "export",
            "reports",
            "--kit",
            "kit",
            "--canvas",
            "canvas.csv",
        ])
        .args(["--allow-missing"])
        .output()
        .expect("grade starts");
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(
        said.contains("grade export: bob: record unreadable, left out: "),
        "{said}"
    );
    assert!(said.contains("wrote canvas.csv"), "{said}");
}
