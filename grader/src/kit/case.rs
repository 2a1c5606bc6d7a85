//! Case files: `grading/cases/**/*.toml`, each a category, points, a board size, depth, threads,
//! a time limit per command and a script of protocol commands. Loading checks every field and
//! parses every script line with the protocol's own parser, so a typo is reported with its file
//! and line before any student is graded. A line meant to be malformed starts with `!`; a line
//! starting with `~` is sent as it is (a blank line, a `#` comment) and must get no answer.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use super::TomlError;

use connect_four_supplied::limits::{max_connect, CONNECT, MAX_SIZE, MIN_CONNECT, MIN_SIZE};
use connect_four_supplied::protocol::{Command, ParseError, COMMAND_WORDS, OPTIONAL_WORDS};

/// One thread count, or several to run the script with and compare.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(untagged)]
enum Threads {
    One(usize),
    Many(Vec<usize>),
}

/// The speed-up measurement of a timing case.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SpeedupPlan {
    /// The thread count compared with one thread.
    pub threads: usize,
    /// The first depth tried for `scores`.
    pub start_depth: u32,
    /// The deepest depth tried.
    pub max_depth: u32,
    /// The depth is raised until one thread needs at least this long.
    pub target_seconds: f64,
    /// How many rounds of the one-thread run, the many-thread run and the machine's ceiling (a
    /// one-thread run on as many copies of the program at once) are timed at least: the
    /// medians of the rounds' ratios count. At least 3.
    pub rounds: usize,
    /// How many rounds may be timed while the medians leave the credit unsettled (see the
    /// rubric's `busy_credit_range`); at least `rounds`. Without it, three times `rounds`.
    #[serde(default)]
    pub max_rounds: Option<usize>,
    /// Moves played after the script (columns) for a second measurement that is only reported:
    /// they fill some columns so that the open ones would all go to one thread of a division of
    /// the columns fixed in advance (column `c` to thread `c % THREADS`), which then idles the
    /// others, while a pool keeps every thread busy.
    #[serde(default)]
    pub uneven_moves: Vec<usize>,
    /// Whether to measure the scaling view (not scored) beyond `threads` where the machine has
    /// more CPUs; `grade --no-scaling` turns it off where grading time matters.
    #[serde(default = "scaling_on")]
    pub scaling: bool,
}

/// The scaling view is measured unless a case or `--no-scaling` says otherwise.
fn scaling_on() -> bool {
    true
}

impl SpeedupPlan {
    /// The most rounds the plain position may take: [`SpeedupPlan::max_rounds`], or three
    /// times [`SpeedupPlan::rounds`].
    pub fn most_rounds(&self) -> usize {
        self.max_rounds.unwrap_or(3 * self.rounds)
    }

    /// The columns that [`SpeedupPlan::uneven_moves`] fill to the top on a board of `rows`.
    pub fn filled(&self, rows: usize) -> Vec<usize> {
        let mut columns: Vec<usize> = self.uneven_moves.clone();
        columns.sort_unstable();
        columns.dedup();
        columns.retain(|c| self.uneven_moves.iter().filter(|m| *m == c).count() >= rows);
        columns
    }
}

/// A case file as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseFile {
    category: String,
    points: f64,
    rows: usize,
    cols: usize,
    depth: u32,
    threads: Threads,
    time_limit: f64,
    #[serde(default)]
    description: String,
    #[serde(default)]
    hidden: bool,
    #[serde(default)]
    check: Option<Vec<String>>,
    #[serde(default)]
    must_vary: bool,
    #[serde(default)]
    speedup: Option<SpeedupPlan>,
    #[serde(default)]
    requires: Vec<String>,
    #[serde(default)]
    connect: Option<usize>,
    script: String,
}

/// How a case is judged.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// Every scored answer is compared with the reference's.
    Compare,
    /// The script runs once per thread count; the first run's answers must have the reference's
    /// shape and every other run must give exactly the first run's answers.
    Consistency(Vec<usize>),
    /// The script sets up a position, then `scores` is timed with one thread and with more.
    Timing(SpeedupPlan),
}

/// One command of a script.
#[derive(Clone, Debug, PartialEq)]
pub struct ScriptLine {
    /// The line in the case file.
    pub line: usize,
    /// The command as written.
    pub text: String,
    /// The command as the protocol parses it, or why it does not parse (a line written with a
    /// leading `!`, sent on purpose to test the failure answers).
    pub command: Result<Command, ParseError>,
    /// Whether the answer counts for points; other answers only have to succeed or fail as the
    /// reference's do (set-up moves).
    pub scored: bool,
    /// Lines sent just before this command that must get no answer (blank lines, comments):
    /// the first answer after them must be this command's.
    pub before: Vec<String>,
}

