//! The handout's placeholders: what each course writes into its copy of `handout.md` before
//! handing it out (the dates, the late policy), each marked `[[NAME]]` so that one left behind
//! is easy to find. [`PLACEHOLDERS`] is their list (grading/README.md shows it, and a test keeps
//! the two and the handout in agreement); [`left`] finds every mark still in a copy, a listed
//! one or not (a typo is left behind too).

/// A placeholder of the handout: its name, as marked (`[[DUE DATE]]`), and what to write there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placeholder {
    /// The name between the brackets.
    pub name: &'static str,
    /// What the course writes in its place.
    pub what: &'static str,
}

/// Every placeholder of the handout, in the order they first appear.
pub const PLACEHOLDERS: [Placeholder; 5] = [
    Placeholder {
        name: "RELEASE DATE",
        what: "the day the assignment is handed out",
    },
    Placeholder {
        name: "WEEK 1 DATE",
        what: "the week 1 target (the rules), a date about a week after the release",
    },
    Placeholder {
        name: "WEEK 2 DATE",
        what: "the week 2 target (the computer player), a week later",
    },
    Placeholder {
        name: "DUE DATE",
        what: "the deadline, with its time and time zone (the rubric's [late] due, if you set one)",
    },
    Placeholder {
        name: "LATE POLICY",
        what:
            "what a late submission costs, in words (the rubric's [late] table, if you set one), \
               and how to ask for an extension",
    },
];

/// A placeholder mark found in a copy of the handout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Left {
    /// Its line, counting from 1.
    pub line: usize,
    /// The name between the brackets.
    pub name: String,
    /// What to write there, for a listed placeholder; `None` for a mark that is not one.
    pub what: Option<&'static str>,
}

/// Every `[[NAME]]` mark in `text` (NAME: capital letters, digits and spaces, a letter at
/// least), in order.
pub fn left(text: &str) -> Vec<Left> {
    let mut found = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let mut rest = line;
        while let Some(start) = rest.find("[[") {
            let after = &rest[start + 2..];
            let Some(end) = after.find("]]") else {
                break;
            };
            let name = &after[..end];
            let is_mark = name.chars().any(|c| c.is_ascii_uppercase())
                && name
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == ' ');
            if is_mark {
                found.push(Left {
                    line: index + 1,
                    name: name.to_string(),
                    what: PLACEHOLDERS.iter().find(|p| p.name == name).map(|p| p.what),
                });
            }
            rest = &after[end + 2..];
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_are_found_on_their_lines_listed_or_not() {
        let text = "| Due | **[[DUE DATE]]** |\nnothing here [[not a mark]] [x]\n\
                    by [[WEEK 1 DATE]] and [[DUE DAET]]\n[[style.lint]] [[ ]] [[";
        let found = left(text);
        let names: Vec<(usize, &str, bool)> = found
            .iter()
            .map(|l| (l.line, l.name.as_str(), l.what.is_some()))
            .collect();
        assert_eq!(
            names,
            [
                (1, "DUE DATE", true),
                (3, "WEEK 1 DATE", true),
                (3, "DUE DAET", false)
            ]
        );
        assert!(left("The due date is 12 December.").is_empty());
    }
}
