//! Shared by the window tests: an X display to show windows on. It is `$DISPLAY` if set,
//! otherwise a private Xvfb started on a free display number and stopped when the tests end.
//! Without a display the tests skip with a note, except under CI (`CI` set), where they fail.

use std::env;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

/// An X display the tests can use; a private Xvfb is stopped when this is dropped.
pub struct Display {
    /// The display's name, such as `:93`.
    pub name: String,
    server: Option<Child>,
}

impl Drop for Display {
    fn drop(&mut self) {
        if let Some(server) = &mut self.server {
            server.kill().ok();
            server.wait().ok();
        }
    }
}

/// A display for the window tests, or `None` (with a note on stderr) if there is none and CI
/// is not set. Under CI, no display is a failure with a message that says how to get one.
pub fn display() -> Option<Display> {
    if let Some(name) = env::var("DISPLAY").ok().filter(|name| !name.is_empty()) {
        return Some(Display { name, server: None });
    }
    match start_xvfb() {
        Ok(display) => Some(display),
        Err(why) if env::var_os("CI").is_some() => panic!(
            "the window tests need an X display and CI is set: {why}. \
             Install Xvfb (source scripts/setup.sh gui xvfb) or set DISPLAY."
        ),
        Err(why) => {
            eprintln!(
                "note: window tests skipped: {why} (install Xvfb or set DISPLAY to run them)"
            );
            None
        }
    }
}

/// Starts Xvfb on the first display number from 90 whose lock and socket are free.
fn start_xvfb() -> Result<Display, String> {
    for number in 90..190 {
        let taken = |path: String| Path::new(&path).exists();
        if taken(format!("/tmp/.X{number}-lock")) || taken(format!("/tmp/.X11-unix/X{number}")) {
            continue;
        }
        let mut server = Command::new("Xvfb")
            .args([
                &format!(":{number}"),
                "-screen",
                "0",
                "1280x1024x24",
                "-nolisten",
                "tcp",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start Xvfb: {e}"))?;
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            if taken(format!("/tmp/.X11-unix/X{number}")) {
                return Ok(Display {
                    name: format!(":{number}"),
                    server: Some(server),
                });
            }
            if server.try_wait().ok().flatten().is_some() {
                break; // another server took this number first: try the next
            }
            sleep(Duration::from_millis(50));
        }
        server.kill().ok();
        server.wait().ok();
    }
    Err("no display number from :90 to :189 was free for Xvfb".to_string())
}
