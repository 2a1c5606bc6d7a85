//! What students print reaches people inert, through the real `grade`: the hostile fixture
//! `hostile/escapes.py` (the honest Python student whose board, answer to `turn`, last words and
//! standard error carry a terminal's commands: clear the screen, a green "All 75 of 75 points",
//! a window title, OSC 52 to fill the reader's clipboard, a C1 CSI and a right-to-left
//! override), with a source file named with them too, is graded with `grade student --report
//! --gradescope --style`, and again with a build that prints them and fails; then as one of a
//! class whose submission folder is named with them. No report people read (standard output
//! and error, the Markdown report, results.json, the gallery's pages, the gradebook, the class
//! summary) holds ESC, BEL, a C1 control or a bidirectional override, and each shows the
//! escapes instead.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use crate::support::{grade, python_submission, small_kit};

/// The fixture's terminal commands, as `escapes.py` prints them.
const HOSTILE: &str = "\x1b[2J\x1b[32mAll 75 of 75 points\x1b[0m\x1b]0;graded\x07\
                       \x1b]52;c;cm0gLXJmIH4=\x07\u{9b}1m\u{202e}";
/// How every report shows them.
const SHOWN: &str = "\\u{1b}[2J\\u{1b}[32mAll 75 of 75 points\\u{1b}[0m\\u{1b}]0;graded\\u{7}\
                     \\u{1b}]52;c;cm0gLXJmIH4=\\u{7}\\u{9b}1m\\u{202e}";

/// A case whose first answer is each of the fixture's: its board, its answer to `turn`, its
/// last words after `winner`; and an AI case, which the rubric must keep.
const CASES: [&str; 4] = [
    "rules/board_1x1",
    "rules/gravity_4x4",
    "wins/vertical_top_edge_4x4",
    "scores/depth1",
];

/// The hostile fixture and the honest game it builds on, in `dir`, with a source file named
/// with the commands; the command that starts it there.
fn escapes(dir: &Path) -> String {
    fs::create_dir_all(dir).unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    fs::copy(fixtures.join("hostile/escapes.py"), dir.join("escapes.py")).unwrap();
    fs::copy(
        fixtures.join("students/connect_four.py"),
        dir.join("connect_four.py"),
    )
    .unwrap();
    fs::write(dir.join(format!("notes{HOSTILE}.py")), "NOTES = 1\n").unwrap();
    fs::write(
        dir.join("run"),
        "exec python3 \"$(dirname \"$0\")/escapes.py\" \"$@\"\n",
    )
    .unwrap();
    "python3 escapes.py".into()
}

/// Checks that `text` (called `what`) holds none of the characters a terminal or a browser
/// acts on, nor JSON's escapes of them, and shows `shown`.
fn inert(what: &str, text: &str, shown: &str) {
    no_raw_characters(what, text);
    for json in ["\\u001b", "\\u001B", "\\u0007", "\\u009b"] {
        assert!(!text.contains(json), "{what}: {json} in:\n{text}");
    }
    assert!(text.contains(shown), "{what}: no {shown} in:\n{text}");
}

/// Checks that `text` (called `what`) holds none of the characters a terminal or a browser
/// acts on. (A page that shows a student's source as it is, the similarity check's, may show
/// the six characters `\u009b` they typed in a string: text, which nothing decodes.)
fn no_raw_characters(what: &str, text: &str) {
    let acted_on = |c: char| {
        (c.is_control() && c != '\n' && c != '\t')
            || ('\u{202a}'..='\u{202e}').contains(&c)
            || ('\u{2066}'..='\u{2069}').contains(&c)
    };
    let left: Vec<char> = text.chars().filter(|&c| acted_on(c)).collect();
    assert!(left.is_empty(), "{what}: {left:?} left in:\n{text}");
}

/// `output`'s standard output and error, which must be UTF-8 (or they carried raw bytes).
fn printed(output: &Output) -> (String, String) {
    let text = |bytes: &[u8]| String::from_utf8(bytes.to_vec()).expect("UTF-8 printed");
    (text(&output.stdout), text(&output.stderr))
}

/// Every file under `dir` whose name ends with one of `extensions`.
fn files(dir: &Path, extensions: &[&str]) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(files(&path, extensions));
        } else if extensions
            .iter()
            .any(|e| path.to_string_lossy().ends_with(e))
        {
            found.push(path);
        }
    }
    found
}

