//! The last mile, end to end, as an instructor goes: a Gradescope-style export of a class of
//! three (two of them late) with a roster, graded with `grade class --report`; every checklist
//! item scored and a comment typed per category in the gallery, in headless Chromium; then
//! `grade export` to Canvas and Moodle (pinned by snapshots) and the feedback file each student
//! gets back. The rubric takes 10% of the points per day started late, at most 30%: ann is on
//! time, bob a day and 3 hours late (2 days started: 20%), cy 4 days late (40%, capped at 30%).
//!
//! It needs Chromium (`scripts/setup.sh chromium`); without it it is skipped with a note, except
//! under CI (`CI` set), where it fails.

use std::fs;
use std::path::Path;
use std::time::Duration;

use connect_four_grader::kit::style::Language;
use connect_four_grader::kit::Rubric;
use connect_four_grader::report::gradebook;
use headless_chrome::{Browser, LaunchOptions, Tab};

use crate::gallery::{chromium, type_into, wait_for, Served};
use crate::support::{
    column, grade, gradescope_download, rows, small_kit, with_late, Downloaded, QUICK_CASES,
};

/// The late policy of the test's rubric.
const LATE: &str = "due = \"2026-11-20T23:59:00-08:00\"\npenalty = 10\nper = \"day\"\n\
                    cap = 30\ngrace_minutes = 15\n";

/// The class: (submission id, name, student id, email, when it came in).
const CLASS: [(&str, &str, &str, &str, &str); 3] = [
    (
        "submission_101",
        "Ann Lee",
        "1001",
        "ann@x.edu",
        "2026-11-20 23:30:00.000000000 -08:00",
    ),
    (
        "submission_102",
        "Bob Ray",
        "1002",
        "bob@x.edu",
        "2026-11-22 03:00:59.5 -08:00",
    ),
    (
        "submission_103",
        "Cy Yu",
        "1003",
        "cy@x.edu",
        "2026-11-25 00:00:00.000000000 -08:00",
    ),
];

/// `grade` with `args` in `work`, which must succeed: its standard error.
fn run(work: &Path, args: &[&str]) -> String {
    let output = grade().current_dir(work).args(args).output().unwrap();
    let err = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(
        output.status.success(),
        "{args:?}: {}{err}",
        String::from_utf8_lossy(&output.stdout)
    );
    err
}

/// The comment typed for `student` in `category`.
fn comment(student: &str, category: &str) -> String {
    format!("{category} of {student}: clear, \"tidy\" work")
}

/// Scores every checklist item of `student` in full on their gallery page, with a comment per
/// category, and saves.
fn score_in_full(tab: &Tab, served: &Served, rubric: &Rubric, student: &str) {
    tab.navigate_to(&served.url).unwrap();
    tab.wait_for_element(&format!("a[href*='{student}.html#']"))
        .unwrap()
        .click()
        .unwrap();
    for category in rubric.categories.iter().filter(|c| !c.manual.is_empty()) {
        let section = format!("section[data-category='{}']", category.name);
        wait_for(
            tab,
            &format!("String(document.querySelector(\"{section} input\").disabled)"),
            "false",
        );
        // The first item typed as a grader types it; the rest set at once, as typing them
        // would (an input event each), to keep the test quick.
        let scores: Vec<String> = category
            .checklist()
            .iter()
            .map(|(points, _)| points.to_string())
            .collect();
        type_into(tab, &format!("{section} input[data-item='0']"), &scores[0]);
        let script = format!(
            "(() => {{ const s = document.querySelector(\"{section}\"); \
             const scores = {scores:?}; \
             s.querySelectorAll('input[data-item]').forEach((input, i) => {{ \
               input.value = scores[i]; input.dispatchEvent(new Event('input', {{bubbles: true}})); }}); \
             const t = s.querySelector('textarea'); t.value = {comment:?}; \
             t.dispatchEvent(new Event('input', {{bubbles: true}})); return 'set'; }})()",
            comment = comment(student, &category.name)
        );
        wait_for(tab, &script, "set");
    }
    tab.wait_for_element("button[type=submit]")
        .unwrap()
        .click()
        .unwrap();
    wait_for(
        tab,
        "document.getElementById('status').textContent",
        "saved; feedback written",
    );
}

