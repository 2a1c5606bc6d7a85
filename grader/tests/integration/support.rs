//! Helpers shared by the grading kit's integration tests: where the kit, its fixtures and the
//! two binaries are; submissions and small kits made for a test; Rust fixtures built once and
//! shared; and reading what `grade` wrote (Gradescope's results, the gradebook).

use std::collections::hash_map::DefaultHasher;
use std::fs;
use std::hash::{Hash, Hasher};
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::SystemTime;

use connect_four_grader::kit::case::{self, Case};
use connect_four_grader::process::display::installed;

/// The `grade` binary built for these tests.
pub fn grade() -> Command {
    Command::new(env!("CARGO_BIN_EXE_grade"))
}

/// The kit students get, packed once for these tests by the course's `grade pack` from this
/// repository's kit: the students' `grade` (built without the reference engine into
/// `students-kit/` of the build directory), `grading/` and `starter/supplied/`. Its release build is made
/// unoptimised, without link-time optimisation and in many codegen units (cargo's
/// `CARGO_PROFILE_RELEASE_*` settings): what the tests check of it is what it holds and does,
/// not its speed (the students' `grade` has no engine to run), and the build from clean takes
/// minutes less.
pub fn students_kit() -> &'static Path {
    static KIT: OnceLock<PathBuf> = OnceLock::new();
    KIT.get_or_init(|| {
        made_once_per_run("students-kit-for-tests", |out| {
            let packed = grade()
                .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "0")
                .env("CARGO_PROFILE_RELEASE_LTO", "false")
                .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "16")
                .arg("pack")
                .arg(out)
                .arg("--kit")
                .arg(kit())
                // The repository as it is being tested, committed or not.
                .arg("--allow-uncommitted")
                .output()
                .expect("grade pack runs");
            assert!(
                packed.status.success(),
                "grade pack failed: {}",
                String::from_utf8_lossy(&packed.stderr)
            );
        })
    })
}

/// The folder `name` of this workspace's build directory, made anew by `make` once per run of
/// the tests however many processes run them: cargo-nextest runs each test in a process of its
/// own, and names the run (`NEXTEST_RUN_ID`); otherwise the process is the run.
pub fn made_once_per_run(name: &str, make: impl FnOnce(&Path)) -> PathBuf {
    let dir = build_root().join(name);
    let run = std::env::var("NEXTEST_RUN_ID")
        .unwrap_or_else(|_| format!("process {}", std::process::id()));
    let _held = Held::file(&dir.with_extension("lock"));
    let made_by = dir.with_extension("run");
    if fs::read_to_string(&made_by).is_ok_and(|made| made == run) {
        return dir;
    }
    if dir.exists() {
        fs::remove_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    }
    make(&dir);
    fs::write(&made_by, run).unwrap_or_else(|e| panic!("{}: {e}", made_by.display()));
    dir
}

/// A file lock (`flock`), held until dropped: across the processes that run the tests too.
pub struct Held {
    /// Held open: the lock lasts as long as the file.
    _file: fs::File,
}

impl Held {
    /// Waits for the lock of the file at `path` (made if missing) and holds it.
    pub fn file(path: &Path) -> Held {
        let file = fs::File::create(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        // SAFETY: the descriptor is open for the call; flock only waits for it.
        let locked = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) };
        assert_eq!(locked, 0, "flock {}", path.display());
        Held { _file: file }
    }
}

/// The reference's `connect_four` binary, built beside `grade` by the same `cargo test
/// --workspace` (the reference package's own tests need it, so cargo builds it before any test
/// runs). A clear message if it is missing, rather than a confusing failure later.
pub fn reference() -> PathBuf {
    let grade = Path::new(env!("CARGO_BIN_EXE_grade"));
    let binary = grade.with_file_name(format!("connect_four{}", std::env::consts::EXE_SUFFIX));
    assert!(
        binary.is_file(),
        "{} is missing: run the tests with `cargo test --workspace` (scripts/test does), or \
         build it first with `cargo build --profile test -p connect_four --no-default-features`",
        binary.display()
    );
    binary
}

/// The reference's binary as the command of `grade student`.
pub fn reference_command() -> String {
    reference().display().to_string()
}

/// The repository's grading kit: rubric and cases.
pub fn kit() -> PathBuf {
    repository().join("grading")
}

