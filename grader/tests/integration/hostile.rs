//! Students who want the points without the work, graded as the instructor grades them: each
//! hostile fixture (`tests/fixtures/hostile/`) tries one trick, and the sandbox must refuse it:
//! running the reference in its place, replaying the published answers, a daemon rewriting
//! results.json after grading, reading another student's work, writing into the reports,
//! opening a connection, and the same from a build script; a bad neighbour leaving CPU burners
//! and kernel objects behind beside an honest student. Each is also graded once without the
//! sandbox (`--no-sandbox`) or the held-out cases, to show that the trick works there: these
//! tests can fail.
//!
//! The tests run at once, as two graders may: each student claims a sandbox uid of their own.

use std::fs;
use std::io::Read;
use std::net::TcpListener;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::thread;
use std::time::{Duration, Instant};

use crate::support::{
    build_root, column, copy_dir, grade, grade_copy, hand_to, ordinary_user, reference, rows,
    run_as, running_in, small_kit, students_kit, QUICK_CASES,
};
use connect_four_grader::process::sandbox::BASE_UID;
use tempfile::TempDir;

/// The hostile fixtures.
fn hostile() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hostile")
}

/// The honest Python student the hostile ones build on.
fn honest() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/students/connect_four.py")
}

/// A small kit of a few quick cases, in a folder of its own.
fn quick_kit() -> TempDir {
    let dir = tempfile::tempdir().unwrap();
    small_kit(
        dir.path(),
        &[
            "rules/gravity_4x4",
            "wins/vertical_top_edge_4x4",
            "scores/depth1",
        ],
    );
    dir
}

/// Runs `grade` with `args` in `dir`; its output.
fn run_grade(dir: &Path, args: &[&str]) -> Output {
    let output = grade().args(args).current_dir(dir).output().unwrap();
    assert!(
        output.status.success(),
        "grade {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// Runs `grade student COMMAND --kit KIT EXTRA...` in the submission `dir`; its output.
fn grade_student(dir: &Path, command: &str, kit: &Path, extra: &[&str]) -> Output {
    let kit = kit.to_str().unwrap();
    run_grade(dir, &[&["student", command, "--kit", kit], extra].concat())
}

/// The automatic total a terminal report gives: earned and possible.
fn total(output: &Output) -> (f64, f64) {
    let text = String::from_utf8_lossy(&output.stdout);
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("Automatic total"))
        .unwrap_or_else(|| panic!("no total in {text}"));
    let numbers: Vec<f64> = line
        .split(|c: char| c == '/' || c.is_whitespace())
        .filter_map(|w| w.parse().ok())
        .collect();
    (numbers[0], numbers[1])
}

/// A submission folder `name` in `class` holding the honest student and `files` (name, text).
fn submission(class: &Path, name: &str, files: &[(&str, String)]) -> PathBuf {
    let dir = class.join(name);
    fs::create_dir_all(&dir).unwrap();
    fs::copy(honest(), dir.join("connect_four.py")).unwrap();
    for (file, text) in files {
        fs::write(dir.join(file), text).unwrap();
    }
    dir
}

/// The tricks fixture with its targets, and `try.sh`, which runs every trick once (see [`TRY`]).
fn tricks(class: &Path, name: &str, targets: &[(&str, &Path)]) -> PathBuf {
    let files: Vec<(&str, String)> = [
        (
            "run.py",
            fs::read_to_string(hostile().join("tricks.py")).unwrap(),
        ),
        ("try.sh", "exec python3 run.py --try\n".into()),
    ]
    .into_iter()
    .chain(
        targets
            .iter()
            .map(|(file, path)| (*file, path.display().to_string())),
    )
    .collect();
    submission(class, name, &files)
}

/// The build step of a class or student with a hostile fixture: it runs every trick once, in
/// the sandbox the runs have, and what the fixture managed goes to the build's log, which the
/// reports keep (what it writes in its folder is the job's own, gone with it).
const TRY: &str = "test ! -f try.sh || sh try.sh";

/// What the hostile fixtures say they managed: every build log in `reports`.
fn tried(reports: &Path) -> String {
    let mut logs: Vec<PathBuf> = fs::read_dir(reports)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(".build.log"))
        .collect();
    logs.sort();
    logs.iter()
        .map(|p| fs::read_to_string(p).unwrap())
        .collect()
}

