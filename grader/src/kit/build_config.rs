//! A submission's own say in what its build is built from, taken away. Cargo reads
//! `.cargo/config.toml` (and `.cargo/config`) in the folder it is run in and every folder above,
//! and rustup reads `rust-toolchain.toml` (and `rust-toolchain`) likewise: with them a
//! submission could build a hidden, changed copy of the supplied crate (`paths`, `[patch]`,
//! `[source]`), run a program of its own around every compiler call (`rustc-wrapper`), set the
//! compiler's environment (`[env]`) or choose a toolchain of its own. Before a build,
//! [`set_aside`] moves every such file of the submission into a folder of the grader's, where
//! the build cannot see it, and [`SetAside::put_back`] returns them once grading is over, so the
//! submission ends as it was handed in. In a manifest, `[patch]`, `[replace]` or a dependency on
//! the supplied crate that is not the copy the grader checks and builds ([`redirections`])
//! would do the same: such a build is refused. After the build, [`compiled`] reads in cargo's
//! own log where the supplied crate it linked came from, so that it is checked as built,
//! whatever made cargo take it. Files are read through [`tree`], never following a link.

use std::fs::{self, File};
use std::io::{BufRead, BufReader};
use std::path::{Component, Path, PathBuf};

use super::supplied::PACKAGE;
use super::tree::{self, EntryKind};

/// The names of the files cargo and rustup take their configuration from, in any folder.
const CONFIG_FILES: [&str; 2] = ["rust-toolchain", "rust-toolchain.toml"];
/// The names of cargo's configuration files, in a `.cargo` folder.
const CARGO_FILES: [&str; 2] = ["config", "config.toml"];
/// How the grader's folder that holds them during the build begins.
const ASIDE: &str = ".grade-config-";
/// The largest manifest read, in bytes.
const MAX_MANIFEST: u64 = 1 << 20;
/// The dependency tables of a manifest, at its top and under each `[target.X]`.
const DEPENDENCIES: [&str; 3] = ["dependencies", "dev-dependencies", "build-dependencies"];

/// The submission's configuration files moved aside for the build; put back by
/// [`SetAside::put_back`], or when dropped.
#[derive(Debug)]
#[must_use = "the submission's files are put back once grading is over"]
pub struct SetAside {
    /// Each file's path below the submission, `/`-separated, as found.
    pub files: Vec<String>,
    /// The grader's folder that holds them (none when there were none).
    aside: Option<PathBuf>,
    /// The submission's folder.
    submission: PathBuf,
}

/// Why the submission's configuration could not be set aside, or put back.
#[derive(Debug, thiserror::Error)]
#[error("cannot {what} {}: {source}", .path.display())]
pub struct AsideError {
    /// What could not be done.
    what: &'static str,
    /// To what.
    path: PathBuf,
    /// Why.
    #[source]
    source: std::io::Error,
}

/// Moves every cargo and rustup configuration file of `submission` (anywhere in it, hidden
/// folders included, build output left out) into a new folder of the grader's in it. The files
/// moved are returned even when one could not be, with the error: they are put back all the
/// same.
pub fn set_aside(submission: &Path) -> (SetAside, Result<(), AsideError>) {
    let mut set = SetAside {
        files: Vec::new(),
        aside: None,
        submission: submission.to_path_buf(),
    };
    let files = found(submission);
    let moved = match files.is_empty() {
        true => Ok(()),
        false => set.move_aside(files),
    };
    (set, moved)
}

impl SetAside {
    /// Moves `files` into a new folder of the grader's, keeping each one moved.
    fn move_aside(&mut self, files: Vec<String>) -> Result<(), AsideError> {
        let failed = |what, path: &Path| {
            let path = path.to_path_buf();
            move |source| AsideError { what, path, source }
        };
        let aside = tempfile::Builder::new()
            .prefix(ASIDE)
            .tempdir_in(&self.submission)
            .map_err(failed("make a folder in", &self.submission))?
            .keep();
        self.aside = Some(aside.clone());
        for (number, file) in files.into_iter().enumerate() {
            let from = self.submission.join(&file);
            fs::rename(&from, aside.join(number.to_string())).map_err(failed("move", &from))?;
            self.files.push(file);
        }
        Ok(())
    }