/// A loaded, checked case.
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    /// The path below `cases/` without `.toml`, e.g. `rules/gravity_4x4`.
    pub name: String,
    /// The case file.
    pub path: PathBuf,
    /// The rubric category its points belong to.
    pub category: String,
    /// Its points.
    pub points: f64,
    /// Board rows.
    pub rows: usize,
    /// Board columns.
    pub cols: usize,
    /// The depth passed on the command line.
    pub depth: u32,
    /// The thread count passed on the command line (the first one for consistency cases).
    pub threads: usize,
    /// The longest any one command may take.
    pub time_limit: Duration,
    /// What the case tests, for reports.
    pub description: String,
    /// Hidden from students until after the due date (Gradescope).
    pub hidden: bool,
    /// The answers to commands with several accepted answers (a bare `new`, a tied `genmove`)
    /// must not all be the same.
    pub must_vary: bool,
    /// How the case is judged.
    pub kind: Kind,
    /// Cases (by name) that must pass in full for this one to earn anything: the speed-up
    /// counts only when the values are the same for every thread count.
    pub requires: Vec<String>,
    /// How many in a row win: 4, or M for a Connect-M case (passed as `--connect M`).
    pub connect: usize,
    /// The script.
    pub script: Vec<ScriptLine>,
}

impl Case {
    /// Whether this case measures speed (and is left out by `--skip-timing`).
    pub fn is_timing(&self) -> bool {
        matches!(self.kind, Kind::Timing(_))
    }

    /// The arguments the grader appends to the student's command for `threads` threads; a
    /// Connect-M case adds `--connect M`, which a program that knows nothing of the extension
    /// is never given.
    pub fn arguments(&self, threads: usize) -> String {
        let connect = match self.connect {
            CONNECT => String::new(),
            m => format!(" --connect {m}"),
        };
        format!(
            "{} {} {} {} --protocol{connect}",
            self.rows, self.cols, self.depth, threads
        )
    }
}

/// What is wrong with a case file's fields ([`CaseError::Invalid`]).
#[derive(Debug, thiserror::Error)]
pub enum Flaw {
    /// The board's size.
    #[error("rows and cols must be {MIN_SIZE} to {MAX_SIZE}")]
    Size,
    /// The line to connect, and the longest the board allows.
    #[error("connect must be {MIN_CONNECT} to {0} (the board's longer side)")]
    Connect(usize),
    /// The points or the time limit.
    #[error("points must be 0 or more and time_limit a positive number")]
    PointsOrTime,
    /// A word of `check` that is no protocol command.
    #[error("check: `{0}` is not a protocol command")]
    Check(String),
    /// The speed-up table, or the threads beside it.
    #[error(
        "a speedup case needs one `threads`, speedup.threads >= 2, rounds >= 3, max_rounds >= \
         rounds and uneven_moves on the board"
    )]
    Speedup,
    /// The threads.
    #[error("threads: one count, or a list of two or more, each 1 or more")]
    Threads,
    /// `~` lines at the script's end.
    #[error("a `~` line must come before a command, whose answer shows it got none")]
    Unanswered,
    /// No command in the script.
    #[error("the script has no commands")]
    NoCommands,
}

/// What is wrong with a line of a case file's script ([`CaseError::InvalidLine`]).
#[derive(Debug, thiserror::Error)]
pub enum InvalidLine {
    /// A `~` line with something to send (what follows the `~`).
    #[error("`~{0}`: only blank lines and `#` comments get no answer")]
    Silent(String),
    /// A command that does not parse, not marked malformed on purpose.
    #[error("`{0}`: {1} (write `! {0}` to send it on purpose)")]
    Malformed(String, ParseError),
    /// A command marked malformed that is valid.
    #[error("`{0}` is a valid command: drop the `!`")]
    Valid(String),
    /// A command after `quit`.
    #[error("nothing may follow `quit`")]
    AfterQuit,
    /// A command students need not implement (the command, its word).
    #[error("`{0}`: `{1}` is optional for students and never graded")]
    Optional(String, String),
}

