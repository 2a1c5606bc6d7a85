//! What the grading commands share: finding the kit (from the working directory or the `grade`
//! binary's own location, never from where it was built), loading it with the course's copy of
//! the supplied crate, the settings every grading run takes, and writing a report file.

use std::env;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::judge::window::{WindowPlan, WindowRun};
use crate::judge::{BuildCommand, Options, Policy, StyleCheck};
use crate::kit::case::Kind;
use crate::kit::supplied::Course;
use crate::kit::{Kit, LoadError};
use crate::process::Limits;
use crate::store::disk;

/// The kit's folder name in a project or an autograder's source.
const KIT: &str = "grading";

/// Why no kit is found ([`find_kit`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FindKitError {
    /// The folder given holds no kit.
    #[error("{}: not a kit (no rubric.toml there)", .dir.display())]
    NotAKit {
        /// The folder given.
        dir: PathBuf,
    },
    /// None was given and none is where one is looked for.
    #[error(
        "no kit found (a directory with rubric.toml and cases/): give --kit DIR, or run \
         grade where ./{KIT}/ is, or keep grade inside the kit's project",
        KIT = KIT
    )]
    NotFound,
}

/// Why the kit cannot be used ([`Grading::kit`]).
#[derive(Debug, thiserror::Error)]
pub enum OpenKitError {
    /// It is not found.
    #[error(transparent)]
    Find(#[from] FindKitError),
    /// It does not load.
    #[error(transparent)]
    Load(#[from] LoadError),
}

/// Why a report file cannot be written ([`write`], [`replace`]).
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// Its folder cannot be made.
    #[error("{}: {source}", .dir.display())]
    Folder {
        /// The folder.
        dir: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// It cannot be written (or put in its place).
    #[error("{}: cannot write: {source}", .path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
}

impl WriteError {
    /// The file (or folder) that could not be written because the disk is full, if that is
    /// why.
    pub fn disk_full(&self) -> Option<&Path> {
        match self {
            WriteError::Folder { dir: path, source } | WriteError::File { path, source }
                if disk::full(source) =>
            {
                Some(path)
            }
            _ => None,
        }
    }
}

/// What every grading run takes, whether of one student or a class.
#[derive(Clone, Debug, Default)]
pub struct Grading {
    /// The kit's directory, if given (`--kit`); else it is found ([`find_kit`]).
    pub kit: Option<PathBuf>,
    /// The course's copy of the supplied crate, if given; else `../starter/supplied` beside the
    /// kit.
    pub supplied: Option<PathBuf>,
    /// The build command, its time limit, and what else to run ([`Options`]); the build's
    /// logs go to [`Grading::report`].
    pub build: Option<(String, Duration)>,
    /// Leave out the speed-up.
    pub skip_timing: bool,
    /// Leave out the scaling view: the kit's speed-up cases are loaded without it.
    pub no_scaling: bool,
    /// The longest one student's cases may take.
    pub student_deadline: Duration,
    /// Limits given on the command line, each replacing the kit's: memory, processes, CPU,
    /// file size.
    pub limits: [Option<u64>; 6],
    /// Where the Markdown reports (and build logs) go.
    pub report: Option<PathBuf>,
    /// Run student code unconfined (`--no-sandbox`).
    pub no_sandbox: bool,
    /// The uid of job slot 0's user when the grader is root.
    pub base_uid: u32,
    /// Gather the style facts (`--style`).
    pub style: bool,
    /// Observe each student's window too (`--window`).
    pub window: Option<WindowAsk>,
}

/// What `--window` asks for.
#[derive(Clone, Debug)]
pub struct WindowAsk {
    /// The command that starts a student's window build, `{dir}` standing for their directory.
    pub command: String,
    /// The window's build command and its time limit, if it needs one; its logs go to
    /// [`Grading::report`] as `<student>.window-build.log`.
    pub build: Option<(String, Duration)>,
    /// The depth of the search watched for redraws.
    pub depth: u32,
}

impl Grading {
    /// The kit, found and loaded (its speed-up cases without the scaling view if asked), with
    /// the course's copy of the supplied crate when it can be used (said on standard error when
    /// it cannot: submissions' copies are then not compared), and its directory.
    pub fn kit(&self) -> Result<(Kit, PathBuf), OpenKitError> {
        let dir = find_kit(self.kit.as_deref())?;
        let mut kit = Kit::load(&dir)?;
        for (case, _) in &mut kit.cases {
            if let (true, Kind::Timing(plan)) = (self.no_scaling, &mut case.kind) {
                plan.scaling = false;
            }
        }
        let course = self
            .supplied
            .clone()
            .unwrap_or_else(|| dir.join("../starter/supplied"));
        kit.supplied = match Course::load(&course) {
            Ok(course) => Some(course),
            Err(why) => {
                eprintln!(
                    "grade: the course's copy of the supplied crate cannot be used ({why}); \
                     submissions' copies are not compared"
                );
                None
            }
        };
        Ok((kit, dir))
    }

    /// Leaves `CARGO_TARGET_DIR` out of the student's build, saying so on standard error, where
    /// it holds what student code must never reach: this `grade` (and the reference built
    /// beside it), the kit at `kit`, the reports or the `hidden` paths. The sandbox hands that
    /// folder to the student's build to write, so a program could run the reference in its
    /// place, or replace this `grade`. On Gradescope it is a folder of its own
    /// (`cargo-target`), kept. Called before any thread starts.
    pub fn keep_build_directory_apart(&self, kit: &Path, hidden: &[&Path]) {
        let Some(shared) = env::var_os("CARGO_TARGET_DIR").map(PathBuf::from) else {
            return;
        };
        let resolved = |path: &Path| path.canonicalize().or_else(|_| std::path::absolute(path));
        let Ok(folder) = resolved(&shared) else {
            return;
        };
        let held = env::current_exe()
            .into_iter()
            .chain([kit.to_path_buf()])
            .chain(self.report.clone())
            .chain(hidden.iter().map(|p| p.to_path_buf()))
            .filter_map(|path| resolved(&path).ok())
            .find(|path| path.starts_with(&folder));
        if let Some(held) = held {
            eprintln!(
                "grade: CARGO_TARGET_DIR ({}) holds {}: it is left out of the student's build, \
                 which builds into its own target/, where it can neither run nor replace what \
                 that folder holds",
                shared.display(),
                held.display()
            );
            env::remove_var("CARGO_TARGET_DIR");
        }
    }

    /// The judge's options; `hidden` are the paths student code must not reach beyond the kit
    /// and the reports (a results file, a gradebook).
    pub fn options(&self, kit: &Path, hidden: &[&Path]) -> Options {
        let policy = Policy {
            base_uid: self.base_uid,
            hidden: [kit]
                .into_iter()
                .chain(self.report.as_deref())
                .chain(hidden.iter().copied())
                .map(Path::to_path_buf)
                .collect(),
            // A Rust build's output outside the submission (Gradescope's shared target), made
            // now if it is not there yet, so that the sandbox can let the build write it.
            writable: env::var_os("CARGO_TARGET_DIR")
                .map(PathBuf::from)
                .filter(|dir| fs::create_dir_all(dir).is_ok())
                .into_iter()
                .collect(),
        };
        Options {
            skip_timing: self.skip_timing,
            build: self.build.as_ref().map(|(template, timeout)| BuildCommand {
                template: template.clone(),
                timeout: *timeout,
                logs: self.report.clone(),
                name: "build",
            }),
            student_deadline: Some(self.student_deadline),
            sandbox: (!self.no_sandbox).then_some(policy),
            style: self.style.then(|| StyleCheck {
                logs: self.report.clone(),
            }),
            window: self.window.as_ref().map(|ask| self.window_run(ask, kit)),
        }
    }

    /// How windows are observed: at 4 x 5, the screenshots in the report directory's
    /// `window/`, compared with the kit's pictures of the supplied window (its `window/`).
    fn window_run(&self, ask: &WindowAsk, kit: &Path) -> WindowRun {
        let reports = self.report.clone().unwrap_or_else(|| PathBuf::from("."));
        WindowRun {
            command: ask.command.clone(),
            build: ask.build.as_ref().map(|(template, timeout)| BuildCommand {
                template: template.clone(),
                timeout: *timeout,
                logs: self.report.clone(),
                name: "window-build",
            }),
            settings: WindowPlan {
                board: (4, 5),
                depth: 1,
                search_depth: ask.depth,
                screenshots: reports.join("window"),
                reference: Some(kit.join("window")).filter(|dir| dir.is_dir()),
            },
        }
    }

    /// The limits: the command line's where given, else the kit's.
    pub fn limits(&self, kit: &Kit) -> Limits {
        let [memory, processes, cpu, file_size, job_memory, disk] = self.limits;
        let own = kit.rubric.limits;
        Limits {
            memory_mib: memory.unwrap_or(own.memory_mib),
            processes: processes.unwrap_or(own.processes),
            cpu_seconds: cpu.unwrap_or(own.cpu_seconds),
            file_size_mib: file_size.unwrap_or(own.file_size_mib),
            job_memory_mib: job_memory.unwrap_or(own.job_memory_mib),
            disk_mib: disk.unwrap_or(own.disk_mib),
        }
    }
}

/// Whether `dir` holds a kit.
fn is_kit(dir: &Path) -> bool {
    dir.join("rubric.toml").is_file()
}

/// The kit's directory: `given`, else `./grading` or `.` when it holds a `rubric.toml`, else
/// a `grading/` beside the `grade` binary or beside any folder above it (`target/release/grade`
/// in a checkout, `/autograder/source/...` on Gradescope).
pub fn find_kit(given: Option<&Path>) -> Result<PathBuf, FindKitError> {
    if let Some(dir) = given {
        return match is_kit(dir) {
            true => Ok(dir.to_path_buf()),
            false => Err(FindKitError::NotAKit {
                dir: dir.to_path_buf(),
            }),
        };
    }
    let here = env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let binary = env::current_exe().ok().and_then(|p| p.canonicalize().ok());
    find_kit_from(&here, binary.as_deref())
}

/// [`find_kit`]'s search without a kit given, from the directory `here` and the binary's path.
fn find_kit_from(here: &Path, binary: Option<&Path>) -> Result<PathBuf, FindKitError> {
    let mut looked = vec![here.join(KIT), here.to_path_buf()];
    if let Some(binary) = binary {
        looked.extend(binary.ancestors().skip(1).map(|dir| dir.join(KIT)));
    }
    looked
        .into_iter()
        .find(|dir| is_kit(dir))
        .ok_or(FindKitError::NotFound)
}

/// Writes `bytes` (a text, a zip) to `path`, creating its directory.
pub(crate) fn write(path: &Path, bytes: impl AsRef<[u8]>) -> Result<(), WriteError> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        fs::create_dir_all(parent).map_err(|source| WriteError::Folder {
            dir: parent.to_path_buf(),
            source,
        })?;
    }
    disk::writable(path)
        .and_then(|()| fs::write(path, bytes))
        .map_err(|source| WriteError::File {
            path: path.to_path_buf(),
            source,
        })
}