/// The kit's cases, read as `grade` reads them.
pub fn kit_cases() -> Vec<Case> {
    case::load_all(&kit().join("cases"))
        .unwrap_or_else(|e| panic!("the kit's cases do not load: {e}"))
}

/// The repository's root.
pub fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the grader is a folder of the repository")
        .to_path_buf()
}

/// The cargo that runs these tests (cargo sets `CARGO` for them), or the one on the path.
pub fn cargo() -> std::ffi::OsString {
    std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into())
}

/// `cargo` as the graders run it: whatever flags this test run was given, none reach it.
pub fn cargo_as_graders() -> Command {
    let mut cargo = Command::new(cargo());
    cargo
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("CARGO_BUILD_RUSTFLAGS");
    cargo
}

/// A build directory shared by the tests' Rust fixtures, `rust-fixtures/<name>` in this
/// workspace's build directory, held alone ([`Held`]) until dropped: its locked dependencies are
/// compiled once for every project built in it.
pub struct SharedTarget {
    /// The build directory.
    pub dir: PathBuf,
    _held: Held,
}

impl SharedTarget {
    /// Waits for the build directory `name` and holds it.
    pub fn hold(name: &str) -> SharedTarget {
        let dir = build_root().join("rust-fixtures").join(name);
        fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        let held = Held::file(&dir.with_extension("lock"));
        SharedTarget { dir, _held: held }
    }

    /// Marks every file of `project` (its `target` left out) as changed now, so that cargo
    /// builds it anew here even if another project of its name was built in this directory
    /// after its files were written (cargo tells a change by the files' times).
    pub fn touch(&self, project: &Path) {
        let now = SystemTime::now();
        for (path, _) in project_files(project) {
            let file = fs::File::options().append(true).open(&path);
            file.and_then(|file| file.set_modified(now))
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
    }
}

/// The files of the project in `dir` (any `target` folder left out), with their paths inside it,
/// in order.
fn project_files(dir: &Path) -> Vec<(PathBuf, PathBuf)> {
    fn walk(dir: &Path, inside: &Path, files: &mut Vec<(PathBuf, PathBuf)>) {
        let mut entries: Vec<fs::DirEntry> = fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|entry| entry.expect("a directory entry"))
            .collect();
        entries.sort_by_key(fs::DirEntry::file_name);
        for entry in entries {
            let (path, name) = (entry.path(), inside.join(entry.file_name()));
            if entry.file_type().expect("a file type").is_dir() {
                if entry.file_name() != "target" {
                    walk(&path, &name, files);
                }
            } else {
                files.push((path, name));
            }
        }
    }
    let mut files = Vec::new();
    walk(dir, Path::new(""), &mut files);
    files
}

/// How the graders build a Rust submission (the starter's `Cargo.toml` and the handout say so).
pub const GRADERS_BUILD: [&str; 4] = ["build", "--release", "--no-default-features", "--locked"];

/// The program `connect_four` of the Rust project in `project`, built by `cargo ARGS` as the
/// graders build (see [`cargo_as_graders`]; with the CMake that `scripts/setup.sh gui` keeps in
/// this workspace's build directory first on the path, for FLTK), once for as long as the
/// project's files, the command and the toolchain stay the same: every test that builds the
/// same project gets the one program, in this run and the next, whichever process runs it.
/// Every project built by one command shares a [`SharedTarget`], so their dependencies are
/// compiled once; each program is kept apart, under a key of what it was built from, so that no
/// later build replaces one a test runs.
pub fn built(project: &Path, args: &[&str]) -> PathBuf {
    static TOOLCHAIN: OnceLock<Vec<u8>> = OnceLock::new();
    let toolchain = TOOLCHAIN.get_or_init(|| {
        let version = Command::new(cargo())
            .arg("-vV")
            .output()
            .expect("cargo starts");
        version.stdout
    });
    let mut key = DefaultHasher::new();
    (toolchain, args).hash(&mut key);
    let command = format!("{:016x}", key.finish());
    for (path, name) in project_files(project) {
        let text = fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        (name, text).hash(&mut key);
    }
    let kept = build_root()
        .join("rust-fixtures/programs")
        .join(format!("{:016x}", key.finish()));
    let program = kept.join(format!("connect_four{}", std::env::consts::EXE_SUFFIX));
    if program.is_file() {
        return program;
    }
    let target = SharedTarget::hold(&command);
    if program.is_file() {
        return program;
    }
    target.touch(project);
    let cmake = build_root().join("tools/cmake/bin");
    let path = std::env::var_os("PATH").unwrap_or_default();
    let path = std::env::join_paths(std::iter::once(cmake).chain(std::env::split_paths(&path)))
        .expect("a path");
    let output = cargo_as_graders()
        .args(args)
        .current_dir(project)
        .env("CARGO_TARGET_DIR", &target.dir)
        .env("PATH", path)
        .output()
        .expect("cargo starts");
    assert!(
        output.status.success(),
        "`cargo {}` failed in {}:\n{}",
        args.join(" "),
        project.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    let profile = if args.contains(&"--release") {
        "release"
    } else {
        "debug"
    };
    let made = target
        .dir
        .join(profile)
        .join(program.file_name().expect("a name"));
    fs::create_dir_all(&kept).unwrap_or_else(|e| panic!("{}: {e}", kept.display()));
    let partial = kept.join("partial");
    fs::copy(&made, &partial).unwrap_or_else(|e| panic!("{}: {e}", made.display()));
    fs::rename(&partial, &program).unwrap_or_else(|e| panic!("{}: {e}", program.display()));
    program
}

/// The fixture students (Python programs with one mistake each).
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/students")
}

