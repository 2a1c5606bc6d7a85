//! The rubric, `grading/rubric.toml`: the assignment's categories and points, which of them are
//! graded by hand (with their checklists), the credit a measured speed-up earns, the held-out
//! cases' table (their share of the points and what they ask), the resource limits student
//! programs run under, the style facts' settings, the late policy (`[late]`, [`super::late`]),
//! and the optional extensions (`[[extension]]`, [`super::extension`]), each a category only
//! once turned on.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::case::Case;
use super::case::CasesError;
use super::extension::{Extension, InvalidExtension};
use super::late::{InvalidLate, LatePolicy};
use super::reconcile::Duplicates;
use super::style::{InvalidStyle, Language, StyleRules};
use super::TomlError;
use crate::process::Limits;

/// One category of the assignment.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Category {
    /// Its name, as case files name it.
    pub name: String,
    /// Its points.
    pub points: f64,
    /// What a grader checks by hand, one item a line, each starting with its points in
    /// parentheses: `(3) ...`. The cases score the rest of the category's points, if any.
    #[serde(default)]
    pub manual: Vec<String>,
    /// What the kit gathers for a grader to read beside the checklist, if anything: declared,
    /// so that renaming a category never loses it.
    #[serde(default)]
    pub evidence: Option<Evidence>,
    /// What each `{name}` in the checklist's items says, by the language of the submission
    /// (`[category.wording.name]`): a tool or a step that differs between Rust, Java and
    /// Python, so that no student reads another language's.
    #[serde(default)]
    pub wording: BTreeMap<String, Wording>,
}

/// What a `{name}` in a checklist item says to a student of each language.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Wording {
    /// To a Rust student.
    pub rust: Option<String>,
    /// To a Java student.
    pub java: Option<String>,
    /// To a Python student.
    pub python: Option<String>,
    /// To a student of another language, or of one not known (a result kept before the
    /// language was), and to a language left out above.
    pub other: String,
}

impl Wording {
    /// The words for a submission in `language`.
    fn in_language(&self, language: Option<Language>) -> &str {
        let words = match language {
            Some(Language::Rust) => &self.rust,
            Some(Language::Java) => &self.java,
            Some(Language::Python) => &self.python,
            None => &None,
        };
        words.as_deref().unwrap_or(&self.other)
    }
}

/// What the kit can put beside a category's checklist in the graders' gallery.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Evidence {
    /// The window observed: its steps and screenshots.
    Window,
    /// The style facts: headers, lints, formatting, sizes.
    Style,
    /// The thread design seen while the program searched and sat idle.
    Threads,
}

impl Category {
    /// The points of the checklist graded by hand.
    pub fn manual_points(&self) -> f64 {
        self.checklist().iter().map(|(points, _)| points).sum()
    }

    /// The checklist graded by hand: each item's points and its text after them, in order (an
    /// item without its points, which [`Rubric::load`] refuses, counts none).
    pub fn checklist(&self) -> Vec<(f64, &str)> {
        self.manual
            .iter()
            .map(|item| {
                let text = item.split_once(')').map_or(item.as_str(), |(_, rest)| rest);
                (item_points(item).unwrap_or(0.0), text.trim_start())
            })
            .collect()
    }

    /// The checklist as a student of `language` reads it (and their graders): each item's
    /// points and its text, every `{name}` of [`Category::wording`] in the words for it.
    pub fn items(&self, language: Option<Language>) -> Vec<(f64, String)> {
        self.checklist()
            .into_iter()
            .map(|(points, text)| {
                let text = self
                    .wording
                    .iter()
                    .fold(text.to_string(), |text, (name, w)| {
                        text.replace(&format!("{{{name}}}"), w.in_language(language))
                    });
                (points, text)
            })
            .collect()
    }

    /// Why the checklist's `{name}`s and the wording do not match, if they do not: each
    /// `{name}` is worded, each wording used.
    fn check_wording(&self) -> Result<(), Invalid> {
        let used = |name: &String| {
            let placeholder = format!("{{{name}}}");
            self.manual.iter().any(|item| item.contains(&placeholder))
        };
        if let Some(name) = self.wording.keys().find(|name| !used(name)) {
            return Err(Invalid::UnusedWording(self.name.clone(), name.clone()));
        }
        let worded = self.items(None);
        match worded.iter().find_map(|(_, text)| placeholder(text)) {
            Some(name) => Err(Invalid::NoWording(self.name.clone(), name.into())),
            None => Ok(()),
        }
    }

