//! The supplied crate check through the real `grade` binary: a class with a changed and an
//! unchanged copy of `starter/supplied` is told apart in the gradebook, the reports and the
//! summary without any change to the score; Gradescope shows the change as a test worth nothing;
//! a submission without a copy is not flagged; without the course's copy the check is
//! skipped with one warning; and a class of tiny cargo projects, each trying to build another
//! copy of the supplied crate (`paths` and `rustc-wrapper` in `.cargo/config.toml`, a
//! `[patch]`), is built against the course's copy, or refused, and the reports say so, as is a
//! build that cargo's log shows took another copy.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use crate::support::{
    column, copy_dir, grade, graded, kit, python_submission, rows, small_kit, starter_supplied,
    QUICK_CASES,
};

/// Puts a copy of the course's supplied crate in `dir/supplied` and changes it: one file edited,
/// one added, one removed.
fn changed_copy(dir: &Path) {
    let copy = dir.join("supplied");
    copy_dir(&starter_supplied(), &copy);
    let lib = copy.join("src/lib.rs");
    let mut text = fs::read(&lib).unwrap();
    text.extend_from_slice(b"// a fix of my own\n");
    fs::write(&lib, text).unwrap();
    fs::write(copy.join("src/extra.rs"), "").unwrap();
    fs::remove_file(copy.join("tests/window.rs")).unwrap();
}

#[test]
fn a_changed_copy_is_reported_in_the_gradebook_reports_and_summary_but_not_scored() {
    let work = tempfile::tempdir().unwrap();
    let class = work.path().join("class");
    for name in ["changed", "same"] {
        python_submission(&class.join(name), "connect_four");
    }
    changed_copy(&class.join("changed"));
    copy_dir(&starter_supplied(), &class.join("same/supplied"));
    let csv = work.path().join("grades.csv");
    let reports = work.path().join("reports");
    let output = grade()
        .arg("class")
        .arg(&class)
        .arg("--kit")
        .arg(kit())
        .args(["--command", "sh {dir}/run", "--jobs", "2", "--skip-timing"])
        .arg("--csv")
        .arg(&csv)
        .arg("--report")
        .arg(&reports)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");

    let rows = rows(&csv);
    let column = rows[0].iter().position(|h| h == "supplied_changed");
    let column = column.expect("a supplied_changed column");
    let total = rows[0].iter().position(|h| h == "automatic total").unwrap();
    let cells: Vec<(&str, &str, &str)> = rows[1..]
        .iter()
        .map(|r| (r[0].as_str(), r[total].as_str(), r[column].as_str()))
        .collect();
    assert_eq!(cells, [("changed", "60", "yes"), ("same", "60", "no")]);

    let changed = fs::read_to_string(reports.join("changed.md")).unwrap();
    let head = changed.split("## Scores").next().unwrap();
    for text in [
        "The supplied crate was changed:** 3 file(s) of `supplied/`",
        "- added `src/extra.rs`\n- changed `src/lib.rs`\n- removed `tests/window.rs`\n",
        "a grader decides whether the change matters",
    ] {
        assert!(
            head.contains(text),
            "{text:?} before the scores in:\n{changed}"
        );
    }
    let same = fs::read_to_string(reports.join("same.md")).unwrap();
    assert!(
        same.contains("(`supplied/`) is the course's copy, unchanged")
            && !same.contains("changed:"),
        "{same}"
    );
    assert!(
        stdout.contains(
            "The supplied crate was changed: 3 file(s) of supplied/ differ from the course's \
             copy: added src/extra.rs, changed src/lib.rs, removed tests/window.rs."
        ),
        "{stdout}"
    );
}

#[test]
fn gradescope_shows_a_change_as_a_visible_test_worth_nothing() {
    let work = tempfile::tempdir().unwrap();
    changed_copy(work.path());
    // `false` fails every case at once: only the check is of interest here.
    let results = graded(
        grade()
            .current_dir(work.path())
            .args(["student", "false", "--skip-timing", "--kit"])
            .arg(kit()),
    )
    .results;
    let test = &results["tests"][0];
    assert_eq!(test["name"], "Supplied crate (not scored)");
    assert_eq!(test["max_score"], 0.0);
    assert_eq!(test["score"], 0.0);
    assert_eq!(test["status"], "failed");
    assert_eq!(test["visibility"], "visible");
    let output = test["output"].as_str().unwrap();
    assert!(output.contains("changed src/lib.rs"), "{output}");
    assert_eq!(results["max_score"], 60.0, "the check adds no points");
}