/// The simple solution of the starter's `todo!()`s, to copy over a starter's `src/`.
pub fn starter_solution() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/starter_solution")
}

/// The course's copy of the supplied crate, inside the starter project.
pub fn starter_supplied() -> PathBuf {
    repository().join("starter/supplied")
}

/// This workspace's build directory: the parent of the integration tests' scratch directory
/// (`target/` unless `CARGO_TARGET_DIR` says otherwise).
pub fn build_root() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("CARGO_TARGET_TMPDIR is inside the build directory")
        .to_path_buf()
}

/// Copies the directory `from` into `to` (created if needed), leaving out any `target`
/// directory: a copy of sources, as a student makes one, never someone's build output.
pub fn copy_dir(from: &Path, to: &Path) {
    fn fail<T>(path: &Path, e: std::io::Error) -> T {
        panic!("{}: {e}", path.display())
    }
    fs::create_dir_all(to).unwrap_or_else(|e| fail(to, e));
    for entry in fs::read_dir(from).unwrap_or_else(|e| fail(from, e)) {
        let entry = entry.expect("a directory entry");
        let (path, target) = (entry.path(), to.join(entry.file_name()));
        if entry.file_type().expect("a file type").is_dir() {
            if entry.file_name() != "target" {
                copy_dir(&path, &target);
            }
        } else {
            fs::copy(&path, &target).unwrap_or_else(|e| fail(&path, e));
        }
    }
}

/// The shell command that starts the fixture student `name` (a Python file of [`fixtures`]).
pub fn python(name: &str) -> String {
    let script = fixtures().join(format!("{name}.py"));
    format!("python3 '{}'", script.display())
}

/// Makes `dir` a submission of the fixture student `name`, its files copied in as a student
/// hands them in (the program and the honest game it builds on), that runs when started with
/// `sh {dir}/run`: everything it needs inside, as in the sandbox it must be.
pub fn python_submission(dir: &Path, name: &str) {
    fs::create_dir_all(dir).unwrap();
    for file in [name, "connect_four"] {
        let file = format!("{file}.py");
        fs::copy(fixtures().join(&file), dir.join(&file)).unwrap();
    }
    fs::write(
        dir.join("run"),
        format!("exec python3 \"$(dirname \"$0\")/{name}.py\" \"$@\"\n"),
    )
    .unwrap();
}

/// Makes `dir` the completed starter, as a student submits it: the starter's sources with the
/// simple solution of its `todo!()`s over `src/`.
pub fn completed_starter(dir: &Path) {
    copy_dir(&repository().join("starter"), dir);
    copy_dir(&starter_solution(), &dir.join("src"));
}

/// Makes `dir` a submission of the reference's own binary, copied in (the sandbox lets a
/// program run nothing outside its submission and the system); returns the command that starts
/// it from `dir`.
pub fn reference_submission(dir: &Path) -> String {
    fs::create_dir_all(dir).unwrap();
    fs::copy(reference(), dir.join("connect_four")).unwrap();
    "./connect_four".into()
}