    /// The points the cases score: all of them, or what the checklist leaves.
    pub fn automatic_points(&self) -> f64 {
        self.points - self.manual_points()
    }

    /// Whether the cases score any of this category.
    pub fn is_automatic(&self) -> bool {
        self.automatic_points() > 1e-9
    }

    /// The parts of the category as reports and the gradebook list them: the automatic part
    /// under the category's name, the hand-graded part under the same name, or with
    /// ` (by hand)` when the category has both.
    pub fn parts(&self) -> Vec<Part> {
        let automatic = self.automatic_points();
        let manual = self.manual_points();
        let mut parts = Vec::new();
        if automatic > 1e-9 {
            parts.push(Part {
                name: self.name.clone(),
                points: automatic,
                automatic: true,
            });
        }
        if manual > 1e-9 {
            parts.push(Part {
                name: if parts.is_empty() {
                    self.name.clone()
                } else {
                    format!("{} (by hand)", self.name)
                },
                points: manual,
                automatic: false,
            });
        }
        parts
    }
}

impl From<&Extension> for Category {
    /// The category an extension adds when on: scored by its cases alone.
    fn from(extension: &Extension) -> Category {
        Category {
            name: extension.name.clone(),
            points: extension.points,
            manual: Vec::new(),
            evidence: None,
            wording: BTreeMap::new(),
        }
    }
}

/// A part of a category: scored by the cases, or graded by hand.
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    /// The name reports show.
    pub name: String,
    /// Its points.
    pub points: f64,
    /// Whether the cases score it.
    pub automatic: bool,
}

/// The first `{name}` in `text` (a name of letters, digits and `_`), if it has one.
fn placeholder(text: &str) -> Option<&str> {
    text.split('{').skip(1).find_map(|after| {
        let (name, _) = after.split_once('}')?;
        let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
        (!name.is_empty() && name.chars().all(word)).then_some(name)
    })
}

/// The points a checklist item starts with, `(3) ...`, if it does.
fn item_points(item: &str) -> Option<f64> {
    let rest = item.strip_prefix('(')?;
    let (number, _) = rest.split_once(')')?;
    number.trim().parse().ok()
}

/// How a measured speed-up earns credit, and when a measurement is not to be trusted. The
/// speed-up is judged against the machine's own ceiling, measured in the same run (as many
/// one-thread runs at once as the speed-up has threads): its *gain* is `(speed-up - 1) /
/// (ceiling - 1)`, the share of what more threads could gain there that the program gained.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SpeedupRule {
    /// The gain that earns full credit.
    pub full_gain: f64,
    /// The gain at or below which it earns nothing; in between, credit in proportion, so that
    /// a little noise moves the credit a little.
    pub no_gain: f64,
    /// The machine's own gain, `(ceiling - 1) / (threads - 1)`, below which it was too busy to
    /// judge by.
    pub busy_ceiling: f64,
    /// How far apart the credits may be that the medians' ranges allow (the speed-up's lowest
    /// against the ceiling's highest, and the other way round), as a share of the points: the
    /// rounds go on while they are farther apart, and when the case's most rounds still leave
    /// them so, the machine was too busy to judge by.
    pub busy_credit_range: f64,
    /// The share of their ready time that the machine may have kept the program's threads
    /// waiting for a CPU (the median of the many-thread searches') for a credit below full to
    /// be given: beyond it, a pool's columns go to whichever worker the machine happens to run
    /// and the span taken out of the wall clock no longer says what CPUs of its own would give.
    /// Kits written before it was kept have [`BUSY_WAITING`].
    #[serde(default = "busy_waiting")]
    pub busy_waiting: f64,
}

/// [`SpeedupRule::busy_waiting`] where a kit does not say: measured, the reference's pool lost
/// 4 of 10 points with its threads kept waiting 28% of their time, the halves of its rounds
/// agreeing; on a quiet machine they wait under 10%.
pub const BUSY_WAITING: f64 = 0.2;

fn busy_waiting() -> f64 {
    BUSY_WAITING
}

impl SpeedupRule {
    /// The fraction of a timing case's points that `gain` earns: 0 at or below
    /// [`SpeedupRule::no_gain`], 1 from [`SpeedupRule::full_gain`], in proportion between.
    pub fn credit(&self, gain: f64) -> f64 {
        ((gain - self.no_gain) / (self.full_gain - self.no_gain)).clamp(0.0, 1.0)
    }

