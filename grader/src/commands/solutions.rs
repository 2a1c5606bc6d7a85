//! `grade generate` and `grade check`: write every case's stored answers from the reference, or
//! check that the stored ones are still what the reference says: the published cases' and every
//! extension's, turned on or not.

use crate::kit::case::CaseError;
use crate::kit::reference::ReferenceError;
use crate::kit::solution::SolutionError;
use crate::kit::{case, extension, reference, solution};

use super::files::{find_kit, FindKitError};

/// Why the solutions cannot be written, or are stale.
#[derive(Debug, thiserror::Error)]
pub enum SolutionsError {
    /// No kit is found.
    #[error(transparent)]
    Find(#[from] FindKitError),
    /// A case does not load.
    #[error(transparent)]
    Case(#[from] CaseError),
    /// The reference cannot answer a case.
    #[error(transparent)]
    Reference(#[from] ReferenceError),
    /// A solution cannot be written.
    #[error(transparent)]
    Solution(#[from] SolutionError),
    /// Stored solutions are not the reference's answers (their files).
    #[error(
        "{} stale solution file(s), run `grade generate`: {}",
        .stale.len(),
        .stale.join(", ")
    )]
    Stale {
        /// The stale solution files, as shown.
        stale: Vec<String>,
    },
}

/// Writes every case's solution (or, with `check_only`, compares the stored ones with the
/// reference's, failing with the stale ones named) for the kit at `kit` (else the one found).
pub fn run(kit: Option<&std::path::Path>, check_only: bool) -> Result<(), SolutionsError> {
    let dir = find_kit(kit)?;
    let mut cases = case::load_all(&dir.join("cases"))?;
    cases.extend(extension::all_cases(&dir)?);
    let mut stale = Vec::new();
    for case in &cases {
        let fresh = reference::solve(case)?;
        if check_only {
            if solution::read(case).ok().as_ref() != Some(&fresh) {
                stale.push(solution::path(case).display().to_string());
            }
        } else {
            solution::write(case, &fresh)?;
        }
    }
    if !stale.is_empty() {
        return Err(SolutionsError::Stale { stale });
    }
    eprintln!(
        "grade: {} solution file(s) {}",
        cases.len(),
        if check_only {
            "match the reference"
        } else {
            "written"
        }
    );
    Ok(())
}