#[test]
fn a_program_cannot_run_the_reference_in_its_place() {
    let kit = quick_kit();
    let student = tempfile::tempdir().unwrap();
    fs::copy(
        hostile().join("exec_reference.sh"),
        student.path().join("run.sh"),
    )
    .unwrap();
    fs::write(
        student.path().join("reference.txt"),
        reference().display().to_string(),
    )
    .unwrap();
    let started = Instant::now();
    // Graded with the build directory that holds the reference and this `grade` as
    // `CARGO_TARGET_DIR`, as a course's shared one may: left out of the student's build.
    let sandboxed = grade()
        .args([
            "student",
            "sh run.sh",
            "--kit",
            kit.path().to_str().unwrap(),
        ])
        .current_dir(student.path())
        .env("CARGO_TARGET_DIR", build_root())
        .output()
        .unwrap();
    assert!(sandboxed.status.success(), "{sandboxed:?}");
    let warned = String::from_utf8_lossy(&sandboxed.stderr);
    assert!(
        warned.contains("is left out of the student's build"),
        "{warned}"
    );
    assert_eq!(
        total(&sandboxed).0,
        0.0,
        "{}",
        String::from_utf8_lossy(&sandboxed.stdout)
    );
    // Not in the student's file tree at all; where the tree cannot be made, Landlock refuses.
    let said = String::from_utf8_lossy(&sandboxed.stdout);
    assert!(
        said.contains("not found") || said.contains("Permission denied"),
        "{said}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "graded in seconds"
    );
    let open = grade_student(student.path(), "sh run.sh", kit.path(), &["--no-sandbox"]);
    let (earned, max) = total(&open);
    assert_eq!(earned, max, "without the sandbox the trick works");
}

#[test]
fn the_published_answers_replayed_lose_the_held_out_points() {
    let kit = quick_kit();
    let student = tempfile::tempdir().unwrap();
    fs::copy(
        hostile().join("memoriser.py"),
        student.path().join("run.py"),
    )
    .unwrap();
    // The student copied the published cases and answers into their submission.
    copy_dir(&kit.path().join("cases"), &student.path().join("cases"));
    let replay = || {
        total(&grade_student(
            student.path(),
            "python3 run.py",
            kit.path(),
            &[],
        ))
    };
    let published = replay();
    assert_eq!(
        published.0, published.1,
        "the published cases alone: full marks"
    );
    // The kit's rubric gives the held-out cases 0.4 of Basic gameplay and AI once there is a
    // secret seed.
    fs::write(kit.path().join("secret.toml"), "seed = 271828\n").unwrap();
    let held = replay();
    assert!(
        held.0 <= held.1 * 0.6 + 1e-9,
        "the held-out share is lost: {held:?}"
    );
    // An honest program keeps every point, held-out cases included.
    let honest_student = tempfile::tempdir().unwrap();
    fs::copy(honest(), honest_student.path().join("run.py")).unwrap();
    let honest_total = total(&grade_student(
        honest_student.path(),
        "python3 run.py",
        kit.path(),
        &[],
    ));
    assert_eq!(honest_total.0, honest_total.1);
}

#[test]
fn a_daemon_cannot_rewrite_the_results_after_grading() {
    let kit = quick_kit();
    let class = tempfile::tempdir().unwrap();
    let results = tempfile::tempdir().unwrap();
    let json = results.path().join("results.json");
    let student = tricks(class.path(), "daemon", &[("forge.txt", &json)]);
    let json_arg = json.to_str().unwrap();
    let reports = tempfile::tempdir().unwrap();
    let report = reports.path().to_str().unwrap();
    grade_student(
        &student,
        "python3 run.py",
        kit.path(),
        &["--gradescope", json_arg, "--build", TRY, "--report", report],
    );
    let written = fs::read_to_string(&json).unwrap();
    thread::sleep(Duration::from_secs(4));
    assert_eq!(
        fs::read_to_string(&json).unwrap(),
        written,
        "nothing rewrote it"
    );
    assert!(!written.contains("\"score\": 75"), "{written}");
    let tried = tried(reports.path());
    assert!(tried.contains("could not write"), "{tried}");
    assert!(
        written.contains("Sandbox"),
        "results.json says what was in force"
    );
}

