//! `grade gallery DIR`: serves the graders' gallery that `grade class --report DIR` wrote, on
//! 127.0.0.1 only, and takes the hand scores its pages post: each checked against the rubric,
//! kept in DIR's `hand-scores.json` and merged into the class's gradebook at once; a save that
//! completes a student's checklist writes their feedback files, and the class page's button
//! writes everyone's whose hand grading is done ([`feedback`]). Also what `grade class` does
//! with the gallery: write its pages and load the scores typed so far.
//!
//! The server answers only requests addressed to 127.0.0.1 or localhost at its port (another
//! site's page rebinding its own name to this machine is refused), serves only the report's
//! files under DIR (no `..`, no link out of it, only the kinds the pages use), and takes scores
//! or feedback only with the random token of the address it printed, in a header that another
//! site's page cannot send without the server's consent, which it never gives.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use percent_encoding::percent_decode_str;
use serde::Deserialize;
use tiny_http::{Header, Method, Request, Response, Server};

use super::feedback;
use super::files::{find_kit, parent, replace, write};
use crate::judge::result::hand::{self, HandScores, Marks};
use crate::judge::result::StudentResult;
use crate::kit::{KitError, Rubric};
use crate::report::gallery::{self, CLASS_PAGE, FOLDER, SCRIPT, STYLE};
use crate::report::gradebook;

/// The hand scores' file in the report directory.
pub const SCORES: &str = "hand-scores.json";
/// The file in the gallery's folder that names the class's gradebook, for `grade gallery`.
const GRADEBOOK_RECORD: &str = "gradebook-path.txt";
/// The largest body a save may have, in bytes.
const LARGEST_SAVE: u64 = 256 * 1024;
/// The header a save carries the token in.
const TOKEN_HEADER: &str = "X-Grade-Token";
/// What the browser may do with the pages: load the report's own scripts, styles, pictures and
/// scores, nothing from elsewhere, never inside another site's frame; no inline script (inline
/// styles only, which cut the screenshots to the window and cannot run anything).
const POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
    img-src 'self'; \
    connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// What `grade gallery` was asked.
#[derive(Clone, Debug, Default)]
pub struct GalleryRun {
    /// The report directory `grade class --report` wrote.
    pub dir: PathBuf,
    /// The port on 127.0.0.1 (0: any free one).
    pub port: u16,
    /// The kit's directory, if given; else it is found as for grading.
    pub kit: Option<PathBuf>,
    /// The gradebook, if given; else the one the class run recorded in the gallery.
    pub csv: Option<PathBuf>,
}

/// The hand scores kept in the report directory `dir` (none yet when there is no file), each
/// checked against the rubric.
pub fn load_scores(dir: &Path, rubric: &Rubric) -> Result<HandScores, KitError> {
    let path = dir.join(SCORES);
    let text = match fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(HandScores::default()),
        Err(e) => return Err(KitError(format!("{}: {e}", path.display()))),
    };
    let scores: HandScores = serde_json::from_str(&text)
        .map_err(|e| KitError(format!("{}: not the gallery's scores: {e}", path.display())))?;
    for (student, marks) in &scores.students {
        hand::check(rubric, marks).map_err(|why| {
            KitError(format!(
                "{}: {student:?}: {why} (the rubric changed? fix the file or move it away)",
                path.display()
            ))
        })?;
    }
    Ok(scores)
}

/// Writes the gallery into the report directory `dir` around the students' pages (each written
/// by [`write_page`] as they are graded): the class page of `rows` (each of
/// [`gallery::class_row`]'s, the whole class's), the script and style sheet, and where the
/// gradebook `csv` is.
pub(crate) fn write_pages(
    dir: &Path,
    rubric: &Rubric,
    csv: &Path,
    rows: &[String],
) -> Result<(), KitError> {
    write_assets(dir)?;
    let csv = fs::canonicalize(parent(csv))
        .map(|dir| dir.join(csv.file_name().unwrap_or_default()))
        .unwrap_or_else(|_| csv.to_path_buf());
    write(
        &dir.join(FOLDER).join(GRADEBOOK_RECORD),
        &format!("{}\n", csv.display()),
    )?;
    replace(
        &dir.join(CLASS_PAGE),
        &gallery::class_page_of(rubric, &linked(dir, rows)),
    )
    .map_err(KitError::from)
}

