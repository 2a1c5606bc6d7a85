//! From a Gradescope export to the course's gradebook, end to end: three Python students in
//! a Gradescope-style export (its `submission_metadata.yml` naming them, one by a formula, and
//! saying when each submitted), a roster that gives one an extension and another a new name,
//! and a rubric whose `[late]` table takes 10% a day started late (grace 15 minutes, cap 30%).
//! `grade class EXPORT --roster R` joins the gradebook: the older columns as before, then who,
//! when (from Gradescope), how late and the penalty; `--only` grades one again into it, the
//! same. A roster with a bad extension stops the class before grading, naming its line. Before any hand score, `grade export`
//! leaves every grade blank and says so with the count; once every item is scored (as the
//! gallery saves them), the final totals are the totals less the penalties, and Canvas's,
//! Moodle's and Gradescope's files carry them.

use std::fs;
use std::path::{Path, PathBuf};

use connect_four_grader::commands::gallery::{save_marks, Saved};
use connect_four_grader::judge::result::hand::{CategoryMarks, Marks};
use connect_four_grader::kit::Rubric;
use connect_four_grader::report::gradebook;

use crate::support::{
    column, grade, gradescope_download, rows, small_kit, with_late, Downloaded, QUICK_CASES,
};

/// The late policy of the test's rubric.
const LATE: &str = "due = \"2026-11-20T23:59:00-08:00\"\npenalty = 10\nper = \"day\"\n\
                    cap = 30\ngrace_minutes = 15\n";

/// The export: ann on time (within the grace), bob a day and 3 hours late (2 days started),
/// cy late by 2 days started but with a 48-hour extension in the roster.
fn export(dir: &Path) {
    gradescope_download(
        dir,
        &[
            Downloaded {
                id: "submission_101",
                fixture: "connect_four",
                submitter: ["Ann Lee", "1001", "ann@x.edu"],
                created_at: "2026-11-21 00:10:05.123456000 -08:00",
            },
            Downloaded {
                id: "submission_102",
                fixture: "connect_four",
                submitter: ["=HYPERLINK(\"http://x\",\"ok\")", "1002", "bob@x.edu"],
                created_at: "2026-11-22 03:00:59.5 -08:00",
            },
            Downloaded {
                id: "submission_103",
                fixture: "connect_four",
                submitter: ["Cy", "1003", "cy@x.edu"],
                created_at: "2026-11-22 10:00:00.000000000 -08:00",
            },
        ],
    );
}

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

/// Every checklist item of `rubric` scored in full for each of `students`, saved as the
/// gallery saves them into the class graded in `dir`.
fn full_marks(dir: &Path, rubric: &Rubric, students: &[&str]) {
    for student in students {
        let mut marks = Marks::new();
        for category in rubric.categories.iter().filter(|c| !c.manual.is_empty()) {
            let items = category.checklist().iter().map(|(p, _)| Some(*p)).collect();
            let comment = format!("{}: fine", category.name);
            marks.insert(category.name.clone(), CategoryMarks { items, comment });
        }
        let saved = save_marks(dir, rubric, None, student, marks);
        assert!(matches!(saved, Ok(Saved::Republished { .. })), "{saved:?}");
    }
}

/// The cells of the column `name` of `rows`, below its header.
fn cells(rows: &[Vec<String>], name: &str) -> Vec<String> {
    let at = column(&rows[0], name);
    rows[1..].iter().map(|row| row[at].clone()).collect()
}

