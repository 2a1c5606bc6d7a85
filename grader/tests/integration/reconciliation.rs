//! The reconciliation before any grade goes out, from the vendors' documented formats: a
//! student Gradescope lists in two submissions (said at grading, kept in one by the rubric's
//! rule: one row, one feedback copy, the Moodle zip written), a Canvas roster whose SIS User IDs
//! lost their leading zeros (matched, the roster's spelling out, never a 0 row for a graded
//! student), a submission the metadata lists without its folder, and an export unzipped three
//! levels up (refused, never graded as a student): each with the table's words; and the class
//! `scripts/course-export` makes for the kit guide's dry run, read by the kit as it would read
//! the real downloads. The fixture students are the quick Python ones on the kit's two quickest
//! cases.

use std::fs;
use std::path::Path;
use std::process::Command;

use crate::support::{
    column, grade, gradescope_download, repository, rows, small_kit, Downloaded, QUICK_CASES,
};

/// `grade` with `args` in `work`: its exit status and standard error.
fn tried(work: &Path, args: &[&str]) -> (Option<i32>, String) {
    let output = grade().current_dir(work).args(args).output().unwrap();
    let err = String::from_utf8_lossy(&output.stderr).into_owned();
    (output.status.code(), err)
}

/// A submission of the export by `submitter` (name, SID, email) at `created_at`.
fn by<'a>(id: &'a str, submitter: [&'a str; 3], created_at: &'a str) -> Downloaded<'a> {
    Downloaded {
        id,
        fixture: "connect_four",
        submitter,
        created_at,
    }
}

/// `text` put first in the rubric of the kit in `kit` (its top-level keys).
fn rubric_first(kit: &Path, text: &str) {
    let path = kit.join("rubric.toml");
    let rubric = fs::read_to_string(&path).unwrap();
    fs::write(&path, format!("{text}\n{rubric}")).unwrap();
}

/// `grade class` of the export in `export`, the gradebook beside it.
const CLASS: [&str; 8] = [
    "class",
    "export",
    "--kit",
    "kit",
    "--command",
    "sh {dir}/run",
    "--csv",
    "gradebook.csv",
];

/// Gradescope's metadata lists each submission's submitters, several for a group
/// (https://gradescope-autograders.readthedocs.io/en/latest/submission_metadata/, `users`):
/// Dara is in two. A Moodle grading worksheet names each participant
/// (https://docs.moodle.org/en/Assignment_settings, "Offline grading worksheet"), and Moodle's
/// "Upload multiple feedback files in a zip" refuses a zip with one name twice.
#[test]
fn a_student_in_two_submissions_has_one_row_one_copy_and_the_moodle_zip_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path();
    small_kit(&work.join("kit"), &QUICK_CASES);
    let dara = ["Dara Okafor", "1843204", "dara@x.edu"];
    gradescope_download(
        &work.join("export"),
        &[
            by(
                "submission_1",
                ["Ann Lee", "1001", "ann@x.edu"],
                "2026-11-20 10:00:00.0 -08:00",
            ),
            by("submission_2", dara, "2026-11-20 10:00:00.0 -08:00"),
            by("submission_3", dara, "2026-11-20 11:00:00.0 -08:00"),
        ],
    );
    let class = [&CLASS[..], &["--report", "reports"]].concat();
    // Said at grading; refused by default: no grade for her, and the run fails.
    let (status, said) = tried(work, &class);
    assert_eq!(status, Some(1), "{said}");
    for words in [
        "| in 2 submissions | Dara Okafor 1843204 dara@x.edu | submission_2, submission_3 | no \
         grade: set duplicates = \"latest\" or \"highest\" in rubric.toml",
        "1 finding open in the reconciliation",
    ] {
        assert!(said.contains(words), "{words:?} not in {said}");
    }
    let summary = fs::read_to_string(work.join("reports/class-summary.md")).unwrap();
    assert!(summary.contains("## Reconciliation"), "{summary}");

    // The course's rule: the latest. Every file has her once, from submission_3.
    rubric_first(&work.join("kit"), "duplicates = \"latest\"");
    fs::write(
        work.join("worksheet.csv"),
        "Identifier,\"Full name\",\"ID number\",\"Email address\",Status,Grade\n\
         \"Participant 501\",\"Ann Lee\",1001,ann@x.edu,Submitted,\n\
         \"Participant 504\",\"Dara Okafor\",1843204,dara@x.edu,Submitted,\n",
    )
    .unwrap();
    let feedback = [
        "feedback",
        "reports",
        "--all",
        "--kit",
        "kit",
        "--moodle-worksheet",
        "worksheet.csv",
    ];
    let (status, said) = tried(work, &feedback);
    assert_eq!(status, Some(0), "{said}");
    let zip = fs::File::open(work.join("reports/feedback/moodle-feedback.zip")).unwrap();
    let mut names: Vec<String> = zip::ZipArchive::new(zip)
        .unwrap()
        .file_names()
        .map(String::from)
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "Ann Lee_501_assignfeedback_file_feedback.html",
            "Dara Okafor_504_assignfeedback_file_feedback.html"
        ]
    );
    let index = rows(&work.join("reports/feedback/students/index.csv"));
    let dara_rows: Vec<&Vec<String>> = index.iter().filter(|r| r[4] == "1843204").collect();
    assert_eq!(dara_rows.len(), 1, "{index:?}");
    assert_eq!(dara_rows[0][1], "submission_3");

    let export = [
        "export",
        "reports",
        "--kit",
        "kit",
        "--canvas",
        "canvas.csv",
        "--moodle",
        "moodle.csv",
    ];
    let (status, said) = tried(work, &export);
    assert_eq!(status, Some(0), "{said}");
    assert!(
        said.contains("graded from submission_3 alone (duplicates = \"latest\") | settled"),
        "{said}"
    );
    let canvas = rows(&work.join("canvas.csv"));
    assert_eq!(
        canvas.iter().filter(|r| r[2] == "1843204").count(),
        1,
        "{canvas:?}"
    );
}

