//! The rubric's `[style]` table: what the style facts gather beside the Programming style
//! checklist (`grade --style`): how many of the longest functions to list, and the lint commands
//! run on each language's submissions with what their output counts. Without the table, the
//! defaults: `cargo clippy` and `cargo fmt --check` for Rust, `javac -Xlint:all` for Java.

use std::collections::BTreeSet;
use std::time::Duration;

use serde::Deserialize;

/// A language of students' source files.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    /// `.rs` files under `src/`.
    Rust,
    /// `.java` files.
    Java,
    /// `.py` files.
    Python,
}

/// A lint command and what its output counts.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Lint {
    /// Its name in reports: `cargo clippy`.
    pub name: String,
    /// The language of the submissions it is run on.
    pub language: Language,
    /// The shell command, run in the submission's directory as the build is (in its sandbox,
    /// under its limits); `{dir}` stands for that directory's absolute path.
    pub command: String,
    /// What one counted line is, for reports: `warnings`, `files not formatted`.
    pub counts: String,
    /// The lines of its output that are counted (each distinct line once): those holding this
    /// text, or every non-blank line when it is empty.
    #[serde(default)]
    pub lines_with: String,
    /// An exit code that means "found some" rather than "could not run" (`cargo fmt --check`
    /// exits 1 when a file is not formatted); any other than 0 is a failure.
    #[serde(default)]
    pub found_exit: Option<i32>,
}

/// The `[style]` table.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, default)]
pub struct StyleRules {
    /// How many of the longest functions are listed.
    pub longest: usize,
    /// How long one lint command may take, in seconds.
    pub timeout_seconds: u64,
    /// The lint commands; an empty list runs none.
    #[serde(rename = "lint")]
    pub lints: Vec<Lint>,
}

impl Default for StyleRules {
    fn default() -> StyleRules {
        let lint = |name: &str, language, command: &str, counts: &str, lines_with: &str| Lint {
            name: name.into(),
            language,
            command: command.into(),
            counts: counts.into(),
            lines_with: lines_with.into(),
            found_exit: None,
        };
        StyleRules {
            longest: 5,
            timeout_seconds: 600,
            lints: vec![
                lint(
                    "cargo clippy",
                    Language::Rust,
                    "cargo clippy --all-targets --message-format=short --no-default-features \
                     --locked",
                    "warnings",
                    ": warning:",
                ),
                Lint {
                    found_exit: Some(1),
                    ..lint(
                        "cargo fmt --check",
                        Language::Rust,
                        "cargo fmt --check -- -l",
                        "files not formatted",
                        "",
                    )
                },
                lint(
                    "javac -Xlint:all",
                    Language::Java,
                    "out=\"${TMPDIR:-/tmp}/grade-lint\"; mkdir -p \"$out\" && find . -name \
                     '*.java' -not -path '*/.*' > \"$out/sources\" && javac -Xlint:all \
                     -encoding UTF-8 -d \"$out\" @\"$out/sources\"",
                    "warnings",
                    ": warning:",
                ),
            ],
        }
    }
}

/// The most functions a report lists.
const MOST_LISTED: usize = 50;

/// What is wrong with the `[style]` table.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum InvalidStyle {
    /// Its sizes.
    #[error("style: longest must be 1 to {MOST_LISTED}, timeout_seconds at least 1")]
    Sizes,
    /// A lint with no name of its own, command or count (its name).
    #[error(
        "style: each [[style.lint]] needs a name of its own, a command and what it counts: {0:?}"
    )]
    Lint(String),
    /// A lint whose found_exit is 0 (its name).
    #[error("style: `{0}`: found_exit cannot be 0")]
    FoundExit(String),
}

impl StyleRules {
    /// How long one lint command may take.
    pub fn timeout(&self) -> Duration {
        Duration::from_secs(self.timeout_seconds)
    }

    /// Why the table cannot be used, if it cannot.
    pub fn validate(&self) -> Result<(), InvalidStyle> {
        if !(1..=MOST_LISTED).contains(&self.longest) || self.timeout_seconds == 0 {
            return Err(InvalidStyle::Sizes);
        }
        let mut names = BTreeSet::new();
        for lint in &self.lints {
            let blank = [&lint.name, &lint.command, &lint.counts]
                .iter()
                .any(|text| text.trim().is_empty());
            if blank || !names.insert(lint.name.as_str()) {
                return Err(InvalidStyle::Lint(lint.name.clone()));
            }
            if lint.found_exit == Some(0) {
                return Err(InvalidStyle::FoundExit(lint.name.clone()));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_are_valid_and_a_partial_table_keeps_them() {
        assert_eq!(StyleRules::default().validate(), Ok(()));
        let style: StyleRules = toml::from_str("longest = 3").unwrap();
        assert_eq!(style.longest, 3);
        assert_eq!(style.lints, StyleRules::default().lints);
        let none: StyleRules = toml::from_str("lint = []").unwrap();
        assert!(none.lints.is_empty());
    }

    #[test]
    fn the_guide_s_table_is_the_defaults() {
        let guide = include_str!("../../../grading/README.md");
        let start = guide
            .find("```toml\n[style]")
            .expect("the guide shows [style]")
            + 8;
        let table = &guide[start..][..guide[start..].find("```").unwrap()];
        let parsed: toml::Table = toml::from_str(table).unwrap();
        let style: StyleRules = parsed["style"].clone().try_into().unwrap();
        assert_eq!(style, StyleRules::default());
    }

    #[test]
    fn bad_tables_are_refused() {
        let zero: StyleRules = toml::from_str("longest = 0").unwrap();
        assert!(zero.validate().unwrap_err().to_string().contains("longest"));
        let lint = "[[lint]]\nname = \"x\"\nlanguage = \"java\"\ncommand = \"true\"\n\
                    counts = \"warnings\"\n";
        let twice: StyleRules = toml::from_str(&format!("{lint}{lint}")).unwrap();
        assert!(twice
            .validate()
            .unwrap_err()
            .to_string()
            .contains("a name of its own"));
        let found: StyleRules = toml::from_str(&format!("{lint}found_exit = 0\n")).unwrap();
        assert!(found
            .validate()
            .unwrap_err()
            .to_string()
            .contains("found_exit"));
        assert!(toml::from_str::<StyleRules>(&lint.replace("java", "cobol")).is_err());
    }
}