/// Two of the kit's quickest cases, one per category a rubric must keep scored (a rule and an
/// AI one): with [`small_kit`], a kit a plain Python student passes in a fraction of a second.
pub const QUICK_CASES: [&str; 2] = ["rules/board_1x1", "scores/depth1"];

/// Makes `dir` a kit of only `cases` (names under the repository kit's `cases/`, copied with
/// their solutions), with the repository's rubric whose categories keep their checklists and
/// lose the points of the cases left out: a kit that a test can grade a class with in seconds.
pub fn small_kit(dir: &Path, cases: &[&str]) {
    let all = kit_cases();
    for name in cases {
        assert!(
            all.iter().any(|c| c.name == *name),
            "no case {name} in the kit"
        );
        let (from, to) = (kit().join("cases").join(name), dir.join("cases").join(name));
        fs::create_dir_all(to.parent().expect("a case's folder")).unwrap();
        for extension in ["toml", "solution"] {
            fs::copy(from.with_extension(extension), to.with_extension(extension)).unwrap();
        }
    }
    let text = fs::read_to_string(kit().join("rubric.toml")).unwrap();
    let mut rubric: toml::Table = toml::from_str(&text).unwrap();
    let categories = rubric["category"].as_array_mut().expect("[[category]]");
    for category in categories.iter_mut().filter_map(toml::Value::as_table_mut) {
        let name = category["name"].as_str().expect("a name").to_string();
        let left_out: f64 = all
            .iter()
            .filter(|c| c.category == name && !cases.contains(&c.name.as_str()))
            .map(|c| c.points)
            .sum();
        let points = &category["points"];
        let points = points
            .as_float()
            .or(points.as_integer().map(|p| p as f64))
            .expect("points");
        category.insert("points".into(), (points - left_out).into());
    }
    fs::write(dir.join("rubric.toml"), toml::to_string(&rubric).unwrap()).unwrap();
}

/// What one `grade student ... --gradescope` run left.
pub struct Graded {
    /// Gradescope's results.
    pub results: serde_json::Value,
    /// What `grade` printed on standard output: the terminal report.
    pub stdout: String,
    /// Standard output and error together, for messages.
    pub printed: String,
}

/// Runs `grade` (a `grade student ...` command) with `--gradescope` and a results file of its
/// own added; panics with its output unless it succeeds and writes the results.
pub fn graded(grade: &mut Command) -> Graded {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("results.json");
    let output = grade
        .arg("--gradescope")
        .arg(&path)
        .output()
        .expect("grade starts");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let printed = format!("{stdout}{}", String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "grade failed: {printed}");
    let text = fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("grade wrote no results ({e}): {printed}"));
    let results = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("results.json is not JSON ({e}): {text}"));
    Graded {
        results,
        stdout,
        printed,
    }
}

/// Gradescope results' tests (one per case, and notes that score nothing).
pub fn tests(results: &serde_json::Value) -> &[serde_json::Value] {
    results["tests"].as_array().expect("a list of tests")
}

/// A Gradescope test's name and output, for a message.
pub fn describe(test: &serde_json::Value) -> String {
    format!(
        "{}\n{}",
        test["name"],
        test["output"].as_str().unwrap_or("")
    )
}

/// The tests of Gradescope results that did not pass, described.
pub fn failures(results: &serde_json::Value) -> Vec<String> {
    tests(results)
        .iter()
        .filter(|t| t["status"] != "passed")
        .map(describe)
        .collect()
}

/// The gradebook's rows as cells, header first, read as CSV (a quoted cell may hold commas).
pub fn rows(csv: &Path) -> Vec<Vec<String>> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_path(csv)
        .and_then(|mut reader| {
            reader
                .records()
                .map(|record| Ok(record?.iter().map(String::from).collect()))
                .collect()
        })
        .unwrap_or_else(|e| panic!("{}: {e}", csv.display()))
}

/// The index of the gradebook column whose header starts with `name`.
pub fn column(header: &[String], name: &str) -> usize {
    header
        .iter()
        .position(|h| h.starts_with(name))
        .unwrap_or_else(|| panic!("no column {name}: {header:?}"))
}

