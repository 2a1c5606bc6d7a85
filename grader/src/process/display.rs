//! A private X display to run a student's window on, and the X actions an observer needs: a
//! [`Display`] is an Xvfb server on a display number it picks itself (`-displayfd`), listening
//! on no TCP port and never resetting, stopped and reaped when dropped. Windows are found,
//! measured, clicked, hidden and shown with xdotool, and the screen is taken with ImageMagick's
//! `import` as a PNG file, which is kept (for people to look at) and decoded into an [`Image`]
//! (for the observer to compare). Knows nothing of cases or of Connect Four.
//!
//! The server's socket is the file `/tmp/.X11-unix/X<n>` ([`Display::socket`]); a client in
//! the sandbox reaches it there once the sandbox has admitted it into the job's file tree (its
//! network namespace hides the server's abstract socket). Where the job has no file tree of its
//! own, every server's socket file is reachable, so a server also admits only the clients that
//! show its random cookie: the authority file [`Display::grant`] writes for its job alone.

use std::fmt;
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use tempfile::TempDir;

/// How long Xvfb may take to say its display number.
const START_LIMIT: Duration = Duration::from_secs(10);
/// How long one xdotool or ImageMagick command may take.
const TOOL_LIMIT: Duration = Duration::from_secs(10);
/// The name of the authority file a client is given.
const AUTHORITY: &str = "Xauthority";
/// How often a polled command is run again.
const POLL: Duration = Duration::from_millis(100);

/// Why the display or one of its actions failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DisplayError {
    /// A program the display needs (Xvfb, xdotool, import) is not installed.
    #[error(
        "{0} is not installed (scripts/setup.sh xvfb installs it with xdotool and \
         ImageMagick)"
    )]
    Missing(&'static str),
    /// Xvfb started but did not say which display it serves.
    #[error("Xvfb did not start: {0}")]
    NoDisplay(String),
    /// A tool failed: its name and arguments, and its standard error or exit status.
    #[error("{0} failed: {1}")]
    Tool(String, String),
    /// A screenshot is not a PNG file of 8-bit RGB(A): the decoder's words.
    #[error("a screenshot cannot be read: {0}")]
    Picture(String),
}

/// An X window, by its id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Window(pub u64);

/// A rectangle on the screen, in pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Rect {
    /// Its left edge.
    pub x: i32,
    /// Its top edge.
    pub y: i32,
    pub width: u32,
    pub height: u32,
}

impl Rect {
    /// Its centre.
    pub fn centre(&self) -> (i32, i32) {
        (
            self.x + (self.width / 2) as i32,
            self.y + (self.height / 2) as i32,
        )
    }

    /// The part of it `margin` pixels in from every edge (empty if it is too small).
    pub fn inset(&self, margin: u32) -> Rect {
        Rect {
            x: self.x + margin as i32,
            y: self.y + margin as i32,
            width: self.width.saturating_sub(2 * margin),
            height: self.height.saturating_sub(2 * margin),
        }
    }
}

/// A screenshot: where its PNG file is, and its pixels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    /// The PNG file.
    pub path: PathBuf,
    /// Its width in pixels.
    pub width: u32,
    /// Its height in pixels.
    pub height: u32,
    /// Red, green and blue of each pixel, row by row.
    pixels: Vec<[u8; 3]>,
}

impl Image {
    /// The colour at (`x`, `y`), or `None` off the picture.
    pub fn pixel(&self, x: i32, y: i32) -> Option<[u8; 3]> {
        let (x, y) = (u32::try_from(x).ok()?, u32::try_from(y).ok()?);
        (x < self.width && y < self.height).then(|| self.pixels[(y * self.width + x) as usize])
    }

    /// Whether every pixel of `area` on the picture has one colour (a window not yet drawn).
    pub fn uniform(&self, area: Rect) -> bool {
        let first = self.pixel(area.x, area.y);
        (area.y..area.y + area.height as i32)
            .all(|y| (area.x..area.x + area.width as i32).all(|x| self.pixel(x, y) == first))
    }

