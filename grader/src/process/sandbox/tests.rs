//! The sandbox's tests, run as root where the grader runs on Gradescope: what a hostile program
//! tries (read the kit, run a binary beside it, connect to a listener, fork in a loop, leave a
//! daemon) fails, and what an honest one needs (a shell, Python, a JVM, its own files, temporary
//! files) works. Each test uses its own uid, so that tests running at once never see each
//! other's processes. The kit is played by a world-readable temporary directory, so that only
//! the sandbox, not file permissions, keeps it out of reach.

use std::fs;
use std::io::ErrorKind;
use std::net::TcpListener;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use tempfile::TempDir;

use super::survivors::{self, Marker};
use super::*;

/// The first uid the tests use (each test adds its own offset).
const TEST_UID: u32 = BASE_UID + 500;

fn root() -> bool {
    // SAFETY: geteuid cannot fail.
    unsafe { libc::geteuid() == 0 }
}

/// A kit to hide (world-readable, with an answer and a program), a submission and a scratch
/// directory.
struct Fixture {
    kit: TempDir,
    submission: TempDir,
    scratch: TempDir,
}

impl Fixture {
    fn new() -> Fixture {
        let kit = tempfile::tempdir().unwrap();
        fs::set_permissions(kit.path(), fs::Permissions::from_mode(0o755)).unwrap();
        fs::write(kit.path().join("case.solution"), "= 3\n").unwrap();
        fs::set_permissions(
            kit.path().join("case.solution"),
            fs::Permissions::from_mode(0o644),
        )
        .unwrap();
        fs::copy("/bin/true", kit.path().join("reference")).unwrap();
        fs::set_permissions(
            kit.path().join("reference"),
            fs::Permissions::from_mode(0o755),
        )
        .unwrap();
        let submission = tempfile::tempdir().unwrap();
        fs::write(submission.path().join("main.py"), "print(1)\n").unwrap();
        Fixture {
            kit,
            submission,
            scratch: tempfile::tempdir().unwrap(),
        }
    }

    /// The sandbox of a student's program: its submission writable, the kit hidden, job `job`.
    fn sandbox(&self, job: u32) -> Sandbox {
        Sandbox::new()
            .write(self.submission.path())
            .scratch(self.scratch.path())
            .hide(self.kit.path())
            .user(User::for_job(TEST_UID, job))
            .budget(Budget {
                memory_bytes: Some(1 << 30),
                processes: Some(256),
                cpus: None,
            })
    }

    fn kit(&self, name: &str) -> PathBuf {
        self.kit.path().join(name)
    }

    /// Runs `sh -c SCRIPT` in the submission under `prepared`.
    fn run(&self, prepared: &Prepared, script: &str) -> Output {
        let mut command = Command::new("/bin/sh");
        command
            .arg("-c")
            .arg(script)
            .current_dir(self.submission.path());
        prepared.apply(&mut command);
        command.output().expect("the sandboxed shell starts")
    }
}