#[test]
fn a_student_cannot_read_another_s_work_or_write_the_reports() {
    let kit = quick_kit();
    let class = tempfile::tempdir().unwrap();
    let reports = tempfile::tempdir().unwrap();
    let victim = submission(
        class.path(),
        "ann",
        &[
            ("run.py", fs::read_to_string(honest()).unwrap()),
            ("secret.txt", "ann's work".into()),
        ],
    );
    let forged = reports.path().join("ann.md");
    let thief = tricks(
        class.path(),
        "zed",
        &[
            ("steal.txt", &victim.join("secret.txt")),
            ("forge.txt", &forged),
        ],
    );
    let csv = reports.path().join("gradebook.csv");
    run_grade(
        class.path(),
        &[
            "class",
            class.path().to_str().unwrap(),
            "--command",
            "python3 {dir}/run.py",
            "--kit",
            kit.path().to_str().unwrap(),
            "--report",
            reports.path().to_str().unwrap(),
            "--csv",
            csv.to_str().unwrap(),
            "--jobs",
            "2",
            "--build",
            TRY,
        ],
    );
    let tried = tried(reports.path());
    assert!(tried.contains("could not read"), "{tried}");
    assert!(tried.contains("could not write"), "{tried}");
    assert!(!thief.join("stolen.txt").exists(), "{tried}");
    let report = fs::read_to_string(&forged).unwrap();
    assert!(
        report.starts_with("# ") && !report.contains("\"score\": 75"),
        "{report}"
    );
}

#[test]
fn a_program_cannot_open_a_connection() {
    let kit = quick_kit();
    let class = tempfile::tempdir().unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port().to_string();
    let student = submission(
        class.path(),
        "net",
        &[
            (
                "run.py",
                fs::read_to_string(hostile().join("tricks.py")).unwrap(),
            ),
            ("port.txt", port),
            ("try.sh", "exec python3 run.py --try\n".into()),
        ],
    );
    let reports = tempfile::tempdir().unwrap();
    let report = reports.path().to_str().unwrap();
    grade_student(
        &student,
        "python3 run.py",
        kit.path(),
        &["--build", TRY, "--report", report],
    );
    assert!(listener.accept().is_err(), "nothing connected");
    let tried = tried(reports.path());
    assert!(tried.contains("could not connect"), "{tried}");
    let mut accepted = 0;
    grade_student(&student, "python3 run.py", kit.path(), &["--no-sandbox"]);
    while let Ok((mut stream, _)) = listener.accept() {
        let mut line = String::new();
        let _ = stream.read_to_string(&mut line);
        accepted += usize::from(line.contains("stolen"));
    }
    assert!(accepted > 0, "without the sandbox the trick works");
}

#[test]
fn a_build_script_is_sandboxed_too() {
    let kit = quick_kit();
    let class = tempfile::tempdir().unwrap();
    let results = tempfile::tempdir().unwrap();
    let json = results.path().join("results.json");
    let student = class.path().join("builder");
    copy_dir(&hostile().join("build_rs"), &student);
    let answers = kit.path().join("cases/scores/depth1.solution");
    fs::write(student.join("steal.txt"), answers.display().to_string()).unwrap();
    fs::write(student.join("forge.txt"), json.display().to_string()).unwrap();
    let target = student.join("target/debug/build_rs");
    let reports = tempfile::tempdir().unwrap();
    let build = [
        "--build",
        "cargo build --offline",
        "--gradescope",
        json.to_str().unwrap(),
        "--report",
        reports.path().to_str().unwrap(),
    ];
    grade_student(&student, target.to_str().unwrap(), kit.path(), &build);
    let built = tried(reports.path());
    assert!(
        built.contains("could not read") && built.contains("could not write"),
        "{built}"
    );
    assert!(!student.join("stolen.txt").exists());
    thread::sleep(Duration::from_secs(4));
    let written = fs::read_to_string(&json).unwrap();
    assert!(
        !written.contains("pwned") && !written.contains("\"score\": 75"),
        "{written}"
    );
    assert!(written.contains("The build succeeded"), "{written}");
}