    /// The share (0 to 1) of the pixels of `area` that differ from `other`'s at the same place,
    /// a pixel off either picture counting as different.
    pub fn differs(&self, other: &Image, area: Rect) -> f64 {
        let mut changed = 0u64;
        for y in area.y..area.y + area.height as i32 {
            for x in area.x..area.x + area.width as i32 {
                let (mine, theirs) = (self.pixel(x, y), other.pixel(x, y));
                if mine.is_none() || mine != theirs {
                    changed += 1;
                }
            }
        }
        let all = u64::from(area.width) * u64::from(area.height);
        if all == 0 {
            0.0
        } else {
            changed as f64 / all as f64
        }
    }

    /// The smallest rectangle of `area` holding every pixel that differs from `other`'s, if any
    /// does.
    pub fn changed(&self, other: &Image, area: Rect) -> Option<Rect> {
        let mut bounds: Option<(i32, i32, i32, i32)> = None;
        for y in area.y..area.y + area.height as i32 {
            for x in area.x..area.x + area.width as i32 {
                if self.pixel(x, y) != other.pixel(x, y) {
                    let (left, top, right, bottom) = bounds.unwrap_or((x, y, x, y));
                    bounds = Some((left.min(x), top.min(y), right.max(x), bottom.max(y)));
                }
            }
        }
        bounds.map(|(left, top, right, bottom)| Rect {
            x: left,
            y: top,
            width: (right - left + 1) as u32,
            height: (bottom - top + 1) as u32,
        })
    }

    /// The part of the picture in `area`, written as a PNG file at `path` (a pixel off the
    /// picture black).
    pub fn crop(&self, area: Rect, path: &Path) -> Result<Image, DisplayError> {
        Image::save(path, (area.width, area.height), |x, y| {
            self.pixel(area.x + x as i32, area.y + y as i32)
                .unwrap_or_default()
        })
    }

    /// Decodes the PNG file at `path` (8-bit RGB or RGBA, as `import` writes).
    pub fn load(path: &Path) -> Result<Image, DisplayError> {
        let bad = |e: &dyn fmt::Display| DisplayError::Picture(format!("{}: {e}", path.display()));
        let file = File::open(path).map_err(|e| bad(&e))?;
        let mut decoder = png::Decoder::new(BufReader::new(file));
        decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
        let mut reader = decoder.read_info().map_err(|e| bad(&e))?;
        let size = reader
            .output_buffer_size()
            .ok_or_else(|| bad(&"too large"))?;
        let mut buffer = vec![0; size];
        let frame = reader.next_frame(&mut buffer).map_err(|e| bad(&e))?;
        let channels = match frame.color_type {
            png::ColorType::Rgb => 3,
            png::ColorType::Rgba => 4,
            png::ColorType::Grayscale => 1,
            png::ColorType::GrayscaleAlpha => 2,
            png::ColorType::Indexed => return Err(bad(&"an indexed picture")),
        };
        let pixels = buffer[..frame.buffer_size()]
            .chunks_exact(frame.line_size)
            .flat_map(|line| {
                line.chunks_exact(channels)
                    .take(frame.width as usize)
                    .map(|p| match channels {
                        1 | 2 => [p[0]; 3],
                        _ => [p[0], p[1], p[2]],
                    })
            })
            .collect();
        Ok(Image {
            path: path.to_path_buf(),
            width: frame.width,
            height: frame.height,
            pixels,
        })
    }

    /// Writes a `width` x `height` picture of the colours `colour(x, y)` as a PNG file at
    /// `path`: for tests, and for pictures made rather than taken.
    pub fn save(
        path: &Path,
        (width, height): (u32, u32),
        colour: impl Fn(u32, u32) -> [u8; 3],
    ) -> Result<Image, DisplayError> {
        let bad = |e: &dyn fmt::Display| DisplayError::Picture(format!("{}: {e}", path.display()));
        let pixels: Vec<[u8; 3]> = (0..height)
            .flat_map(|y| (0..width).map(move |x| (x, y)))
            .map(|(x, y)| colour(x, y))
            .collect();
        let file = File::create(path).map_err(|e| bad(&e))?;
        let mut encoder = png::Encoder::new(BufWriter::new(file), width, height);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().map_err(|e| bad(&e))?;
        writer
            .write_image_data(pixels.as_flattened())
            .map_err(|e| bad(&e))?;
        writer.finish().map_err(|e| bad(&e))?;
        Ok(Image {
            path: path.to_path_buf(),
            width,
            height,
            pixels,
        })
    }
}

