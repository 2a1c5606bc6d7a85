//! The graders' gallery through the real `grade`: a class of two Python students (`ann`, and
//! one whose folder is named like an HTML tag with a script in it), each with the tkinter
//! fixture window, graded once on a small kit with `--style` and `--window`. A student's page
//! is pinned by a snapshot; `grade gallery` is then driven in headless Chromium (Debian's
//! `chromium`, over the DevTools protocol): scores and a comment typed on a page reach the
//! gradebook, `grade class` run again keeps them, and the server refuses what it must. Without
//! a window: `grade gallery` on a port in use says so; `grade student --report` writes its page.
//!
//! They need what the window tests need and Chromium (`scripts/setup.sh xvfb chromium`);
//! without them they are skipped with a note, except under CI (`CI` set), where they fail.

use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use connect_four_grader::report::gradebook;
use headless_chrome::{Browser, LaunchOptions, Tab};

use crate::support::{
    copy_dir, grade, python_submission, repository, small_kit, unavailable, window_fixture,
    window_tools_present, QUICK_CASES,
};

/// The hostile student's name: a tag that runs a script if a page ever prints it unescaped.
const HOSTILE: &str = "<img src=x onerror=alert(1)>";

/// Where Chromium is, if it is installed. Without it: a note and `None`, or under CI a panic.
pub(crate) fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let found = std::env::split_paths(&path)
        .flat_map(|dir| ["chromium", "chromium-browser"].map(|name| dir.join(name)))
        .find(|path| path.is_file());
    if found.is_none() {
        unavailable("gallery", "Chromium", "source scripts/setup.sh chromium");
    }
    found
}

/// The class graded once for these tests: its work folder (with `kit/`, `class/`, `reports/`
/// and `gradebook.csv`), or `None` when the window's tools are missing.
fn graded_class() -> Option<&'static Path> {
    static CLASS: OnceLock<Option<PathBuf>> = OnceLock::new();
    CLASS
        .get_or_init(|| {
            if !window_tools_present() {
                return None;
            }
            let work = crate::support::build_root().join("gallery-class");
            if work.exists() {
                fs::remove_dir_all(&work).unwrap();
            }
            let kit = work.join("kit");
            small_kit(&kit, &QUICK_CASES);
            copy_dir(&repository().join("grading/window"), &kit.join("window"));
            for student in ["ann", HOSTILE] {
                let dir = work.join("class").join(student);
                python_submission(&dir, "connect_four");
                fs::copy(window_fixture(), dir.join("window.py")).unwrap();
            }
            let started = Instant::now();
            let output = class_run(&work, true).output().expect("grade starts");
            assert!(
                output.status.success(),
                "{}",
                String::from_utf8_lossy(&output.stderr)
            );
            eprintln!(
                "gallery: a class of two graded with --style and --window in {:.1} s",
                started.elapsed().as_secs_f64()
            );
            Some(work)
        })
        .as_deref()
}

/// `grade class` on the class in `work`, with `--style` and, if `window`, `--window`.
fn class_run(work: &Path, window: bool) -> Command {
    let mut grade = grade();
    grade
        .current_dir(work)
        .args(["class", "class", "--kit", "kit", "--report", "reports"])
        .args([
            "--csv",
            "gradebook.csv",
            "--skip-timing",
            "--style",
            "--jobs",
            "2",
        ])
        .args(["--command", "python3 \"{dir}/connect_four.py\""]);
    if window {
        grade.args([
            "--window",
            "python3 \"{dir}/window.py\"",
            "--window-depth",
            "6",
        ]);
    }
    grade
}

#[test]
fn a_student_s_page_shows_the_evidence_beside_the_checklist() {
    let Some(work) = graded_class() else {
        return;
    };
    let page = fs::read_to_string(work.join("reports/gallery/ann.html")).unwrap();
    let mut settings = insta::Settings::clone_current();
    for (pattern, replacement) in [
        // Times, window and dialog sizes (fonts), and where the class was graded.
        (r"\d+(\.\d+)? s\b", "[t] s"),
        (r"\d+ x \d+ pixels", "[w] x [h] pixels"),
        (r"strip of \d+ pixels", "strip of [h] pixels"),
        (r"width:\d+px;height:\d+px", "width:[w]px;height:[h]px"),
        (r"margin:-?\d+px 0 0 -?\d+px", "margin:[y]px 0 0 [x]px"),
        (r"at most [0-9.]+ %", "at most [share] %"),
        (
            r"screenshots in [^<]*",
            "screenshots in [reports]/window/ann.",
        ),
    ] {
        settings.add_filter(pattern, replacement);
    }
    settings.bind(|| insta::assert_snapshot!("gallery_ann_html", page));
    let class = fs::read_to_string(work.join("reports/gallery.html")).unwrap();
    assert!(
        class.contains("&lt;img src=x onerror=alert(1)&gt;"),
        "{class}"
    );
    assert!(!class.contains(HOSTILE), "{class}");
    assert!(class.contains("<td>7 of 7</td>"), "ann's window: {class}");
}

