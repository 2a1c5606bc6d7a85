//! A student who reaches for what the grading user has outside the sandbox (the hostile fixture
//! `outside.py`): a named socket of theirs (a TA's tmux server, ssh-agent, session bus), their
//! environment (a token set for `grade`), the descriptors their shell left open. Graded by
//! `grade class --jobs 2` beside an honest student, as root (Gradescope, a container) and as an
//! ordinary user that the test makes (a TA grading on their own machine): nothing is reached,
//! the gradebook is the honest one, and the report says the student's own file tree was in
//! force. Once without the sandbox too, where every trick works: the test can fail.

use std::fs;
use std::os::fd::AsRawFd;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::UnixListener;
use std::path::PathBuf;
use std::process::Output;

use tempfile::TempDir;

use crate::support::{
    column, fixtures, grade_copy, hand_to, ordinary_user, rows, run_as, small_kit, QUICK_CASES,
};
/// A token in the grader's environment.
const TOKEN: &str = "ta-token-7b1e";
/// What the descriptor left open holds.
const SECRET: &str = "TA-SECRET-42";

/// A class of two (`honest`, `outside`), a kit, and the grading user's socket and secrets.
struct Scene {
    dir: TempDir,
    socket: PathBuf,
    listener: UnixListener,
}

impl Scene {
    /// Everything owned by `owner` (the grading user), when given.
    fn new(owner: Option<u32>) -> Scene {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::set_permissions(root, fs::Permissions::from_mode(0o755)).unwrap();
        small_kit(&root.join("kit"), &QUICK_CASES);
        grade_copy(root);
        for (name, program) in [
            ("honest", "connect_four.py"),
            ("outside", "../hostile/outside.py"),
        ] {
            let student = root.join("class").join(name);
            fs::create_dir_all(&student).unwrap();
            fs::copy(
                fixtures().join("connect_four.py"),
                student.join("connect_four.py"),
            )
            .unwrap();
            fs::copy(fixtures().join(program), student.join("run.py")).unwrap();
        }
        fs::write(
            root.join("class/outside/try.sh"),
            "exec python3 run.py --try\n",
        )
        .unwrap();
        // The grading user's tmux server: a socket in a folder of their own, as tmux makes it.
        let folder = root.join("tmux");
        fs::create_dir(&folder).unwrap();
        let socket = folder.join("default");
        let listener = UnixListener::bind(&socket).unwrap();
        listener.set_nonblocking(true).unwrap();
        fs::write(
            root.join("class/outside/socket.txt"),
            socket.display().to_string(),
        )
        .unwrap();
        fs::write(root.join("secret.txt"), SECRET).unwrap();
        hand_to(owner, root);
        // The grading user's own (tmux's 0700); as root, open to everyone, as an X server's is,
        // so that only the sandbox, not permissions, keeps the student's uid out.
        let (folder_mode, socket_mode) = if owner.is_some() {
            (0o700, 0o600)
        } else {
            (0o755, 0o777)
        };
        fs::set_permissions(&folder, fs::Permissions::from_mode(folder_mode)).unwrap();
        fs::set_permissions(&socket, fs::Permissions::from_mode(socket_mode)).unwrap();
        Scene {
            dir,
            socket,
            listener,
        }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// Runs `grade class` on the class, as `owner` if given, with a token in its environment
    /// and the secret open on a descriptor it inherits; `extra` arguments added.
    fn grade(&self, owner: Option<u32>, extra: &[&str]) -> Output {
        let secret = fs::File::open(self.path("secret.txt")).unwrap();
        // SAFETY: dup returns a new descriptor without close-on-exec, closed below.
        let open = unsafe { libc::dup(secret.as_raw_fd()) };
        let output = run_as(owner, &self.path("grade"))
            .arg("class")
            .arg(self.path("class"))
            .arg("--kit")
            .arg(self.path("kit"))
            .args(["--command", "python3 {dir}/run.py", "--jobs", "2", "--csv"])
            .arg(self.path("grades.csv"))
            // Every trick once, as the build, whose log the reports keep (what the student
            // writes in its folder is its own job's, gone with it).
            .args(["--build", "test ! -f try.sh || sh try.sh"])
            .arg("--report")
            .arg(self.path("reports"))
            .args(extra)
            .env("GRADE_TOKEN", TOKEN)
            .env("HOME", self.dir.path())
            .env("TMPDIR", self.dir.path())
            .current_dir(self.dir.path())
            .output()
            .unwrap();
        // SAFETY: closes the descriptor dup made.
        unsafe { libc::close(open) };
        output
    }

    /// What the hostile student recorded, in its build's log.
    fn done(&self) -> String {
        fs::read_to_string(self.path("reports/outside.build.log")).unwrap()
    }

    /// Whether anything connected to the grading user's socket.
    fn reached(&self) -> bool {
        self.listener.accept().is_ok()
    }
}

/// Grades the scene as `owner` (or the test's own user) and checks that nothing was reached.
fn nothing_reached(owner: Option<u32>) {
    let scene = Scene::new(owner);
    let output = scene.grade(owner, &[]);
    let printed = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.status.success(), "{printed}");
    let done = scene.done();
    assert!(!done.contains("connected"), "{done}");
    assert!(
        !done.contains(TOKEN) && !done.contains("descriptor"),
        "{done}"
    );
    assert!(
        !scene.reached(),
        "something reached {}",
        scene.socket.display()
    );
    // It played honestly: the same points as the honest student, nothing more.
    let table = rows(&scene.path("grades.csv"));
    let total = column(&table[0], "automatic total");
    let score = |name: &str| {
        table
            .iter()
            .find(|row| row[0] == name)
            .map(|row| row[total].clone())
            .unwrap_or_else(|| panic!("no row for {name}: {table:?}"))
    };
    assert_eq!(score("outside"), score("honest"), "{table:?}");
    let report = fs::read_to_string(scene.path("reports/outside.md")).unwrap();
    assert!(!report.contains(TOKEN) && !report.contains(SECRET));
    assert!(
        report.contains("own file tree (no named socket, FIFO or device outside it)")
            && !report.contains("own file tree (no named socket, FIFO or device outside it):"),
        "the file tree is in force: {report}"
    );
}

#[test]
fn graded_as_the_user_running_the_tests_nothing_is_reached() {
    nothing_reached(None);
}

#[test]
fn graded_as_an_ordinary_user_nothing_of_theirs_is_reached() {
    nothing_reached(ordinary_user());
}

#[test]
fn without_the_sandbox_every_trick_works() {
    let scene = Scene::new(None);
    // Out of the sandbox the search for sockets would reach the other tests' listeners, which
    // run at the same time: it searches this scene alone.
    fs::write(
        scene.path("class/outside/folders.txt"),
        scene.dir.path().display().to_string(),
    )
    .unwrap();
    let output = scene.grade(None, &["--no-sandbox"]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let done = scene.done();
    assert!(
        done.contains(&format!("connected {}", scene.socket.display())),
        "{done}"
    );
    assert!(done.contains(TOKEN), "{done}");
    assert!(done.contains(SECRET), "{done}");
    assert!(scene.reached());
}