#[test]
fn a_gradescope_download_with_a_roster_and_a_late_policy_reaches_every_platform() {
    let dir = tempfile::tempdir().unwrap();
    let work: PathBuf = dir.path().to_path_buf();
    small_kit(&work.join("kit"), &QUICK_CASES);
    with_late(&work.join("kit"), LATE);
    export(&work.join("export"));
    fs::write(
        work.join("roster.csv"),
        "folder,student_id,name,email,extension\n\
         submission_103,1003,\"Yu, Cy\",,48\n",
    )
    .unwrap();
    let class = [
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
        // The roster names Cy alone (for his extension): Ann and Bob are not on it.
        "--allow-missing",
    ];
    let said = run(&work, &class);
    assert!(said.contains("is a Gradescope export"), "{said}");
    // Graded again in part: the others' rows as they were, byte for byte, and bob's joined
    // cells the same (his files changed in the first run: Gradescope's time counts).
    let first = rows(&work.join("gradebook.csv"));
    run(&work, &[&class[..], &["--only", "submission_102"]].concat());
    let again = rows(&work.join("gradebook.csv"));
    let time = column(&first[0], "time (s)");
    for at in [0, 1, 3] {
        assert_eq!(again[at], first[at]);
    }
    let width = gradebook::header(&Rubric::load(&work.join("kit/rubric.toml")).unwrap(), &[]).len();
    assert_eq!(again[2][width..], first[2][width..]);
    assert_eq!(again[2][..time], first[2][..time]);
    let rubric = Rubric::load(&work.join("kit/rubric.toml")).unwrap();
    let possible: f64 = rubric.categories.iter().map(|c| c.points).sum();
    let table = rows(&work.join("gradebook.csv"));
    // The older columns first, as without a roster; then the joined ones.
    let header = gradebook::joined_header(&rubric, &[]);
    assert_eq!(table[0], header);
    assert_eq!(
        cells(&table, "student"),
        ["submission_101", "submission_102", "submission_103"]
    );
    assert_eq!(cells(&table, "student id"), ["1001", "1002", "1003"]);
    assert_eq!(
        cells(&table, "name"),
        ["Ann Lee", "'=HYPERLINK(\"http://x\",\"ok\")", "Yu, Cy"]
    );
    assert_eq!(
        cells(&table, "email"),
        ["ann@x.edu", "bob@x.edu", "cy@x.edu"]
    );
    assert_eq!(
        cells(&table, "submitted"),
        [
            "2026-11-21T00:10:05-08:00 (Gradescope)",
            "2026-11-22T03:00:59-08:00 (Gradescope)",
            "2026-11-22T10:00:00-08:00 (Gradescope)",
        ]
    );
    assert_eq!(cells(&table, "late"), ["on time", "1 day 3 h", "on time"]);
    let bob_penalty = possible * 0.2;
    assert_eq!(
        cells(&table, "late penalty"),
        ["0".to_string(), format!("{bob_penalty}"), "0".to_string()]
    );
    assert_eq!(cells(&table, "final total"), ["", "", ""]);

    // Before the hand scores, every grade is blank, and said.
    let outputs = ["--canvas", "canvas.csv", "--moodle", "moodle.csv"];
    let export_args = |extra: &[&'static str]| {
        let mut args = vec!["export", "gradebook.csv", "--kit", "kit"];
        args.extend_from_slice(extra);
        args
    };
    let said = run(&work, &export_args(&outputs));
    assert!(
        said.contains("3 students have no grade (no final total yet"),
        "{said}"
    );

    // Every item scored, as the gallery saves them.
    let ids = ["submission_101", "submission_102", "submission_103"];
    full_marks(&work, &rubric, &ids);
    let table = rows(&work.join("gradebook.csv"));
    let totals: Vec<f64> = cells(&table, "total")
        .iter()
        .map(|t| t.parse().unwrap())
        .collect();
    let finals: Vec<f64> = cells(&table, "final total")
        .iter()
        .map(|t| t.parse().unwrap())
        .collect();
    assert_eq!(finals, [totals[0], totals[1] - bob_penalty, totals[2]]);

    let said = run(
        &work,
        &export_args(&[
            "--canvas",
            "canvas.csv",
            "--moodle",
            "moodle.csv",
            "--gradescope",
            "gradescope.csv",
            "--roster",
            "roster.csv",
            "--allow-missing",
        ]),
    );
    assert!(!said.contains("no final total"), "{said}");
    let canvas = rows(&work.join("canvas.csv"));
    assert_eq!(
        canvas[0],
        [
            "Student",
            "ID",
            "SIS User ID",
            "SIS Login ID",
            "Section",
            &rubric.title
        ]
    );
    assert_eq!(canvas[1][0].trim(), "Points Possible");
    assert_eq!(canvas[1][5], format!("{possible}"));
    let grades: Vec<f64> = canvas[2..].iter().map(|r| r[5].parse().unwrap()).collect();
    assert_eq!(grades, finals);
    assert_eq!(
        canvas[2..]
            .iter()
            .map(|r| r[2].as_str())
            .collect::<Vec<_>>(),
        ["1001", "1002", "1003"]
    );
    let moodle = rows(&work.join("moodle.csv"));
    assert_eq!(
        moodle[0],
        ["Email address", "ID number", &rubric.title, "Feedback"]
    );
    assert_eq!(moodle[2][0], "bob@x.edu");
    assert!(moodle[2][3].contains("Late: 1 day 3 h"), "{:?}", moodle[2]);
    let scores = rows(&work.join("gradescope.csv"));
    let last = scores[0].len() - 1;
    assert_eq!(scores[0][..3], ["Name", "SID", "Email"]);
    assert_eq!(scores[0][last], "Late penalty");
    // Negative, as Gradescope adds a late penalty to a score.
    assert_eq!(scores[2][last], format!("-{bob_penalty}"));
    assert_eq!(scores[1][last], "0");
    assert_eq!(scores[3][0], "Yu, Cy");
    assert_eq!(scores[2][1], "1002");
    // Into an existing Canvas assignment: its column headed as Canvas's own export heads it.
    run(
        &work,
        &export_args(&[
            "--canvas",
            "canvas.csv",
            "--title",
            "Project 4",
            "--canvas-id",
            "87568490",
        ]),
    );
    assert_eq!(rows(&work.join("canvas.csv"))[0][5], "Project 4 (87568490)");
}

