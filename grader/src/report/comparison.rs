//! The supplied crate compared with the course's copy, in words: that it is unchanged, or
//! every change, why it is only reported and not scored, and whether the course's copy was
//! built in its place (and put back).

use super::inert;
use crate::kit::supplied::{Change, SuppliedCopy};

/// How a report says that the copy differs, before the details.
pub const SUPPLIED_CHANGED: &str = "The supplied crate was changed";

/// Why a changed supplied crate is only reported, said wherever it is.
pub const SUPPLIED_NOT_SCORED: &str = "Students must not change it, but the score does not \
    depend on this: a grader decides whether the change matters.";

/// Said when the kit built the program with the course's copy instead of the changed one.
const SUPPLIED_REPLACED: &str = "The program was built with the course's copy, put in its \
    place for the grading; the submitted copy was put back afterwards.";

/// What became of a changed file: `changed`, `added` or `removed`.
pub fn change_kind(change: &Change) -> &'static str {
    match change {
        Change::Changed(_) => "changed",
        Change::Added(_) => "added",
        Change::Removed(_) => "removed",
    }
}

/// One changed file: `changed src/lib.rs`.
fn change(change: &Change) -> String {
    format!("{} {}", change_kind(change), inert::line(change.path()))
}

/// The supplied crate comparison as plain text: that the copy is the course's, or every change
/// and why it is not scored.
pub fn supplied(comparison: &SuppliedCopy) -> String {
    let folder = inert::line(&comparison.folder);
    if !comparison.changed() {
        return format!("The supplied crate ({folder}/) is the course's copy, unchanged.");
    }
    let changes: Vec<String> = comparison.changes.iter().map(change).collect();
    format!(
        "{SUPPLIED_CHANGED}: {} file(s) of {folder}/ differ from the course's copy: {}.\n\
         {SUPPLIED_NOT_SCORED}{}",
        changes.len(),
        changes.join(", "),
        replaced(comparison)
    )
}

/// The sentence on the course's copy having been built instead, if it was (and where the
/// submitted copy is, if it could not be put back); else nothing.
pub fn replaced(comparison: &SuppliedCopy) -> String {
    match (&comparison.not_put_back, comparison.replaced) {
        (Some((why, kept)), _) => format!(
            " The program was built with the course's copy, put in its place for the grading; \
             the submitted copy could not be put back ({}): it is in {}/.",
            inert::line(why),
            inert::line(kept)
        ),
        (None, true) => format!(" {SUPPLIED_REPLACED}"),
        (None, false) => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_replaced_copy_is_said_put_back_or_where_it_was_left() {
        let comparison = SuppliedCopy {
            folder: "supplied".into(),
            changes: vec![Change::Changed("src/lib.rs".into())],
            replaced: true,
            not_put_back: None,
        };
        let said = supplied(&comparison);
        assert!(
            said.contains("changed src/lib.rs") && said.contains("was put back afterwards"),
            "{said}"
        );
        let left = SuppliedCopy {
            not_put_back: Some((
                "cannot move back".into(),
                ".grade-supplied-x/supplied".into(),
            )),
            ..comparison
        };
        let said = supplied(&left);
        assert!(
            said.contains(
                "could not be put back (cannot move back): it is in \
                 .grade-supplied-x/supplied/."
            ),
            "{said}"
        );
        assert_eq!(
            replaced(&SuppliedCopy {
                replaced: false,
                not_put_back: None,
                ..left
            }),
            ""
        );
    }
}