/// Why a case file, or the folder of them, cannot be loaded.
#[derive(Debug, thiserror::Error)]
pub enum CaseError {
    /// A case file or folder cannot be read, or a case file is not the TOML of a case.
    #[error(transparent)]
    Toml(#[from] TomlError),
    /// A case file's field is wrong.
    #[error("{}: {why}", .path.display())]
    Invalid {
        /// The case file.
        path: PathBuf,
        /// What is wrong.
        why: Flaw,
    },
    /// A line of a case file's script is wrong.
    #[error("{}:{line}: {why}", .path.display())]
    InvalidLine {
        /// The case file.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// What is wrong.
        why: InvalidLine,
    },
    /// A folder of cases holds none.
    #[error("{}: no case files (*.toml)", .dir.display())]
    NoCases {
        /// The folder.
        dir: PathBuf,
    },
    /// An extension's case scores another category than the extension's.
    #[error("{}: an extension's case scores its category, `{category}`", .path.display())]
    NotTheExtensions {
        /// The case file.
        path: PathBuf,
        /// The extension's category.
        category: String,
    },
}

/// Why the cases do not fit each other or the rubric.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CasesError {
    /// A case requires a case that is not another one.
    #[error("{}: requires `{name}`, which is not another case", .path.display())]
    Requires {
        /// The case file.
        path: PathBuf,
        /// The case it requires.
        name: String,
    },
    /// A case scores a category graded by hand.
    #[error("{}: category `{category}` is graded by hand", .path.display())]
    HandGraded {
        /// The case file.
        path: PathBuf,
        /// Its category.
        category: String,
    },
    /// A case scores a category the rubric does not have.
    #[error("{}: no category `{category}` in the rubric", .path.display())]
    NoCategory {
        /// The case file.
        path: PathBuf,
        /// Its category.
        category: String,
    },
    /// A category's cases do not add up to its automatic points.
    #[error("rubric: the cases of `{category}` add up to {sum} points, not {points}")]
    Points {
        /// The category.
        category: String,
        /// Its cases' points.
        sum: f64,
        /// Its automatic points.
        points: f64,
    },
}

/// Validates that every case a case requires exists, and is not the case itself.
pub fn validate_requirements(cases: &[Case]) -> Result<(), CasesError> {
    for case in cases {
        for name in &case.requires {
            if name == &case.name || !cases.iter().any(|c| &c.name == name) {
                return Err(CasesError::Requires {
                    path: case.path.clone(),
                    name: name.clone(),
                });
            }
        }
    }
    Ok(())
}

/// Loads and checks one case file; `root` is the `cases/` directory its name is relative to.
pub fn load(path: &Path, root: &Path) -> Result<Case, CaseError> {
    let text = super::read_text(path)?;
    let name = path
        .strip_prefix(root)
        .unwrap_or(path)
        .with_extension("")
        .to_string_lossy()
        .replace('\\', "/");
    parse(&text, path, name)
}