#[test]
fn a_broken_roster_stops_the_class_before_grading_naming_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path();
    small_kit(&work.join("kit"), &QUICK_CASES);
    export(&work.join("export"));
    fs::write(
        work.join("roster.csv"),
        "folder,extension\nsubmission_101,soon\n",
    )
    .unwrap();
    let output = grade()
        .current_dir(work)
        .args([
            "class",
            "export",
            "--kit",
            "kit",
            "--command",
            "sh {dir}/run",
        ])
        .args(["--roster", "roster.csv", "--csv", "gradebook.csv"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(
        err.contains("roster.csv:2: the extension \"soon\" is neither"),
        "{err}"
    );
    assert!(!work.join("gradebook.csv").exists());
}

#[test]
fn without_gradescope_s_times_the_roster_s_count_and_the_files_only_when_asked_and_loudly() {
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path();
    small_kit(&work.join("kit"), &QUICK_CASES);
    with_late(
        &work.join("kit"),
        "due = \"2999-01-01T00:00:00+01:00\"\npenalty = 5\nper = \"hour\"\n",
    );
    crate::support::python_submission(&work.join("class/ann"), "connect_four");
    crate::support::python_submission(&work.join("class/bob"), "connect_four");
    // Ann's time from the roster: 1 h 30 min late, 2 hours started.
    fs::write(
        work.join("roster.csv"),
        "folder,name,submitted\nann,Ann Lee,2999-01-01T01:30:00+01:00\ngone,Nobody,\n",
    )
    .unwrap();
    let class = [
        "class",
        "class",
        "--kit",
        "kit",
        "--command",
        "sh {dir}/run",
        "--roster",
        "roster.csv",
        "--csv",
        "gradebook.csv",
        // Nobody submitted nothing, and bob is not on the roster.
        "--allow-missing",
    ];
    let said = run(work, &class);
    assert!(
        said.contains("| on the roster, no submission | Nobody |  | missing:"),
        "{said}"
    );
    assert!(said.contains("names who submitted 1 folder"), "{said}");
    assert!(
        said.contains("1 folder has no submission time (late: \"no submission time\", no penalty)"),
        "{said}"
    );
    assert!(!said.contains("WARNING"), "{said}");
    let table = rows(&work.join("gradebook.csv"));
    assert_eq!(cells(&table, "student"), ["ann", "bob", ""]);
    assert_eq!(cells(&table, "name"), ["Ann Lee", "", "Nobody"]);
    assert_eq!(
        cells(&table, "submitted"),
        ["2999-01-01T01:30:00+01:00 (roster)", "", "missing"]
    );
    assert_eq!(
        cells(&table, "late"),
        ["1 h 30 min", "no submission time", ""]
    );
    let possible: f64 = Rubric::load(&work.join("kit/rubric.toml"))
        .unwrap()
        .points();
    assert_eq!(
        cells(&table, "late penalty")[..2],
        [format!("{}", possible * 0.1), String::new()]
    );

    // Asked, the files' times count where nothing else says when, and it is said loudly.
    let said = run(
        work,
        &[&class[..], &["--late-from-files", "--restart"]].concat(),
    );
    assert!(
        said.contains("WARNING: the lateness of 1 folder is judged from the newest modification time of its files (--late-from-files)"),
        "{said}"
    );
    let table = rows(&work.join("gradebook.csv"));
    let submitted = &cells(&table, "submitted")[1];
    assert!(
        submitted.ends_with("+01:00 (file times, not a submission time)"),
        "{submitted}: in the due date's offset, and said"
    );
    assert_eq!(cells(&table, "late")[1], "on time");
}

/// `grade` with `args` in `work`: its exit status and standard error.
fn tried(work: &Path, args: &[&str]) -> (Option<i32>, String) {
    let output = grade().current_dir(work).args(args).output().unwrap();
    let err = String::from_utf8_lossy(&output.stderr).into_owned();
    (output.status.code(), err)
}

/// Canvas's gradebook export as downloaded (Grades, Export), as its importer reads it: a
/// byte-order mark, `Student` (last, first), `ID`, `SIS User ID`, `SIS Login ID`, `Section` and
/// the assignments, a `Points Possible` row, the course's test student
/// (https://community.canvaslms.com/t5/Instructor-Guide/How-do-I-export-grades-in-the-Gradebook/ta-p/809,
/// https://teaching.resources.osu.edu/toolsets/carmencanvas/guides/calculating-final-grades/import-csv-file-carmen-grades).
/// Two students share a name; the second submitted nothing.
const CANVAS_ROSTER: &str = "\u{feff}Student,ID,SIS User ID,SIS Login ID,Section,Lab 1 (77)\n\
    \"    Points Possible\",,,,,10.00\n\
    \"Lee, Ann\",11,000123,alee,CS 101-01,\n\
    \"Lee, Ann\",12,000124,alee2,CS 101-02,\n\
    \"Student, Test\",13,,,CS 101-01,\n";

/// The rows of `file` below its header (and `skip` rows more), each with its cells in
/// `columns` lowered, as a platform compares them.
fn identifiers(file: &Path, columns: &[usize], skip: usize) -> Vec<Vec<String>> {
    rows(file)[1 + skip..]
        .iter()
        .map(|row| columns.iter().map(|&c| row[c].to_lowercase()).collect())
        .collect()
}

#[test]
fn a_canvas_roster_as_downloaded_puts_everyone_in_every_export_and_no_grade_on_the_wrong_one() {
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path();
    small_kit(&work.join("kit"), &QUICK_CASES);
    let rubric_path = work.join("kit/rubric.toml");
    let rubric = fs::read_to_string(&rubric_path).unwrap();
    fs::write(&rubric_path, format!("missing = \"zero\"\n{rubric}")).unwrap();
    gradescope_download(
        &work.join("export"),
        &[
            Downloaded {
                id: "submission_201",
                fixture: "connect_four",
                submitter: ["Ann Lee", "000123", "ann@x.edu"],
                created_at: "2026-11-20 10:00:00.0 -08:00",
            },
            Downloaded {
                id: "submission_202",
                fixture: "connect_four",
                submitter: ["Zed", "", ""],
                created_at: "2026-11-20 10:00:00.0 -08:00",
            },
        ],
    );
    fs::write(work.join("canvas-roster.csv"), CANVAS_ROSTER).unwrap();
    let said = run(
        work,
        &[
            "class",
            "export",
            "--kit",
            "kit",
            "--command",
            "sh {dir}/run",
            "--roster",
            "canvas-roster.csv",
            "--csv",
            "gradebook.csv",
            // The second Ann submitted nothing, and Zed is on no roster.
            "--allow-missing",
        ],
    );
    let missing: Vec<&str> = (said.lines())
        .filter(|line| line.starts_with("| on the roster, no submission |"))
        .collect();
    assert!(
        missing.len() == 1 && missing[0].contains("000124"),
        "{said}"
    );
    let table = rows(&work.join("gradebook.csv"));
    assert_eq!(
        cells(&table, "student"),
        ["submission_201", "submission_202", ""]
    );
    assert_eq!(cells(&table, "student id"), ["000123", "", "000124"]);
    assert_eq!(cells(&table, "submitted")[2], "missing");
    assert_eq!(cells(&table, "final total")[2], "0");

    let export = [
        "export",
        "gradebook.csv",
        "--kit",
        "kit",
        "--roster",
        "canvas-roster.csv",
        "--canvas",
        "canvas.csv",
        "--moodle",
        "moodle.csv",
        "--moodle-by",
        "idnumber",
        "--gradescope",
        "gradescope.csv",
    ];
    let (status, said) = tried(work, &export);
    assert_eq!(status, Some(1), "{said}");
    assert!(
        said.contains("left out of canvas.csv: Zed has no identifier Canvas maps students by"),
        "{said}"
    );
    assert!(
        said.contains("1 student left out of the files written"),
        "{said}"
    );
    // Every file: each row with an identifier, none repeated; the missing student there.
    for (file, columns, skip) in [
        ("canvas.csv", &[2, 3][..], 1),
        ("moodle.csv", &[1][..], 0),
        ("gradescope.csv", &[1, 2][..], 0),
    ] {
        let ids = identifiers(&work.join(file), columns, skip);
        assert_eq!(ids.len(), 2, "{file}: {ids:?}");
        for row in &ids {
            assert!(row.iter().any(|id| !id.is_empty()), "{file}: {ids:?}");
        }
        assert_ne!(ids[0], ids[1], "{file}");
        assert!(
            ids.iter().any(|row| row.contains(&"000124".to_string())),
            "{file}"
        );
    }
    let canvas = rows(&work.join("canvas.csv"));
    assert_eq!(canvas[2][2..4], ["000123", "alee"]);
    assert_eq!(canvas[3][2..], ["000124", "alee2", "", "0"]);
    let moodle = rows(&work.join("moodle.csv"));
    assert_eq!(moodle[1][..3], ["ann@x.edu", "000123", "-"]);
    assert_eq!(moodle[2][1..3], ["000124", "0"]);
    let (status, said) = tried(work, &[&export[..], &["--allow-missing"]].concat());
    assert_eq!(status, Some(0), "{said}");
}

/// A Moodle assignment's grading worksheet as "Download grading worksheet" ships it (its
/// Feedback types with "Offline grading worksheet", https://docs.moodle.org/en/Assignment_settings):
/// `Identifier` as `Participant ` and the participant id (mod/assign/lang/en/assign.php's
/// `recordid` and `hiddenuser`, read back so by mod/assign/feedback/offline/importgradeslib.php),
/// the identity fields the site shows (ID number, Email address), then Status, Grade and the
/// rest, quoted as Moodle's CSV writer quotes them. Ann has no ID number there, Bob's email is
/// in capitals, a teacher's test account has a row, and Cy, who joined late, has none.
const MOODLE_WORKSHEET: &str = "Identifier,\"Full name\",\"ID number\",\"Email address\",Status,\
    Grade,\"Maximum Grade\",\"Grade can be changed\",\"Last modified (submission)\",\
    \"Online text\",\"Last modified (grade)\",\"Feedback comments\"\n\
    \"Participant 1843201\",\"Ann Lee\",,ann@x.edu,\"Submitted for grading\",,100.00,Yes,\
    \"Friday, 20 November 2026, 11:30 PM\",,-,\n\
    \"Participant 1843202\",\"Bob Ray\",1002,BOB@X.EDU,\"Submitted for grading\",,100.00,Yes,\
    \"Saturday, 21 November 2026, 3:00 AM\",,-,\n\
    \"Participant 1843209\",\"Test Student\",,test@x.edu,\"No submission\",,100.00,Yes,-,,-,\n";

/// What Moodle's "Upload multiple feedback files in a zip" makes of an entry's name
/// (mod/assign/feedback/file/importziplib.php, is_valid_filename_for_import): PHP's
/// `explode('_', $name, 5)`, the participant id second, the feedback files' plugin
/// (`assignfeedback`, `file`) third and fourth, the file's name last; a name starting with `.`
/// or `~` is skipped.
fn as_moodle_reads(entry: &str) -> Option<(u64, String)> {
    if entry.starts_with(['.', '~']) {
        return None;
    }
    let info: Vec<&str> = entry.splitn(5, '_').collect();
    match info[..] {
        [_, id, "assignfeedback", "file", file] => Some((id.parse().ok()?, file.into())),
        _ => None,
    }
}

#[test]
fn a_moodle_worksheet_as_downloaded_names_each_student_s_feedback_for_its_zip_upload() {
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path();
    small_kit(&work.join("kit"), &QUICK_CASES);
    let class: [(&str, [&str; 3]); 3] = [
        ("submission_101", ["Ann Lee", "1001", "ann@x.edu"]),
        ("submission_102", ["Bob Ray", "1002", "bob@x.edu"]),
        ("submission_103", ["Cy Yu", "1003", "cy@x.edu"]),
    ];
    let exported: Vec<Downloaded> = class
        .iter()
        .map(|(id, submitter)| Downloaded {
            id,
            fixture: "connect_four",
            submitter: *submitter,
            created_at: "2026-11-20 10:00:00.0 -08:00",
        })
        .collect();
    gradescope_download(&work.join("export"), &exported);
    fs::write(work.join("worksheet.csv"), MOODLE_WORKSHEET).unwrap();
    run(
        work,
        &[
            "class",
            "export",
            "--kit",
            "kit",
            "--command",
            "sh {dir}/run",
            "--csv",
            "gradebook.csv",
            "--report",
            "reports",
        ],
    );
    let feedback = [
        "feedback",
        "reports",
        "--all",
        "--kit",
        "kit",
        "--moodle-worksheet",
        "worksheet.csv",
    ];
    // Cy is on no row: named, left out, and the command fails.
    let (status, said) = tried(work, &feedback);
    assert_eq!(status, Some(1), "{said}");
    assert!(
        said.contains("left out of moodle-feedback.zip: Cy Yu: no single row of the worksheet"),
        "{said}"
    );
    assert!(
        said.contains("1 student left out of moodle-feedback.zip"),
        "{said}"
    );
    assert!(said.contains("--allow-missing"), "{said}");
    let (status, said) = tried(work, &[&feedback[..], &["--allow-missing"]].concat());
    assert_eq!(status, Some(0), "{said}");
    assert!(said.contains("the pages of 2 students in"), "{said}");

    // Each page under the name Moodle matches to its participant, found by email (Ann) or ID
    // number (Bob), and the page is the student's own.
    let zip = fs::File::open(work.join("reports/feedback/moodle-feedback.zip")).unwrap();
    let mut archive = zip::ZipArchive::new(zip).unwrap();
    let names: Vec<String> = archive.file_names().map(String::from).collect();
    let mut read: Vec<(u64, String, String)> = names
        .iter()
        .map(|name| {
            let (id, file) = as_moodle_reads(name).unwrap_or_else(|| panic!("{name}"));
            (id, file, name.clone())
        })
        .collect();
    read.sort();
    let ids: Vec<(u64, &str)> = read.iter().map(|(id, f, _)| (*id, f.as_str())).collect();
    assert_eq!(
        ids,
        [(1843201, "feedback.html"), (1843202, "feedback.html")]
    );
    for ((_, _, name), folder) in read.iter().zip(["submission_101", "submission_102"]) {
        let mut page = String::new();
        std::io::Read::read_to_string(&mut archive.by_name(name).unwrap(), &mut page).unwrap();
        let own = fs::read_to_string(work.join(format!("reports/feedback/{folder}.html"))).unwrap();
        assert_eq!(page, own, "{name}");
        // A Python student's checklist in the words of Python: nothing of cargo.
        assert!(
            page.contains("Runs without warnings or tracebacks"),
            "{page}"
        );
        assert!(!page.contains("cargo"), "{page}");
    }

    // A worksheet whose Identifier lost its number: its line and the fix, and nothing written.
    fs::write(
        work.join("worksheet.csv"),
        MOODLE_WORKSHEET.replace("Participant 1843202", "Participant"),
    )
    .unwrap();
    let (status, said) = tried(work, &feedback);
    assert_eq!(status, Some(1), "{said}");
    assert!(
        said.contains("worksheet.csv:3: the Identifier \"Participant\" is not Moodle's"),
        "{said}"
    );
    assert!(said.contains("Download grading worksheet"), "{said}");
}
