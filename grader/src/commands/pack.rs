//! `grade pack DIR`: the kit students get, in one folder: the students' `grade` binary, the
//! rubric and the published cases with their answers, and the course's copy of the supplied
//! crate, laid out as the handout shows (`DIR/grade`, `DIR/grading/`, `DIR/starter/supplied/`).
//! Never the instructor's secret seed (so never the held-out cases), nor the Gradescope
//! configuration, nor the reference engine: the students' `grade` is built without it, so that a
//! copy carried in a submission cannot answer a case it has not seen. The files are the working
//! tree's, chosen as `make_zip.sh` chooses them ([`source`]); changes not committed are refused
//! unless allowed, so that the kit is what the repository holds.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::files::{find_kit, FindKitError};
use super::source::{self, GitState, Manifest, ManifestError};
use crate::kit::held_out::SECRET;
use crate::kit::{Kit, LoadError};

/// How to build the students' `grade` by hand.
const BUILD: &str = "`cargo build --release -p connect_four_grader --features students-kit`";

/// What is left out of the kit's folder: the secret, and the autograder's configuration.
const LEFT_OUT: [&str; 2] = [SECRET, "gradescope"];

/// Why the students' kit cannot be packed.
#[derive(Debug, thiserror::Error)]
pub enum PackError {
    /// No kit is found.
    #[error(transparent)]
    Find(#[from] FindKitError),
    /// The kit does not load.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// The files to pack cannot be listed.
    #[error(transparent)]
    Source(#[from] ManifestError),
    /// The folder to pack into is not empty.
    #[error("{}: not empty; pack into a new folder", .out.display())]
    NotEmpty {
        /// The folder.
        out: PathBuf,
    },
    /// A file or folder cannot be made or copied.
    #[error("{}: {source}", .path.display())]
    Copy {
        /// The file or folder.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// What it packs has changes not committed (`git status --short`'s lines).
    #[error(
        "changes not committed in what grade pack packs (git status --short, from the \
         repository's root):{}\ncommit them, or pass --allow-uncommitted to pack the \
         working tree as it is",
        changes_listed(.changes)
    )]
    Uncommitted {
        /// `git status --short`'s lines.
        changes: Vec<String>,
    },
    /// No course repository beside the kit to build the students' `grade` from.
    #[error(
        "{}: not found, so there is no course repository beside the kit to build the \
         students' grade from; pass --grade PATH, a grade built with {BUILD}",
        .manifest.display(),
        BUILD = BUILD
    )]
    NoRepository {
        /// The grader's manifest looked for.
        manifest: PathBuf,
    },
    /// Cargo cannot be run.
    #[error("cannot run {}: {source}", .cargo.display())]
    Cargo {
        /// The cargo run.
        cargo: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The build of the students' `grade` failed.
    #[error("building the students' grade failed ({status}); see cargo's messages above")]
    Build {
        /// Cargo's exit status.
        status: std::process::ExitStatus,
    },
    /// The `grade` given cannot be run.
    #[error("{}: cannot run: {source}", .grade.display())]
    CannotRun {
        /// The `grade` given.
        grade: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The `grade` given is not a `grade`.
    #[error("{}: not a grade program", .grade.display())]
    NotGrade {
        /// The program given.
        grade: PathBuf,
    },
    /// The `grade` given is the course's, with the reference engine.
    #[error(
        "{}: the course's grade, with the reference engine, which students must not \
         get; give a students' build ({BUILD})",
        .grade.display(),
        BUILD = BUILD
    )]
    CoursesGrade {
        /// The `grade` given.
        grade: PathBuf,
    },
}

/// The changes not committed, one an indented line each after the message's colon.
fn changes_listed(changes: &[String]) -> String {
    changes
        .iter()
        .map(|change| format!("\n  {change}"))
        .collect()
}

/// A [`PackError::Copy`] of `path`.
fn copy_failed(path: &Path) -> impl Fn(std::io::Error) -> PackError + '_ {
    move |source| PackError::Copy {
        path: path.to_path_buf(),
        source,
    }
}

/// Packs the kit at `kit` (else the one found) into `out`, which must not exist or be empty,
/// with `grade` (else one built from the course's repository) as the students' `grade`. Changes
/// not committed to what it packs (the kit, the supplied crate, and the grader when it builds
/// one) are refused, or only warned of when `allow_uncommitted`.
pub fn run(
    kit: Option<&Path>,
    grade: Option<&Path>,
    out: &Path,
    allow_uncommitted: bool,
) -> Result<(), PackError> {
    let dir = find_kit(kit)?;
    // Only a kit that loads is packed: what students get must work.
    Kit::load_published(&dir)?;
    if fs::read_dir(out).is_ok_and(|mut entries| entries.next().is_some()) {
        return Err(PackError::NotEmpty {
            out: out.to_path_buf(),
        });
    }
    let grading = source::files(&dir, &LEFT_OUT)?;
    let supplied_dir = dir.join("../starter/supplied");
    let supplied = supplied_dir
        .is_dir()
        .then(|| source::files(&supplied_dir, &[]));
    let supplied = supplied.transpose()?;
    // A grade built here is built from the grader's sources as they are: they are checked too.
    let grader_dir = dir.join("../grader");
    let grader = (grade.is_none() && grader_dir.is_dir()).then(|| source::files(&grader_dir, &[]));
    let grader = grader.transpose()?;
    let checked = [
        (&dir, Some(&grading)),
        (&supplied_dir, supplied.as_ref()),
        (&grader_dir, grader.as_ref()),
    ];
    uncommitted(&checked, allow_uncommitted)?;
    let binary = match grade {
        Some(given) => given.to_path_buf(),
        None => build(&dir)?,
    };
    check_students(&binary)?;
    fs::create_dir_all(out).map_err(copy_failed(out))?;
    let grade = out.join("grade");
    fs::copy(&binary, &grade).map_err(copy_failed(&grade))?;
    fs::set_permissions(&grade, fs::Permissions::from_mode(0o755)).map_err(copy_failed(&grade))?;
    copy(&dir, &grading, &out.join("grading"))?;
    if let Some(supplied) = &supplied {
        copy(&supplied_dir, supplied, &out.join("starter/supplied"))?;
    }
    eprintln!(
        "grade: packed the students' kit into {} (grade without the reference engine, grading/ \
         without {SECRET}, starter/supplied/)",
        out.display()
    );
    Ok(())
}