/// Runs `sh -c SCRIPT` outside the sandbox: what the same script does there, so a test can fail.
fn unsandboxed(script: &str) -> Output {
    Command::new("/bin/sh")
        .args(["-c", script])
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The live (not zombie) processes whose real uid is `uid`.
fn processes_of(uid: u32) -> usize {
    all_statuses()
        .filter(|status| !status.state.starts_with('Z') && status.ruid == uid)
        .count()
}

/// The `/proc/PID/status` of every process.
fn all_statuses() -> impl Iterator<Item = procfs::process::Status> {
    procfs::process::all_processes()
        .unwrap()
        .filter_map(|process| process.ok()?.status().ok())
}

#[test]
fn every_protection_is_in_force_on_this_machine() {
    let fixture = Fixture::new();
    let prepared = fixture.sandbox(0).processes(64).prepare().unwrap();
    let protections = prepared.protections();
    for (protection, status) in protections.iter() {
        eprintln!("{protection}: {status:?}");
    }
    assert_eq!(protections.iter().count(), 12);
    if root() {
        assert!(protections.all_in_force(), "{protections:?}");
        assert_eq!(protections.user, Status::InForce);
    } else {
        assert_eq!(protections.user, Status::Unavailable(Reason::NotRoot));
    }
}

#[test]
fn every_command_gets_a_home_of_its_own() {
    let fixture = Fixture::new();
    let prepared = fixture.sandbox(1).prepare().unwrap();
    let script = "echo \"$HOME $TMPDIR\" && touch \"$HOME/marker\" && ls \"$HOME\"";
    let first = fixture.run(&prepared, script);
    let second = fixture.run(&prepared, script);
    assert!(first.status.success(), "{}", text(&first.stderr));
    assert!(second.status.success(), "{}", text(&second.stderr));
    let (first, second) = (text(&first.stdout), text(&second.stdout));
    let home = |out: &str| {
        out.split_whitespace()
            .next()
            .unwrap_or_default()
            .to_string()
    };
    assert_ne!(home(&first), home(&second), "{first} {second}");
    assert!(home(&first).starts_with(&*fixture.scratch.path().to_string_lossy()));
    // Each saw only its own marker: a copy of a program cannot leave another one a note there.
    assert_eq!(second.lines().skip(1).collect::<Vec<_>>(), ["marker"]);
}

#[test]
fn the_kit_cannot_be_read_but_the_submission_and_scratch_can() {
    let fixture = Fixture::new();
    let prepared = fixture.sandbox(1).prepare().unwrap();
    let answer = fixture.kit("case.solution");
    let stolen = fixture.run(&prepared, &format!("cat {}", answer.display()));
    assert!(
        !stolen.status.success(),
        "read the kit: {}",
        text(&stolen.stdout)
    );
    // Landlock would refuse it; in the job's own file tree it does not even exist.
    let refused = text(&stolen.stderr);
    assert!(
        refused.contains("Permission denied") || refused.contains("No such file"),
        "{refused}"
    );
    let listed = fixture.run(&prepared, &format!("ls {}", fixture.kit.path().display()));
    assert!(
        !listed.status.success(),
        "listed the kit: {}",
        text(&listed.stdout)
    );
    // The same command outside the sandbox reads it: the sandbox, not permissions, refused.
    let plain = Command::new("cat").arg(&answer).output().unwrap();
    assert_eq!(text(&plain.stdout), "= 3\n");

    let own = fixture.run(
        &prepared,
        "cat main.py && echo written > out.txt && mkdir -p build/x && \
         tmp=$(mktemp) && echo t > \"$tmp\" && cat \"$tmp\" && echo \"$tmp\"",
    );
    assert!(own.status.success(), "{}", text(&own.stderr));
    let out = text(&own.stdout);
    assert!(out.starts_with("print(1)\nt\n"), "{out}");
    assert!(
        out.contains(&*fixture.scratch.path().to_string_lossy()),
        "the temporary file is in the scratch directory: {out}"
    );
    assert_eq!(
        fs::read_to_string(fixture.submission.path().join("out.txt")).unwrap(),
        "written\n"
    );
    // Nor can it write outside what it was given.
    let outside = fixture.run(&prepared, "echo x > /tmp/escaped-$$");
    assert!(!outside.status.success());
}

#[test]
fn a_binary_outside_the_allowed_set_cannot_be_run() {
    let fixture = Fixture::new();
    let prepared = fixture.sandbox(2).prepare().unwrap();
    let reference = fixture.kit("reference");
    assert!(Command::new(&reference).status().unwrap().success());
    let ran = fixture.run(&prepared, &format!("{} && echo ran", reference.display()));
    assert!(!ran.status.success(), "{}", text(&ran.stdout));
    assert!(!text(&ran.stdout).contains("ran"));
    // Copying it into the submission first is refused too (it cannot be read).
    let copied = fixture.run(
        &prepared,
        &format!("cp {} ./ref && ./ref && echo ran", reference.display()),
    );
    assert!(!copied.status.success(), "{}", text(&copied.stdout));
    // A program of the system's runs.
    let system = fixture.run(&prepared, "/bin/true && echo ran");
    assert_eq!(text(&system.stdout), "ran\n", "{}", text(&system.stderr));
}

/// A Python script that connects to 127.0.0.1:PORT with a 3 s timeout and says how it went.
fn connect_script(port: u16) -> String {
    format!(
        "/usr/bin/python3 -c 'import socket\n\
         try:\n    socket.create_connection((\"127.0.0.1\", {port}), timeout=3); print(\"connected\")\n\
         except OSError as e:\n    print(\"refused\", e)'"
    )
}

#[test]
fn no_connection_to_a_listener_on_loopback() {
    if !Path::new("/usr/bin/python3").exists() {
        eprintln!("no /usr/bin/python3: skipped");
        return;
    }
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let fixture = Fixture::new();
    // The same script outside the sandbox connects: the test can fail.
    let plain = unsandboxed(&connect_script(port));
    assert_eq!(text(&plain.stdout).trim(), "connected");
    let _ = listener.accept().unwrap();

    let prepared = fixture.sandbox(3).prepare().unwrap();
    let start = Instant::now();
    let tried = fixture.run(&prepared, &connect_script(port));
    let out = text(&tried.stdout);
    assert!(out.starts_with("refused"), "{out} {}", text(&tried.stderr));
    assert!(start.elapsed() < Duration::from_secs(10));
    assert_eq!(
        listener.accept().map(|_| ()).unwrap_err().kind(),
        ErrorKind::WouldBlock,
        "nothing reached the listener"
    );
}

/// A named UNIX socket and a FIFO outside the sandbox, open to every user as a forgotten X
/// server's or a TA's tmux socket may be to the job's uid: a listener that counts what reaches
/// it.
struct Outside {
    _dir: TempDir,
    socket: PathBuf,
    fifo: PathBuf,
    listener: std::os::unix::net::UnixListener,
}

impl Outside {
    fn new() -> Outside {
        let dir = tempfile::tempdir().unwrap();
        let socket = dir.path().join("agent.sock");
        Outside::at(dir, socket)
    }

    /// An X server's socket, as a window's Xvfb has, in `/tmp/.X11-unix`.
    fn x11() -> Outside {
        let folder = Path::new("/tmp/.X11-unix");
        if fs::create_dir(folder).is_ok() {
            fs::set_permissions(folder, fs::Permissions::from_mode(0o1777)).unwrap();
        }
        let dir = tempfile::tempdir().unwrap();
        let name = format!(
            "X-test-{}",
            dir.path().file_name().unwrap().to_string_lossy()
        );
        Outside::at(dir, folder.join(name))
    }

    fn at(dir: TempDir, socket: PathBuf) -> Outside {
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o777)).unwrap();
        let _ = fs::remove_file(&socket);
        let listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
        listener.set_nonblocking(true).unwrap();
        fs::set_permissions(&socket, fs::Permissions::from_mode(0o777)).unwrap();
        let fifo = dir.path().join("fifo");
        let name = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: makes a FIFO at a NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o666) }, 0);
        fs::set_permissions(&fifo, fs::Permissions::from_mode(0o666)).unwrap();
        Outside {
            _dir: dir,
            socket,
            fifo,
            listener,
        }
    }

    /// A script that connects to the socket and writes into the FIFO, saying how each went.
    fn script(&self) -> String {
        format!(
            "/usr/bin/python3 -c 'import os, socket\n\
             s = socket.socket(socket.AF_UNIX)\n\
             try:\n    s.connect(\"{}\"); s.sendall(b\"run this\"); print(\"connected\")\n\
             except OSError as e:\n    print(\"refused\", e)\n\
             try:\n    os.open(\"{}\", os.O_WRONLY | os.O_NONBLOCK); print(\"fifo\")\n\
             except OSError as e:\n    print(\"refused\", e)'",
            self.socket.display(),
            self.fifo.display()
        )
    }

    /// Whether anything connected.
    fn reached(&self) -> bool {
        self.listener.accept().is_ok()
    }
}