/// `rows` of the class page, each linking its student's feedback where it is written in the
/// report directory `dir`.
fn linked(dir: &Path, rows: &[String]) -> Vec<String> {
    rows.iter()
        .map(|row| gallery::link_feedback(row, |student| feedback::page(dir, student).is_file()))
        .collect()
}

/// Writes the class page of the report directory `dir` again, each row linking its student's
/// feedback where it is written now (a directory without a class page is left as it is).
pub(crate) fn link_feedback(dir: &Path, rubric: &Rubric) -> Result<(), KitError> {
    let path = dir.join(CLASS_PAGE);
    let Ok(page) = fs::read_to_string(&path) else {
        return Ok(());
    };
    let rows: Vec<String> = gallery::class_rows(&page)
        .into_iter()
        .map(|(_, row)| row)
        .collect();
    replace(&path, &gallery::class_page_of(rubric, &linked(dir, &rows))).map_err(KitError::from)
}

/// Writes one student's page into the report directory `dir` for `grade student`, with the
/// hand scores typed there so far, and returns where. A class's gallery already there keeps
/// its class page (the student's row in it and in the gradebook are the class run's); else a
/// class page of this student alone is written, for the page's link to it.
pub(crate) fn write_student_page(
    dir: &Path,
    rubric: &Rubric,
    result: &StudentResult,
) -> Result<PathBuf, KitError> {
    let hand = load_scores(dir, rubric)?;
    let page = write_page(dir, rubric, result, &hand)?;
    write_assets(dir)?;
    if !dir.join(CLASS_PAGE).is_file() {
        let results = std::slice::from_ref(result);
        write(
            &dir.join(CLASS_PAGE),
            &gallery::class_page(rubric, results, &hand, dir),
        )?;
    }
    Ok(page)
}

/// Writes `result`'s page, with their hand scores in `hand`, and returns where.
pub(crate) fn write_page(
    dir: &Path,
    rubric: &Rubric,
    result: &StudentResult,
    hand: &HandScores,
) -> Result<PathBuf, KitError> {
    let marks = hand.students.get(&result.student);
    let page = dir.join(FOLDER).join(gallery::page_name(&result.student));
    write(&page, &gallery::student_page(rubric, result, marks, dir))?;
    Ok(page)
}

/// Writes the pages' script and style sheet.
fn write_assets(dir: &Path) -> Result<(), KitError> {
    for (name, text) in [SCRIPT, STYLE] {
        write(&dir.join(FOLDER).join(name), text)?;
    }
    Ok(())
}

/// What the server serves and saves to.
struct Gallery {
    /// The report directory, canonical.
    root: PathBuf,
    /// The rubric the scores are checked against.
    rubric: Rubric,
    /// The class's gradebook.
    csv: PathBuf,
    /// The token every save must carry.
    token: String,
    /// The port it listens on, which requests must be addressed to.
    port: u16,
}

/// An answer: its status, content type and body.
struct Reply {
    status: u16,
    kind: &'static str,
    body: Vec<u8>,
}

impl Reply {
    /// A plain-text answer.
    fn text(status: u16, text: impl Into<String>) -> Reply {
        Reply {
            status,
            kind: "text/plain; charset=utf-8",
            body: text.into().into_bytes(),
        }
    }
}