/// A Canvas gradebook export (https://community.canvaslms.com/t5/Instructor-Guide/How-do-I-export-grades-in-the-Gradebook/ta-p/809)
/// whose `SIS User ID`s went through a spreadsheet and lost their leading zeros, against
/// Gradescope's metadata, which keeps them (`:sid:`); the metadata lists Cy's submission, whose
/// folder the export lacks.
#[test]
fn a_canvas_roster_without_leading_zeros_and_a_submission_without_its_folder_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path();
    small_kit(&work.join("kit"), &QUICK_CASES);
    rubric_first(&work.join("kit"), "missing = \"zero\"");
    let at = "2026-11-20 10:00:00.0 -08:00";
    gradescope_download(
        &work.join("export"),
        &[
            by(
                "submission_11",
                ["Dara Okafor", "00012345", "Dara@X.edu"],
                at,
            ),
            by("submission_12", ["Ann Lee", "1001", "ann@x.edu"], at),
            by("submission_13", ["Cy Yu", "1003", "cy@x.edu"], at),
        ],
    );
    fs::remove_dir_all(work.join("export/submission_13")).unwrap();
    fs::write(
        work.join("canvas.csv"),
        "Student,ID,SIS User ID,SIS Login ID,Section,Lab 1 (77)\n\
         \"    Points Possible\",,,,,10.00\n\
         \"Okafor, Dara\",41,12345,dokafor,S1,\n\
         \"Lee, Ann\",42,1001,alee,S1,\n\
         \"Yu, Cy\",43,1003,cyu,S1,\n",
    )
    .unwrap();
    let class = [&CLASS[..], &["--roster", "canvas.csv"]].concat();
    let (status, said) = tried(work, &class);
    assert_eq!(status, Some(1), "{said}");
    for words in [
        "| submission not in the export | Yu, Cy 1003 cyu | submission_13 | \
         Gradescope lists this submission but the export has no folder for it: download the \
         export again",
        "| matched after normalising | roster: 12345; submission: 00012345 | submission_11 | the \
         roster's 12345 goes out | settled |",
        "1 finding open in the reconciliation",
    ] {
        assert!(said.contains(words), "{words:?} not in {said}");
    }
    // The gradebook is written all the same: Dara's row under the roster's 12345.
    let table = rows(&work.join("gradebook.csv"));
    let at = column(&table[0], "student id");
    let ids: Vec<&str> = table.iter().map(|r| r[at].as_str()).collect();
    assert_eq!(ids[1..], ["12345", "1001", "1003"], "{table:?}");

    let export = [
        "export",
        "gradebook.csv",
        "--kit",
        "kit",
        "--roster",
        "canvas.csv",
        "--canvas",
        "out.csv",
    ];
    let (status, said) = tried(work, &export);
    assert_eq!(status, Some(1), "{said}");
    assert!(said.contains("download the export again"), "{said}");
    let (status, said) = tried(work, &[&export[..], &["--allow-missing"]].concat());
    assert_eq!(status, Some(0), "{said}");
    let out = rows(&work.join("out.csv"));
    // Dara once, under Canvas's own 12345, never as a 0 of a student who submitted nothing.
    let dara: Vec<&Vec<String>> = out.iter().filter(|r| r[2] == "12345").collect();
    assert_eq!(dara.len(), 1, "{out:?}");
    assert_ne!(dara[0][5], "0", "{out:?}");
    assert!(!out.iter().any(|r| r[2] == "00012345"), "{out:?}");
    let cy: Vec<&Vec<String>> = out.iter().filter(|r| r[2] == "1003").collect();
    assert_eq!(cy.len(), 1, "{out:?}");
}