impl Drop for Outside {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.socket);
    }
}

#[test]
fn no_named_socket_or_fifo_outside_the_sandbox_can_be_reached() {
    let outside = Outside::new();
    let fixture = Fixture::new();
    // The same script outside the sandbox reaches both: the test can fail.
    let plain = unsandboxed(&outside.script());
    assert!(
        text(&plain.stdout).starts_with("connected\n"),
        "{}",
        text(&plain.stdout)
    );
    assert!(outside.reached());

    let prepared = fixture.sandbox(9).prepare().unwrap();
    assert_eq!(prepared.protections().tree, Status::InForce);
    let tried = fixture.run(&prepared, &outside.script());
    let out = text(&tried.stdout);
    assert_eq!(
        out.matches("refused").count(),
        2,
        "{out} {}",
        text(&tried.stderr)
    );
    assert!(!outside.reached(), "nothing reached the socket");
}

#[test]
fn a_socket_the_grader_admits_is_the_only_one_reached() {
    let admitted = Outside::x11();
    let other = Outside::x11();
    let fixture = Fixture::new();
    let prepared = fixture.sandbox(10).prepare().unwrap();
    prepared.admit(&admitted.socket).unwrap();
    let tried = fixture.run(&prepared, &admitted.script());
    let out = text(&tried.stdout);
    assert!(
        out.starts_with("connected\n"),
        "{out} {}",
        text(&tried.stderr)
    );
    assert!(admitted.reached());
    let tried = fixture.run(&prepared, &other.script());
    assert!(
        text(&tried.stdout).starts_with("refused"),
        "{}",
        text(&tried.stdout)
    );
    assert!(!other.reached());
}

#[test]
fn student_code_starts_with_a_short_environment_and_no_inherited_descriptor() {
    let fixture = Fixture::new();
    let prepared = fixture.sandbox(11).prepare().unwrap();
    // A descriptor without close-on-exec, as a caller of `grade` may leave open.
    let file = fs::File::open(fixture.submission.path().join("main.py")).unwrap();
    // SAFETY: dup returns a new descriptor (without close-on-exec), closed below.
    let leaked = unsafe { libc::dup(std::os::fd::AsRawFd::as_raw_fd(&file)) };
    assert!(leaked > 2);
    let script = format!("[ -e /proc/$$/fd/{leaked} ] && echo open || echo closed; env");
    let plain = unsandboxed(&script);
    let sandboxed = fixture.run(&prepared, &script);
    // SAFETY: closes the descriptor dup made.
    unsafe { libc::close(leaked) };
    // Outside the sandbox the descriptor and cargo's variables reach the shell: the test can
    // fail.
    let plain = text(&plain.stdout);
    assert!(
        plain.starts_with("open\n") && plain.contains("CARGO_MANIFEST_DIR="),
        "{plain}"
    );
    let out = text(&sandboxed.stdout);
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some("closed"), "{}", text(&sandboxed.stderr));
    let names: Vec<&str> = lines.filter_map(|l| l.split('=').next()).collect();
    for name in &names {
        let ours = ["HOME", "TMPDIR", "PATH", "PWD", "SHLVL", "_", "OLDPWD"].contains(name);
        assert!(
            ours || environment::kept(std::ffi::OsStr::new(name)),
            "{name} reached student code: {names:?}"
        );
    }
}

/// 200 sleeping children, forks that fail retried, bounded so that the machine is safe even
/// without a limit: a Python script that prints how many forks succeeded.
const FORKS: &str = "import os, time\n\
                     n = 0\n\
                     for i in range(200):\n    \
                     try:\n        \
                     if os.fork() == 0:\n            os.close(1); os.close(2); time.sleep(5); os._exit(0)\n        \
                     n += 1\n    \
                     except OSError:\n        pass\n\
                     print(n, flush=True)\n";

#[test]
fn a_fork_loop_never_exceeds_the_process_limit() {
    if !root() || !Path::new("/usr/bin/python3").exists() {
        eprintln!("not root, or no /usr/bin/python3: skipped");
        return;
    }
    let fixture = Fixture::new();
    let user = User::for_job(TEST_UID, 4);
    let prepared = fixture.sandbox(4).processes(50).prepare().unwrap();
    assert_eq!(prepared.protections().processes, Status::InForce);
    let mut command = Command::new("/usr/bin/python3");
    command
        .arg("-c")
        .arg(format!("{FORKS}time.sleep(1)\n"))
        .current_dir(fixture.submission.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    prepared.apply(&mut command);
    let child = command.spawn().unwrap();
    let mut most = 0;
    let start = Instant::now();
    while start.elapsed() < Duration::from_millis(1500) {
        most = most.max(processes_of(user.uid));
        thread::sleep(Duration::from_millis(5));
    }
    let output = child.wait_with_output().unwrap();
    let killed = prepared.kill_survivors().unwrap();
    let forked: usize = text(&output.stdout)
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("{} {}", text(&output.stdout), text(&output.stderr)));
    assert_eq!(forked, 49, "the program and 49 children make 50");
    assert!(most <= 50, "{most} processes under a limit of 50");
    assert!(most >= 45, "the count saw the loop reach the limit: {most}");
    assert!(killed >= 45, "{killed} left sleeping were killed");
    assert_eq!(processes_of(user.uid), 0);
}