    /// Puts every file back where it was. The error says why one could not be, and where
    /// those not put back are, relative to the submission, in the words the build's result
    /// keeps.
    pub fn put_back(mut self) -> Result<(), (String, String)> {
        let kept = self.aside.as_deref().map_or_else(String::new, |aside| {
            let aside = aside.strip_prefix(&self.submission).unwrap_or(aside);
            aside.to_string_lossy().into_owned()
        });
        self.undo().map_err(|why| (why.to_string(), kept))
    }

    /// Puts them back, once: every one that can be; the error says why the first that cannot
    /// be could not, and those stay in the grader's folder.
    fn undo(&mut self) -> Result<(), AsideError> {
        let Some(aside) = self.aside.take() else {
            return Ok(());
        };
        let mut first = None;
        for (number, file) in self.files.iter().enumerate() {
            let to = self.submission.join(file);
            // Whatever the build left in its place is the build's, not the student's.
            let _ = fs::remove_file(&to);
            if let Err(source) = fs::rename(aside.join(number.to_string()), &to) {
                first.get_or_insert(AsideError {
                    what: "put back",
                    path: to,
                    source,
                });
            }
        }
        if let Some(failed) = first {
            return Err(failed);
        }
        fs::remove_dir(&aside).map_err(|source| AsideError {
            what: "remove",
            path: aside,
            source,
        })
    }
}

impl Drop for SetAside {
    fn drop(&mut self) {
        let _ = self.undo();
    }
}

/// The configuration files in `submission`, `/`-separated: regular files or links (a link is
/// moved, never followed), not in a top-level `target/` nor in a grader's folder.
fn found(submission: &Path) -> Vec<String> {
    let skip = |path: &str, name: &str| path == "target" || name.starts_with(ASIDE);
    let Ok(listing) = tree::walk(submission, "", &skip) else {
        return Vec::new();
    };
    listing
        .entries
        .into_iter()
        .filter(|entry| matches!(entry.kind, EntryKind::File | EntryKind::Link(_)))
        .map(|entry| entry.path)
        .filter(|path| {
            let (folder, name) = path.rsplit_once('/').unwrap_or(("", path));
            let folder_name = folder.rsplit('/').next().unwrap_or(folder);
            CONFIG_FILES.contains(&name) || (folder_name == ".cargo" && CARGO_FILES.contains(&name))
        })
        .collect()
}

/// What would make, or made, the build take something else than the course's supplied crate;
/// the reports say it in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Redirection {
    /// A `[patch]` table, in this manifest.
    Patch(String),
    /// A `[replace]` table, in this manifest.
    Replace(String),
    /// A dependency on the supplied crate, in this manifest, that is not the copy in the
    /// folder checked (its path, or how it is given).
    Supplied {
        /// The manifest.
        manifest: String,
        /// Where it points.
        to: String,
    },
    /// The supplied crate as cargo's log says it built it (compiled, or already compiled),
    /// from another source than the folder checked: what follows `Compiling` or `Fresh`
    /// (`connect_four_supplied v0.1.0 (SOURCE)`).
    Compiled(String),
}