#[test]
fn what_a_student_prints_reaches_every_report_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let (kit, submission, reports) = (
        dir.path().join("kit"),
        dir.path().join("submission"),
        dir.path().join("reports"),
    );
    small_kit(&kit, &CASES);
    let command = escapes(&submission);
    let results = dir.path().join("results.json");
    let run = |extra: &[&str]| {
        grade()
            .current_dir(&submission)
            .args(["student", &command, "--skip-timing", "--style"])
            .arg("--kit")
            .arg(&kit)
            .arg("--report")
            .arg(&reports)
            .arg("--gradescope")
            .arg(&results)
            .args(extra)
            .output()
            .expect("grade starts")
    };
    let output = run(&[]);
    let (stdout, stderr) = printed(&output);
    assert!(output.status.success(), "{stdout}{stderr}");
    inert("standard output", &stdout, SHOWN);
    inert("standard error", &stderr, "");
    // The answers, the last words and the file's name, each escaped where it is shown.
    // The board's extra line, marked as the line that differs.
    let board = |l: &str| l.trim_start().starts_with('!') && l.ends_with(SHOWN);
    assert!(stdout.lines().any(board), "{stdout}");
    for shown in [
        &format!("\"{SHOWN}\""),
        &format!("standard error ends: {SHOWN}"),
        &format!("notes{SHOWN}.py"),
    ] {
        assert!(stdout.contains(shown.as_str()), "no {shown} in:\n{stdout}");
    }
    let json = fs::read_to_string(&results).unwrap();
    inert("results.json", &json, &SHOWN.replace('\\', "\\\\"));
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    inert(
        "results.json's output",
        value["output"].as_str().unwrap(),
        SHOWN,
    );
    let pages = files(&reports, &[".md", ".html"]);
    assert!(pages.len() >= 2, "{pages:?}");
    for page in &pages {
        let text = fs::read_to_string(page).unwrap();
        // The class's page shows only the student's name, here the command.
        let class_page = page.ends_with("gallery.html");
        inert(
            &page.display().to_string(),
            &text,
            if class_page { "" } else { SHOWN },
        );
    }

    // A build that prints them and fails: its log's last lines, shown.
    let output = run(&["--build", "python3 escapes.py build"]);
    let (stdout, stderr) = printed(&output);
    assert!(output.status.success(), "{stdout}{stderr}");
    inert("a failed build's standard output", &stdout, SHOWN);
    assert!(
        stdout.contains("The last lines of the build's log"),
        "{stdout}"
    );
    inert("a failed build's standard error", &stderr, "");
    for page in files(&reports, &[".md"]) {
        let text = fs::read_to_string(&page).unwrap();
        inert(&page.display().to_string(), &text, SHOWN);
    }
    inert(
        "a failed build's results.json",
        &fs::read_to_string(&results).unwrap(),
        &SHOWN.replace('\\', "\\\\"),
    );
}

#[test]
fn a_submission_folder_named_with_escapes_is_shown_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let (kit, class, reports) = (
        dir.path().join("kit"),
        dir.path().join("class"),
        dir.path().join("reports"),
    );
    small_kit(&kit, &[CASES[0], CASES[3]]);
    let hostile = format!("ann{HOSTILE}");
    escapes(&class.join(&hostile));
    python_submission(&class.join("bob"), "connect_four");
    let csv = dir.path().join("gradebook.csv");
    let output = grade()
        .args(["class"])
        .arg(&class)
        .arg("--kit")
        .arg(&kit)
        .arg("--report")
        .arg(&reports)
        .arg("--csv")
        .arg(&csv)
        .args(["--command", "sh {dir}/run", "--skip-timing"])
        .output()
        .expect("grade starts");
    let (stdout, stderr) = printed(&output);
    assert!(output.status.success(), "{stdout}{stderr}");
    let name = format!("ann{SHOWN}");
    inert("standard output", &stdout, &format!(": {name}\n"));
    inert("standard error", &stderr, &name);
    let gradebook = fs::read_to_string(&csv).unwrap();
    inert("the gradebook", &gradebook, &format!("\n{name},"));
    let mut pages = files(&reports, &[".md", ".html"]);
    pages.extend(files(dir.path(), &["class-summary.md"]));
    assert!(pages.len() >= 5, "{pages:?}");
    for page in &pages {
        let text = fs::read_to_string(page).unwrap();
        if page.to_string_lossy().contains("similarity/pair-") {
            no_raw_characters(&page.display().to_string(), &text);
            assert!(text.contains(&name), "{text}");
            continue;
        }
        // Ann's own pages and the class's page name her; Bob's and the summary need not.
        let hers = !page.to_string_lossy().contains("bob") && !page.ends_with("class-summary.md");
        inert(
            &page.display().to_string(),
            &text,
            if hers { &name } else { "" },
        );
    }
}