    /// Why the rule cannot be used, if it cannot.
    fn check(&self) -> Result<(), Invalid> {
        let share = |x: f64| (0.0..=1.0).contains(&x);
        if share(self.no_gain)
            && share(self.full_gain)
            && self.no_gain < self.full_gain
            && share(self.busy_ceiling)
            && self.busy_credit_range > 0.0
            && share(self.busy_waiting)
        {
            Ok(())
        } else {
            Err(Invalid::Speedup)
        }
    }
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
    /// The `[speedup]` table: how a measured speed-up earns credit.
    pub speedup: SpeedupRule,
    /// The `[limits]` table: what every student program may use (defaults for those left out).
    #[serde(default)]
    pub limits: Limits,
    /// The `[held_out]` table: the cases generated at grading time from the instructor's seed.
    #[serde(default)]
    pub held_out: Option<HeldOut>,
    /// The `[style]` table: what the style facts gather (defaults for those left out).
    #[serde(default)]
    pub style: StyleRules,
    /// The `[late]` table: the due date and the late policy; none, no lateness.
    #[serde(default)]
    pub late: Option<LatePolicy>,
    /// The `[[extension]]` tables: optional categories, each among [`Rubric::categories`]
    /// once loaded only if it is on.
    #[serde(default, rename = "extension")]
    pub extensions: Vec<Extension>,
    /// What a student on the roster who submitted nothing gets (`missing = "zero"`, or no
    /// grade by default).
    #[serde(default)]
    pub missing: Missing,
    /// What a student in two submissions gets (`duplicates = "latest"`, `"highest"`, or no
    /// grade until settled by default): the course's rule, so that every command applies the
    /// same one.
    #[serde(default)]
    pub duplicates: Duplicates,
}

/// The grade of a student on the roster who submitted nothing: the course's choice.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Missing {
    /// No grade: a blank cell, which a platform leaves as it was.
    #[default]
    Blank,
    /// A grade of 0.
    Zero,
}