/// Checks the text of a case file: `path` is where it is said to be (for messages, and beside
/// which its solution is stored), `name` what reports call it.
pub fn parse(text: &str, path: &Path, name: String) -> Result<Case, CaseError> {
    let spec: CaseFile = super::parse_toml(path, text)?;
    let fail = |why: Flaw| {
        Err(CaseError::Invalid {
            path: path.to_path_buf(),
            why,
        })
    };
    let fail_at = |line: usize, why: InvalidLine| {
        Err(CaseError::InvalidLine {
            path: path.to_path_buf(),
            line,
            why,
        })
    };
    if !(MIN_SIZE..=MAX_SIZE).contains(&spec.rows) || !(MIN_SIZE..=MAX_SIZE).contains(&spec.cols) {
        return fail(Flaw::Size);
    }
    let connect = spec.connect.unwrap_or(CONNECT);
    let most = max_connect(spec.rows, spec.cols);
    if !(MIN_CONNECT..=most).contains(&connect) {
        return fail(Flaw::Connect(most));
    }
    if !(spec.points >= 0.0 && spec.time_limit > 0.0 && spec.time_limit.is_finite()) {
        return fail(Flaw::PointsOrTime);
    }
    if let Some(word) = spec
        .check
        .iter()
        .flatten()
        .find(|w| !COMMAND_WORDS.contains(&w.as_str()))
    {
        return fail(Flaw::Check(word.clone()));
    }
    let (kind, threads) = match (spec.threads, spec.speedup) {
        (Threads::One(n), Some(speedup))
            if n >= 1
                && speedup.threads >= 2
                && speedup.rounds >= 3
                && speedup.most_rounds() >= speedup.rounds
                && speedup.uneven_moves.iter().all(|&c| c < spec.cols) =>
        {
            (Kind::Timing(speedup), n)
        }
        (_, Some(_)) => return fail(Flaw::Speedup),
        (Threads::One(n), None) if n >= 1 => (Kind::Compare, n),
        (Threads::Many(list), None) if list.len() >= 2 && !list.contains(&0) => {
            (Kind::Consistency(list.clone()), list[0])
        }
        _ => return fail(Flaw::Threads),
    };
    // The script's first line is the line after the one holding `script = """`.
    let first_line = text
        .lines()
        .position(|l| l.trim_start().starts_with("script"))
        .map_or(1, |i| i + 2);
    let mut steps = Vec::new();
    let mut silent = Vec::new();
    for (i, raw) in spec.script.lines().enumerate() {
        let line = first_line + i;
        let command_text = raw.trim();
        if let Some(sent) = raw.trim_start().strip_prefix('~') {
            let sent = sent.strip_prefix(' ').unwrap_or(sent);
            if !sent.trim().is_empty() && !sent.trim_start().starts_with('#') {
                return fail_at(line, InvalidLine::Silent(sent.to_string()));
            }
            silent.push(sent.to_string());
            continue;
        }
        if command_text.is_empty() || command_text.starts_with('#') {
            continue;
        }
        let (command_text, malformed) = match command_text.strip_prefix('!') {
            Some(rest) => (rest.trim(), true),
            None => (command_text, false),
        };
        let command = command_text.parse::<Command>();
        match (&command, malformed) {
            (Err(e), false) => {
                return fail_at(line, InvalidLine::Malformed(command_text.into(), e.clone()))
            }
            (Ok(_), true) => return fail_at(line, InvalidLine::Valid(command_text.into())),
            _ => {}
        }
        if steps
            .last()
            .is_some_and(|s: &ScriptLine| s.command == Ok(Command::Quit))
        {
            return fail_at(line, InvalidLine::AfterQuit);
        }
        let word = command_text
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        if OPTIONAL_WORDS.contains(&word.as_str()) {
            return fail_at(line, InvalidLine::Optional(command_text.into(), word));
        }
        let scored = spec
            .check
            .as_ref()
            .is_none_or(|words| words.contains(&word));
        steps.push(ScriptLine {
            line,
            text: command_text.to_string(),
            command,
            scored,
            before: std::mem::take(&mut silent),
        });
    }
    if !silent.is_empty() {
        return fail(Flaw::Unanswered);
    }
    if steps.is_empty() {
        return fail(Flaw::NoCommands);
    }
    Ok(Case {
        name,
        path: path.to_path_buf(),
        category: spec.category,
        points: spec.points,
        rows: spec.rows,
        cols: spec.cols,
        depth: spec.depth,
        threads,
        time_limit: Duration::from_secs_f64(spec.time_limit),
        description: spec.description,
        hidden: spec.hidden,
        must_vary: spec.must_vary,
        kind,
        requires: spec.requires,
        connect,
        script: steps,
    })
}

/// Loads every `*.toml` below `dir`, sorted by name.
pub fn load_all(dir: &Path) -> Result<Vec<Case>, CaseError> {
    load_all_below(dir, dir)
}

/// Loads every `*.toml` below `dir`, sorted by name, each named by its path below `root`.
pub fn load_all_below(dir: &Path, root: &Path) -> Result<Vec<Case>, CaseError> {
    let mut paths = Vec::new();
    collect(dir, &mut paths)?;
    if paths.is_empty() {
        return Err(CaseError::NoCases {
            dir: dir.to_path_buf(),
        });
    }
    paths.sort();
    paths.iter().map(|p| load(p, root)).collect()
}

