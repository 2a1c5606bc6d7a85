//! `grade gallery DIR`: serves the graders' gallery that `grade class --report DIR` wrote, on
//! 127.0.0.1 only, and takes the hand scores its pages post: each checked against the rubric
//! and kept in the student's record of the class store, and the class's gradebook and class
//! page written again from the records at once ([`publish`]); a save that completes a
//! student's checklist writes their feedback files, and the class page's button writes
//! everyone's whose hand grading is done.
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

use super::feedback::write_all;
use super::files::{find_kit, FindKitError};
use super::publish::{self, PublishError};
use crate::judge::result::hand::{self, MarkError, Marks};
use crate::kit::rubric::RubricError;
use crate::kit::Rubric;
use crate::report::gallery::CLASS_PAGE;
use crate::report::unreported;
use crate::store::{Class, Record, Store, StoreError};

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
    /// Where to write the gradebook, if given; else where the class run wrote it.
    pub csv: Option<PathBuf>,
}

/// Why a save was not kept.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    /// No student of that name is graded in the gallery.
    #[error("no student {0:?} graded in this gallery")]
    Unknown(String),
    /// The store could not be read or written.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// What became of a save that was kept.
#[derive(Debug, PartialEq, Eq)]
pub enum Saved {
    /// The class's files were written again, with the student's feedback if `done`.
    Republished {
        /// Whether the student's hand grading is done.
        done: bool,
    },
    /// Kept in the record, but the class's files could not be written again (why).
    Kept(String),
}

/// Keeps `marks` (checked against `rubric` by the caller) as `student`'s hand scores in the
/// store of the report directory `dir`, and writes the class's files again from the records:
/// the gradebook (at `csv`, else where the class run wrote it), the class page, and the
/// student's feedback once their hand grading is done. What a save in the gallery does.
pub fn save_marks(
    dir: &Path,
    rubric: &Rubric,
    csv: Option<&Path>,
    student: &str,
    marks: Marks,
) -> Result<Saved, SaveError> {
    let store = Store::of(dir);
    let (class, mut records) = store.class_records()?;
    let Some(record) = records.iter_mut().find(|r| r.student == student) else {
        return Err(SaveError::Unknown(student.to_string()));
    };
    record.hand = marks;
    store.put(record)?;
    let done = publish::done(rubric, record);
    Ok(
        match republished(dir, rubric, class.as_ref(), &records, csv) {
            Ok(()) => Saved::Republished { done },
            Err(why) => Saved::Kept(why.to_string()),
        },
    )
}

/// Why the class's files were not all written again after a save ([`republished`]).
#[derive(Debug, thiserror::Error)]
enum RepublishError {
    /// They could not be written.
    #[error(transparent)]
    Publish(#[from] PublishError),
    /// The grader failed (it panicked) while making a student's.
    #[error("the grader failed while writing the files of {student:?}: {why}")]
    Unreported {
        /// The first student whose files were not made.
        student: String,
        /// The panic's message.
        why: String,
    },
}

/// [`republish`], a student whose files the grader failed to make an error too.
fn republished(
    dir: &Path,
    rubric: &Rubric,
    class: Option<&Class>,
    records: &[Record],
    csv: Option<&Path>,
) -> Result<(), RepublishError> {
    match publish::republish(dir, rubric, class, records, csv)?
        .into_iter()
        .next()
    {
        None => Ok(()),
        Some((student, why)) => Err(RepublishError::Unreported { student, why }),
    }
}

/// What the server serves and saves to.
struct Gallery {
    /// The report directory, canonical.
    root: PathBuf,
    /// The rubric the scores are checked against.
    rubric: Rubric,
    /// Where the gradebook goes, if not where the class run wrote it.
    csv: Option<PathBuf>,
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

/// Why the gallery cannot be served.
#[derive(Debug, thiserror::Error)]
pub enum GalleryError {
    /// The report directory cannot be found.
    #[error("{}: {source}", .dir.display())]
    Dir {
        /// The report directory, as given.
        dir: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The report directory holds no gallery.
    #[error(
        "{}: no {CLASS_PAGE} there: grade class ... --report {} writes the gallery first",
        .0.display(),
        .0.display()
    )]
    NoGallery(PathBuf),
    /// The kit cannot be found.
    #[error(transparent)]
    Find(#[from] FindKitError),
    /// The rubric cannot be loaded.
    #[error(transparent)]
    Rubric(#[from] RubricError),
    /// The class store cannot be read.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A student's hand scores kept in the store (in `store`) do not fit the rubric.
    #[error(
        "{}: {student:?}: {why} (the rubric changed since the class was graded?)",
        .store.display()
    )]
    Marks {
        /// The store's folder.
        store: PathBuf,
        /// The student.
        student: String,
        /// What does not fit.
        why: MarkError,
    },
    /// The server cannot listen on its port.
    #[error(
        "cannot listen on 127.0.0.1:{port}: {source} (give another --port, or 0 for any free one)"
    )]
    Listen {
        /// The port asked for.
        port: u16,
        /// Why.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
}