#[test]
fn no_copy_is_not_flagged_and_a_missing_course_copy_is_said_once() {
    let work = tempfile::tempdir().unwrap();
    let class = work.path().join("class");
    fs::create_dir_all(class.join("python")).unwrap();
    changed_copy(&class.join("rust"));
    let csv = work.path().join("grades.csv");
    let run = |extra: &[&str]| {
        let output = grade()
            .arg("class")
            .arg(&class)
            .arg("--kit")
            .arg(kit())
            .args(["--command", "false", "--skip-timing", "--csv"])
            .arg(&csv)
            .args(extra)
            .output()
            .unwrap();
        assert!(output.status.success());
        let rows = rows(&csv);
        let changed = column(&rows[0], "supplied_changed");
        let flags: Vec<String> = rows[1..]
            .iter()
            .map(|r| format!("{} {}", r[0], r[changed]))
            .collect();
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        (flags, stdout, stderr)
    };
    let (flags, stdout, _) = run(&[]);
    assert_eq!(flags, ["python ", "rust yes"]);
    assert_eq!(stdout.matches("The supplied crate").count(), 1, "{stdout}");

    let nowhere = work.path().join("nowhere");
    let (flags, stdout, stderr) = run(&["--supplied", nowhere.to_str().unwrap()]);
    assert_eq!(flags, ["python ", "rust "]);
    assert!(!stdout.contains("supplied crate"), "{stdout}");
    let warning = "the course's copy of the supplied crate cannot be used";
    assert_eq!(stderr.matches(warning).count(), 1, "{stderr}");
    assert!(stderr.contains("nowhere"), "{stderr}");
}

#[test]
fn with_a_build_step_the_course_copy_is_built_and_the_submitted_one_put_back() {
    let work = tempfile::tempdir().unwrap();
    let student = work.path().join("class/changed");
    python_submission(&student, "connect_four");
    changed_copy(&student);
    let reports = work.path().join("reports");
    // The "build" shows the supplied crate it finds in its log, as a real build would compile it.
    let build = "cat supplied/src/lib.rs";
    let output = grade()
        .arg("class")
        .arg(student.parent().unwrap())
        .arg("--kit")
        .arg(kit())
        .args([
            "--command",
            "sh {dir}/run",
            "--skip-timing",
            "--build",
            build,
        ])
        .arg("--csv")
        .arg(work.path().join("grades.csv"))
        .arg("--report")
        .arg(&reports)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(
        fs::read(reports.join("changed.build.log")).unwrap(),
        fs::read(starter_supplied().join("src/lib.rs")).unwrap(),
        "the build saw the course's copy"
    );
    let back = fs::read_to_string(student.join("supplied/src/lib.rs")).unwrap();
    assert!(
        back.ends_with("// a fix of my own\n"),
        "the submitted copy is put back"
    );
    assert!(student.join("supplied/src/extra.rs").is_file());
    let report = fs::read_to_string(reports.join("changed.md")).unwrap();
    assert!(
        report.contains("The supplied crate was changed:** 3 file(s)")
            && report.contains("built with the course's copy")
            && report.contains("the submitted copy was put back"),
        "{report}"
    );
}

/// A tiny cargo project in `dir` that uses the supplied crate in `supplied/` (a copy of
/// `course`), with `.course/supplied/`, a changed copy that fails to compile, beside it;
/// `manifest` is added to its `Cargo.toml`.
fn cargo_project(dir: &Path, course: &Path, manifest: &str) {
    copy_dir(course, &dir.join("supplied"));
    copy_dir(course, &dir.join(".course/supplied"));
    fs::write(
        dir.join(".course/supplied/src/lib.rs"),
        "compile_error!(\"the changed copy was built\");\n",
    )
    .unwrap();
    fs::create_dir_all(dir.join("src")).unwrap();
    fs::write(
        dir.join("src/main.rs"),
        "fn main() {\n    println!(\"{}\", connect_four_supplied::COPY);\n}\n",
    )
    .unwrap();
    fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"c4\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
             [dependencies]\nconnect_four_supplied = {{ path = \"supplied\" }}\n\n\
             [workspace]\n{manifest}"
        ),
    )
    .unwrap();
}