/// Whether `javac` and `java` can be run. Without them: a note and `false`, or under CI a panic.
pub fn java_available() -> bool {
    for tool in ["javac", "java"] {
        let runs = Command::new(tool)
            .arg("-version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|status| status.success());
        if !runs {
            return unavailable(
                "Java",
                tool,
                "install a JDK: apt-get install default-jdk-headless",
            );
        }
    }
    true
}

/// Whether the JDK on the path ([`java_available`]) has AWT's X11 library, `libawt_xawt.so`,
/// which a Swing window needs to open (a headless JDK has none). Without it: a note and
/// `false`, or under CI a panic.
pub fn swing_available() -> bool {
    if !java_available() {
        return false;
    }
    // `java -XshowSettings:properties` lists the system properties on standard error.
    let home = Command::new("java")
        .args(["-XshowSettings:properties", "-version"])
        .output()
        .ok()
        .and_then(|output| {
            String::from_utf8_lossy(&output.stderr)
                .lines()
                .find_map(|line| line.trim().strip_prefix("java.home = ").map(PathBuf::from))
        });
    if home.is_some_and(|home| home.join("lib/libawt_xawt.so").is_file()) {
        return true;
    }
    unavailable(
        "Swing window",
        "a JDK with AWT (libawt_xawt.so)",
        "source scripts/setup.sh jdk",
    )
}

/// What a group of tests does without `missing`: under CI (`CI` set) it panics, saying to
/// `fix` it; elsewhere it says the tests are skipped and gives `false`.
pub fn unavailable(tests: &str, missing: &str, fix: &str) -> bool {
    if std::env::var_os("CI").is_some() {
        panic!("the {tests} tests need {missing}, and CI is set: {fix}");
    }
    eprintln!("note: the {tests} tests are skipped: they need {missing} ({fix})");
    false
}

/// Copies the Java fixture student's sources (its `.java` files only, whatever a local build
/// may have left beside them) into `dir`.
pub fn java_sources(dir: &Path) {
    java_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/java"),
        dir,
    );
}

/// Copies the `.java` files of the folder `fixture` (nothing else a local build may have left
/// beside them) into `dir`.
pub fn java_files(fixture: &Path, dir: &Path) {
    fs::create_dir_all(dir).unwrap();
    let mut copied = 0;
    for entry in fs::read_dir(fixture).expect("the Java fixture") {
        let path = entry.expect("a directory entry").path();
        if path.extension().is_some_and(|e| e == "java") {
            let name = path.file_name().expect("a file name");
            fs::copy(&path, dir.join(name)).expect("a copy");
            copied += 1;
        }
    }
    assert!(copied > 0, "no .java files in {}", fixture.display());
}

/// Makes `dir` a kit of the speed-up case without its requirements, starting at depth 3 (where
/// a Python student needs about a quarter of a second on one thread), and a quick case of each
/// other automatic category.
pub fn speedup_kit(dir: &Path) {
    small_kit(
        dir,
        &[
            "rules/gravity_4x4",
            "heuristic/worked_example",
            "threads/speedup",
        ],
    );
    let path = dir.join("cases/threads/speedup.toml");
    let text = fs::read_to_string(&path).unwrap();
    // The same lines, so that the stored answers' line numbers still hold.
    let text: Vec<String> = text
        .lines()
        .map(|line| match line {
            l if l.starts_with("requires = ") => "requires = []".into(),
            "start_depth = 5" => "start_depth = 3".into(),
            l => l.into(),
        })
        .collect();
    let text = text.join("\n");
    assert!(text.contains("start_depth = 3"), "{text}");
    fs::write(&path, text).unwrap();
}

/// Whether the tools the observer needs are here. Without them: a note and `false`, or under
/// CI a panic.
pub fn window_tools_present() -> bool {
    let tkinter = Command::new("/usr/bin/python3")
        .args(["-c", "import tkinter"])
        .status()
        .is_ok_and(|status| status.success());
    let missing: Vec<&str> = ["Xvfb", "xdotool", "import"]
        .into_iter()
        .filter(|tool| !installed(tool))
        .chain((!tkinter).then_some("python3-tk"))
        .collect();
    missing.is_empty()
        || unavailable(
            "window",
            &format!("{missing:?}"),
            "source scripts/setup.sh xvfb",
        )
}

/// The tkinter fixture window.
pub fn window_fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/window/window.py")
}

/// The folder of the Swing fixture window's sources.
pub fn swing_fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/window/java")
}