/// A private Xvfb server, stopped and reaped when dropped.
pub struct Display {
    /// Its name, such as `:93`.
    name: String,
    server: Child,
    /// The secret a client must show (MIT-MAGIC-COOKIE-1).
    cookie: [u8; 16],
    /// A private folder: the server's authority file, and the grader's own as a client.
    folder: TempDir,
}

impl Display {
    /// Starts Xvfb with one screen of `width` x `height` pixels on a display number it picks
    /// itself, once the tools the actions need are found.
    pub fn start(width: u32, height: u32) -> Result<Display, DisplayError> {
        for tool in ["Xvfb", "xdotool", "import"] {
            if !installed(tool) {
                return Err(DisplayError::Missing(tool));
            }
        }
        let folder = tempfile::Builder::new()
            .prefix("grade-display-")
            .tempdir()
            .map_err(|e| DisplayError::NoDisplay(format!("no folder for its secret: {e}")))?;
        let mut cookie = [0u8; 16];
        File::open("/dev/urandom")
            .and_then(|mut random| random.read_exact(&mut cookie))
            .map_err(|e| DisplayError::NoDisplay(format!("no secret: {e}")))?;
        // The server takes every cookie of its file, whatever display it names.
        let server_file = folder.path().join("server");
        write_authority(&server_file, "0", &cookie, 0o600)
            .map_err(|e| DisplayError::NoDisplay(format!("its secret cannot be written: {e}")))?;
        let mut server = Command::new("Xvfb")
            // -noreset: by default the server resets when its last client leaves, and refuses
            // connections meanwhile, which would fail the next program started. -auth: only a
            // client that shows the cookie may connect (not another job's window, which can
            // reach every server's socket file).
            .args([
                "-displayfd",
                "1",
                "-nolisten",
                "tcp",
                "-noreset",
                "-screen",
                "0",
            ])
            .arg(format!("{width}x{height}x24"))
            .arg("-auth")
            .arg(&server_file)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| DisplayError::NoDisplay(e.to_string()))?;
        let (sender, said) = std::sync::mpsc::channel();
        if let Some(stdout) = server.stdout.take() {
            thread::spawn(move || {
                let mut line = String::new();
                let _ = BufReader::new(stdout).read_line(&mut line);
                let _ = sender.send(line);
            });
        }
        let number = said
            .recv_timeout(START_LIMIT)
            .ok()
            .and_then(|line| line.trim().parse::<u32>().ok());
        let display = Display {
            name: format!(":{}", number.unwrap_or_default()),
            server,
            cookie,
            folder,
        };
        match number {
            Some(_) => {
                display.grant(display.folder.path())?;
                Ok(display)
            }
            None => Err(DisplayError::NoDisplay(
                "it did not say its display number".into(),
            )),
        }
    }

    /// The grader's own authority file for this display (for a client that runs as the
    /// grader, unsandboxed).
    pub fn authority(&self) -> PathBuf {
        self.folder.path().join(AUTHORITY)
    }

    /// Writes the authority file a client of this display needs into `dir`, readable by
    /// anyone who can reach `dir` (a job's scratch folder), and returns its path, for
    /// `XAUTHORITY`.
    pub fn grant(&self, dir: &Path) -> Result<PathBuf, DisplayError> {
        let path = dir.join(AUTHORITY);
        let number = self.name.trim_start_matches(':');
        write_authority(&path, number, &self.cookie, 0o644).map_err(|e| {
            DisplayError::Tool(format!("writing {}", path.display()), e.to_string())
        })?;
        Ok(path)
    }

    /// Its name, for `DISPLAY`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its socket file, through which clients connect.
    pub fn socket(&self) -> PathBuf {
        let number = self.name.trim_start_matches(':');
        Path::new(super::sandbox::X11_PATH).join(format!("X{number}"))
    }

    /// The visible top-level windows (the root's children: there is no window manager), with
    /// a title or without, oldest first.
    pub fn windows(&self) -> Result<Vec<Window>, DisplayError> {
        let args = ["search", "--onlyvisible", "--maxdepth", "1", "--name", ""];
        let output = self.run("xdotool", &args)?;
        // xdotool says it found nothing by failing with 1.
        if !output.status.success() && output.status.code() != Some(1) {
            return Err(failed("xdotool", &args, &output));
        }
        Ok(String::from_utf8_lossy(&output.stdout)
            .lines()
            .filter_map(|line| line.trim().parse().ok().map(Window))
            .collect())
    }

    /// Polls [`Display::windows`] until one appears that is not among `known`, or `limit`
    /// passes.
    pub fn wait_for_new(
        &self,
        known: &[Window],
        limit: Duration,
    ) -> Result<Option<Window>, DisplayError> {
        let deadline = Instant::now() + limit;
        loop {
            let fresh = self
                .windows()?
                .into_iter()
                .find(|window| !known.contains(window));
            if fresh.is_some() || Instant::now() >= deadline {
                return Ok(fresh);
            }
            thread::sleep(POLL);
        }
    }

    /// The window's title.
    pub fn title(&self, window: Window) -> Result<String, DisplayError> {
        let id = window.0.to_string();
        let output = self.tool_output("xdotool", &["getwindowname", &id])?;
        Ok(String::from_utf8_lossy(&output.stdout).trim().to_string())
    }

    /// Where the window is on the screen and its size.
    pub fn geometry(&self, window: Window) -> Result<Rect, DisplayError> {
        let id = window.0.to_string();
        let output = self.tool_output("xdotool", &["getwindowgeometry", "--shell", &id])?;
        let text = String::from_utf8_lossy(&output.stdout);
        let value = |key: &str| {
            text.lines()
                .find_map(|line| line.strip_prefix(key)?.strip_prefix('='))
                .and_then(|v| v.trim().parse::<i64>().ok())
        };
        match (value("X"), value("Y"), value("WIDTH"), value("HEIGHT")) {
            (Some(x), Some(y), Some(width), Some(height)) => Ok(Rect {
                x: x as i32,
                y: y as i32,
                width: width.max(0) as u32,
                height: height.max(0) as u32,
            }),
            _ => Err(DisplayError::Tool(
                "xdotool getwindowgeometry".into(),
                format!("no geometry in {text:?}"),
            )),
        }
    }

    /// Clicks the left button at (`x`, `y`) on the screen, then moves the pointer to the
    /// screen's corner, so that no button looks hovered in the next screenshot.
    pub fn click(&self, x: i32, y: i32) -> Result<(), DisplayError> {
        let (x, y) = (x.to_string(), y.to_string());
        self.tool_output(
            "xdotool",
            &[
                "mousemove",
                "--sync",
                &x,
                &y,
                "click",
                "1",
                "mousemove",
                "--sync",
                "0",
                "0",
            ],
        )
        .map(drop)
    }

    /// Hides (unmaps) the window: what is drawn in it is lost.
    pub fn hide(&self, window: Window) -> Result<(), DisplayError> {
        let id = window.0.to_string();
        self.tool_output("xdotool", &["windowunmap", "--sync", &id])
            .map(drop)
    }

    /// Shows (maps) the window again: its program must draw it anew.
    pub fn show(&self, window: Window) -> Result<(), DisplayError> {
        let id = window.0.to_string();
        self.tool_output("xdotool", &["windowmap", "--sync", &id])
            .map(drop)
    }

    /// Takes the whole screen into a PNG file at `path` and reads it back.
    pub fn screenshot(&self, path: &Path) -> Result<Image, DisplayError> {
        let file = path.to_string_lossy();
        self.tool_output("import", &["-window", "root", &format!("png24:{file}")])?;
        Image::load(path)
    }

    /// Runs `tool` with `args` on this display, for at most [`TOOL_LIMIT`]; its output if it
    /// succeeded.
    fn tool_output(&self, tool: &str, args: &[&str]) -> Result<Output, DisplayError> {
        let output = self.run(tool, args)?;
        if output.status.success() {
            Ok(output)
        } else {
            Err(failed(tool, args, &output))
        }
    }

    /// Runs `tool` with `args` on this display, for at most [`TOOL_LIMIT`]; its output,
    /// whatever its exit status.
    fn run(&self, tool: &str, args: &[&str]) -> Result<Output, DisplayError> {
        let named = || format!("{tool} {}", args.join(" "));
        let mut child = Command::new(tool)
            .args(args)
            .env("DISPLAY", &self.name)
            .env("XAUTHORITY", self.authority())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| DisplayError::Tool(named(), e.to_string()))?;
        let deadline = Instant::now() + TOOL_LIMIT;
        while child.try_wait().ok().flatten().is_none() {
            if Instant::now() >= deadline {
                let _ = child.kill();
                let _ = child.wait();
                return Err(DisplayError::Tool(named(), "timed out".into()));
            }
            thread::sleep(Duration::from_millis(5));
        }
        child
            .wait_with_output()
            .map_err(|e| DisplayError::Tool(named(), e.to_string()))
    }
}