/// A running `grade gallery`, stopped when dropped (the feedback's tests use it too).
pub(crate) struct Served {
    child: Child,
    /// The address it printed, with its token.
    pub(crate) url: String,
    port: u16,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Served {
    /// `grade gallery` on `work`'s reports and gradebook.
    pub(crate) fn start(work: &Path) -> Served {
        let mut child = grade()
            .current_dir(work)
            .args([
                "gallery",
                "reports",
                "--kit",
                "kit",
                "--csv",
                "gradebook.csv",
            ])
            .stdout(Stdio::piped())
            .spawn()
            .expect("grade gallery starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line
            .split_whitespace()
            .find(|word| word.starts_with("http://127.0.0.1:"))
            .unwrap_or_else(|| panic!("no address: {line}"))
            .to_string();
        let port = url["http://127.0.0.1:".len()..]
            .split('/')
            .next()
            .and_then(|port| port.parse().ok())
            .unwrap_or_else(|| panic!("no port: {url}"));
        Served { child, url, port }
    }

    /// The token after `#`.
    fn token(&self) -> &str {
        self.url.split('#').nth(1).expect("a token")
    }

    /// The status of a raw HTTP request with `lines` for its head and `body`.
    fn status(&self, lines: &[String], body: &str) -> u16 {
        self.answer(lines, body).0
    }

    /// The status and body of a raw HTTP request with `lines` for its head and `body`.
    fn answer(&self, lines: &[String], body: &str) -> (u16, String) {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        let head = lines.join("\r\n");
        write!(
            stream,
            "{head}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        let status = answer
            .split_whitespace()
            .nth(1)
            .and_then(|code| code.parse().ok())
            .unwrap_or_else(|| panic!("no status: {answer}"));
        let body = answer.split_once("\r\n\r\n").map_or("", |(_, body)| body);
        (status, body.to_string())
    }

    /// The status of a save of `body` with the right host and the token if `token`.
    fn save(&self, body: &str, token: bool) -> u16 {
        self.post("/scores", body, token).0
    }

    /// The status and answer of a POST of `body` to `path` with the right host and the token
    /// if `token`.
    pub(crate) fn post(&self, path: &str, body: &str, token: bool) -> (u16, String) {
        let mut lines = vec![
            format!("POST {path} HTTP/1.1"),
            format!("Host: 127.0.0.1:{}", self.port),
            "Content-Type: application/json".into(),
        ];
        if token {
            lines.push(format!("X-Grade-Token: {}", self.token()));
        }
        self.answer(&lines, body)
    }
}

/// The gradebook's cell of `student` in the column `name`.
fn cell(csv: &Path, student: &str, name: &str) -> String {
    let rows = gradebook::parse(&fs::read_to_string(csv).unwrap()).unwrap();
    let column = rows[0]
        .iter()
        .position(|h| h == name)
        .unwrap_or_else(|| panic!("no column {name}: {:?}", rows[0]));
    let row = rows
        .iter()
        .find(|row| row[0] == student)
        .unwrap_or_else(|| panic!("no row of {student}"));
    row[column].clone()
}

/// Evaluates `script` in `tab` until it gives `want` (a string), for at most 10 s (while a
/// page loads, it may give nothing, or fail).
pub(crate) fn wait_for(tab: &Tab, script: &str, want: &str) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let got = tab
            .evaluate(script, false)
            .ok()
            .and_then(|answer| answer.value);
        if got.as_ref().and_then(|v| v.as_str()) == Some(want) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "{script} gave {got:?}, not {want:?}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Clicks the element `selector` and types `text` into it.
pub(crate) fn type_into(tab: &Tab, selector: &str, text: &str) {
    tab.wait_for_element(selector)
        .unwrap_or_else(|e| panic!("{selector}: {e}"))
        .click()
        .unwrap()
        .type_into(text)
        .unwrap();
}

#[test]
fn hand_scores_typed_in_the_gallery_reach_the_gradebook() {
    let Some(graded) = graded_class() else {
        return;
    };
    let Some(chromium) = chromium() else {
        return;
    };
    // A copy of the class's reports to type into, so that the other tests see them as graded.
    let work = tempfile::tempdir().unwrap();
    let work = work.path();
    for folder in ["kit", "class", "reports"] {
        copy_dir(&graded.join(folder), &work.join(folder));
    }
    fs::copy(graded.join("gradebook.csv"), work.join("gradebook.csv")).unwrap();
    let csv = work.join("gradebook.csv");
    let served = Served::start(work);

    let browser = Browser::new(
        LaunchOptions::default_builder()
            .path(Some(chromium))
            .sandbox(false)
            .build()
            .unwrap(),
    )
    .expect("Chromium starts");
    let tab = browser.new_tab().unwrap();
    // From the class page, as a grader goes: the link keeps the token.
    tab.navigate_to(&served.url).unwrap();
    tab.wait_for_element("a[href*='ann.html#']")
        .unwrap()
        .click()
        .unwrap();
    let gui = "section[data-category='GUI']";
    wait_for(
        &tab,
        &format!("String(document.querySelector(\"{gui} input\").disabled)"),
        "false",
    );
    for (item, score) in ["2.5", "3", "3", "3", "3"].iter().enumerate() {
        type_into(&tab, &format!("{gui} input[data-item='{item}']"), score);
    }
    type_into(
        &tab,
        &format!("{gui} textarea"),
        "Label small, \"tidy\" grid",
    );
    type_into(
        &tab,
        "section[data-category='Programming style'] input[data-item='0']",
        "2",
    );
    wait_for(
        &tab,
        &format!("document.querySelector(\"{gui} output\").textContent"),
        "14.5",
    );
    tab.wait_for_element("button[type=submit]")
        .unwrap()
        .click()
        .unwrap();
    wait_for(
        &tab,
        "document.getElementById('status').textContent",
        "saved",
    );

    assert_eq!(cell(&csv, "ann", "GUI (15)"), "14.5");
    assert_eq!(cell(&csv, "ann", "Programming style (10)"), "");
    assert_eq!(cell(&csv, "ann", "hand-scored items"), "6 of 11");
    assert_eq!(cell(&csv, "ann", "total"), "");
    assert_eq!(
        cell(&csv, "ann", "hand comments"),
        "GUI: Label small, \"tidy\" grid"
    );
    assert_eq!(cell(&csv, HOSTILE, "hand-scored items"), "0 of 11");

    // Read again, the page shows what was saved.
    tab.reload(true, None).unwrap();
    wait_for(
        &tab,
        &format!("document.querySelector(\"{gui} input[data-item='0']\").value"),
        "2.5",
    );

    // The class page's button has the server write the feedback of whoever is done: nobody.
    tab.navigate_to(&served.url).unwrap();
    wait_for(
        &tab,
        "String(document.getElementById('feedback').disabled)",
        "false",
    );
    tab.wait_for_element("#feedback").unwrap().click().unwrap();
    wait_for(
        &tab,
        "String(document.getElementById('feedback-status').textContent.startsWith(\
         'wrote the feedback of 0 students; hand grading not finished'))",
        "true",
    );

    // What the server refuses.
    let save = |student: &str, score: &str| {
        format!(
            "{{\"student\":{student:?},\"categories\":{{\"GUI\":{{\"items\":[{score},null,null,null,null],\"comment\":\"\"}}}}}}"
        )
    };
    assert_eq!(served.save(&save("ann", "3"), false), 403, "no token");
    assert_eq!(
        served.save(&save("ann", "3.5"), true),
        400,
        "beyond the item"
    );
    assert_eq!(
        served.save(&save("nobody", "3"), true),
        404,
        "unknown student"
    );
    assert_eq!(served.save("{\"student\":", true), 400, "malformed");
    let get = |path: &str, host: &str| {
        served.status(
            &[format!("GET {path} HTTP/1.1"), format!("Host: {host}")],
            "",
        )
    };
    let host = format!("127.0.0.1:{}", served.port);
    assert_eq!(get("/gallery/ann.html", &host), 200);
    assert_eq!(
        get(
            "/gallery/ann.html",
            &format!("evil.example:{}", served.port)
        ),
        403
    );
    assert_eq!(get("/../gradebook.csv", &host), 404);
    assert_eq!(get("/%2e%2e/gradebook.csv", &host), 404);
    assert_eq!(
        cell(&csv, "ann", "GUI (15)"),
        "14.5",
        "nothing refused was kept"
    );
    drop(served);

    // Graded again, the class keeps its hand scores.
    let output = class_run(work, false).output().expect("grade starts");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(cell(&csv, "ann", "GUI (15)"), "14.5");
    let page = fs::read_to_string(work.join("reports/gallery/ann.html")).unwrap();
    assert!(page.contains("value=\"2.5\""), "{page}");
}

#[test]
fn grade_gallery_says_what_it_needs() {
    let dir = tempfile::tempdir().unwrap();
    let output = grade()
        .args(["gallery"])
        .arg(dir.path())
        .output()
        .expect("grade starts");
    assert_eq!(output.status.code(), Some(1));
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("no gallery.html there"), "{said}");
    let output = grade()
        .args(["gallery"])
        .arg(dir.path().join("missing"))
        .output()
        .expect("grade starts");
    assert_eq!(output.status.code(), Some(1));
}

/// A class of one Python student, `ann`, graded without a window into `work` (its `kit/`,
/// `class/`, `reports/` and `gradebook.csv`): a gallery that needs no display.
fn plain_class(work: &Path) {
    small_kit(&work.join("kit"), &QUICK_CASES);
    python_submission(&work.join("class/ann"), "connect_four");
    let output = class_run(work, false).output().expect("grade starts");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// `grade gallery` of `work`'s reports on a port another listener holds: what it did, and
/// the port.
fn gallery_on_a_port_in_use(work: &Path) -> (std::process::Output, String) {
    let taken = std::net::TcpListener::bind(("127.0.0.1", 0)).unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let output = grade()
        .current_dir(work)
        .args(["gallery", "reports", "--kit", "kit", "--port", &port])
        .output()
        .expect("grade starts");
    (output, port)
}

#[test]
fn grade_gallery_on_a_port_in_use_says_so() {
    let work = tempfile::tempdir().unwrap();
    plain_class(work.path());
    let (output, port) = gallery_on_a_port_in_use(work.path());
    assert_eq!(output.status.code(), Some(1));
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(
        said.contains(&format!("cannot listen on 127.0.0.1:{port}"))
            && said.contains("give another --port, or 0 for any free one"),
        "{said}"
    );
}

#[test]
fn a_record_that_cannot_be_read_is_named_when_the_gallery_starts() {
    let work = tempfile::tempdir().unwrap();
    plain_class(work.path());
    let kept = work.path().join("reports/records/ann.json");
    let text = fs::read(&kept).unwrap();
    fs::write(&kept, &text[..text.len() / 2]).unwrap();
    // On a port in use, so that it stops once it has said what it found.
    let (output, _) = gallery_on_a_port_in_use(work.path());
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(
        said.contains("grade gallery: ann: record unreadable, left out: "),
        "{said}"
    );
}

#[test]
fn grade_student_writes_its_page_and_keeps_a_class_s_gallery() {
    let work = tempfile::tempdir().unwrap();
    let work = work.path();
    // Run in the student's folder, which their program may reach, the kit and the reports
    // out of it.
    let student = |report: &str| {
        let output = grade()
            .current_dir(work.join("class/ann"))
            .args(["student", "python3 connect_four.py", "--kit", "../../kit"])
            .args(["--skip-timing", "--style", "--report"])
            .arg(work.join(report))
            .output()
            .expect("grade starts");
        let said = String::from_utf8_lossy(&output.stderr).into_owned();
        assert!(output.status.success(), "{said}");
        let report = String::from_utf8_lossy(&output.stdout);
        assert!(
            report.contains("Automatic total                   2 /   2"),
            "{report}"
        );
        said
    };
    plain_class(work);
    let before = fs::read_to_string(work.join("reports/gallery.html")).unwrap();
    // Alone: the student's page, and a class page of this student for its link.
    let said = student("alone");
    let pages: Vec<_> = fs::read_dir(work.join("alone/gallery"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .filter(|name| name.ends_with(".html"))
        .collect();
    let [page] = pages.as_slice() else {
        panic!("one student's page: {pages:?}")
    };
    assert!(said.contains(page.as_str()), "{said}");
    let html = fs::read_to_string(work.join("alone/gallery").join(page)).unwrap();
    assert!(html.contains("Programming style"), "{html}");
    assert!(work.join("alone/gallery/gallery.js").is_file());
    let class = fs::read_to_string(work.join("alone/gallery.html")).unwrap();
    assert!(class.contains(&format!("gallery/{page}")), "{class}");
    // Into a class's gallery: the class page is the class run's, left as it was.
    student("reports");
    assert_eq!(
        fs::read_to_string(work.join("reports/gallery.html")).unwrap(),
        before
    );
    assert!(work.join("reports/gallery").join(page).is_file());
}
