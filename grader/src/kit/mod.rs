//! What the grading is done with, as data: the [`rubric`], the [`case`] files, their stored
//! answers ([`solution`]), the [`held_out`] cases generated from the instructor's secret seed,
//! the optional [`extension`]s' cases (on only when the rubric turns them on),
//! the course's copy of the [`supplied`] crate that submissions' copies are compared with, the
//! settings of the [`style`] facts, the [`handout`]'s placeholders, the safe way to read a
//! submission's files ([`tree`]) and which of them are its [`sources`]; and who each
//! submission is and when it came in: the instructor's [`roster`], the metadata of Gradescope's
//! download ([`gradescope_download`], found as downloaded, its `.zip` extracted by
//! [`archive`]), the submission times ([`submitted`]) and the late policy they are judged by
//! ([`late`]).
//! Everything is loaded and checked against everything else before a student is graded;
//! nothing here starts a process. Only the course's `grade` computes answers ([`reference`]) and so
//! can make held-out cases; the students' (the `students-kit` feature) cannot.

pub mod archive;
pub mod build_config;
pub mod case;
mod error;
pub mod extension;
pub mod gradescope_download;
pub mod handout;
pub mod held_out;
pub mod late;
pub mod reconcile;
#[cfg(not(feature = "students-kit"))]
pub mod reference;
pub mod roster;
pub mod rubric;
pub mod solution;
pub mod sources;
pub mod style;
pub mod submitted;
pub mod supplied;
pub mod tree;

use std::path::{Path, PathBuf};

pub use case::Case;
pub use error::TomlError;
pub(crate) use error::{parse_toml, read_text, read_toml};
pub use rubric::Rubric;
pub use solution::Solution;

use case::{CaseError, CasesError};
use rubric::RubricError;
use solution::SolutionError;

/// Why the kit cannot be loaded ([`Kit::load`]).
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The rubric.
    #[error(transparent)]
    Rubric(#[from] RubricError),
    /// A case file, or the cases' folder.
    #[error(transparent)]
    Case(#[from] CaseError),
    /// The cases do not fit the rubric or each other.
    #[error(transparent)]
    Cases(#[from] CasesError),
    /// A case's stored answers.
    #[error(transparent)]
    Solution(#[from] SolutionError),
    /// The instructor's seed (`secret.toml`).
    #[error(transparent)]
    Secret(#[from] TomlError),
    /// A held-out case cannot be made.
    #[cfg(not(feature = "students-kit"))]
    #[error(transparent)]
    HeldOut(#[from] held_out::generate::HeldOutError),
    /// The kit has held-out cases and this `grade` is the students' kit's.
    #[error(
        "{}: held-out cases need the course's grade, which has the reference engine; \
         this grade is the students' kit's",
        .secret.display()
    )]
    HeldOutInStudentsKit {
        /// The instructor's seed file.
        secret: PathBuf,
    },
}

/// Everything needed to grade: the rubric and every case with its stored answers.
#[derive(Debug, Clone)]
pub struct Kit {
    /// The categories and the speed-up credit.
    pub rubric: Rubric,
    /// The cases, sorted by name, each with its solution.
    pub cases: Vec<(Case, Solution)>,
    /// The course's copy of the supplied crate, which submissions' copies are compared with;
    /// `None` leaves that comparison out.
    pub supplied: Option<supplied::Course>,
}

impl Kit {
    /// Loads the published kit ([`Kit::load_published`]) and, when the rubric has a
    /// `[held_out]` table and `DIR/secret.toml` holds the instructor's seed, adds the held-out
    /// cases with their answers (see [`held_out`]). The students' `grade` refuses such a kit
    /// rather than grade without its held-out cases.
    pub fn load(dir: &Path) -> Result<Kit, LoadError> {
        let kit = Kit::load_published(dir)?;
        let seed = match kit.rubric.held_out {
            Some(_) => held_out::seed(dir)?,
            None => None,
        };
        match seed {
            None => Ok(kit),
            #[cfg(not(feature = "students-kit"))]
            Some(seed) => {
                let mut kit = kit;
                held_out::generate::add(&kit.rubric, &mut kit.cases, seed, dir)?;
                Ok(kit)
            }
            #[cfg(feature = "students-kit")]
            Some(_) => Err(LoadError::HeldOutInStudentsKit {
                secret: dir.join(held_out::SECRET),
            }),
        }
    }

    /// The points of the timing cases: what `--skip-timing` leaves out of the total.
    pub fn timing_points(&self) -> f64 {
        self.cases
            .iter()
            .filter(|(case, _)| case.is_timing())
            .map(|(case, _)| case.points)
            .sum()
    }

    /// The categories that hold a timing case, each once, in rubric order: those whose points a
    /// machine that cannot judge a speed-up (too few CPUs, busy) leaves missing.
    pub fn timed_categories(&self) -> Vec<String> {
        self.rubric
            .categories
            .iter()
            .filter(|category| {
                self.cases
                    .iter()
                    .any(|(case, _)| case.is_timing() && case.category == category.name)
            })
            .map(|category| category.name.clone())
            .collect()
    }

    /// Loads `DIR/rubric.toml`, `DIR/cases/` and the cases of every extension turned on
    /// (`DIR/extensions/FOLDER/`), validates them against each other and reads every case's
    /// solution (which must match its script). The course's copy of the supplied crate is not
    /// loaded: set [`Kit::supplied`] for that comparison.
    pub fn load_published(dir: &Path) -> Result<Kit, LoadError> {
        let rubric = Rubric::load(&dir.join("rubric.toml"))?;
        let mut cases = case::load_all(&dir.join("cases"))?;
        for extension in rubric.extensions.iter().filter(|e| e.on) {
            cases.extend(extension.load_cases(dir)?);
        }
        rubric.validate_cases(&cases)?;
        case::validate_requirements(&cases)?;
        let cases = cases
            .into_iter()
            .map(|case| solution::read(&case).map(|s| (case, s)))
            .collect::<Result<_, _>>()?;
        Ok(Kit {
            rubric,
            cases,
            supplied: None,
        })
    }
}