/// Gradescope's "Export Submissions" zip unzipped into folders, the folder given four levels
/// above its `assignment_<id>_export` folder (three lone folders between, one more than looked
/// through): refused, naming it, never graded as one student.
#[test]
fn an_export_unzipped_three_levels_up_is_refused_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path();
    small_kit(&work.join("kit"), &QUICK_CASES);
    let export = work.join("export/a/b/c/assignment_7_export");
    gradescope_download(
        &export,
        &[by(
            "submission_1",
            ["Ann Lee", "1001", "ann@x.edu"],
            "2026-11-20 10:00:00.0 -08:00",
        )],
    );
    let (status, said) = tried(work, &CLASS);
    assert_eq!(status, Some(1), "{said}");
    assert!(
        said.contains("export/a: not a submission: it holds nothing but a Gradescope export"),
        "{said}"
    );
    assert!(said.contains("assignment_7_export"), "{said}");
    assert!(!work.join("gradebook.csv").exists());
}

/// The course `scripts/course-export` makes for the kit guide's dry run, as Gradescope's
/// "Export Submissions" (https://guides.gradescope.com/hc/en-us/articles/22066784117901-Grading-Online-Assignments)
/// and roster download (https://guides.gradescope.com/hc/en-us/articles/21926598776333-Adding-Students-and-Staff)
/// are laid out: the kit reads both, and its reconciliation finds the student the generator put
/// in two submissions, the submission whose folder it left out and the student who submitted
/// nothing. Python submissions only, so that nothing is built.
#[test]
fn the_course_export_generator_makes_a_class_the_kit_reconciles() {
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path();
    small_kit(&work.join("kit"), &QUICK_CASES);
    let made = Command::new(repository().join("scripts/course-export"))
        .arg(work.join("course"))
        .args(["--students", "8", "--seed", "1", "--languages", "python"])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&made.stdout).into_owned();
    let err = String::from_utf8_lossy(&made.stderr);
    assert!(made.status.success(), "{said}{err}");
    // The generator names them: `in two submissions: NAME; listed, folder missing: ID`.
    let (twice, lost) = (said.split_once("in two submissions: "))
        .and_then(|(_, rest)| {
            rest.lines()
                .next()?
                .split_once("; listed, folder missing: ")
        })
        .unwrap_or_else(|| panic!("{said}"));
    let class = [
        "class",
        "course",
        "--kit",
        "kit",
        "--roster",
        "course/roster.csv",
        "--command",
        "sh {dir}/run",
        "--skip-timing",
        "--csv",
        "gradebook.csv",
    ];
    let (status, said) = tried(work, &class);
    assert_eq!(status, Some(1), "{said}");
    let row = |found: &str| {
        let start = format!("| {found} | ");
        (said.lines().find(|line| line.starts_with(&start)))
            .unwrap_or_else(|| panic!("no row {found:?} in {said}"))
    };
    let duplicate = row("in 2 submissions");
    assert!(duplicate.contains(&format!("| {twice} ")), "{duplicate}");
    assert!(
        duplicate.contains("| no grade: set duplicates = \"latest\" or \"highest\" in rubric.toml"),
        "{duplicate}"
    );
    let missing_folder = row("submission not in the export");
    assert!(
        missing_folder.contains(&format!(
            "| {lost} | Gradescope lists this submission but the export has no folder for it: \
             download the export again"
        )),
        "{missing_folder}"
    );
    row("on the roster, no submission");
    assert!(
        said.contains("3 findings open in the reconciliation"),
        "{said}"
    );
}
