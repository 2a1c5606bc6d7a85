//! Tests of the style facts of small submissions written for them, with stand-in lint
//! commands (shell one-liners) run without a sandbox.

use std::fs;

use super::*;
use crate::judge::fixtures;
use crate::judge::result::style::HeaderItem;

/// Gathers the facts of a submission of `files` (path, text) with `lints`.
fn gather_files(files: &[(&str, &str)], lints: Vec<Lint>) -> (Style, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files {
        let path = dir.path().join(path);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }
    let student = fixtures::student_in("ann lee", dir.path());
    let job = Job {
        student: &student,
        sandbox: None,
    };
    let settings = settings::StyleRules {
        longest: 2,
        lints,
        ..settings::StyleRules::default()
    };
    let check = StyleCheck {
        logs: Some(dir.path().join("reports")),
    };
    let style = gather(&settings, &check, &job, dir.path(), None);
    (style, dir)
}

/// A lint of `language` named `name` running `command`, counting lines with `: warning:`.
fn lint(name: &str, language: Language, command: &str) -> Lint {
    Lint {
        name: name.into(),
        language,
        command: command.into(),
        counts: "warnings".into(),
        lines_with: ": warning:".into(),
        found_exit: None,
    }
}

const HEADED: &str = "//! What it holds, in words.\n//! Name: Ann\n//! Course: CS\n\
                      //! Project: C4\n//! Date: today\n";

#[test]
fn the_student_s_sources_are_read_and_build_output_and_the_supplied_crate_are_not() {
    let long = format!(
        "{HEADED}fn long() {{\n{}}}\nfn short() {{}}\n",
        "    x();\n".repeat(9)
    );
    let files = [
        ("src/main.rs", long.as_str()),
        (
            "src/game/board.rs",
            "impl Board {\n    fn drop(&self) {\n    }\n}\n",
        ),
        ("src/broken.rs", "fn (\n"),
        ("build.rs", "fn main() {}\n"),
        ("target/debug/build/out.rs", "fn main() {}\n"),
        ("supplied/src/lib.rs", "fn main() {}\n"),
        ("tools/helper.py", "\"\"\"Helps with the game.\"\"\"\n"),
    ];
    let (style, _dir) = gather_files(&files, Vec::new());
    let paths: Vec<&str> = style.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(
        paths,
        ["src/game/board.rs", "src/main.rs", "tools/helper.py"]
    );
    assert_eq!(style.files[1].gaps(), 0);
    assert_eq!(style.files[0].missing, HeaderItem::ALL);
    assert_eq!(style.header_gaps(), 5 + 4);
    assert_eq!(style.unread.len(), 1);
    assert!(matches!(&style.unread[0].why, Unreadable::Unparsed(why) if why.starts_with("line 1")));
    let longest: Vec<(&str, usize)> = style
        .longest
        .iter()
        .map(|f| (f.name.as_str(), f.lines))
        .collect();
    assert_eq!(longest, [("long", 11), ("Board::drop", 2)]);
    assert_eq!(style.unmeasured, [Language::Python]);
    assert_eq!(style.unlinted, [Language::Rust, Language::Python]);
}

#[test]
fn each_lint_of_the_submission_s_languages_counts_its_distinct_lines() {
    let warnings = "echo 'a.rs:1:1: warning: x'; echo 'a.rs:1:1: warning: x'; \
                    echo 'a.rs:2:1: warning: y'; echo 'warning: 2 warnings'";
    let unformatted = Lint {
        lines_with: String::new(),
        found_exit: Some(1),
        counts: "files".into(),
        ..lint(
            "fmt",
            Language::Rust,
            "echo src/a.rs; echo src/b.rs; exit 1",
        )
    };
    let lints = vec![
        lint("clippy", Language::Rust, warnings),
        unformatted,
        lint("broken", Language::Rust, "echo 'error: no'; exit 101"),
        lint("javac", Language::Java, "echo never run"),
    ];
    let (style, dir) = gather_files(&[("src/main.rs", HEADED)], lints);
    let outcomes: Vec<(&str, &LintOutcome)> = style
        .lints
        .iter()
        .map(|l| (l.name.as_str(), &l.outcome))
        .collect();
    assert_eq!(
        outcomes[..2],
        [
            ("clippy", &LintOutcome::Counted(2)),
            ("fmt", &LintOutcome::Counted(2))
        ]
    );
    assert!(
        matches!(outcomes[2], ("broken", LintOutcome::Failed { ended: Ended::Failed(s), tail }) if s.code() == Some(101) && tail == "error: no"),
        "{outcomes:?}"
    );
    assert_eq!(outcomes.len(), 3, "no Java, so no javac");
    let log = dir.path().join("reports/ann_lee.lint.clippy.log");
    assert_eq!(style.lints[0].log.as_deref(), Some(log.as_path()));
    assert!(style.unlinted.is_empty());
}

#[test]
fn without_a_sandbox_no_lint_runs_and_says_why() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("game.py"), "import sys\n").unwrap();
    let student = fixtures::student_in("bo", dir.path());
    let job = Job {
        student: &student,
        sandbox: None,
    };
    let settings = settings::StyleRules {
        lints: vec![lint("flake8", Language::Python, "touch ran")],
        ..settings::StyleRules::default()
    };
    let style = gather(
        &settings,
        &StyleCheck::default(),
        &job,
        dir.path(),
        Some("no Landlock"),
    );
    assert_eq!(
        style.lints[0].outcome,
        LintOutcome::NoSandbox("no Landlock".into())
    );
    assert!(!dir.path().join("ran").exists());
}
