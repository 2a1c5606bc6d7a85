//! The rubric, `grading/rubric.toml`: the assignment's categories and points, which of them are
//! graded by hand (with their checklists), and the credit a measured speed-up earns.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use crate::case::Case;
use crate::KitError;

/// One category of the assignment.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Category {
    /// Its name, as case files name it.
    pub name: String,
    /// Its points.
    pub points: f64,
    /// For a category graded by hand: what the grader checks, one item a line. Empty for the
    /// categories the cases score.
    #[serde(default)]
    pub manual: Vec<String>,
}

impl Category {
    /// Whether the cases score this category.
    pub fn is_automatic(&self) -> bool {
        self.manual.is_empty()
    }
}

/// A speed-up threshold and the fraction of a timing case's points it earns.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Threshold {
    /// The least speed-up (one-thread time over many-thread time).
    pub at_least: f64,
    /// The fraction of the points it earns, 0 to 1.
    pub credit: f64,
}

/// The whole rubric.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Rubric {
    /// The assignment's name, for reports.
    pub title: String,
    /// The categories, in report order.
    #[serde(rename = "category")]
    pub categories: Vec<Category>,
    /// Speed-up thresholds, any order.
    pub speedup: Vec<Threshold>,
}

impl Rubric {
    /// Reads and checks `path`.
    pub fn load(path: &Path) -> Result<Rubric, KitError> {
        let shown = path.display();
        let (_, rubric): (_, Rubric) = crate::read_toml(path)?;
        if rubric.categories.is_empty() {
            return Err(KitError(format!("{shown}: no [[category]]")));
        }
        if rubric
            .speedup
            .iter()
            .any(|t| !(0.0..=1.0).contains(&t.credit))
        {
            return Err(KitError(format!("{shown}: speedup credit must be 0 to 1")));
        }
        Ok(rubric)
    }

    /// The fraction of a timing case's points that `speedup` earns: the credit of the highest
    /// threshold it reaches, or 0.
    pub fn speedup_credit(&self, speedup: f64) -> f64 {
        self.speedup
            .iter()
            .filter(|t| speedup >= t.at_least)
            .map(|t| t.credit)
            .fold(0.0, f64::max)
    }

    /// Checks that every case names an automatic category and that each automatic category's
    /// cases add up to exactly its points.
    pub fn check_cases(&self, cases: &[Case]) -> Result<(), KitError> {
        let mut sums: BTreeMap<&str, f64> = BTreeMap::new();
        for case in cases {
            match self.categories.iter().find(|c| c.name == case.category) {
                Some(c) if c.is_automatic() => *sums.entry(&c.name).or_default() += case.points,
                Some(_) => {
                    return Err(KitError(format!(
                        "{}: category `{}` is graded by hand",
                        case.path.display(),
                        case.category
                    )))
                }
                None => {
                    return Err(KitError(format!(
                        "{}: no category `{}` in the rubric",
                        case.path.display(),
                        case.category
                    )))
                }
            }
        }
        for category in self.categories.iter().filter(|c| c.is_automatic()) {
            let sum = sums.get(category.name.as_str()).copied().unwrap_or(0.0);
            if (sum - category.points).abs() > 1e-6 {
                return Err(KitError(format!(
                    "rubric: the cases of `{}` add up to {sum} points, not {}",
                    category.name, category.points
                )));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rubric() -> Rubric {
        toml::from_str(
            "title = \"t\"\n[[category]]\nname = \"AI\"\npoints = 2\n\
             [[category]]\nname = \"GUI\"\npoints = 1\nmanual = [\"draws\"]\n\
             [[speedup]]\nat_least = 1.5\ncredit = 1.0\n[[speedup]]\nat_least = 1.2\ncredit = 0.5\n",
        )
        .unwrap()
    }

    #[test]
    fn speedup_earns_the_highest_threshold_reached() {
        let r = rubric();
        assert_eq!(r.speedup_credit(1.9), 1.0);
        assert_eq!(r.speedup_credit(1.3), 0.5);
        assert_eq!(r.speedup_credit(1.0), 0.0);
    }

    #[test]
    fn only_categories_without_a_checklist_are_automatic() {
        let r = rubric();
        assert!(r.categories[0].is_automatic());
        assert!(!r.categories[1].is_automatic());
    }

    #[test]
    fn case_points_must_add_up_per_category() {
        let r = rubric();
        let error = r.check_cases(&[]).unwrap_err().0;
        assert!(error.contains("`AI` add up to 0 points, not 2"), "{error}");
    }
}