#[test]
fn the_students_kit_never_holds_the_secret_seed() {
    let work = tempfile::tempdir().unwrap();
    let kit = work.path().join("course/grading");
    copy_dir(&crate::support::kit(), &kit);
    copy_dir(
        &crate::support::starter_supplied(),
        &work.path().join("course/starter/supplied"),
    );
    let seed = "8675309123";
    fs::write(kit.join("secret.toml"), format!("seed = {seed}\n")).unwrap();
    let out = work.path().join("kit-for-students");
    let students_grade = students_kit().join("grade");
    run_grade(
        work.path(),
        &[
            "pack",
            out.to_str().unwrap(),
            "--kit",
            kit.to_str().unwrap(),
            "--grade",
            students_grade.to_str().unwrap(),
        ],
    );
    for part in [
        "grade",
        "grading/rubric.toml",
        "starter/supplied/Cargo.toml",
    ] {
        assert!(out.join(part).is_file(), "{part} is in the kit");
    }
    let mut files = vec![out.clone()];
    let mut seen = 0;
    while let Some(path) = files.pop() {
        if path.is_dir() {
            files.extend(fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
            continue;
        }
        seen += 1;
        assert_ne!(path.file_name().unwrap(), "secret.toml");
        let bytes = fs::read(&path).unwrap();
        assert!(
            !bytes.windows(seed.len()).any(|w| w == seed.as_bytes()),
            "{} holds the seed",
            path.display()
        );
    }
    assert!(seen > 90, "{seen} files packed");
    assert!(!out.join("grading/gradescope").exists());
}

/// The mangled path of the reference library's items (`connect_four::...`) in a binary's symbols:
/// present wherever the engine is linked in.
const ENGINE_SYMBOL: &[u8] = b"12connect_four";

/// Whether the file at `path` holds `needle`.
fn holds(path: &Path, needle: &[u8]) -> bool {
    let bytes = fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    bytes.windows(needle.len()).any(|w| w == needle)
}

#[test]
fn the_students_grade_carries_no_engine_and_computes_no_answer() {
    let kit = students_kit();
    let students = kit.join("grade");
    assert!(holds(Path::new(env!("CARGO_BIN_EXE_grade")), ENGINE_SYMBOL));
    assert!(!holds(&students, ENGINE_SYMBOL), "the engine is in the kit");
    let run = |args: &[&str]| {
        std::process::Command::new(&students)
            .args(args)
            .current_dir(kit)
            .output()
            .unwrap()
    };
    let help = String::from_utf8_lossy(&run(&["--help"]).stdout).into_owned();
    assert!(help.contains("student") && help.contains("class"), "{help}");
    for course in ["generate", "check", "pack", "match"] {
        let refused = run(&[course, "--help"]);
        assert_eq!(refused.status.code(), Some(2), "{course}");
        assert!(
            String::from_utf8_lossy(&refused.stderr).contains("unrecognized subcommand"),
            "{course}"
        );
    }
    // Given the instructor's secret, it refuses to grade rather than leave out held-out cases.
    let work = tempfile::tempdir().unwrap();
    let secret_kit = work.path().join("grading");
    copy_dir(&kit.join("grading"), &secret_kit);
    fs::write(secret_kit.join("secret.toml"), "seed = 1\n").unwrap();
    let refused = run(&["student", "true", "--kit", secret_kit.to_str().unwrap()]);
    assert_eq!(refused.status.code(), Some(1));
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(
        said.contains("held-out cases need the course's grade"),
        "{said}"
    );
}

#[test]
fn pack_hands_out_only_a_students_grade() {
    let work = tempfile::tempdir().unwrap();
    let kit = work.path().join("grading");
    copy_dir(&crate::support::kit(), &kit);
    let course = env!("CARGO_BIN_EXE_grade");
    let out = work.path().join("out");
    let pack = |extra: &[&str]| {
        grade()
            .args([
                "pack",
                out.to_str().unwrap(),
                "--kit",
                kit.to_str().unwrap(),
            ])
            .args(extra)
            .output()
            .unwrap()
    };
    let refused = pack(&["--grade", course]);
    assert_eq!(refused.status.code(), Some(1));
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(
        said.contains("the course's grade, with the reference engine"),
        "{said}"
    );
    assert!(!out.exists(), "nothing packed");
    // A kit with no course repository around it: nothing to build the students' grade from.
    let refused = pack(&[]);
    assert_eq!(refused.status.code(), Some(1));
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("pass --grade PATH"), "{said}");
}

