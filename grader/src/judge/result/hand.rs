//! The hand scores graders type in the gallery, typed and checked against the rubric: per
//! student, per category graded by hand, each checklist item's score (or none yet) and a
//! comment. They are kept in the student's record of the class store and shown in the
//! gradebook and the feedback; a score that the checklist does not allow never gets there.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::kit::rubric::Category;
use crate::kit::Rubric;

/// The longest comment kept, in characters.
pub const COMMENT_MAX: usize = 4000;

/// One student's marks, by category name.
pub type Marks = BTreeMap<String, CategoryMarks>;

/// What a grader gave one category of one student.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CategoryMarks {
    /// Each checklist item's score, in the checklist's order; `None` while it is not scored.
    pub items: Vec<Option<f64>>,
    /// The grader's comment.
    #[serde(default)]
    pub comment: String,
}

/// Why marks were refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum MarkError {
    /// No category of this name has a checklist graded by hand.
    #[error("no category {0:?} is graded by hand")]
    UnknownCategory(String),
    /// The category's checklist has this many items, the marks another number.
    #[error("{category}: {got} scores for a checklist of {expected} items")]
    ItemCount {
        /// The category.
        category: String,
        /// Its checklist's items.
        expected: usize,
        /// The marks given.
        got: usize,
    },
    /// An item's score is not a number from 0 to its points.
    #[error("{category}, item {item}: {score} is not a score from 0 to {points}")]
    OutOfRange {
        /// The category.
        category: String,
        /// The item, counting from 1.
        item: usize,
        /// The score given.
        score: f64,
        /// The item's points.
        points: f64,
    },
    /// The comment is longer than [`COMMENT_MAX`] characters.
    #[error("{0}: the comment is longer than {COMMENT_MAX} characters")]
    LongComment(String),
}

impl CategoryMarks {
    /// Checks the marks against `category`'s checklist: one score (or none) per item, each
    /// from 0 to the item's points, and a comment of at most [`COMMENT_MAX`] characters.
    pub fn check(&self, category: &Category) -> Result<(), MarkError> {
        let checklist = category.checklist();
        if self.items.len() != checklist.len() {
            return Err(MarkError::ItemCount {
                category: category.name.clone(),
                expected: checklist.len(),
                got: self.items.len(),
            });
        }
        for (index, (score, (points, _))) in self.items.iter().zip(&checklist).enumerate() {
            if let Some(score) = *score {
                if !(0.0..=*points).contains(&score) {
                    return Err(MarkError::OutOfRange {
                        category: category.name.clone(),
                        item: index + 1,
                        score,
                        points: *points,
                    });
                }
            }
        }
        if self.comment.chars().count() > COMMENT_MAX {
            return Err(MarkError::LongComment(category.name.clone()));
        }
        Ok(())
    }

    /// How many items are scored.
    pub fn scored(&self) -> usize {
        self.items.iter().flatten().count()
    }

    /// The category's points, once every item is scored.
    pub fn sum(&self) -> Option<f64> {
        self.items.iter().copied().sum()
    }
}

/// How many checklist items of the rubric `marks` scores, and how many there are: every item
/// scored (the second equal to the first) is when a student's hand grading is done, and their
/// feedback can be returned. A rubric with no checklist is done at once.
pub fn scored(rubric: &Rubric, marks: Option<&Marks>) -> (usize, usize) {
    rubric
        .categories
        .iter()
        .filter(|c| !c.manual.is_empty())
        .fold((0, 0), |(scored, items), category| {
            let given = marks.and_then(|m| m.get(&category.name));
            (
                scored + given.map_or(0, CategoryMarks::scored),
                items + category.manual.len(),
            )
        })
}

/// Checks every category of `marks` against the rubric's checklists.
pub fn check(rubric: &Rubric, marks: &Marks) -> Result<(), MarkError> {
    for (name, given) in marks {
        let category = rubric
            .categories
            .iter()
            .find(|c| &c.name == name && !c.manual.is_empty())
            .ok_or_else(|| MarkError::UnknownCategory(name.clone()))?;
        given.check(category)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gui() -> Category {
        crate::judge::fixtures::hand_rubric().categories[1].clone()
    }

    fn marks(items: &[Option<f64>]) -> CategoryMarks {
        CategoryMarks {
            items: items.to_vec(),
            comment: String::new(),
        }
    }

    #[test]
    fn a_score_is_from_0_to_the_item_s_points() {
        assert_eq!(marks(&[Some(3.0), Some(0.0)]).check(&gui()), Ok(()));
        assert_eq!(marks(&[Some(1.5), None]).check(&gui()), Ok(()));
        assert_eq!(
            marks(&[Some(3.0), Some(2.5)]).check(&gui()),
            Err(MarkError::OutOfRange {
                category: "GUI".into(),
                item: 2,
                score: 2.5,
                points: 2.0
            })
        );
        assert!(marks(&[Some(-1.0), None]).check(&gui()).is_err());
        assert!(marks(&[Some(f64::NAN), None]).check(&gui()).is_err());
        assert!(marks(&[Some(1.0)]).check(&gui()).is_err());
        let long = CategoryMarks {
            comment: "x".repeat(COMMENT_MAX + 1),
            ..marks(&[None, None])
        };
        assert_eq!(
            long.check(&gui()),
            Err(MarkError::LongComment("GUI".into()))
        );
    }

    #[test]
    fn a_category_sums_once_every_item_is_scored() {
        assert_eq!(marks(&[Some(3.0), Some(1.5)]).sum(), Some(4.5));
        assert_eq!(marks(&[Some(3.0), None]).sum(), None);
        assert_eq!(marks(&[Some(3.0), None]).scored(), 1);
    }

    #[test]
    fn the_items_scored_are_counted_over_the_whole_rubric() {
        let rubric = crate::judge::fixtures::hand_rubric();
        assert_eq!(scored(&rubric, None), (0, 2));
        let mut given = Marks::new();
        given.insert("GUI".into(), marks(&[Some(3.0), None]));
        assert_eq!(scored(&rubric, Some(&given)), (1, 2));
        given.insert("GUI".into(), marks(&[Some(3.0), Some(0.0)]));
        assert_eq!(scored(&rubric, Some(&given)), (2, 2));
    }

    #[test]
    fn only_categories_graded_by_hand_take_marks() {
        let rubric = crate::judge::fixtures::hand_rubric();
        let mut given = Marks::new();
        given.insert("GUI".into(), marks(&[Some(3.0), None]));
        assert_eq!(check(&rubric, &given), Ok(()));
        given.insert("AI".into(), marks(&[]));
        assert_eq!(
            check(&rubric, &given),
            Err(MarkError::UnknownCategory("AI".into()))
        );
    }
}
