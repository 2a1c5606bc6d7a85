//! Gradescope's "Export Submissions" graded as downloaded: `grade class` given the `.zip`
//! itself, the folder it was unzipped into, or a lone folder above that, grades every submission
//! of the export, with the names, ids and times of its metadata in the gradebook (a group of
//! two, names that are not ASCII, ids with leading zeros, a late student); the three
//! gradebooks agree. An export whose metadata lists a submission with no folder, and has a
//! folder it does not list, names both on standard error and in the class summary and grades
//! the rest; what in the `.zip` would lead out of its folder or be a link is left out and said.
//! Two exports where one is looked for stop the run, naming both.
//!
//! The export is made as Gradescope makes it: a `.zip` whose root folder
//! `assignment_<id>_export/` holds `submission_metadata.yml` beside one `submission_<id>/`
//! folder per submission (Gradescope's guide, "Exporting Submission Data",
//! <https://guides.gradescope.com/hc/en-us/articles/22066784117901-Grading-Online-Assignments>;
//! the tools that read real exports open `assignment_<id>_export/submission_metadata.yml`).
//! The metadata is written as Gradescope's (Ruby's) YAML writes it: symbol keys (`:name:`),
//! ids quoted as strings, times with their offset, text not ASCII as it is.

use std::fs;
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

use crate::support::{column, grade, python_submission, rows, small_kit, with_late, QUICK_CASES};

/// The export's root folder.
const EXPORT: &str = "assignment_7654321_export";

/// The rubric's late policy: 10% a day started late, at most 30%.
const LATE: &str = "due = \"2026-11-20T23:59:00-08:00\"\npenalty = 10\nper = \"day\"\ncap = 30\n";

/// The metadata of the export: a group of two on time, a student a day and 3 hours late, and
/// one on time.
const METADATA: &str = "\
submission_250001:
  :submitters:
  - :name: Zoë Ångström
    :sid: '00123'
    :email: zoe@example.edu
  - :name: José Núñez
    :sid: '00456'
    :email: jose@example.edu
  :created_at: 2026-11-20 22:59:59.123456000 -08:00
  :score: 0.0
  :status: processed
  :history: []
submission_250002:
  :submitters:
  - :name: 李小龙
    :sid: '0042'
    :email: xiaolong@example.edu
  :created_at: 2026-11-22 03:00:59.500000000 -08:00
  :score: 0.0
  :status: processed
  :history: []
submission_250003:
  :submitters:
  - :name: Ann Lee
    :sid: '1003'
    :email: ann@example.edu
  :created_at: 2026-11-20 12:00:00.000000000 -08:00
  :score: 0.0
  :status: processed
  :history: []
";

/// Makes `dir` the export's root folder: `metadata` and a Python submission per folder named.
fn export(dir: &Path, metadata: &str, folders: &[&str]) {
    for folder in folders {
        python_submission(&dir.join(folder), "connect_four");
    }
    fs::write(dir.join("submission_metadata.yml"), metadata).unwrap();
}

/// Adds the folder `from` to `zip` as `name/` and everything in it below that, deflated, with
/// its files' modes, as Gradescope's archive has them.
fn add(zip: &mut ZipWriter<fs::File>, from: &Path, name: &str) {
    let options = SimpleFileOptions::default().compression_method(CompressionMethod::Deflated);
    zip.add_directory(format!("{name}/"), options).unwrap();
    let mut entries: Vec<_> = fs::read_dir(from).unwrap().map(|e| e.unwrap()).collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let inner = format!("{name}/{}", entry.file_name().to_str().unwrap());
        if entry.file_type().unwrap().is_dir() {
            add(zip, &entry.path(), &inner);
        } else {
            let mode = entry.metadata().unwrap().permissions().mode();
            zip.start_file(inner, options.unix_permissions(mode))
                .unwrap();
            zip.write_all(&fs::read(entry.path()).unwrap()).unwrap();
        }
    }
}