/// Grades the class in `class` with `--jobs 2` as `user` (see [`run_as`]) with the `grade` at
/// `grade`, its gradebook written in `out`; the gradebook's rows.
fn grade_class(
    user: Option<u32>,
    grade: &Path,
    class: &Path,
    kit: &Path,
    out: &Path,
) -> Vec<Vec<String>> {
    let csv = out.join("gradebook.csv");
    let output = run_as(user, grade)
        .args([
            "class",
            class.to_str().unwrap(),
            "--command",
            "python3 {dir}/run.py",
        ])
        .args([
            "--kit",
            kit.to_str().unwrap(),
            "--csv",
            csv.to_str().unwrap(),
            "--jobs",
            "2",
        ])
        .current_dir(class)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "grade class: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    rows(&csv)
}

/// Whether user `uid`'s keyring holds the bad neighbour's key, searched as that user (only root
/// can become it: never, for anyone else).
fn holds_neighbours_key(uid: u32) -> bool {
    const SEARCH: &str = "import ctypes, platform, sys\n\
        libc = ctypes.CDLL(None, use_errno=True)\n\
        libc.syscall.restype = ctypes.c_long\n\
        keyctl = {'x86_64': 250, 'aarch64': 219}[platform.machine()]\n\
        # keyctl(KEYCTL_SEARCH, KEY_SPEC_USER_KEYRING, \"user\", \"neighbour\", 0)\n\
        sys.exit(0 if libc.syscall(keyctl, 10, -4, b'user', b'neighbour', 0) >= 0 else 1)\n";
    // SAFETY: geteuid cannot fail.
    let root = unsafe { libc::geteuid() } == 0;
    root && std::process::Command::new("python3")
        .args(["-c", SEARCH])
        .uid(uid)
        .gid(uid)
        .status()
        .is_ok_and(|status| status.success())
}

/// What of the machine a job could leave behind: System V objects (`ipcs`), the bad neighbour's
/// file in `/dev/shm` and key in a job user's keyring, and control groups of a grader no longer
/// running (`job-PID-N`).
fn leftovers() -> Vec<String> {
    let mut left = Vec::new();
    for kind in ["-m", "-q", "-s"] {
        let listed = std::process::Command::new("ipcs")
            .arg(kind)
            .output()
            .unwrap();
        left.extend(
            String::from_utf8_lossy(&listed.stdout)
                .lines()
                .filter(|l| l.starts_with("0x"))
                .map(|l| format!("ipcs {kind}: {l}")),
        );
    }
    if Path::new("/dev/shm/neighbour").exists() {
        left.push("/dev/shm/neighbour".into());
    }
    // Each user with keys (`/proc/key-users`: `UID: USAGE ...`) that is a job's.
    let key_users = fs::read_to_string("/proc/key-users").unwrap_or_default();
    let job_users = key_users
        .lines()
        .filter_map(|line| line.split(':').next()?.trim().parse::<u32>().ok())
        .filter(|uid| (BASE_UID..BASE_UID + 100_000).contains(uid));
    for uid in job_users.filter(|&uid| holds_neighbours_key(uid)) {
        left.push(format!("the key 'neighbour' of uid {uid}"));
    }
    let mut dirs = vec![PathBuf::from("/sys/fs/cgroup")];
    while let Some(dir) = dirs.pop() {
        for entry in fs::read_dir(&dir).into_iter().flatten().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let owner = name.strip_prefix("job-").and_then(|r| r.split('-').next());
            match owner.and_then(|pid| pid.parse::<u32>().ok()) {
                Some(pid) if !Path::new(&format!("/proc/{pid}")).exists() => {
                    left.push(entry.path().display().to_string())
                }
                Some(_) => {}
                None if entry.file_type().is_ok_and(|t| t.is_dir()) && dirs.len() < 64 => {
                    dirs.push(entry.path())
                }
                None => {}
            }
        }
    }
    left
}