/// What in `submission`'s manifests (every `Cargo.toml`, hidden folders included) would make
/// its build take something else than the supplied crate in `supplied` (its folder below the
/// submission): `[patch]`, `[replace]`, or a dependency on the supplied crate elsewhere.
pub fn redirections(submission: &Path, supplied: &str) -> Vec<Redirection> {
    let skip = |path: &str, name: &str| path == "target" || name.starts_with(ASIDE);
    let Ok(listing) = tree::walk(submission, "", &skip) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for entry in listing.entries {
        let manifest = entry.path;
        let is_manifest = manifest == "Cargo.toml" || manifest.ends_with("/Cargo.toml");
        if !is_manifest || entry.kind != EntryKind::File {
            continue;
        }
        let Some(table) = tree::read(submission, &manifest, MAX_MANIFEST)
            .ok()
            .and_then(|bytes| String::from_utf8(bytes).ok())
            .and_then(|text| text.parse::<toml::Table>().ok())
        else {
            continue;
        };
        let folder = manifest.strip_suffix("Cargo.toml").unwrap_or_default();
        if table.contains_key("patch") {
            found.push(Redirection::Patch(manifest.clone()));
        }
        if table.contains_key("replace") {
            found.push(Redirection::Replace(manifest.clone()));
        }
        let targets = table.get("target").and_then(toml::Value::as_table);
        let workspace = table.get("workspace").and_then(toml::Value::as_table);
        let tables = DEPENDENCIES
            .iter()
            .filter_map(|name| table.get(*name))
            .chain(targets.into_iter().flat_map(|targets| {
                targets
                    .values()
                    .filter_map(toml::Value::as_table)
                    .flat_map(|target| DEPENDENCIES.iter().filter_map(|name| target.get(*name)))
            }))
            .chain(workspace.and_then(|w| w.get("dependencies")))
            .filter_map(toml::Value::as_table);
        for dependencies in tables {
            for (key, value) in dependencies {
                let name = value
                    .get("package")
                    .and_then(toml::Value::as_str)
                    .unwrap_or(key.as_str());
                if name != PACKAGE {
                    continue;
                }
                if let Some(to) = elsewhere(folder, value, supplied) {
                    found.push(Redirection::Supplied {
                        manifest: manifest.clone(),
                        to,
                    });
                }
            }
        }
    }
    found
}

/// Where a dependency on the supplied crate, given as `value` in the manifest in `folder`
/// (`/`-ended, or empty), points when that is not `supplied`; `None` when it is the supplied
/// folder, or the workspace's dependency (checked where the workspace gives it).
fn elsewhere(folder: &str, value: &toml::Value, supplied: &str) -> Option<String> {
    if value.get("workspace").and_then(toml::Value::as_bool) == Some(true) {
        return None;
    }
    let Some(path) = value.get("path").and_then(toml::Value::as_str) else {
        return Some("a registry or git".into());
    };
    let joined = Path::new(folder).join(path);
    let mut parts: Vec<&std::ffi::OsStr> = Vec::new();
    for component in joined.components() {
        match component {
            Component::Normal(part) => parts.push(part),
            Component::ParentDir if parts.pop().is_some() => {}
            Component::CurDir => {}
            _ => return Some(path.to_owned()),
        }
    }
    let resolved: PathBuf = parts.iter().collect();
    (resolved != Path::new(supplied)).then(|| path.to_owned())
}