/// Replaces `path` with `bytes` (a text, a zip) at once: written beside it and synced to
/// disk, then renamed over it, so that a reader (or a crash, even of the machine) never sees
/// half of it.
pub(crate) fn replace(path: &Path, bytes: impl AsRef<[u8]>) -> Result<(), WriteError> {
    let name = path
        .file_name()
        .map_or_else(|| "file".into(), |name| name.to_string_lossy().into_owned());
    let temporary = parent(path).join(format!(".{name}.{}.tmp", std::process::id()));
    disk::writable(path).map_err(|source| WriteError::File {
        path: path.to_path_buf(),
        source,
    })?;
    write(&temporary, bytes)?;
    let synced = fs::File::open(&temporary).and_then(|file| file.sync_all());
    synced
        .and_then(|()| fs::rename(&temporary, path))
        .map_err(|source| {
            let _ = fs::remove_file(&temporary);
            WriteError::File {
                path: path.to_path_buf(),
                source,
            }
        })?;
    // The rename itself, on disk.
    let _ = fs::File::open(parent(path)).and_then(|dir| dir.sync_all());
    Ok(())
}

/// The folder `path` is in (the working directory for a bare file name).
pub(crate) fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// Makes the grader the reaper of every orphan its students leave (a double-forked daemon comes
/// back to it, to be killed and reaped); said on standard error when the system refuses.
pub(crate) fn become_subreaper() {
    if let Err(why) = crate::process::sandbox::become_subreaper() {
        eprintln!("grade: cannot collect the processes students leave behind ({why})");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_given_kit_must_hold_a_rubric() {
        let dir = tempfile::tempdir().unwrap();
        assert!(find_kit(Some(dir.path())).is_err());
        fs::write(dir.path().join("rubric.toml"), "").unwrap();
        assert_eq!(find_kit(Some(dir.path())).unwrap(), dir.path());
    }

    #[test]
    fn the_kit_is_found_from_the_binary_in_a_checkout() {
        // `target/release/grade` in a checkout that holds grading/, run from elsewhere.
        let checkout = tempfile::tempdir().unwrap();
        let kit = checkout.path().join(KIT);
        fs::create_dir(&kit).unwrap();
        fs::write(kit.join("rubric.toml"), "").unwrap();
        let binary = checkout.path().join("target/release/grade");
        let elsewhere = tempfile::tempdir().unwrap();
        assert_eq!(find_kit_from(elsewhere.path(), Some(&binary)).unwrap(), kit);
        assert!(matches!(
            find_kit_from(elsewhere.path(), None),
            Err(FindKitError::NotFound)
        ));
    }
}