/// `grade class GIVEN` in `work` on the quick kit, the gradebook to `OUT/gradebook.csv` (and
/// the class summary beside it): its exit status and standard error.
fn class(work: &Path, given: &str, out: &str) -> (Option<i32>, String) {
    fs::create_dir_all(work.join(out)).unwrap();
    let csv = format!("{out}/gradebook.csv");
    let output = grade()
        .current_dir(work)
        .args(["class", given, "--kit", "kit", "--command", "sh {dir}/run"])
        .args(["--jobs", "2", "--skip-timing", "--csv", &csv])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&output.stderr).into_owned();
    (output.status.code(), err)
}

/// The cells of the columns `names` of the gradebook `csv`, row by row below its header.
fn columns(csv: &Path, names: &[&str]) -> Vec<Vec<String>> {
    let table = rows(csv);
    let at: Vec<usize> = names.iter().map(|name| column(&table[0], name)).collect();
    (table[1..].iter())
        .map(|row| at.iter().map(|&i| row[i].clone()).collect())
        .collect()
}

/// The work folder of a test: the quick kit with the late policy.
fn work() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    small_kit(&dir.path().join("kit"), &QUICK_CASES);
    with_late(&dir.path().join("kit"), LATE);
    dir
}

#[test]
fn an_export_is_graded_from_its_zip_or_its_folder_at_two_levels_alike() {
    let dir = work();
    let work = dir.path();
    let folders = [
        "submission_250001",
        "submission_250002",
        "submission_250003",
    ];
    let unzipped = work.join("downloads/unzipped");
    export(&unzipped.join(EXPORT), METADATA, &folders);
    let mut zip = ZipWriter::new(fs::File::create(work.join("submissions.zip")).unwrap());
    add(&mut zip, &unzipped.join(EXPORT), EXPORT);
    zip.finish().unwrap();

    let mut gradebooks = Vec::new();
    for (given, out, said) in [
        (
            "submissions.zip",
            "from-zip",
            "submissions.zip holds a Gradescope export, submissions.zip/assignment_7654321_export:",
        ),
        (
            "downloads/unzipped",
            "from-folder",
            "downloads/unzipped holds a Gradescope export, \
             downloads/unzipped/assignment_7654321_export:",
        ),
        (
            "downloads",
            "from-above",
            "downloads holds a Gradescope export, \
             downloads/unzipped/assignment_7654321_export:",
        ),
    ] {
        let (status, err) = class(work, given, out);
        assert_eq!(status, Some(0), "{given}: {err}");
        assert!(err.contains(said), "{given}: {err}");
        let joined = columns(
            &work.join(out).join("gradebook.csv"),
            &[
                "student",
                "student id",
                "name",
                "email",
                "submitted",
                "late",
                "automatic total",
            ],
        );
        // A row per submission: the group's two students on lines of its cells.
        let by_column =
            |at: usize| -> Vec<&str> { joined.iter().map(|r| r[at].as_str()).collect() };
        assert_eq!(by_column(0), folders, "{given}");
        assert_eq!(by_column(1), ["00123\n00456", "0042", "1003"]);
        assert_eq!(
            by_column(2),
            ["Zoë Ångström\nJosé Núñez", "李小龙", "Ann Lee"]
        );
        assert_eq!(by_column(5), ["on time", "1 day 3 h", "on time"]);
        assert!(
            by_column(4).iter().all(|at| at.ends_with("(Gradescope)")),
            "{joined:?}"
        );
        // Each submission graded: the honest student passes both cases.
        let points: Vec<f64> = joined.iter().map(|r| r[6].parse().unwrap()).collect();
        assert!(
            points.iter().all(|p| *p > 0.0 && *p == points[0]),
            "{joined:?}"
        );
        gradebooks.push(joined);
    }
    assert_eq!(gradebooks[0], gradebooks[1]);
    assert_eq!(gradebooks[0], gradebooks[2]);
}