/// What is wrong with the rubric or one of its tables ([`RubricError::Invalid`]).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Invalid {
    /// An extension.
    #[error(transparent)]
    Extension(#[from] InvalidExtension),
    /// A category's wording that no checklist item uses (the category, the wording).
    #[error(
        "`{0}`: [category.wording.{1}] is in no checklist item: write {{{1}}} where its words \
         go, or remove it"
    )]
    UnusedWording(String, String),
    /// A checklist item's `{name}` with no wording (the category, the name).
    #[error(
        "`{0}`: a checklist item has {{{1}}} and there is no [category.wording.{1}]: add that \
         table (rust, java, python, other), or write the words in the item"
    )]
    NoWording(String, String),
    /// The speed-up rule.
    #[error(
        "speedup: no_gain < full_gain, busy_ceiling and busy_waiting must be 0 to 1, busy_credit_range \
             over 0"
    )]
    Speedup,
    /// The limits, in the words of [`Limits::validate`] (the process layer's).
    #[error("{0}")]
    Limits(String),
    /// The style table.
    #[error(transparent)]
    Style(#[from] InvalidStyle),
    /// The late policy.
    #[error(transparent)]
    Late(#[from] InvalidLate),
    /// The held-out share or count.
    #[error("held_out: share must be over 0 and under 1, cases at least 1")]
    HeldOutShare,
    /// A held-out category the cases do not score, or with no questions.
    #[error("held_out: `{0}` must be a category the cases score, with questions")]
    HeldOutCategory(String),
    /// It has no category.
    #[error("no [[category]]")]
    NoCategory,
    /// A checklist item does not start with its points (the category, the item).
    #[error("`{0}`: a checklist item starts with its points, `(3) ...`: {1:?}")]
    ItemPoints(String, String),
    /// A category's checklist has more points than the category (the category).
    #[error("`{0}`: the checklist's points are more than the category's")]
    ChecklistPoints(String),
}

/// Why the rubric cannot be loaded.
#[derive(Debug, thiserror::Error)]
pub enum RubricError {
    /// It cannot be read, or is not the TOML of a rubric.
    #[error(transparent)]
    Toml(#[from] TomlError),
    /// One of its tables or fields is wrong.
    #[error("{}: {why}", .path.display())]
    Invalid {
        /// The rubric.
        path: PathBuf,
        /// What is wrong.
        why: Invalid,
    },
}

impl Rubric {
    /// The assignment's points: every category's.
    pub fn points(&self) -> f64 {
        self.categories.iter().map(|c| c.points).sum()
    }

    /// Reads and checks `path`; each extension that is on becomes a category, after the others.
    pub fn load(path: &Path) -> Result<Rubric, RubricError> {
        let invalid = |why: Invalid| RubricError::Invalid {
            path: path.to_path_buf(),
            why,
        };
        let mut rubric: Rubric = super::read_toml(path)?;
        let taken: Vec<&str> = rubric.categories.iter().map(|c| c.name.as_str()).collect();
        for extension in &rubric.extensions {
            extension.check(&taken).map_err(|why| invalid(why.into()))?;
        }
        let turned_on: Vec<Category> = rubric
            .extensions
            .iter()
            .filter(|e| e.on)
            .map(Category::from)
            .collect();
        rubric.categories.extend(turned_on);
        if rubric.categories.is_empty() {
            return Err(invalid(Invalid::NoCategory));
        }
        for category in &rubric.categories {
            let name = || category.name.clone();
            if let Some(item) = category.manual.iter().find(|i| item_points(i).is_none()) {
                return Err(invalid(Invalid::ItemPoints(name(), item.clone())));
            }
            category.check_wording().map_err(invalid)?;
            if category.automatic_points() < -1e-9 {
                return Err(invalid(Invalid::ChecklistPoints(name())));
            }
        }
        rubric.speedup.check().map_err(invalid)?;
        rubric
            .limits
            .validate()
            .map_err(|why| invalid(Invalid::Limits(why)))?;
        rubric.style.validate().map_err(|why| invalid(why.into()))?;
        if let Some(late) = &rubric.late {
            late.validate().map_err(|why| invalid(why.into()))?;
        }
        if let Some(table) = &rubric.held_out {
            table.validate(&rubric).map_err(invalid)?;
        }
        Ok(rubric)
    }

    /// Checks that every case names a category the cases score, and that each such category's
    /// cases add up to exactly its automatic points.
    pub fn validate_cases(&self, cases: &[Case]) -> Result<(), CasesError> {
        let mut sums: BTreeMap<&str, f64> = BTreeMap::new();
        for case in cases {
            match self.categories.iter().find(|c| c.name == case.category) {
                Some(c) if c.is_automatic() => *sums.entry(&c.name).or_default() += case.points,
                Some(_) => {
                    return Err(CasesError::HandGraded {
                        path: case.path.clone(),
                        category: case.category.clone(),
                    })
                }
                None => {
                    return Err(CasesError::NoCategory {
                        path: case.path.clone(),
                        category: case.category.clone(),
                    })
                }
            }
        }
        for category in self.categories.iter().filter(|c| c.is_automatic()) {
            let sum = sums.get(category.name.as_str()).copied().unwrap_or(0.0);
            if (sum - category.automatic_points()).abs() > 1e-6 {
                return Err(CasesError::Points {
                    category: category.name.clone(),
                    sum,
                    points: category.automatic_points(),
                });
            }
        }
        Ok(())
    }
}

/// What a held-out case asks about its position.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
pub enum Question {
    /// Three more moves (one of them perhaps into a full column), then the board.
    Play,
    /// Moves to the end of a game, then the winner.
    Winner,
    /// The heuristic of every column.
    Heuristic,
    /// The minimax values of every column, at a depth of 1 to 3.
    Scores,
}

/// The rubric's `[held_out]` table.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct HeldOut {
    /// The share of each listed category's automatic points the held-out cases carry, over 0
    /// and under 1.
    pub share: f64,
    /// How many cases each listed category gets.
    pub cases: usize,
    /// The questions each category's cases ask, taken in turn.
    pub categories: BTreeMap<String, Vec<Question>>,
}

impl HeldOut {
    /// Validates the table against the rubric's categories.
    pub fn validate(&self, rubric: &Rubric) -> Result<(), Invalid> {
        if !(self.share > 0.0 && self.share < 1.0) || self.cases == 0 {
            return Err(Invalid::HeldOutShare);
        }
        for (name, questions) in &self.categories {
            let automatic = rubric
                .categories
                .iter()
                .any(|c| &c.name == name && c.is_automatic());
            if !automatic || questions.is_empty() {
                return Err(Invalid::HeldOutCategory(name.clone()));
            }
        }
        Ok(())
    }
}

/// A `[speedup]` table for the tests' rubrics: full credit from a gain of 0.6, none at 0.2.
#[cfg(test)]
pub(crate) const TEST_SPEEDUP: &str =
    "[speedup]\nfull_gain = 0.6\nno_gain = 0.2\nbusy_ceiling = 0.5\nbusy_credit_range = 0.2\n";

#[cfg(test)]
mod tests {
    use super::*;

    fn rubric() -> Rubric {
        let text = "title = \"t\"\n[[category]]\nname = \"AI\"\npoints = 2\n\
             [[category]]\nname = \"GUI\"\npoints = 1\nmanual = [\"(1) draws\"]\n";
        toml::from_str(&format!("{text}{TEST_SPEEDUP}")).unwrap()
    }

    /// A rubric's title and one category of 1 point, `AI`.
    const ONE_AI: &str = "title = \"t\"\n[[category]]\nname = \"AI\"\npoints = 1\n";

    /// `text` written as a `rubric.toml` of its own and loaded.
    fn load(text: &str) -> Result<Rubric, RubricError> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("rubric.toml");
        std::fs::write(&path, text).unwrap();
        Rubric::load(&path)
    }

    /// Why `text`, as a `rubric.toml`, is refused.
    fn refused(text: &str) -> String {
        load(text).unwrap_err().to_string()
    }

    #[test]
    fn the_credit_grows_in_proportion_to_the_gain_between_the_thresholds() {
        let rule = rubric().speedup;
        assert_eq!(rule.credit(0.9), 1.0);
        assert_eq!(rule.credit(0.6), 1.0);
        assert!((rule.credit(0.4) - 0.5).abs() < 1e-9);
        assert_eq!(rule.credit(0.2), 0.0);
        assert_eq!(rule.credit(-0.5), 0.0);
    }

    #[test]
    fn a_rule_whose_thresholds_are_out_of_order_is_refused() {
        let swapped = TEST_SPEEDUP.replace("no_gain = 0.2", "no_gain = 0.7");
        let error = refused(&format!("{ONE_AI}{swapped}"));
        assert!(error.contains("no_gain < full_gain"), "{error}");
    }

    #[test]
    fn a_category_declares_its_evidence_and_an_unknown_one_is_refused() {
        let text = "title = \"t\"\n[[category]]\nname = \"Interface\"\npoints = 1\n";
        let loaded = load(&format!("{text}evidence = \"window\"\n{TEST_SPEEDUP}")).unwrap();
        assert_eq!(loaded.categories[0].evidence, Some(Evidence::Window));
        let error = refused(&format!("{text}evidence = \"gui\"\n{TEST_SPEEDUP}"));
        assert!(error.contains("`window`, `style`, `threads`"), "{error}");
        assert!(rubric().categories.iter().all(|c| c.evidence.is_none()));
    }

    #[test]
    fn a_late_table_is_read_and_checked() {
        let late = "[late]\ndue = \"2026-11-20T23:59:00-08:00\"\npenalty = 10\nper = \"day\"\n";
        let read = load(&format!("{ONE_AI}{TEST_SPEEDUP}{late}"))
            .unwrap()
            .late
            .unwrap();
        assert_eq!((read.cap, read.grace_minutes), (100.0, 0));
        for (bad, why) in [
            (late.replace("-08:00", ""), "offset"),
            (late.replace("\"day\"", "\"week\""), "week"),
            (late.replace("10", "101"), "penalty"),
            (format!("{late}cap = -5\n"), "cap"),
            (format!("{late}grace = 5\n"), "grace"),
        ] {
            let error = refused(&format!("{ONE_AI}{TEST_SPEEDUP}{bad}"));
            assert!(
                error.contains(why) && error.contains("rubric.toml"),
                "{error}"
            );
        }
    }

    #[test]
    fn only_categories_without_a_checklist_are_automatic() {
        let r = rubric();
        assert!(r.categories[0].is_automatic());
        assert!(!r.categories[1].is_automatic());
    }

    #[test]
    fn a_category_can_be_part_cases_part_checklist() {
        let mixed: Rubric = toml::from_str(&format!(
            "title = \"t\"\n[[category]]\nname = \"Threading\"\npoints = 15\n\
                 manual = [\"(5) a pool\"]\n{TEST_SPEEDUP}"
        ))
        .unwrap();
        let threading = &mixed.categories[0];
        assert_eq!(
            (threading.automatic_points(), threading.manual_points()),
            (10.0, 5.0)
        );
        let names: Vec<(String, f64, bool)> = threading
            .parts()
            .into_iter()
            .map(|p| (p.name, p.points, p.automatic))
            .collect();
        assert_eq!(
            names,
            [
                ("Threading".to_string(), 10.0, true),
                ("Threading (by hand)".to_string(), 5.0, false)
            ]
        );
        let gui = &rubric().categories[1];
        assert_eq!(gui.parts()[0].name, "GUI");
    }

    #[test]
    fn checklist_items_must_give_their_points() {
        let error = refused(&format!(
            "title = \"t\"\n[[category]]\nname = \"GUI\"\npoints = 2\n\
             manual = [\"draws\"]\n{TEST_SPEEDUP}"
        ));
        assert!(error.contains("starts with its points"), "{error}");
    }

    #[test]
    fn a_checklist_item_is_worded_for_the_submission_s_language() {
        let write = |wording: &str| {
            load(&format!(
                "title = \"t\"\n[[category]]\nname = \"Style\"\npoints = 3\n\
                 manual = [\"(1) Named {{x}}\", \"(2) {{lint}}; handled\"]\n{wording}{TEST_SPEEDUP}"
            ))
        };
        let tables = "[category.wording.lint]\nrust = \"cargo clippy clean\"\n\
                      java = \"javac -Xlint:all clean\"\nother = \"no warnings\"\n\
                      [category.wording.x]\nother = \"clearly\"\n";
        let rubric = write(tables).unwrap();
        let style = &rubric.categories[0];
        let second = |language| style.items(language)[1].clone();
        assert_eq!(
            second(Some(Language::Rust)),
            (2.0, "cargo clippy clean; handled".to_string())
        );
        assert_eq!(
            second(Some(Language::Java)).1,
            "javac -Xlint:all clean; handled"
        );
        // Python is left out of the table, and a result may not know its language.
        assert_eq!(second(Some(Language::Python)).1, "no warnings; handled");
        assert_eq!(second(None).1, "no warnings; handled");
        assert_eq!(style.items(None)[0].1, "Named clearly");
        assert_eq!(style.manual_points(), 3.0);
        // A {name} without its table, and a table no item uses, are refused.
        let error = write("[category.wording.x]\nother = \"clearly\"\n")
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("has {lint} and there is no [category.wording.lint]"),
            "{error}"
        );
        let unused = format!("{tables}[category.wording.spare]\nother = \"s\"\n");
        let error = write(&unused).unwrap_err().to_string();
        assert!(
            error.contains("[category.wording.spare] is in no checklist item"),
            "{error}"
        );
    }

    #[test]
    fn case_points_must_add_up_per_category() {
        let r = rubric();
        let error = r.validate_cases(&[]).unwrap_err().to_string();
        assert!(error.contains("`AI` add up to 0 points, not 2"), "{error}");
    }

    #[test]
    fn an_extension_is_a_category_only_once_turned_on() {
        let text = format!("{ONE_AI}{TEST_SPEEDUP}");
        let extension =
            "[[extension]]\nname = \"Connect M\"\nfolder = \"connect_m\"\npoints = 10\n";
        let off = load(&format!("{text}{extension}")).unwrap();
        assert_eq!(off.categories.len(), 1);
        assert!(!off.extensions[0].on);
        let on = load(&format!("{text}{extension}on = true\n")).unwrap();
        assert_eq!(on.categories[1].name, "Connect M");
        assert_eq!(on.categories[1].automatic_points(), 10.0);
        let clash = extension.replace("Connect M", "AI");
        let error = refused(&format!("{text}{clash}"));
        assert!(error.contains("already exists"), "{error}");
    }

    #[test]
    fn the_kit_gives_the_default_limits_and_refuses_a_zero() {
        let kit = Path::new(env!("CARGO_MANIFEST_DIR")).join("../grading/rubric.toml");
        assert_eq!(Rubric::load(&kit).unwrap().limits, Limits::default());
        let text =
            format!("title = \"t\"\n{TEST_SPEEDUP}[[category]]\nname = \"AI\"\npoints = 1\n");
        assert_eq!(load(&text).unwrap().limits, Limits::default());
        let error = refused(&format!("{text}[limits]\ncpu_seconds = 0\n"));
        assert!(
            error.ends_with("limits: cpu_seconds must be at least 1"),
            "{error}"
        );
    }
}