/// Adds the `*.toml` files below `dir` to `paths`.
fn collect(dir: &Path, paths: &mut Vec<PathBuf>) -> Result<(), CaseError> {
    let entries = fs::read_dir(dir).map_err(|source| TomlError::Read {
        path: dir.to_path_buf(),
        source,
    })?;
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, paths)?;
        } else if path.extension().is_some_and(|e| e == "toml") {
            paths.push(path);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write_case(body: &str) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.toml");
        fs::write(&path, body).unwrap();
        (dir, path)
    }

    /// `body` written as `c.toml` in a folder of its own and loaded.
    fn loaded(body: &str) -> Result<Case, CaseError> {
        let (dir, path) = write_case(body);
        load(&path, dir.path())
    }

    /// Why `body`, as `c.toml`, is refused.
    fn refused(body: &str) -> String {
        loaded(body).unwrap_err().to_string()
    }

    const HEAD: &str = "category = \"AI\"\npoints = 1\nrows = 4\ncols = 5\ndepth = 2\nthreads = 1\ntime_limit = 2\n";

    #[test]
    fn a_case_loads_with_line_numbers_and_scored_commands() {
        let case = loaded(&format!(
            "{HEAD}check = [\"scores\"]\nscript = \"\"\"\nnew red\n# set up\nplay 2\nscores 3\n\"\"\"\n"
        ))
        .unwrap();
        assert_eq!(case.name, "c");
        assert_eq!(case.arguments(1), "4 5 2 1 --protocol");
        let lines: Vec<_> = case.script.iter().map(|s| (s.line, s.scored)).collect();
        assert_eq!(lines, [(10, false), (12, false), (13, true)]);
    }

    #[test]
    fn a_connect_m_case_passes_m_and_only_when_it_is_not_four() {
        let case = loaded(&format!("{HEAD}connect = 5\nscript = \"new red\"\n")).unwrap();
        assert_eq!(case.arguments(2), "4 5 2 2 --protocol --connect 5");
        let case = loaded(&format!("{HEAD}connect = 4\nscript = \"new red\"\n")).unwrap();
        assert_eq!(case.arguments(1), "4 5 2 1 --protocol");
        for m in [1, 6] {
            let error = refused(&format!("{HEAD}connect = {m}\nscript = \"new red\"\n"));
            assert!(error.contains("connect must be 2 to 5"), "{error}");
        }
    }

    #[test]
    fn tilde_lines_are_sent_before_the_next_command_and_only_blank_or_comments() {
        let case = loaded(&format!(
            "{HEAD}script = \"\"\"\nnew red\n~ # no answer\n~\nturn\n\"\"\"\n"
        ))
        .unwrap();
        assert_eq!(case.script[1].before, ["# no answer", ""]);
        assert!(case.script[0].before.is_empty());
        for script in ["new red\n~ turn\nturn\n", "new red\n~ # last\n"] {
            let body = format!("{HEAD}script = \"\"\"\n{script}\"\"\"\n");
            assert!(loaded(&body).is_err(), "{script}");
        }
    }

    #[test]
    fn a_bad_command_is_reported_with_file_and_line() {
        let error = refused(&format!("{HEAD}script = \"\"\"\nnew red\nplya 3\n\"\"\"\n"));
        assert!(
            error.contains("c.toml:10: `plya 3`: unknown command"),
            "{error}"
        );
    }

    #[test]
    fn missing_fields_and_bad_values_are_refused() {
        for body in [
            "points = 1\nscript = \"new\"\n".to_string(),
            HEAD.replace("rows = 4", "rows = 0") + "script = \"new\"\n",
            HEAD.replace("threads = 1", "threads = [2]") + "script = \"new\"\n",
            format!("{HEAD}check = [\"dance\"]\nscript = \"new\"\n"),
            format!("{HEAD}script = \"quit\\nnew\"\n"),
            format!("{HEAD}script = \"! new red\"\n"),
        ] {
            let error = refused(&body);
            assert!(error.contains("c.toml"), "{error}");
        }
    }

    #[test]
    fn optional_commands_are_never_sent() {
        for (script, line) in [("new red\nplay 1\nundo\n", 11), ("new red\n! redo 2\n", 10)] {
            let error = refused(&format!("{HEAD}script = \"\"\"\n{script}\"\"\"\n"));
            assert!(
                error.contains(&format!("c.toml:{line}: "))
                    && error.contains("is optional for students and never graded"),
                "{error}"
            );
        }
    }

    #[test]
    fn unknown_or_circular_requirements_are_kit_errors() {
        let named = |name: &str, requires: &str| {
            let (dir, path) =
                write_case(&format!("{HEAD}requires = {requires}\nscript = \"turn\"\n"));
            let named = dir.path().join(format!("{name}.toml"));
            fs::rename(&path, &named).unwrap();
            load(&named, dir.path()).unwrap()
        };
        assert!(validate_requirements(&[named("a", "[\"b\"]")]).is_err());
        assert!(validate_requirements(&[named("a", "[\"a\"]")]).is_err());
        assert!(validate_requirements(&[named("a", "[\"b\"]"), named("b", "[]")]).is_ok());
    }
}