#[test]
fn an_exported_class_is_graded_hand_scored_exported_and_given_its_feedback() {
    let Some(chromium) = chromium() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path();
    small_kit(&work.join("kit"), &QUICK_CASES);
    with_late(&work.join("kit"), LATE);
    let exported: Vec<Downloaded> = CLASS
        .iter()
        .map(|(id, name, sid, email, at)| Downloaded {
            id,
            fixture: "connect_four",
            submitter: [name, sid, email],
            created_at: at,
        })
        .collect();
    gradescope_download(&work.join("export"), &exported);
    fs::write(
        work.join("roster.csv"),
        "folder,student_id,name,email,extension\n\
         submission_101,1001,Ann Lee,ann@x.edu,\n\
         submission_102,1002,Bob Ray,bob@x.edu,\n\
         submission_103,1003,Cy Yu,cy@x.edu,\n",
    )
    .unwrap();
    run(
        work,
        &[
            "class",
            "export",
            "--kit",
            "kit",
            "--command",
            "sh {dir}/run",
            "--roster",
            "roster.csv",
            "--csv",
            "gradebook.csv",
            "--report",
            "reports",
        ],
    );
    let rubric = Rubric::load(&work.join("kit/rubric.toml")).unwrap();

    // The hand scores, typed in the gallery as a grader types them.
    let served = Served::start(work);
    let browser = Browser::new(
        LaunchOptions::default_builder()
            .path(Some(chromium))
            .sandbox(false)
            .idle_browser_timeout(Duration::from_secs(300))
            .build()
            .unwrap(),
    )
    .expect("Chromium starts");
    for (student, ..) in CLASS {
        let tab = browser.new_tab().unwrap();
        score_in_full(&tab, &served, &rubric, student);
        tab.close(false).unwrap();
    }
    drop(served);

    // The class's similar pairs, ranked in its summary: three copies of one program.
    let summary = fs::read_to_string(work.join("reports/class-summary.md")).unwrap();
    assert!(summary.contains("## Similar pairs"), "{summary}");
    let ranked = summary
        .lines()
        .filter(|line| line.contains("](similarity/pair-") && line.contains("| 100% |"));
    assert_eq!(ranked.count(), 3, "{summary}");
    assert!(work.join("reports/similarity/pair-003.html").is_file());

    // The penalties as the rubric says: 0, 20% and 30% (capped) of every point.
    let possible: f64 = rubric.categories.iter().map(|c| c.points).sum();
    let table = rows(&work.join("gradebook.csv"));
    let cells = |name: &str| -> Vec<String> {
        let at = column(&table[0], name);
        table[1..].iter().map(|row| row[at].clone()).collect()
    };
    let points = |text: &str| -> f64 { text.parse().unwrap_or_else(|_| panic!("{text:?}")) };
    assert_eq!(cells("late")[0], "on time");
    assert_eq!(cells("late")[1], "1 day 3 h");
    assert_eq!(cells("hand-scored items"), ["11 of 11"; 3]);
    for (row, share) in [0.0, 0.2, 0.3].into_iter().enumerate() {
        let penalty = points(&cells("late penalty")[row]);
        assert!(
            (penalty - share * possible).abs() < 0.01,
            "row {row}: {penalty}"
        );
        let total = points(&cells("total")[row]);
        let final_total = points(&cells("final total")[row]);
        assert!((final_total - (total - penalty)).abs() < 0.01, "row {row}");
    }

    // The platforms' files, as their imports read them.
    run(
        work,
        &[
            "export",
            "reports",
            "--canvas",
            "canvas.csv",
            "--roster",
            "roster.csv",
            "--kit",
            "kit",
        ],
    );
    run(
        work,
        &[
            "export",
            "reports",
            "--moodle",
            "moodle.csv",
            "--roster",
            "roster.csv",
            "--kit",
            "kit",
        ],
    );
    for platform in ["canvas", "moodle"] {
        let text = fs::read_to_string(work.join(format!("{platform}.csv"))).unwrap();
        gradebook::parse(&text).expect("the export reads as CSV");
        insta::assert_snapshot!(format!("last_mile_{platform}"), text);
    }

    // Each student's feedback: the automatic results, every hand score and comment, the
    // late penalty and the totals, in Markdown and as a page.
    for (row, (student, ..)) in CLASS.iter().enumerate() {
        let page = work.join(format!("reports/feedback/{student}.md"));
        let text = fs::read_to_string(&page).unwrap_or_else(|e| panic!("{}: {e}", page.display()));
        assert!(text.contains("## Scores"), "{text}");
        assert!(!text.contains("____"), "blanks left: {text}");
        for category in rubric.categories.iter().filter(|c| !c.manual.is_empty()) {
            assert!(text.contains(&comment(student, &category.name)), "{text}");
            // Worded for the class's language: its submissions are Python.
            for (_, words) in category.items(Some(Language::Python)) {
                assert!(
                    text.lines()
                        .any(|l| l.starts_with("- [x] ") && l.contains(&words)),
                    "{student}: not scored: {words}\n{text}"
                );
            }
        }
        let late = text.contains("Late penalty");
        assert_eq!(late, row > 0, "{student}: {text}");
        let final_total = &cells("final total")[row];
        assert!(text.contains(final_total.as_str()), "{final_total}: {text}");
        let html = fs::read_to_string(page.with_extension("html")).unwrap();
        let said = format!("GUI of {student}: clear,");
        assert!(html.contains(&said), "{said}: {html}");
    }
}