/// Serves the gallery in `run.dir` until the process is stopped.
pub fn run(run: &GalleryRun) -> Result<(), KitError> {
    let root =
        fs::canonicalize(&run.dir).map_err(|e| KitError(format!("{}: {e}", run.dir.display())))?;
    if !root.join(CLASS_PAGE).is_file() {
        return Err(KitError(format!(
            "{}: no {CLASS_PAGE} there: grade class ... --report {} writes the gallery first",
            run.dir.display(),
            run.dir.display()
        )));
    }
    let rubric = Rubric::load(&find_kit(run.kit.as_deref())?.join("rubric.toml"))?;
    load_scores(&root, &rubric)?;
    let csv = match &run.csv {
        Some(csv) => csv.clone(),
        None => recorded_gradebook(&root)?,
    };
    let text = fs::read_to_string(&csv)
        .map_err(|e| KitError(format!("{}: the gradebook: {e}", csv.display())))?;
    gradebook::merge(&text, &rubric, &HandScores::default())
        .map_err(|why| KitError(format!("{}: {why}", csv.display())))?;
    let server = Server::http(("127.0.0.1", run.port)).map_err(|e| {
        KitError(format!(
            "cannot listen on 127.0.0.1:{}: {e} (give another --port, or 0 for any free one)",
            run.port
        ))
    })?;
    let port = server.server_addr().to_ip().map_or(run.port, |a| a.port());
    let gallery = Gallery {
        root,
        rubric,
        csv,
        token: format!("{:032x}", rand::random::<u128>()),
        port,
    };
    println!(
        "grade gallery: open http://127.0.0.1:{port}/{CLASS_PAGE}#{} (the part after # lets \
         the pages save; Ctrl-C stops the server)",
        gallery.token
    );
    eprintln!(
        "grade gallery: hand scores go to {} and {}",
        gallery.root.join(SCORES).display(),
        gallery.csv.display()
    );
    for mut request in server.incoming_requests() {
        let reply = gallery.answer(&mut request);
        let mut response = Response::from_data(reply.body).with_status_code(reply.status);
        for (name, value) in [
            ("Content-Type", reply.kind),
            ("Content-Security-Policy", POLICY),
            ("X-Content-Type-Options", "nosniff"),
            ("Cache-Control", "no-store"),
            ("Referrer-Policy", "no-referrer"),
        ] {
            if let Ok(header) = Header::from_bytes(name.as_bytes(), value.as_bytes()) {
                response.add_header(header);
            }
        }
        let _ = request.respond(response);
    }
    Ok(())
}

/// The gradebook the class run recorded in the gallery's folder.
pub(crate) fn recorded_gradebook(root: &Path) -> Result<PathBuf, KitError> {
    let record = root.join(FOLDER).join(GRADEBOOK_RECORD);
    let text = fs::read_to_string(&record).map_err(|e| {
        KitError(format!(
            "{}: {e}: give the gradebook with --csv PATH",
            record.display()
        ))
    })?;
    Ok(PathBuf::from(text.trim_end_matches('\n')))
}

/// A request's header `name`, if it has one.
fn header<'a>(request: &'a Request, name: &'static str) -> Option<&'a str> {
    request
        .headers()
        .iter()
        .find(|h| h.field.equiv(name))
        .map(|h| h.value.as_str())
}

/// A score save as the page posts it: the student and every category's marks.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Save {
    student: String,
    categories: Marks,
}

impl Gallery {
    /// The answer to `request`.
    fn answer(&self, request: &mut Request) -> Reply {
        let host = header(request, "Host").unwrap_or("");
        let port = self.port;
        if host != format!("127.0.0.1:{port}") && host != format!("localhost:{port}") {
            return Reply::text(403, "only http://127.0.0.1 at this port is served");
        }
        let path = request.url().split(['?', '#']).next().unwrap_or("");
        match (request.method(), path) {
            (Method::Post, "/scores") => self.save(request).unwrap_or_else(|reply| reply),
            (Method::Post, "/feedback") => self.feedback(request).unwrap_or_else(|reply| reply),
            (Method::Get | Method::Head, _) => self.file(path),
            _ => Reply::text(
                405,
                "the gallery takes GET, POST /scores and POST /feedback",
            ),
        }
    }

