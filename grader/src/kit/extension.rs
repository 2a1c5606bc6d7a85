//! The rubric's optional extensions (`[[extension]]`): a category of their own, such as the
//! Connect-M extension, scored from cases kept apart in `extensions/FOLDER/` and graded only
//! when an instructor turns them on (`on = true`). Off, they change nothing: no category, no
//! case, the same total. Their stored answers are written and checked with every other case's
//! (`grade generate`, `grade check`), on or off, so that turning one on needs nothing more.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use super::case::{self, Case, CaseError};
use super::rubric::{Category, Invalid};

/// The folder below the kit that holds each extension's cases.
pub const EXTENSIONS: &str = "extensions";

/// One `[[extension]]` of the rubric.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Extension {
    /// The category it adds when on, as its cases name it.
    pub name: String,
    /// Its cases' folder below `extensions/`: one plain name.
    pub folder: String,
    /// Its points, added to the rubric's total when on.
    pub points: f64,
    /// Whether it is graded; off by default.
    #[serde(default)]
    pub on: bool,
}

impl Extension {
    /// Why the extension cannot be used beside `categories`, if it cannot.
    pub fn check(&self, categories: &[Category]) -> Result<(), Invalid> {
        let plain = !self.folder.is_empty()
            && self
                .folder
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        if !plain || self.points.is_nan() || self.points <= 0.0 {
            return Err(Invalid::ExtensionFolder(self.name.clone()));
        }
        if categories.iter().any(|c| c.name == self.name) {
            return Err(Invalid::ExtensionName(self.name.clone()));
        }
        Ok(())
    }

    /// The category it adds when on: scored by its cases alone.
    pub fn category(&self) -> Category {
        Category {
            name: self.name.clone(),
            points: self.points,
            manual: Vec::new(),
            evidence: None,
            wording: BTreeMap::new(),
        }
    }

    /// Its cases, named below `extensions/` (`connect_m/wins_9x9`): each must score its
    /// category.
    pub fn load_cases(&self, kit: &Path) -> Result<Vec<Case>, CaseError> {
        let cases = case::load_all_below(
            &kit.join(EXTENSIONS).join(&self.folder),
            &kit.join(EXTENSIONS),
        )?;
        if let Some(stray) = cases.iter().find(|c| c.category != self.name) {
            return Err(CaseError::NotTheExtensions {
                path: stray.path.clone(),
                category: self.name.clone(),
            });
        }
        Ok(cases)
    }
}

/// Every extension's cases in the kit at `kit`, on or off (none without an `extensions/`
/// folder): what `grade generate` and `grade check` write and check besides `cases/`.
pub fn all_cases(kit: &Path) -> Result<Vec<Case>, CaseError> {
    let dir = kit.join(EXTENSIONS);
    if !dir.is_dir() {
        return Ok(Vec::new());
    }
    case::load_all_below(&dir, &dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn extension(folder: &str, points: f64) -> Extension {
        Extension {
            name: "Connect M".into(),
            folder: folder.into(),
            points,
            on: true,
        }
    }

    #[test]
    fn a_folder_is_one_plain_name_and_the_name_a_new_category() {
        assert_eq!(extension("connect_m", 10.0).check(&[]), Ok(()));
        for bad in ["", "../cases", "a/b", "."] {
            assert!(extension(bad, 10.0).check(&[]).is_err(), "{bad}");
        }
        assert!(extension("connect_m", 0.0).check(&[]).is_err());
        let taken = extension("x", 1.0).category();
        assert!(extension("x", 1.0)
            .check(&[taken])
            .unwrap_err()
            .to_string()
            .contains("already exists"));
    }

    #[test]
    fn the_repository_s_extension_cases_all_score_their_category() {
        let kit = Path::new(env!("CARGO_MANIFEST_DIR")).join("../grading");
        let cases = extension("connect_m", 10.0).load_cases(&kit).unwrap();
        assert!(cases.iter().all(|c| c.name.starts_with("connect_m/")));
        let points: f64 = cases.iter().map(|c| c.points).sum();
        assert!((points - 10.0).abs() < 1e-9, "{points}");
        assert!(cases.iter().any(|c| c.connect != 4));
        assert_eq!(all_cases(&kit).unwrap().len(), cases.len());
    }
}