/// Refuses the changes not committed in `sources` (each with its folder), unless
/// `allow_uncommitted`, when it warns of them; says of a folder outside a git checkout that
/// nothing could be checked.
fn uncommitted(
    sources: &[(&PathBuf, Option<&Manifest>)],
    allow_uncommitted: bool,
) -> Result<(), PackError> {
    let mut changes = Vec::new();
    for (folder, source) in sources {
        match source.map(|s| &s.state) {
            Some(GitState::Uncommitted(lines)) => changes.extend(lines.iter().cloned()),
            Some(GitState::Unchecked(why)) => eprintln!(
                "grade pack: no git checkout to check (git says: {why}): packing the files of \
                 {} as they are; nothing could be checked for changes not committed",
                folder.display()
            ),
            Some(GitState::Committed) | None => {}
        }
    }
    if changes.is_empty() {
        return Ok(());
    }
    if !allow_uncommitted {
        return Err(PackError::Uncommitted { changes });
    }
    eprintln!(
        "grade pack: warning: packing changes not committed (git status --short, from the \
         repository's root):{}",
        changes_listed(&changes)
    );
    Ok(())
}

/// Builds the students' `grade` from the course's repository, the kit's parent folder, into
/// [`build_dir`], and says where it is.
fn build(kit: &Path) -> Result<PathBuf, PackError> {
    let repo = kit.join("..");
    let repo = fs::canonicalize(&repo).unwrap_or(repo);
    let manifest = repo.join("grader/Cargo.toml");
    if !manifest.is_file() {
        return Err(PackError::NoRepository { manifest });
    }
    let target = build_dir(&repo, std::env::var_os("CARGO_TARGET_DIR"));
    eprintln!(
        "grade: building the students' grade (no reference engine) into {}",
        target.display()
    );
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(&cargo)
        .args([
            "build",
            "--release",
            "--locked",
            "--features",
            "students-kit",
        ])
        .arg("--manifest-path")
        .arg(&manifest)
        .arg("--target-dir")
        .arg(&target)
        .status()
        .map_err(|source| PackError::Cargo {
            cargo: PathBuf::from(&cargo),
            source,
        })?;
    if !status.success() {
        return Err(PackError::Build { status });
    }
    Ok(target.join("release/grade"))
}

/// Where the students' `grade` is built: `students-kit/` in the build directory cargo would use
/// (`CARGO_TARGET_DIR`, `cargo_target_dir`, when set; else the repository's `target/`), a folder
/// of its own so that the course's build, with other features, is not made again after it.
fn build_dir(repo: &Path, cargo_target_dir: Option<std::ffi::OsString>) -> PathBuf {
    cargo_target_dir
        .filter(|dir| !dir.is_empty())
        .map_or_else(|| repo.join("target"), PathBuf::from)
        .join("students-kit")
}

/// Checks that `grade` is a students' `grade`: it runs, and it has no `generate` (which the
/// reference engine's answers come out of).
fn check_students(grade: &Path) -> Result<(), PackError> {
    let run = |args: &[&str]| {
        Command::new(grade)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .map_err(|source| PackError::CannotRun {
                grade: grade.to_path_buf(),
                source,
            })
    };
    let version = run(&["--version"])?;
    if !version.status.success() || !version.stdout.starts_with(b"grade ") {
        return Err(PackError::NotGrade {
            grade: grade.to_path_buf(),
        });
    }
    if run(&["generate", "--help"])?.status.success() {
        return Err(PackError::CoursesGrade {
            grade: grade.to_path_buf(),
        });
    }
    Ok(())
}

/// Copies the files of `source`, in the folder `from`, to the folder `to`.
fn copy(from: &Path, source: &Manifest, to: &Path) -> Result<(), PackError> {
    for file in &source.files {
        let (source, target) = (from.join(file), to.join(file));
        if let Some(parent) = target.parent() {
            fs::create_dir_all(parent).map_err(copy_failed(parent))?;
        }
        fs::copy(&source, &target).map_err(copy_failed(&source))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_students_grade_is_built_where_cargo_builds() {
        let repo = Path::new("/course");
        let course = Path::new("/course/target/students-kit");
        assert_eq!(build_dir(repo, None), course);
        assert_eq!(build_dir(repo, Some("".into())), course);
        assert_eq!(
            build_dir(repo, Some("/fast/target".into())),
            Path::new("/fast/target/students-kit")
        );
    }
}
