//! `grade similar DIR`: every pair of a class's submissions compared (and each with the
//! archives of earlier years given), the code every student was given left out (the folders
//! given as the base, by default the course's starter beside the kit), the pairs ranked on
//! standard output and, where asked, written as a CSV and as pages in a report directory.
//! `grade class --report` does the same for the class it grades ([`write`]) and puts the
//! ranking in its summary.

use std::path::{Path, PathBuf};

use super::files::{find_kit, replace, write as write_file, WriteError};
use crate::report::similarity::{self, page};
use crate::similarity::load::{self, FolderError};
use crate::similarity::{compare, Base, Comparison, Origin, Settings, Submission};

/// What `grade similar` was asked.
#[derive(Clone, Debug, Default)]
pub struct SimilarRun {
    /// The class folder, a submission per subdirectory.
    pub submissions: PathBuf,
    /// Folders of code every student was given (`--base`); none: the course's starter.
    pub base: Vec<PathBuf>,
    /// Leave no code out (`--no-base`).
    pub no_base: bool,
    /// Folders of earlier years' classes (`--archive`).
    pub archive: Vec<PathBuf>,
    /// Where the pages go (`--report`): `similarity/` and `similarity.csv` in it.
    pub report: Option<PathBuf>,
    /// Where every pair goes as CSV (`--csv`).
    pub csv: Option<PathBuf>,
    /// The kit, whose parent holds the course's starter (`--kit`).
    pub kit: Option<PathBuf>,
}

/// Why `grade similar` could not compare or write.
#[derive(Debug, thiserror::Error)]
pub enum SimilarError {
    /// A class, archive or base folder could not be read.
    #[error(transparent)]
    Load(#[from] FolderError),
    /// A base folder given is not a folder.
    #[error("{}: the base must be a folder of given code", .0.display())]
    NoBase(PathBuf),
    /// A file could not be written.
    #[error(transparent)]
    Write(#[from] WriteError),
}

/// Runs `grade similar`.
pub fn run(run: &SimilarRun) -> Result<(), SimilarError> {
    let base = match (run.no_base, run.base.is_empty()) {
        (true, _) => Vec::new(),
        (false, false) => given_base(&run.base)?,
        (false, true) => course_starter(run.kit.as_deref(), "--base DIR names other given code"),
    };
    let archive = run
        .archive
        .iter()
        .map(|dir| load::class(dir, &Origin::Archive(label(dir))))
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .flatten()
        .collect();
    let comparison = compared(&run.submissions, archive, &base)?;
    print!("{}", similarity::terminal(&comparison));
    if let Some(path) = &run.csv {
        replace(path, csv_text(&comparison))?;
        eprintln!("grade: wrote {}", path.display());
    }
    if let Some(reports) = &run.report {
        write(reports, &comparison)?;
    }
    Ok(())
}

/// The class `dir` compared with the `archive`, `base` left out, by the default settings.
pub fn compared(
    dir: &Path,
    archive: Vec<Submission>,
    base: &[Submission],
) -> Result<Comparison, FolderError> {
    let settings = Settings::default();
    let class = load::class(dir, &Origin::Class)?;
    Ok(compare(class, archive, &Base::of(base, settings), settings))
}

/// The base folders given, each read as given code (with its supplied crate).
fn given_base(folders: &[PathBuf]) -> Result<Vec<Submission>, SimilarError> {
    let mut base = Vec::new();
    for dir in folders {
        match dir.is_dir() {
            true => base.push(load::given(dir, &label(dir))),
            false => return Err(SimilarError::NoBase(dir.clone())),
        }
    }
    Ok(base)
}

/// The course's starter (the `starter` folder beside the kit) as the base, said on standard
/// error; none, said too, when there is no kit or no starter beside it. `other` says how the
/// command running is told of other given code.
pub fn course_starter(kit: Option<&Path>, other: &str) -> Vec<Submission> {
    let starter = find_kit(kit)
        .ok()
        .map(|kit| kit.join("../starter"))
        .filter(|starter| starter.is_dir());
    match starter {
        Some(starter) => {
            eprintln!(
                "grade: the code every student was given is left out: {} ({other})",
                starter.display()
            );
            vec![load::given(&starter, "starter")]
        }
        None => {
            eprintln!("grade: no starter beside the kit, so no given code is left out ({other})");
            Vec::new()
        }
    }
}

/// A folder's name, for an archive's label or a base's.
fn label(dir: &Path) -> String {
    dir.canonicalize()
        .ok()
        .and_then(|dir| Some(dir.file_name()?.to_string_lossy().into_owned()))
        .unwrap_or_else(|| dir.display().to_string())
}

/// Every pair as CSV text.
fn csv_text(comparison: &Comparison) -> String {
    let mut writer = csv::Writer::from_writer(Vec::new());
    for row in similarity::csv(comparison) {
        // Writing to memory cannot fail.
        let _ = writer.write_record(&row);
    }
    String::from_utf8(writer.into_inner().unwrap_or_default()).unwrap_or_default()
}

/// Writes the comparison into the report directory `reports`: the CSV of every pair, the
/// index page and a page per pair for the first [`page::PAGES`], in `similarity/`.
pub fn write(reports: &Path, comparison: &Comparison) -> Result<(), WriteError> {
    replace(&reports.join(similarity::CSV), csv_text(comparison))?;
    let folder = reports.join(similarity::FOLDER);
    write_file(&folder.join("index.html"), page::index(comparison))?;
    for (rank, pair) in comparison.pairs.iter().take(page::PAGES).enumerate() {
        write_file(
            &folder.join(similarity::pair_name(rank)),
            page::pair(comparison, pair, rank),
        )?;
    }
    eprintln!(
        "grade: wrote the similar pairs, {}",
        folder.join("index.html").display()
    );
    Ok(())
}