/// The ordinary user that tests grade as when they run as root (a TA grading on their own
/// machine): no account needed, nothing of the machine's owned by it. `None` when the tests
/// already run as an ordinary user.
pub fn ordinary_user() -> Option<u32> {
    const TA_UID: u32 = 63_100;
    // SAFETY: geteuid cannot fail.
    (unsafe { libc::geteuid() } == 0).then_some(TA_UID)
}

/// `program` as a command run as `user` (its uid and gid, no other groups), or as the tests'
/// own user when `None`. The program and everything it reads must be reachable by that user:
/// copy the `grade` binary next to the files the test makes ([`grade_copy`]).
pub fn run_as(user: Option<u32>, program: &Path) -> Command {
    match user {
        Some(uid) => {
            let mut command = Command::new("setpriv");
            command
                .arg(format!("--reuid={uid}"))
                .arg(format!("--regid={uid}"))
                .args(["--clear-groups", "--"])
                .arg(program);
            command
        }
        None => Command::new(program),
    }
}

/// Copies the `grade` binary into `dir` (which another user can reach, unlike a checkout under
/// a home folder) and returns its path.
pub fn grade_copy(dir: &Path) -> PathBuf {
    let copy = dir.join("grade");
    fs::copy(env!("CARGO_BIN_EXE_grade"), &copy).unwrap();
    copy
}

/// Hands `dir` and everything in it to `user`, when given.
pub fn hand_to(user: Option<u32>, dir: &Path) {
    if let Some(uid) = user {
        let status = Command::new("chown")
            .args(["-R", &format!("{uid}:{uid}")])
            .arg(dir)
            .status()
            .unwrap();
        assert!(status.success(), "chown -R {uid} {}", dir.display());
    }
}

/// One submission of a Gradescope-style download: its submission id (its folder's name), the
/// fixture student it runs (see [`python_submission`]), its submitter and when it came in (as
/// Gradescope writes it: `2026-11-20 23:10:05.123456000 -08:00`).
pub struct Downloaded<'a> {
    /// `submission_101`.
    pub id: &'a str,
    /// The fixture student.
    pub fixture: &'a str,
    /// The submitter's name, student id and email.
    pub submitter: [&'a str; 3],
    /// `:created_at:`.
    pub created_at: &'a str,
}

/// A YAML double-quoted scalar of `text`, which may hold anything.
fn yaml_quoted(text: &str) -> String {
    let mut quoted = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => quoted.push_str("\\\""),
            '\\' => quoted.push_str("\\\\"),
            c if c.is_control() => quoted.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => quoted.push(c),
        }
    }
    quoted.push('"');
    quoted
}

/// Makes `dir` a Gradescope "Export Submissions" folder, unzipped: a folder per submission
/// (each a [`python_submission`]) and `submission_metadata.yml`, with Gradescope's
/// Ruby-symbol keys and keys `grade` leaves alone.
pub fn gradescope_download(dir: &Path, submissions: &[Downloaded]) {
    let mut yaml = String::new();
    for submission in submissions {
        python_submission(&dir.join(submission.id), submission.fixture);
        let [name, sid, email] = submission.submitter.map(yaml_quoted);
        yaml.push_str(&format!(
            "{}:\n  :submitters:\n  - :name: {name}\n    :sid: {sid}\n    :email: {email}\n  \
             :created_at: {}\n  :score: 0.0\n  :status: processed\n  :history: []\n",
            submission.id, submission.created_at
        ));
    }
    fs::write(dir.join("submission_metadata.yml"), yaml).unwrap();
}

/// Adds `table` (a `[late]` table's TOML) to the rubric of the kit in `dir`.
pub fn with_late(dir: &Path, table: &str) {
    let path = dir.join("rubric.toml");
    let text = fs::read_to_string(&path).unwrap();
    fs::write(&path, format!("{text}\n[late]\n{table}")).unwrap();
}

/// The command lines of the processes on the machine that mention `dir` (a test's own folder):
/// what a test left running, or a program it waits to see start.
pub fn running_in(dir: &Path) -> Vec<String> {
    let needle = dir.to_string_lossy().into_owned();
    fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| fs::read(entry.path().join("cmdline")).ok())
        .map(|cmdline| String::from_utf8_lossy(&cmdline).replace('\0', " "))
        .filter(|cmdline| cmdline.contains(&needle))
        .collect()
}