    /// The file of the report directory at the URL path `path`.
    fn file(&self, path: &str) -> Reply {
        let missing = || Reply::text(404, "no such page");
        let Some(found) = resolve(&self.root, path) else {
            return missing();
        };
        let Some(kind) = content_type(&found) else {
            return missing();
        };
        match fs::read(&found) {
            Ok(body) => Reply {
                status: 200,
                kind,
                body,
            },
            Err(_) => missing(),
        }
    }

    /// Refuses a request that may write without the gallery's token, or that is not JSON: the
    /// token proves it comes from a page opened at the address printed, and its header, with
    /// a JSON body, is what a page of another site cannot send without the server's consent.
    fn allowed(&self, request: &Request) -> Result<(), Reply> {
        if header(request, TOKEN_HEADER) != Some(self.token.as_str()) {
            return Err(Reply::text(
                403,
                "the request has not the gallery's token: open the address grade gallery printed",
            ));
        }
        if !header(request, "Content-Type").is_some_and(|t| t.starts_with("application/json")) {
            return Err(Reply::text(415, "a request that writes is JSON"));
        }
        Ok(())
    }

    /// Writes the feedback files of every student whose hand grading is done, and links them
    /// from the class page.
    fn feedback(&self, request: &Request) -> Result<Reply, Reply> {
        self.allowed(request)?;
        let failed = |why: String| Reply::text(500, why);
        let scores =
            load_scores(&self.root, &self.rubric).map_err(|why| failed(why.to_string()))?;
        let adjustments = feedback::adjustments(Some(&self.csv), &self.rubric)
            .map_err(|why| failed(why.to_string()))?;
        let written = feedback::write_all(&self.root, &self.rubric, &scores, &adjustments, false)
            .map_err(|why| failed(why.to_string()))?;
        link_feedback(&self.root, &self.rubric).map_err(|why| failed(why.to_string()))?;
        let said = written.said(false);
        eprintln!("grade gallery: {said}");
        Ok(Reply::text(200, said))
    }

    /// Writes `student`'s feedback files if their hand grading is done with `marks`; says what
    /// became of it, after "saved".
    fn feedback_of(&self, student: &str, marks: &Marks) -> String {
        if !feedback::done(&self.rubric, Some(marks)) {
            return String::new();
        }
        let written = feedback::kept(&self.root, student).and_then(|kept| match kept {
            Some(result) => feedback::adjustments(Some(&self.csv), &self.rubric)
                .and_then(|adjustments| {
                    feedback::write(&self.root, &self.rubric, &result, Some(marks), &adjustments)
                })
                .and_then(|_| link_feedback(&self.root, &self.rubric))
                .map(|()| true)
                .map_err(Into::into),
            None => Ok(false),
        });
        match written {
            Ok(true) => "; feedback written".into(),
            Ok(false) => "; no feedback written: no result kept (grade them again)".into(),
            Err(why) => format!("; no feedback written: {why}"),
        }
    }

    /// Checks and keeps a save, merges it into the gradebook, and writes the student's
    /// feedback once their hand grading is done.
    fn save(&self, request: &mut Request) -> Result<Reply, Reply> {
        self.allowed(request)?;
        let mut body = String::new();
        request
            .as_reader()
            .take(LARGEST_SAVE + 1)
            .read_to_string(&mut body)
            .map_err(|e| Reply::text(400, format!("the save could not be read: {e}")))?;
        if body.len() as u64 > LARGEST_SAVE {
            return Err(Reply::text(413, "the save is too large"));
        }
        let save: Save = serde_json::from_str(&body)
            .map_err(|e| Reply::text(400, format!("malformed save: {e}")))?;
        hand::check(&self.rubric, &save.categories)
            .map_err(|why| Reply::text(400, why.to_string()))?;
        let failed = |why: String| Reply::text(500, why);
        let text = fs::read_to_string(&self.csv)
            .map_err(|e| failed(format!("the gradebook {}: {e}", self.csv.display())))?;
        let known = gradebook::students(&text).map_err(|why| failed(why.to_string()))?;
        if !known.contains(&save.student) {
            return Err(Reply::text(
                404,
                format!("no student {:?} in the gradebook", save.student),
            ));
        }
        let mut scores =
            load_scores(&self.root, &self.rubric).map_err(|why| failed(why.to_string()))?;
        scores
            .students
            .insert(save.student.clone(), save.categories);
        let merged = gradebook::merge(&text, &self.rubric, &scores)
            .map_err(|why| failed(why.to_string()))?;
        let json = serde_json::to_string_pretty(&scores).map_err(|e| failed(e.to_string()))?;
        replace(&self.root.join(SCORES), &format!("{json}\n"))
            .map_err(|why| failed(why.to_string()))?;
        replace(&self.csv, &merged).map_err(|why| failed(why.to_string()))?;
        let marks = &scores.students[&save.student];
        let feedback = self.feedback_of(&save.student, marks);
        eprintln!(
            "grade gallery: saved the hand scores of {:?}{feedback}",
            save.student
        );
        Ok(Reply::text(200, format!("saved{feedback}")))
    }
}