/// Serves the gallery in `run.dir` until the process is stopped.
pub fn run(run: &GalleryRun) -> Result<(), GalleryError> {
    let root = fs::canonicalize(&run.dir).map_err(|source| GalleryError::Dir {
        dir: run.dir.clone(),
        source,
    })?;
    if !root.join(CLASS_PAGE).is_file() {
        return Err(GalleryError::NoGallery(run.dir.clone()));
    }
    let rubric = Rubric::load(&find_kit(run.kit.as_deref())?.join("rubric.toml"))?;
    let store = Store::of(&root);
    let (class, records) = store.class_records()?;
    // A record that cannot be read is its student's alone: named, never a silent gap.
    for (student, why) in store.unread()? {
        eprintln!(
            "grade gallery: {}",
            unreported::unreadable(&student, &why.to_string())
        );
    }
    for record in &records {
        hand::check(&rubric, &record.hand).map_err(|why| GalleryError::Marks {
            store: store.folder().to_path_buf(),
            student: record.student.clone(),
            why,
        })?;
    }
    let server = Server::http(("127.0.0.1", run.port)).map_err(|source| GalleryError::Listen {
        port: run.port,
        source,
    })?;
    let port = server.server_addr().to_ip().map_or(run.port, |a| a.port());
    let gallery = Gallery {
        root,
        rubric,
        csv: run.csv.clone(),
        token: format!("{:032x}", rand::random::<u128>()),
        port,
    };
    println!(
        "grade gallery: open http://127.0.0.1:{port}/{CLASS_PAGE}#{} (the part after # lets \
         the pages save; Ctrl-C stops the server)",
        gallery.token
    );
    let gradebook = gallery
        .csv
        .as_deref()
        .or(class.as_ref().map(|c| c.gradebook.as_path()));
    eprintln!(
        "grade gallery: hand scores go to the students' records in {}{}",
        store.folder().display(),
        gradebook.map_or(String::new(), |csv| format!(" and {}", csv.display()))
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
        let (class, records) = Store::of(&self.root)
            .class_records()
            .map_err(|why| failed(why.to_string()))?;
        let written = write_all(&self.root, &self.rubric, &records, false)
            .map_err(|why| failed(why.to_string()))?;
        let csv = self.csv.as_deref();
        republished(&self.root, &self.rubric, class.as_ref(), &records, csv)
            .map_err(|why| failed(why.to_string()))?;
        let said = written.said(false);
        eprintln!("grade gallery: {said}");
        Ok(Reply::text(200, said))
    }

    /// Checks and keeps a save in the student's record, writes the class's files again, and
    /// the student's feedback once their hand grading is done.
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
        let csv = self.csv.as_deref();
        let feedback = match save_marks(
            &self.root,
            &self.rubric,
            csv,
            &save.student,
            save.categories,
        ) {
            Err(SaveError::Unknown(student)) => {
                return Err(Reply::text(
                    404,
                    format!("no student {student:?} graded in this gallery"),
                ))
            }
            Err(error @ SaveError::Store(_)) => return Err(Reply::text(500, error.to_string())),
            Ok(Saved::Republished { done: true }) => "; feedback written".into(),
            Ok(Saved::Republished { done: false }) => String::new(),
            Ok(Saved::Kept(why)) => format!("; the class's files not written again: {why}"),
        };
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