#[test]
fn kill_now_kills_a_running_job_and_leaves_its_child_to_be_waited_for() {
    let fixture = Fixture::new();
    let prepared = fixture.sandbox(12).prepare().unwrap();
    if prepared.protections().survivors != Status::InForce {
        eprintln!("skipped: the job's processes cannot be told apart here");
        return;
    }
    let marker = fixture.submission.path().join("started");
    let mut command = Command::new("/bin/sh");
    command
        .args(["-c", "sleep 300 & echo $! > started; sleep 300"])
        .current_dir(fixture.submission.path());
    prepared.apply(&mut command);
    let mut child = command.spawn().expect("the sandboxed shell starts");
    let start = Instant::now();
    while !marker.exists() {
        assert!(start.elapsed() < Duration::from_secs(5), "the job started");
        thread::sleep(Duration::from_millis(5));
    }
    let asked = Instant::now();
    prepared.kill_now();
    // Not reaped by kill_now: the child's own wait gets its status, SIGKILL.
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if asked.elapsed() > Duration::from_secs(5) {
            let _ = prepared.kill_survivors();
            panic!("the job still runs after kill_now");
        }
        thread::sleep(Duration::from_millis(5));
    };
    assert_eq!(
        std::os::unix::process::ExitStatusExt::signal(&status),
        Some(libc::SIGKILL)
    );
    assert_eq!(prepared.kill_survivors(), Ok(0), "nothing left of the job");
}

#[test]
fn a_command_started_after_kill_now_is_killed_as_it_starts() {
    // A class run stopped between a case's check and its program's start: the kill found
    // nothing to kill, so the start itself must.
    let fixture = Fixture::new();
    let prepared = fixture.sandbox(12).prepare().unwrap();
    prepared.kill_now();
    let mut command = Command::new("/bin/sh");
    command
        .args(["-c", "sleep 300"])
        .current_dir(fixture.submission.path());
    prepared.apply(&mut command);
    let group = crate::process::group::Group::start(command, Some(&prepared)).unwrap();
    let start = Instant::now();
    let status = loop {
        if let Some(status) = group.status() {
            break status;
        }
        assert!(start.elapsed() < Duration::from_secs(10), "still running");
        thread::sleep(Duration::from_millis(5));
    };
    assert_eq!(
        std::os::unix::process::ExitStatusExt::signal(&status),
        Some(libc::SIGKILL)
    );
}

/// The grader's id of the process that the job's PID namespace calls `inside` (the job's own
/// `/proc` numbers its processes from 1): the one whose `NSpid` line ends with it, below the
/// grader's namespace.
fn seen_from_outside(inside: i32) -> i32 {
    all_statuses()
        .find_map(|status| {
            let ids = status.nspid?;
            (ids.len() > 1 && ids.last() == Some(&inside)).then_some(status.pid)
        })
        .expect("the job's process is seen from outside")
}

#[test]
fn a_double_forked_daemon_is_gone_after_kill_survivors() {
    let fixture = Fixture::new();
    let prepared = fixture.sandbox(5).prepare().unwrap();
    assert_eq!(prepared.protections().survivors, Status::InForce);
    let marker = fixture.submission.path().join("daemon.pid");
    // The daemon: a new session, standard streams closed, its parent gone.
    let left = fixture.run(
        &prepared,
        "setsid sh -c 'sleep 300 & echo $! > daemon.pid' </dev/null >/dev/null 2>&1 & wait",
    );
    assert!(left.status.success(), "{}", text(&left.stderr));
    let start = Instant::now();
    let pid = loop {
        if let Some(pid) = fs::read_to_string(&marker)
            .ok()
            .and_then(|s| s.trim().parse::<i32>().ok())
        {
            break seen_from_outside(pid);
        }
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "the daemon started"
        );
        thread::sleep(Duration::from_millis(10));
    };
    let alive = |pid: i32| {
        procfs::process::Process::new(pid)
            .and_then(|process| process.stat())
            .is_ok_and(|stat| stat.state != 'Z')
    };
    assert!(alive(pid), "the daemon outlived its program");
    let killed = prepared.kill_survivors().unwrap();
    assert!(killed >= 1, "{killed}");
    // SIGKILL is delivered when the daemon is next scheduled: on a loaded machine, a moment
    // after the sweep returns.
    let start = Instant::now();
    while alive(pid) && start.elapsed() < Duration::from_secs(5) {
        thread::sleep(Duration::from_millis(10));
    }
    assert!(!alive(pid), "the daemon is gone");
    if let Some(user) = prepared.user() {
        assert_eq!(processes_of(user.uid), 0);
    }
    assert_eq!(prepared.kill_survivors(), Ok(0));
}

#[test]
fn as_root_the_program_runs_as_the_jobs_user_without_groups() {
    if !root() {
        eprintln!("not root: no user switch");
        return;
    }
    let fixture = Fixture::new();
    let user = User::for_job(TEST_UID, 6);
    let prepared = fixture.sandbox(6).prepare().unwrap();
    assert_eq!(prepared.user(), Some(user));
    let id = fixture.run(&prepared, "id -u; id -g; id -G");
    let out = text(&id.stdout);
    let expected = format!("{}\n{}\n{}\n", user.uid, user.gid, user.gid);
    assert_eq!(out, expected, "{}", text(&id.stderr));
    // Its files are its own; the scratch directory is private.
    let meta = fs::metadata(fixture.scratch.path()).unwrap();
    assert_eq!(meta.permissions().mode() & 0o777, 0o700);
    use std::os::unix::fs::MetadataExt;
    assert_eq!(meta.uid(), user.uid);
}