/// The file under `root` that the URL path `path` names (`/` the class page), if it is one:
/// percent-decoded, no `..`, and, its links followed, still under `root`.
fn resolve(root: &Path, path: &str) -> Option<PathBuf> {
    let decoded = percent_decode(path)?;
    let relative = decoded.trim_start_matches('/');
    let mut full = root.join(if relative.is_empty() {
        CLASS_PAGE
    } else {
        relative
    });
    if relative
        .split('/')
        .any(|part| part == ".." || part.starts_with('.') && !part.is_empty())
    {
        return None;
    }
    full = fs::canonicalize(&full).ok()?;
    (full.starts_with(root) && full.is_file()).then_some(full)
}

/// `%XX` escapes decoded; `None` for a broken escape (a `%` without two hex digits after it,
/// which `percent_decode_str` would keep as it is), a NUL or bytes that are not UTF-8.
fn percent_decode(path: &str) -> Option<String> {
    let broken = path.split('%').skip(1).any(|after| {
        !after
            .get(..2)
            .is_some_and(|hex| hex.bytes().all(|b| b.is_ascii_hexdigit()))
    });
    if broken {
        return None;
    }
    let decoded = percent_decode_str(path).decode_utf8().ok()?;
    (!decoded.contains('\0')).then(|| decoded.into_owned())
}

/// The content type of the kinds of file the gallery links to; `None` for any other.
fn content_type(path: &Path) -> Option<&'static str> {
    Some(match path.extension()?.to_str()? {
        "html" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "json" => "application/json",
        "png" => "image/png",
        "md" | "log" | "txt" => "text/plain; charset=utf-8",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_files_under_the_root_are_served() {
        let dir = tempfile::tempdir().unwrap();
        let root = fs::canonicalize(dir.path()).unwrap();
        fs::create_dir(root.join("reports")).unwrap();
        let reports = root.join("reports");
        fs::write(reports.join(CLASS_PAGE), "class").unwrap();
        fs::write(reports.join("a b.png"), "png").unwrap();
        fs::write(reports.join(".hidden.tmp"), "x").unwrap();
        fs::write(root.join("secret.txt"), "secret").unwrap();
        std::os::unix::fs::symlink(root.join("secret.txt"), reports.join("out.txt")).unwrap();
        assert_eq!(resolve(&reports, "/"), Some(reports.join(CLASS_PAGE)));
        assert_eq!(
            resolve(&reports, "/a%20b.png"),
            Some(reports.join("a b.png"))
        );
        for refused in [
            "/../secret.txt",
            "/%2e%2e/secret.txt",
            "/out.txt",
            "/.hidden.tmp",
            "/missing.html",
            "/%zz",
            "/a%00.png",
        ] {
            assert_eq!(resolve(&reports, refused), None, "{refused}");
        }
        assert_eq!(content_type(Path::new("x.png")), Some("image/png"));
        assert_eq!(content_type(Path::new("x.toml")), None);
    }
}