/// The error of `tool` run with `args` that failed with `output`: its standard error, else its
/// exit status.
fn failed(tool: &str, args: &[&str], output: &Output) -> DisplayError {
    let said = String::from_utf8_lossy(&output.stderr).trim().to_string();
    let why = if said.is_empty() {
        output.status.to_string()
    } else {
        said
    };
    DisplayError::Tool(format!("{tool} {}", args.join(" ")), why)
}

impl Drop for Display {
    /// Stops Xvfb politely (SIGTERM), so that it removes its lock file and socket, and reaps it;
    /// kills it if it has not stopped within a second.
    fn drop(&mut self) {
        let Ok(pid) = i32::try_from(self.server.id()) else {
            return;
        };
        // SAFETY: a signal to the server this display started and has not yet reaped.
        unsafe { libc::kill(pid, libc::SIGTERM) };
        let deadline = Instant::now() + Duration::from_secs(1);
        while self.server.try_wait().ok().flatten().is_none() {
            if Instant::now() >= deadline {
                let _ = self.server.kill();
                let _ = self.server.wait();
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
    }
}

/// Writes an X authority file at `path` (mode `mode`) with one entry: the MIT-MAGIC-COOKIE-1
/// `cookie` for display `number` on any host (each field a big-endian length and its bytes,
/// after the family, 0xffff for any).
fn write_authority(path: &Path, number: &str, cookie: &[u8], mode: u32) -> std::io::Result<()> {
    let mut entry = 0xffffu16.to_be_bytes().to_vec();
    for field in [&b""[..], number.as_bytes(), b"MIT-MAGIC-COOKIE-1", cookie] {
        entry.extend_from_slice(&(field.len() as u16).to_be_bytes());
        entry.extend_from_slice(field);
    }
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(mode)
        .open(path)?;
    file.write_all(&entry)?;
    // The mode asked for, whatever the umask.
    file.set_permissions(std::fs::Permissions::from_mode(mode))
}

/// Whether `tool` is a program on `PATH`.
pub fn installed(tool: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|path| {
        std::env::split_paths(&path).any(|dir| {
            std::fs::metadata(dir.join(tool)).is_ok_and(|m| {
                m.is_file()
                    && std::os::unix::fs::PermissionsExt::mode(&m.permissions()) & 0o111 != 0
            })
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pictures_are_compared_pixel_by_pixel() {
        let dir = tempfile::tempdir().unwrap();
        let square = |x: u32, y: u32| (10..20).contains(&x) && (5..15).contains(&y);
        let plain = Image::save(&dir.path().join("a.png"), (40, 30), |_, _| [200; 3]).unwrap();
        let marked = Image::save(&dir.path().join("b.png"), (40, 30), |x, y| {
            if square(x, y) {
                [255, 0, 0]
            } else {
                [200; 3]
            }
        })
        .unwrap();
        let read = Image::load(&marked.path).unwrap();
        assert_eq!(read, marked);
        let whole = Rect {
            x: 0,
            y: 0,
            width: 40,
            height: 30,
        };
        let area = Rect {
            x: 10,
            y: 5,
            width: 10,
            height: 10,
        };
        assert_eq!(marked.changed(&plain, whole), Some(area));
        assert_eq!(plain.changed(&plain, whole), None);
        assert_eq!(marked.differs(&plain, area), 1.0);
        assert!((marked.differs(&plain, whole) - 100.0 / 1200.0).abs() < 1e-9);
        assert_eq!(marked.pixel(40, 0), None);
        assert!(marked.uniform(area) && !marked.uniform(whole));
        assert_eq!(area.centre(), (15, 10));
        assert_eq!(area.inset(2).width, 6);
    }

    #[test]
    fn a_file_that_is_not_a_picture_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.png");
        std::fs::write(&path, "not a picture").unwrap();
        assert!(matches!(Image::load(&path), Err(DisplayError::Picture(_))));
        assert!(matches!(
            Image::load(&dir.path().join("none.png")),
            Err(DisplayError::Picture(_))
        ));
    }
}