#[test]
fn an_honest_program_has_what_it_needs() {
    let fixture = Fixture::new();
    let prepared = fixture.sandbox(7).processes(256).prepare().unwrap();
    let shell = fixture.run(&prepared, "echo ok; ls; pwd");
    assert!(shell.status.success(), "{}", text(&shell.stderr));
    assert!(text(&shell.stdout).starts_with("ok\nmain.py\n"));
    if Path::new("/usr/bin/python3").exists() {
        let python = fixture.run(&prepared, "/usr/bin/python3 -c 'print(1)' && /usr/bin/python3 main.py && \
             /usr/bin/python3 -c 'import tempfile, threading; tempfile.TemporaryFile().write(b\"x\"); \
             t = threading.Thread(target=print, args=(2,)); t.start(); t.join()'",
        );
        assert_eq!(
            text(&python.stdout),
            "1\n1\n2\n",
            "{}",
            text(&python.stderr)
        );
    }
    if Path::new("/usr/lib/jvm").exists() && Path::new("/usr/bin/java").exists() {
        let java = fixture.run(&prepared, "java -version 2>&1");
        let out = text(&java.stdout);
        assert!(java.status.success(), "{out}");
        assert!(out.contains("version"), "{out}");
        assert!(!out.contains("Warning") && !out.contains("Error"), "{out}");
    }
}

#[test]
fn a_hidden_path_under_an_allowed_one_is_refused() {
    let fixture = Fixture::new();
    let inside = fixture.submission.path().join("grading");
    fs::create_dir(&inside).unwrap();
    let refused = Sandbox::new()
        .write(fixture.submission.path())
        .hide(&inside)
        .prepare()
        .unwrap_err();
    assert!(
        matches!(refused, SandboxError::HiddenUnderAllowed { .. }),
        "{refused}"
    );
    let system = Sandbox::new().hide("/usr/share").prepare().unwrap_err();
    assert!(
        matches!(system, SandboxError::HiddenUnderAllowed { .. }),
        "{system}"
    );
    assert!(Sandbox::new().hide(fixture.kit.path()).prepare().is_ok());
}

#[test]
fn a_missing_path_is_an_error_not_a_hole() {
    let missing = Sandbox::new().read("/nonexistent/toolchain").prepare();
    assert!(matches!(missing, Err(SandboxError::Path(..))));
}

/// The environment variable that tells [`as_an_unprivileged_grader`] it runs as the
/// unprivileged grader.
const INNER: &str = "SANDBOX_TEST_UNPRIVILEGED";