/// A bad neighbour (CPU burners, a shared mapping, a /dev/shm file, System V objects and files
/// written in its folders, left by every run) graded by `user` beside an honest student, two at
/// once, while a second grader grades the honest student alone: her every column is the same in
/// both, and once both graders have ended nothing of any job is left: no process, no IPC object,
/// no file in /dev/shm or in a submission folder, no control group.
fn a_bad_neighbour_graded_by(user: Option<u32>) {
    let work = tempfile::tempdir().unwrap();
    let at = |name: &str| work.path().join(name);
    small_kit(&at("kit"), &QUICK_CASES);
    let honest_text = fs::read_to_string(honest()).unwrap();
    let neighbour = fs::read_to_string(hostile().join("neighbour.py")).unwrap();
    submission(&at("class"), "ann", &[("run.py", honest_text.clone())]);
    submission(&at("class"), "zed", &[("run.py", neighbour)]);
    submission(&at("alone"), "ann", &[("run.py", honest_text)]);
    fs::create_dir(at("out")).unwrap();
    let grade = grade_copy(work.path());
    hand_to(user, work.path());
    let before = leftovers();
    let folders = [at("class/zed"), at("class/ann"), at("alone/ann")];
    let listing = |folder: &Path| -> Vec<_> {
        let mut names: Vec<_> = fs::read_dir(folder)
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        names.sort();
        names
    };
    let submitted: Vec<_> = folders.iter().map(|f| listing(f)).collect();
    // Two graders at once, as two TAs on one server: the class, and ann alone.
    let (beside, by_herself) = thread::scope(|scope| {
        let beside =
            scope.spawn(|| grade_class(user, &grade, &at("class"), &at("kit"), &at("out")));
        let by_herself = grade_class(user, &grade, &at("alone"), &at("kit"), &at("alone"));
        (beside.join().unwrap(), by_herself)
    });
    let time = column(&beside[0], "time (s)");
    let row = |rows: &[Vec<String>], name: &str| -> Vec<String> {
        let mut row = rows.iter().find(|r| r[0] == name).unwrap().clone();
        row.remove(time);
        row
    };
    assert_eq!(beside[0], by_herself[0]);
    assert_eq!(row(&beside, "ann"), row(&by_herself, "ann"), "{beside:?}");
    // The neighbour answers as ann does: its burners cost it nothing either.
    assert_eq!(
        row(&beside, "zed")[1..],
        row(&beside, "ann")[1..],
        "{beside:?}"
    );
    let running = running_in(&at("class"));
    assert!(running.is_empty(), "still running: {running:?}");
    for (folder, was) in folders.iter().zip(&submitted) {
        assert_eq!(&listing(folder), was, "{}", folder.display());
    }
    let new: Vec<String> = leftovers()
        .into_iter()
        .filter(|l| !before.contains(l))
        .collect();
    assert!(new.is_empty(), "left behind: {new:?}");
}

#[test]
fn a_bad_neighbour_and_a_second_grader_cost_the_honest_student_nothing_and_leave_nothing() {
    a_bad_neighbour_graded_by(None);
}

#[test]
fn graded_by_an_ordinary_user_a_bad_neighbour_costs_nothing_and_leaves_nothing() {
    a_bad_neighbour_graded_by(ordinary_user());
}
