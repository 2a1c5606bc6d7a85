//! `grade generate` and `grade check`: write every case's stored answers from the reference, or
//! check that the stored ones are still what the reference says: the published cases' and every
//! extension's, turned on or not.

use crate::kit::{case, extension, reference, solution, KitError};

use super::files::find_kit;

/// Writes every case's solution (or, with `check_only`, compares the stored ones with the
/// reference's, failing with the stale ones named) for the kit at `kit` (else the one found).
pub fn run(kit: Option<&std::path::Path>, check_only: bool) -> Result<(), KitError> {
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
        return Err(KitError(format!(
            "{} stale solution file(s), run `grade generate`: {}",
            stale.len(),
            stale.join(", ")
        )));
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
