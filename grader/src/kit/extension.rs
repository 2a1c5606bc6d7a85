//! The rubric's optional extensions (`[[extension]]`): a category of their own, such as the
//! Connect-M extension, scored from cases kept apart in `extensions/FOLDER/` and graded only
//! when an instructor turns them on (`on = true`). Off, they change nothing: no category, no
//! case, the same total. Their stored answers are written and checked with every other case's
//! (`grade generate`, `grade check`), on or off, so that turning one on needs nothing more.

use std::path::Path;

use serde::Deserialize;

use super::case::{self, Case, CaseError};

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

/// What is wrong with an `[[extension]]` table (its name).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum InvalidExtension {
    /// Its folder is not one plain name, or its points not over 0.
    #[error(
        "extension `{0}`: folder must be one plain name (letters, digits, _ and -) and points \
         over 0"
    )]
    Folder(String),
    /// It has a category's name.
    #[error("extension `{0}`: a category of that name already exists")]
    Name(String),
}

impl Extension {
    /// Why the extension cannot be used beside the categories named `taken`, if it cannot.
    pub fn check(&self, taken: &[&str]) -> Result<(), InvalidExtension> {
        let plain = !self.folder.is_empty()
            && self
                .folder
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        if !plain || self.points.is_nan() || self.points <= 0.0 {
            return Err(InvalidExtension::Folder(self.name.clone()));
        }
        if taken.contains(&self.name.as_str()) {
            return Err(InvalidExtension::Name(self.name.clone()));
        }
        Ok(())
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
        assert!(extension("x", 1.0)
            .check(&["Connect M"])
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
