//! Shared by the window tests: an X display to show windows on. It is `$DISPLAY` if set,
//! otherwise a private Xvfb, on a display number it picks, stopped when the tests end.
//! Without a display (or a tool they need) the tests skip with a note, except under CI (`CI`
//! set), where they fail.

use std::env;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// An X display the tests can use; a private Xvfb is stopped when this is dropped.
pub struct Display {
    /// The display's name, such as `:93`.
    pub name: String,
    server: Option<Child>,
}

impl Drop for Display {
    fn drop(&mut self) {
        if let Some(server) = &mut self.server {
            stop(server);
        }
    }
}

/// A display for the window tests, with the command-line `tools` they run on it, or `None`
/// (with a note on stderr) if either is missing and CI is not set. Under CI, a missing display
/// or tool is a failure with a message that says how to get it.
pub fn display(tools: &[&str]) -> Option<Display> {
    let missing = |why: String| {
        if env::var_os("CI").is_some() {
            panic!("the window tests need {why}, and CI is set: source scripts/setup.sh gui xvfb");
        }
        eprintln!("note: window tests skipped: they need {why} (source scripts/setup.sh gui xvfb)");
        None
    };
    for tool in tools {
        let found = Command::new("which")
            .arg(tool)
            .stdout(Stdio::null())
            .status();
        if !found.is_ok_and(|status| status.success()) {
            return missing(format!("the program {tool}"));
        }
    }
    if let Some(name) = env::var("DISPLAY").ok().filter(|name| !name.is_empty()) {
        return Some(Display { name, server: None });
    }
    start_xvfb().map_or_else(|why| missing(format!("an X display ({why})")), Some)
}

/// Starts Xvfb on a display number it picks itself (`-displayfd`), which it prints once it
/// accepts connections.
fn start_xvfb() -> Result<Display, String> {
    let mut server = Command::new("Xvfb")
        // -noreset: by default the server resets when its last client leaves, and refuses
        // connections meanwhile, which would fail the next program started.
        .args([
            "-displayfd",
            "1",
            "-screen",
            "0",
            "1280x1024x24",
            "-nolisten",
            "tcp",
            "-noreset",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start Xvfb: {e}"))?;
    let mut number = String::new();
    if let Some(stdout) = server.stdout.take() {
        BufReader::new(stdout).read_line(&mut number).ok();
    }
    match number.trim().parse::<u32>() {
        Ok(number) => Ok(Display {
            name: format!(":{number}"),
            server: Some(server),
        }),
        Err(_) => {
            stop(&mut server);
            Err("Xvfb started but did not report a display".to_string())
        }
    }
}

/// Stops Xvfb politely, so that it removes its lock file and socket.
fn stop(server: &mut Child) {
    let stopped = Command::new("kill").arg(server.id().to_string()).status();
    if !stopped.is_ok_and(|status| status.success()) {
        server.kill().ok();
    }
    server.wait().ok();
}