/// What cargo's log of a build, at `log`, says of the supplied crate it linked, checked against
/// `folder` (the folder checked, absolute, as cargo names it): a [`Redirection::Compiled`] for
/// each of cargo's status lines naming the crate, compiled (`Compiling connect_four_supplied
/// v0.1.0 (SOURCE)`) or, in a verbose build, already compiled (`Fresh ...`), that names another
/// source (another path, a git repository, or none: a registry); so none when every one names
/// the folder. `None` when no line names the crate (a quiet build, a build that is not verbose
/// over output already there, a program that does not use it): which copy is linked is not
/// known.
pub fn compiled(log: &Path, folder: &Path) -> Option<Vec<Redirection>> {
    let file = File::open(log).ok()?;
    let crate_line = format!("{PACKAGE} v");
    // Cargo writes a path source as the path, as its guide once showed it as a `file://` URL.
    let ours = [
        format!("({})", folder.display()),
        format!("(file://{})", folder.display()),
    ];
    let mut named: Vec<String> = BufReader::new(file)
        .split(b'\n')
        .map_while(Result::ok)
        .filter_map(|line| {
            let line = String::from_utf8_lossy(&line);
            let line = line.trim();
            let rest = line
                .strip_prefix("Compiling ")
                .or_else(|| line.strip_prefix("Fresh "))?;
            rest.starts_with(&crate_line).then(|| rest.to_owned())
        })
        .collect();
    if named.is_empty() {
        return None;
    }
    named.retain(|source| !ours.iter().any(|ours| source.ends_with(ours)));
    named.sort();
    named.dedup();
    Some(named.into_iter().map(Redirection::Compiled).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A submission with these files (path, contents).
    fn submission(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (path, contents) in files {
            let path = dir.path().join(path);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, contents).unwrap();
        }
        dir
    }

    #[test]
    fn cargo_and_rustup_configuration_is_set_aside_for_the_build_and_put_back() {
        // Cargo's own reference: https://doc.rust-lang.org/cargo/reference/config.html
        // (hierarchical `.cargo/config.toml`, `paths`, `build.rustc-wrapper`), and rustup's
        // https://rust-lang.github.io/rustup/overrides.html (`rust-toolchain.toml`).
        let dir = submission(&[
            (".cargo/config.toml", "paths = [\".course/supplied\"]\n"),
            ("game/.cargo/config", "[build]\nrustc-wrapper = \"./spy\"\n"),
            ("rust-toolchain.toml", "[toolchain]\npath = \"./mine\"\n"),
            ("src/main.rs", "fn main() {}\n"),
            ("target/.cargo/config.toml", "left alone: build output\n"),
        ]);
        let (set, moved) = set_aside(dir.path());
        moved.unwrap();
        assert_eq!(
            set.files,
            [
                ".cargo/config.toml",
                "game/.cargo/config",
                "rust-toolchain.toml"
            ]
        );
        for file in &set.files {
            assert!(
                !dir.path().join(file).exists(),
                "{file} is out of the build's sight"
            );
        }
        fs::write(dir.path().join(".cargo/config.toml"), "made by the build\n").unwrap();
        set.put_back().unwrap();
        assert_eq!(
            fs::read_to_string(dir.path().join(".cargo/config.toml")).unwrap(),
            "paths = [\".course/supplied\"]\n"
        );
        assert!(dir.path().join("game/.cargo/config").is_file());
        let left: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| name.starts_with(ASIDE))
            .collect();
        assert!(left.is_empty(), "{left:?}");
        assert!(set_aside(dir.path()).0.files.len() == 3);
    }

    #[test]
    fn a_file_that_cannot_be_put_back_is_said_with_where_it_is_and_the_others_put_back() {
        let dir = submission(&[
            (".cargo/config.toml", "paths = [\".course/supplied\"]\n"),
            ("rust-toolchain", "stable\n"),
        ]);
        let (set, moved) = set_aside(dir.path());
        moved.unwrap();
        // The build left a folder where the first file was: it cannot be put back.
        fs::create_dir_all(dir.path().join(".cargo/config.toml/made")).unwrap();
        let (why, kept) = set.put_back().unwrap_err();
        assert!(
            why.starts_with("cannot put back ") && why.contains(".cargo/config.toml"),
            "{why}"
        );
        assert!(kept.starts_with(ASIDE) && !kept.contains('/'), "{kept}");
        let left = fs::read_dir(dir.path().join(&kept)).unwrap().flatten();
        let left: Vec<String> = left
            .map(|e| fs::read_to_string(e.path()).unwrap())
            .collect();
        assert_eq!(left, ["paths = [\".course/supplied\"]\n"]);
        assert_eq!(
            fs::read_to_string(dir.path().join("rust-toolchain")).unwrap(),
            "stable\n",
            "the others are put back"
        );
    }

    #[test]
    fn a_patch_a_replace_or_the_supplied_crate_taken_elsewhere_is_found() {
        // The manifest's reference: https://doc.rust-lang.org/cargo/reference/overriding-dependencies.html
        let dir = submission(&[
            (
                "Cargo.toml",
                "[package]\nname = \"c4\"\n\
                 [dependencies]\nconnect_four_supplied = { path = \"supplied\" }\n\
                 [patch.crates-io]\nrand = { path = \".course/rand\" }\n",
            ),
            (
                "game/Cargo.toml",
                "[package]\nname = \"game\"\n\
                 [dependencies]\nconnect_four_supplied = { path = \"../supplied\" }\n\
                 [target.'cfg(unix)'.dependencies]\n\
                 mine = { package = \"connect_four_supplied\", path = \"../.course/supplied\" }\n\
                 [replace]\n\"rand:0.9.0\" = { path = \"x\" }\n",
            ),
            (
                ".hidden/Cargo.toml",
                "[dependencies]\nconnect_four_supplied = \"0.1\"\n",
            ),
            (
                "supplied/Cargo.toml",
                "[package]\nname = \"connect_four_supplied\"\n",
            ),
        ]);
        let supplied = |manifest: &str, to: &str| Redirection::Supplied {
            manifest: manifest.into(),
            to: to.into(),
        };
        assert_eq!(
            redirections(dir.path(), "supplied"),
            [
                supplied(".hidden/Cargo.toml", "a registry or git"),
                Redirection::Patch("Cargo.toml".into()),
                Redirection::Replace("game/Cargo.toml".into()),
                supplied("game/Cargo.toml", "../.course/supplied"),
            ]
        );
        let honest = submission(&[(
            "Cargo.toml",
            "[dependencies]\nconnect_four_supplied = { path = \"./supplied\" }\n",
        )]);
        assert_eq!(redirections(honest.path(), "supplied"), []);
    }

    #[test]
    fn cargo_s_log_says_where_it_compiled_the_supplied_crate_from() {
        // Cargo's status lines, as `cargo build` writes them to a log (not a terminal); its
        // guide, https://doc.rust-lang.org/cargo/guide/creating-a-new-project.html, shows the
        // source as a `file://` URL, which cargo now writes as the path alone.
        let dir = submission(&[
            (
                "course.log",
                "   Compiling clap v4.5.0\n   Compiling connect_four_supplied v0.1.0 \
                 (/s/ann/supplied)\n   Compiling connect_four v0.1.0 (/s/ann)\n\
                 \x20  Compiling connect_four_supplied v0.1.0 (file:///s/ann/supplied)\n\
                 \x20      Fresh connect_four_supplied v0.1.0 (/s/ann/supplied)\n",
            ),
            (
                "elsewhere.log",
                "   Compiling connect_four_supplied v0.1.0 (/s/ann/supplied)\n\
                 warning: c4@0.1.0: Compiling connect_four_supplied v0.1.0 (/s/ann/forged)\n\
                 \x20  Compiling connect_four_supplied v0.1.0 (/s/ann/.course/supplied)\n\
                 \x20  Compiling connect_four_supplied v0.1.0 (/s/ann/supplied/x)\n\
                 \x20  Compiling connect_four_supplied v0.1.0\n\
                 \x20      Fresh connect_four_supplied v0.1.0 (/s/ann/.course/supplied)\n",
            ),
            ("quiet.log", "    Finished `release` profile\n"),
        ]);
        let folder = Path::new("/s/ann/supplied");
        let log = |name: &str| compiled(&dir.path().join(name), folder);
        assert_eq!(log("course.log"), Some(Vec::new()));
        let compiled = |source: &str| Redirection::Compiled(source.into());
        assert_eq!(
            log("elsewhere.log"),
            Some(vec![
                compiled("connect_four_supplied v0.1.0"),
                compiled("connect_four_supplied v0.1.0 (/s/ann/.course/supplied)"),
                compiled("connect_four_supplied v0.1.0 (/s/ann/supplied/x)"),
            ])
        );
        assert_eq!(log("quiet.log"), None);
        assert_eq!(log("no such.log"), None);
    }
}