#[test]
fn what_the_metadata_and_the_folders_do_not_share_is_named_and_the_rest_graded() {
    let dir = work();
    let work = dir.path();
    let metadata = format!(
        "{}submission_250004:\n  :submitters:\n  - :name: Dee Díaz\n    :sid: '0044'\n    \
         :email: dee@example.edu\n  :created_at: 2026-11-20 12:00:00.000000000 -08:00\n",
        METADATA.split("submission_250002:").next().unwrap()
    );
    let unzipped = work.join("unzipped");
    export(
        &unzipped,
        &metadata,
        &["submission_250001", "submission_250005"],
    );
    let mut zip = ZipWriter::new(fs::File::create(work.join("submissions.zip")).unwrap());
    add(&mut zip, &unzipped, EXPORT);
    let options = SimpleFileOptions::default();
    let link = format!("{EXPORT}/submission_250001/passwd");
    zip.add_symlink(link, "/etc/passwd", options).unwrap();
    zip.start_file("../outside.txt", options).unwrap();
    zip.write_all(b"written outside").unwrap();
    zip.finish().unwrap();

    // Dee's submission, listed without its folder, is open in the reconciliation: the run
    // fails once everyone else is graded.
    let (status, err) = class(work, "submissions.zip", "out");
    assert_eq!(status, Some(1), "{err}");
    for said in [
        "| submission not in the export | Dee Díaz 0044 dee@example.edu | submission_250004 | \
         Gradescope lists this submission but the export has no folder for it: download the \
         export again; not graded, no grade goes out | open |",
        "1 finding open in the reconciliation",
        "submission_250001/passwd: left out: a symbolic link, never made",
        "../outside.txt: left out: its path leads out of the folder",
        "Gradescope's metadata lists 1 submission with no folder in the export, not graded \
         (download the export again if one should be there): submission_250004 (Dee Díaz 0044 \
         dee@example.edu)",
        "1 folder of the export is not in Gradescope's metadata, graded without its names and \
         times: submission_250005",
    ] {
        assert!(err.contains(said), "{said:?} not said: {err}");
    }
    assert!(!work.join("outside.txt").exists());
    let summary = fs::read_to_string(work.join("out/class-summary.md")).unwrap();
    assert!(summary.contains("## The Gradescope export"), "{summary}");
    assert!(
        summary.contains("submission_250004 (Dee Díaz 0044"),
        "{summary}"
    );
    assert!(summary.contains("times: submission_250005"), "{summary}");
    let joined = columns(
        &work.join("out/gradebook.csv"),
        &["student", "name", "late"],
    );
    assert_eq!(
        joined,
        [
            ["submission_250001", "Zoë Ångström\nJosé Núñez", "on time"],
            // An extracted file's time is not its student's: no time, rather than a wrong one.
            ["submission_250005", "", "no submission time"],
        ]
    );
    // The extraction is gone with the run.
    let extracted = err
        .lines()
        .find_map(|line| line.split("extracted into ").nth(1))
        .and_then(|rest| rest.split(" for this run").next())
        .unwrap_or_else(|| panic!("no extraction said: {err}"));
    assert!(!Path::new(extracted).exists(), "{extracted}");
}

#[test]
fn two_exports_where_one_is_looked_for_stop_the_run_naming_both() {
    let dir = work();
    let work = dir.path();
    export(
        &work.join("both").join(EXPORT),
        METADATA,
        &["submission_250001"],
    );
    export(
        &work.join("both/assignment_1_export"),
        METADATA,
        &["submission_250001"],
    );
    let (status, err) = class(work, "both", "out");
    assert_eq!(status, Some(1), "{err}");
    assert!(
        err.contains(
            "grade: both: 2 Gradescope exports in it: both/assignment_1_export and \
             both/assignment_7654321_export; give grade the one to grade"
        ),
        "{err}"
    );
    assert!(!work.join("out/gradebook.csv").exists());
}