#[test]
fn a_build_redirected_by_cargo_s_configuration_or_a_patch_builds_the_course_s_copy_or_none() {
    // Cargo's configuration (`paths`, `build.rustc-wrapper`):
    // https://doc.rust-lang.org/cargo/reference/config.html; `[patch]`:
    // https://doc.rust-lang.org/cargo/reference/overriding-dependencies.html
    let work = tempfile::tempdir().unwrap();
    let course = work.path().join("course");
    fs::create_dir_all(course.join("src")).unwrap();
    fs::write(
        course.join("Cargo.toml"),
        "[package]\nname = \"connect_four_supplied\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    )
    .unwrap();
    fs::write(
        course.join("src/lib.rs"),
        "pub const COPY: &str = \"course\";\n",
    )
    .unwrap();
    let kit = work.path().join("kit");
    small_kit(&kit, &QUICK_CASES);
    let class = work.path().join("class");
    let config = |student: &str, text: &str| {
        let dir = class.join(student);
        cargo_project(&dir, &course, "");
        fs::create_dir_all(dir.join(".cargo")).unwrap();
        fs::write(dir.join(".cargo/config.toml"), text).unwrap();
    };
    config("paths", "paths = [\".course/supplied\"]\n");
    config("wrapper", "[build]\nrustc-wrapper = \"./spy.sh\"\n");
    fs::write(
        class.join("wrapper/spy.sh"),
        "#!/bin/sh\necho 'the wrapper ran' >&2\nexit 1\n",
    )
    .unwrap();
    fs::set_permissions(
        class.join("wrapper/spy.sh"),
        fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    cargo_project(
        &class.join("patch"),
        &course,
        "\n[patch.crates-io]\nconnect_four_supplied = { path = \".course/supplied\" }\n",
    );
    let csv = work.path().join("grades.csv");
    let reports = work.path().join("reports");
    let output = grade()
        .arg("class")
        .arg(&class)
        .arg("--kit")
        .arg(&kit)
        .arg("--supplied")
        .arg(&course)
        .args(["--command", "{dir}/target/debug/c4", "--skip-timing"])
        .args(["--build", "cargo build --offline", "--jobs", "2", "--csv"])
        .arg(&csv)
        .arg("--report")
        .arg(&reports)
        .output()
        .unwrap();
    let printed = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{printed}");

    let rows = rows(&csv);
    let build = column(&rows[0], "build");
    let built: Vec<(&str, &str)> = rows[1..]
        .iter()
        .map(|r| (r[0].as_str(), r[build].as_str()))
        .collect();
    assert_eq!(
        built,
        [("patch", "failed"), ("paths", "ok"), ("wrapper", "ok")]
    );
    let class = fs::canonicalize(&class).unwrap();
    for student in ["paths", "wrapper"] {
        let log = fs::read_to_string(reports.join(format!("{student}.build.log"))).unwrap();
        let ours = format!(
            "Compiling connect_four_supplied v0.1.0 ({})",
            class.join(student).join("supplied").display()
        );
        assert!(
            log.contains(&ours) && !log.contains(".course") && !log.contains("wrapper ran"),
            "{log}"
        );
        let report = fs::read_to_string(reports.join(format!("{student}.md"))).unwrap();
        assert!(
            report.contains("The build succeeded in ")
                && report.contains(
                    "set aside for it, so that the build is the course's: `.cargo/config.toml`."
                )
                && !report.contains("could not be checked"),
            "{report}"
        );
        assert!(
            class.join(student).join(".cargo/config.toml").is_file(),
            "put back"
        );
    }
    let report = fs::read_to_string(reports.join("patch.md")).unwrap();
    assert!(
        report.contains(
            "The build was refused, as it is not built against the course's supplied crate \
             (Cargo.toml has a [patch] table): no case was run"
        ),
        "{report}"
    );

    // Whatever else made cargo take the changed copy (here the build command itself), cargo's
    // own log says so, and the build is refused.
    let redirected = graded(
        grade()
            .current_dir(class.join("paths"))
            .args(["student", "target/debug/c4", "--skip-timing", "--kit"])
            .arg(&kit)
            .arg("--supplied")
            .arg(&course)
            .args([
                "--build",
                "cargo build --offline --config 'paths = [\".course/supplied\"]'",
            ]),
    );
    let said = redirected.results["tests"][0]["output"].as_str().unwrap();
    let elsewhere = class.join("paths/.course/supplied");
    assert!(
        said.contains(&format!(
            "(cargo built connect_four_supplied v0.1.0 ({}), not from the supplied crate's \
             folder): no case was run",
            elsewhere.display()
        )),
        "{said}"
    );
}