/// The namespace path, tested as an instructor's grader that is not root: as root, this runs
/// [`as_an_unprivileged_grader`] again in a test process of another uid.
#[test]
fn without_root_a_user_namespace_does_the_same() {
    if !root() {
        return as_an_unprivileged_grader();
    }
    let uid = TEST_UID + 100;
    let test = "process::sandbox::tests::as_an_unprivileged_grader";
    let output = Command::new(std::env::current_exe().unwrap())
        .args([
            test,
            "--exact",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(INNER, "1")
        .env_remove("HOME")
        .uid(uid)
        .gid(uid)
        .output()
        .unwrap();
    let (out, err) = (text(&output.stdout), text(&output.stderr));
    assert!(output.status.success(), "{out}\n{err}");
    assert!(out.contains("1 passed"), "{out}\n{err}");
    assert_eq!(processes_of(uid), 0);
}

/// A job with a disk of its own (`job`'s): what it writes, the submission's changes and its
/// homes, is there for its later commands, past the bound its writes fail and the grader knows,
/// and the grader's copy of the submission and its scratch folder never change.
fn writes_go_to_a_disk_of_its_own(fixture: &Fixture, job: u32) {
    let prepared = fixture.sandbox(job).disk(4 << 20).prepare().unwrap();
    assert_eq!(prepared.protections().disk, Status::InForce);
    let listing = |dir: &Path| {
        let mut names: Vec<_> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        names.sort();
        names
    };
    let submission = fixture.submission.path();
    let scratch = listing(fixture.scratch.path());
    let wrote = fixture.run(
        &prepared,
        "echo built > out.txt && mkdir -p target/x && echo h > \"$HOME/h\" && \
         echo t > \"$(mktemp)\" && rm main.py && echo done",
    );
    assert_eq!(text(&wrote.stdout), "done\n", "{}", text(&wrote.stderr));
    let later = fixture.run(&prepared, "cat out.txt; ls main.py || echo gone");
    assert_eq!(
        text(&later.stdout),
        "built\ngone\n",
        "{}",
        text(&later.stderr)
    );
    assert!(!prepared.disk_full());
    let filled = fixture.run(&prepared, "dd if=/dev/zero of=big bs=1M count=8");
    assert!(!filled.status.success());
    assert!(
        text(&filled.stderr).contains("No space left"),
        "{}",
        text(&filled.stderr)
    );
    assert!(prepared.disk_full());
    // Nor can it write into the scratch folder beside its homes.
    let beside = fixture.run(
        &prepared,
        &format!("echo x > {}/x", fixture.scratch.path().display()),
    );
    assert!(!beside.status.success());
    assert_eq!(listing(submission), ["main.py"]);
    assert_eq!(
        fs::read_to_string(submission.join("main.py")).unwrap(),
        "print(1)\n"
    );
    let homes = std::ffi::OsString::from(mounts::HOMES);
    let grown: Vec<_> = listing(fixture.scratch.path())
        .into_iter()
        .filter(|n| !scratch.contains(n) && *n != homes)
        .collect();
    assert!(grown.is_empty(), "{grown:?}");
    assert_eq!(
        fs::read_dir(fixture.scratch.path().join(mounts::HOMES))
            .unwrap()
            .count(),
        0
    );
}

#[test]
fn as_root_writes_go_to_a_disk_of_its_own() {
    if root() {
        writes_go_to_a_disk_of_its_own(&Fixture::new(), 9);
    }
}

/// What [`without_root_a_user_namespace_does_the_same`] runs as an unprivileged grader: every
/// protection but the user switch is in force, through the job's user namespace.
#[test]
#[ignore = "run by without_root_a_user_namespace_does_the_same as another uid"]
fn as_an_unprivileged_grader() {
    if root() && std::env::var_os(INNER).is_none() {
        return;
    }
    // This test runs alone in its process: the orphans it makes come back to it, to be reaped.
    become_subreaper().unwrap();
    let fixture = Fixture::new();
    let prepared = fixture.sandbox(0).processes(50).prepare().unwrap();
    let protections = prepared.protections();
    assert_eq!(protections.user, Status::Unavailable(Reason::NotRoot));
    for protection in Protection::ALL.into_iter().skip(1) {
        match protection {
            // An ordinary user has no control group of its own here (cgroup v1, not delegated):
            // said, with the reason.
            Protection::Memory | Protection::Cpu => assert!(
                matches!(
                    protections.get(protection),
                    Status::Unavailable(Reason::Cgroup(_))
                ),
                "{protection}: {:?}",
                protections.get(protection)
            ),
            // Asked for below.
            Protection::Disk => assert_eq!(protections.disk, Status::NotRequested),
            // No device node can be made in a user namespace: the machine's are bound, said.
            Protection::Tree => assert!(
                matches!(&protections.tree, Status::Partly(Reason::Shared(_))),
                "{:?}",
                protections.tree
            ),
            _ => assert_eq!(
                protections.get(protection),
                &Status::InForce,
                "{protection}"
            ),
        }
    }
    let job = prepared.job().unwrap();
    assert!(matches!(job, Marker::UserNamespace { .. }));

    let answer = fixture.kit("case.solution");
    let stolen = fixture.run(
        &prepared,
        &format!("cat {}; echo mine > own.txt; cat own.txt", answer.display()),
    );
    assert_eq!(text(&stolen.stdout), "mine\n", "{}", text(&stolen.stderr));

    // The grader cannot be signalled from the sandbox although it is the same uid.
    let grader = std::process::id();
    let signal = fixture.run(&prepared, &format!("kill -0 {grader} && echo reached"));
    assert!(!text(&signal.stdout).contains("reached"));

    if Path::new("/usr/bin/python3").exists() {
        // A socket of the grader's own uid, as a TA's tmux or ssh-agent is.
        let outside = Outside::new();
        let tried = fixture.run(&prepared, &outside.script());
        assert_eq!(text(&tried.stdout).matches("refused").count(), 2);
        assert!(!outside.reached());

        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let tried = fixture.run(&prepared, &connect_script(port));
        assert!(
            text(&tried.stdout).starts_with("refused"),
            "{}",
            text(&tried.stdout)
        );

        // A fork loop: the limit counts the job's namespace only, not the grader's processes.
        let forked = fixture.run(&prepared, &format!("/usr/bin/python3 -c '{FORKS}'"));
        let forked: usize = text(&forked.stdout).trim().parse().unwrap();
        assert!(
            (45..=49).contains(&forked),
            "{forked} forks under a limit of 50"
        );
        let left = survivors::live(job).len();
        assert!(left >= 45, "{left}");
        assert_eq!(prepared.kill_survivors().unwrap(), left);
        assert!(survivors::live(job).is_empty());
        // Reaped, they no longer count against the limit: the job can fork again.
        let again = fixture.run(&prepared, "sh -c 'echo again'");
        assert_eq!(text(&again.stdout), "again\n", "{}", text(&again.stderr));
    }

    // A daemon, also in a nested user namespace if it could make one.
    let left = fixture.run(
        &prepared,
        "unshare -U true && echo nested; \
         setsid sh -c 'sleep 300 & echo $! > daemon.pid' </dev/null >/dev/null 2>&1 & wait",
    );
    assert!(
        !text(&left.stdout).contains("nested"),
        "{}",
        text(&left.stdout)
    );
    let start = Instant::now();
    while !fixture.submission.path().join("daemon.pid").exists() {
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "the daemon started"
        );
        thread::sleep(Duration::from_millis(10));
    }
    assert!(!survivors::live(job).is_empty());
    assert!(prepared.kill_survivors().unwrap() >= 1);
    assert!(survivors::live(job).is_empty());
    writes_go_to_a_disk_of_its_own(&Fixture::new(), 0);
}

/// The sandbox's cost: preparing it once per job, and applying it to each process (200 runs of
/// `/bin/true` with and without it, interleaved). `cargo test -p connect_four_grader --lib
/// process::sandbox::tests::cost -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement, not a check"]
fn cost() {
    const RUNS: u32 = 200;
    let fixture = Fixture::new();
    let start = Instant::now();
    let prepared = fixture.sandbox(8).processes(256).prepare().unwrap();
    let prepare = start.elapsed();
    // Plain (std spawns with posix_spawn), with an empty pre_exec (std forks: the part of the
    // cost that any pre_exec brings), sandboxed.
    let time = |how: u8| {
        let start = Instant::now();
        let mut command = Command::new("/bin/true");
        command.current_dir(fixture.submission.path());
        match how {
            0 => {}
            // SAFETY: does nothing.
            1 => unsafe {
                command.pre_exec(|| Ok(()));
            },
            _ => prepared.apply(&mut command),
        }
        assert!(command.status().unwrap().success());
        start.elapsed()
    };
    let (mut plain, mut forked, mut sandboxed) = (Duration::ZERO, Duration::ZERO, Duration::ZERO);
    for _ in 0..RUNS {
        plain += time(0);
        forked += time(1);
        sandboxed += time(2);
    }
    let start = Instant::now();
    let killed = prepared.kill_survivors().unwrap();
    let sweep = start.elapsed();
    let start = Instant::now();
    drop(prepared);
    let dropped = start.elapsed();
    println!(
        "prepare: {:.2} ms; {RUNS} runs of /bin/true: plain {:.3} ms each, with an empty \
         pre_exec {:.3} ms, sandboxed {:.3} ms each (+{:.3} ms); an empty sweep: {:.2} ms \
         ({killed} killed); dropping it: {:.2} ms",
        prepare.as_secs_f64() * 1e3,
        plain.as_secs_f64() * 1e3 / f64::from(RUNS),
        forked.as_secs_f64() * 1e3 / f64::from(RUNS),
        sandboxed.as_secs_f64() * 1e3 / f64::from(RUNS),
        (sandboxed.as_secs_f64() - plain.as_secs_f64()) * 1e3 / f64::from(RUNS),
        sweep.as_secs_f64() * 1e3,
        dropped.as_secs_f64() * 1e3,
    );
}

#[test]
fn the_search_path_keeps_only_folders_the_job_may_reach() {
    let fixture = Fixture::new();
    let sandbox = Sandbox::new().write(fixture.submission.path());
    let hidden = fixture.kit.path().join("bin");
    let path = std::env::join_paths([
        hidden.as_path(),
        Path::new("/usr/bin"),
        &fixture.submission.path().join("bin"),
    ])
    .unwrap();
    let kept = sandbox.search_path(&path).unwrap();
    let kept: Vec<PathBuf> = std::env::split_paths(&kept).collect();
    assert_eq!(
        kept,
        [
            PathBuf::from("/usr/bin"),
            fixture.submission.path().join("bin")
        ]
    );
}

/// A key added to the user keyring, or found there: `add` or `find`, through Python's ctypes
/// (x86-64 system call numbers: add_key 248, keyctl 250; KEYCTL_SEARCH 10; the user keyring -4).
fn key_script(what: &str) -> String {
    let call = match what {
        "add" => "libc.syscall(248, b'user', b'left-by-a-student', b'secret', 6, -4)",
        _ => "libc.syscall(250, 10, -4, b'user', b'left-by-a-student', 0)",
    };
    format!(
        "/usr/bin/python3 -c \"import ctypes; libc = ctypes.CDLL(None, use_errno=True); \
         print('key', {call} > 0)\""
    )
}

#[test]
fn nothing_outside_the_job_is_seen_and_nothing_it_leaves_reaches_the_next_job() {
    let fixture = Fixture::new();
    // The grading user's process with a secret on its command line, as a TA's `--token=...`
    // (one process, killed below: a shell's child would outlive it holding the test's output).
    let mut secret = Command::new("/usr/bin/python3")
        .args(["-c", "import time; time.sleep(300)", "token=a8f3e1c9"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let prepared = fixture.sandbox(9).prepare().unwrap();
    assert_eq!(prepared.protections().sight, Status::InForce);
    assert_eq!(prepared.protections().objects, Status::InForce);
    let seen = fixture.run(
        &prepared,
        "cat /proc/[0-9]*/cmdline | tr '\\0' ' '; echo; ls /proc | grep -c '^[0-9]'",
    );
    let out = text(&seen.stdout);
    assert!(!out.contains("a8f3e1c9"), "{out}");
    let count: usize = out.lines().last().unwrap().trim().parse().unwrap();
    assert!(count <= 6, "{count} processes seen: {out}");
    assert_eq!(
        text(&fixture.run(&prepared, "readlink /proc/self").stdout)
            .trim()
            .parse::<i32>()
            .map(|p| p > 0),
        Ok(true)
    );
    secret.kill().unwrap();
    secret.wait().unwrap();

    // A System V segment and a message queue made in the job are in its namespace alone.
    let made = fixture.run(
        &prepared,
        "ipcmk -M 1048576 && ipcmk -Q && ipcs -m | grep -c 0x",
    );
    assert!(
        text(&made.stdout).ends_with("1\n"),
        "{}",
        text(&made.stderr)
    );
    let outside = Command::new("ipcs").arg("-m").output().unwrap();
    assert!(
        !text(&outside.stdout).contains("1048576"),
        "{}",
        text(&outside.stdout)
    );
    // POSIX shared memory works in the job's own /dev/shm, of a bounded size.
    let shm = fixture.run(&prepared, "/usr/bin/python3 -c 'import multiprocessing as m; l = m.Lock(); l.acquire(); print(\"locked\")' \
         && df -k /dev/shm | tail -1",
    );
    let out = text(&shm.stdout);
    assert!(out.starts_with("locked\n"), "{out}{}", text(&shm.stderr));
    assert!(out.contains(" 262144 "), "a 256 MiB /dev/shm: {out}");
    if root() {
        let added = fixture.run(&prepared, &key_script("add"));
        assert_eq!(text(&added.stdout), "key True\n", "{}", text(&added.stderr));
    }
    drop(prepared);

    // The next job under the same uid finds neither.
    let next = fixture.sandbox(9).prepare().unwrap();
    let left = fixture.run(&next, "ipcs -m -q | grep -c 0x");
    assert_eq!(text(&left.stdout), "0\n", "{}", text(&left.stderr));
    if root() {
        let found = fixture.run(&next, &key_script("find"));
        assert_eq!(
            text(&found.stdout),
            "key False\n",
            "{}",
            text(&found.stderr)
        );
    }
}

#[test]
fn the_jobs_processes_share_one_memory_limit_that_counts_shared_mappings() {
    if !root() {
        return;
    }
    let fixture = Fixture::new();
    let mut sandbox = fixture.sandbox(11);
    sandbox.budget = Some(Budget {
        memory_bytes: Some(64 << 20),
        processes: Some(64),
        cpus: None,
    });
    let prepared = sandbox.prepare().unwrap();
    assert_eq!(prepared.protections().memory, Status::InForce);
    assert_eq!(prepared.protections().cpu, Status::InForce);
    prepared.watch_memory();
    // Two processes of 40 MiB each, in shared mappings, which RLIMIT_DATA does not count.
    let script = "import mmap, os, time\n\
                  os.fork()\n\
                  m = mmap.mmap(-1, 40 << 20)\n\
                  m.write(b'x' * (40 << 20))\n\
                  time.sleep(1)\n\
                  print('survived', flush=True)\n";
    let ran = fixture.run(&prepared, &format!("/usr/bin/python3 -c \"{script}\""));
    assert!(
        text(&ran.stdout).matches("survived").count() < 2,
        "{}",
        text(&ran.stdout)
    );
    assert!(prepared.memory_exceeded());
    prepared.watch_memory();
    let small = fixture.run(&prepared, "echo fine");
    assert_eq!(text(&small.stdout), "fine\n");
    assert!(!prepared.memory_exceeded());
}

#[test]
fn an_honest_program_reads_its_own_proc_as_it_would_without_the_sandbox() {
    let fixture = Fixture::new();
    let prepared = fixture.sandbox(12).prepare().unwrap();
    assert_eq!(prepared.protections().sight, Status::InForce);
    // What a runtime reads to size itself: its own status, the CPUs, the memory.
    let script = "grep -c ^processor /proc/cpuinfo && grep ^MemTotal /proc/meminfo && \
                  grep -c ^Threads /proc/self/status && ls /proc/self/fd > /dev/null && echo ok";
    let inside = fixture.run(&prepared, script);
    let outside = unsandboxed(script);
    assert!(inside.status.success(), "{}", text(&inside.stderr));
    assert_eq!(text(&inside.stdout), text(&outside.stdout));
    // Its own processes only: the shell and what it runs.
    let seen = fixture.run(&prepared, "ls /proc | grep -c '^[0-9]'");
    let count: usize = text(&seen.stdout).trim().parse().unwrap();
    assert!((1..=6).contains(&count), "{count}: {}", text(&seen.stderr));
}

/// A Python script that takes a lock on each of `files`, the job's side of a channel: `hold`
/// keeps them (exclusive) until killed, else says which it could not take at once.
fn lock_script(files: &[&str], hold: bool) -> String {
    let list = files
        .iter()
        .map(|f| format!("'{f}'"))
        .collect::<Vec<_>>()
        .join(", ");
    let body = match hold {
        true => "for f in fs: fcntl.flock(f, fcntl.LOCK_EX)\n\
                 print('held', flush=True)\n\
                 time.sleep(30)"
            .to_string(),
        false => "busy = []\n\
                  for f in fs:\n    \
                  try: fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)\n    \
                  except OSError: busy.append(f.name)\n\
                  print(busy)"
            .to_string(),
    };
    format!("/usr/bin/python3 -c \"import fcntl, time\nfs = [open(p, 'rb') for p in [{list}]]\n{body}\"")
}

#[test]
fn two_jobs_at_once_cannot_pass_a_byte_through_locks_or_control_group_figures() {
    use std::io::{BufRead, BufReader};
    let fixture = Fixture::new();
    let (sender, receiver) = (
        fixture.sandbox(13).prepare().unwrap(),
        fixture.sandbox(14).prepare().unwrap(),
    );
    // Files both jobs may open: the system's, its devices (as root: an ordinary user's jobs
    // cannot have device nodes of their own, which the report says), `/sys` and `/proc`.
    let mut files = vec![
        "/etc/passwd",
        "/usr/bin/env",
        "/sys/devices/system/cpu/online",
        "/proc/cpuinfo",
    ];
    if root() {
        assert_eq!(receiver.protections().tree, Status::InForce);
        files.extend(["/dev/null", "/dev/urandom"]);
    } else {
        assert!(matches!(
            receiver.protections().tree,
            Status::Partly(Reason::Shared(_))
        ));
    }
    // The receiver's probe finds a lock held outside the sandbox: it can fail.
    // `exec`: the holder is the process killed below, not a shell's child that outlives it.
    let outside = Command::new("/bin/sh")
        .args(["-c", &format!("exec {}", lock_script(&files[..1], true))])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let held = |child: std::process::Child| {
        let mut line = String::new();
        let mut child = child;
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        assert_eq!(line, "held\n");
        child
    };
    let mut outside = held(outside);
    let probe = unsandboxed(&lock_script(&files[..1], false));
    assert_eq!(text(&probe.stdout), "['/etc/passwd']\n");
    outside.kill().unwrap();
    outside.wait().unwrap();

    let mut command = Command::new("/bin/sh");
    command
        .args(["-c", &lock_script(&files, true)])
        .stdout(Stdio::piped());
    sender.apply(&mut command);
    let mut holding = held(command.spawn().unwrap());
    let probe = fixture.run(&receiver, &lock_script(&files, false));
    assert_eq!(text(&probe.stdout), "[]\n", "{}", text(&probe.stderr));
    holding.kill().unwrap();
    holding.wait().unwrap();
    sender.kill_survivors().unwrap();

    // No control group's figures at all, the sender's included, though the machine has them.
    let groups = fixture.run(&receiver, "ls -A /sys/fs/cgroup | wc -l");
    assert_eq!(text(&groups.stdout), "0\n", "{}", text(&groups.stderr));
    assert_ne!(
        text(&unsandboxed("ls -A /sys/fs/cgroup | wc -l").stdout),
        "0\n"
    );
}
