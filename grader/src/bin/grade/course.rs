//! The course's own subcommands, left out of the students' `grade` (the `students-kit`
//! feature): `generate` and `check` (the stored answers), `pack` (the students' kit),
//! `handout` (a course's copy of the handout checked), `export` (the gradebook for learning
//! platforms) and `match`. The reference engine is in `generate`, `check` and `match`, and
//! `pack` hands out a `grade` without it; the students'
//! `grade` has none of them, so a copy of it carried in a submission can answer nothing.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Subcommand};
use connect_four_grader::commands;
use connect_four_grader::judge::matchup::{Conditions, Spec};
use connect_four_grader::process::Limits;
use connect_four_grader::report::export::MoodleBy;
use connect_four_supplied::limits::{parse_size, parse_threads};

use super::KitArgs;

/// Why a course subcommand failed: each subcommand's own error.
#[derive(Debug, thiserror::Error)]
pub enum CourseCommandError {
    /// `generate` or `check`.
    #[error(transparent)]
    Solutions(#[from] commands::solutions::SolutionsError),
    /// `pack`.
    #[error(transparent)]
    Pack(#[from] commands::pack::PackError),
    /// `handout`.
    #[error(transparent)]
    Handout(#[from] commands::handout::HandoutError),
    /// `match`.
    #[error(transparent)]
    Match(#[from] commands::matchup::MatchupError),
    /// `export`.
    #[error(transparent)]
    Export(commands::export::ExportError),
    /// `similar`.
    #[error(transparent)]
    Similar(#[from] commands::similar::SimilarError),
}

/// The course's subcommands, listed after `student` and `class`.
#[derive(Subcommand, Debug)]
pub enum CourseCommand {
    /// Write every case's .solution file from the reference
    Generate(KitArgs),
    /// Check that every stored .solution file is what the reference says now
    Check(KitArgs),
    /// Pack the kit students get into a new folder: a grade without the reference engine, the
    /// rubric and the published cases with their answers, and the supplied crate; never the
    /// secret seed of the held-out cases
    Pack(PackArgs),
    /// Check a course's copy of the handout before handing it out: every placeholder left in it
    /// (`[[DUE DATE]]`, `[[LATE POLICY]]`, ...) is named with its line and what to write there
    ///
    /// Exit status 0 when none is left, 1 when some are (or the file cannot be read). The
    /// placeholders are listed in grading/README.md ("Handing out the assignment").
    Handout(HandoutArgs),
    /// Play a match between two players, the reference or programs, and sum it up
    ///
    /// The games (--games of them) between A (red) and B (black), the first player alternating;
    /// then A's wins, losses, ties and score with a 95% interval.
    #[command(after_help = MATCH_HELP)]
    Match(MatchArgs),
    /// Write the grades of the records grade class kept (with the hand scores typed in the
    /// gallery) as the CSV files Canvas, Moodle and Gradescope import
    ///
    /// A row per student (each of a group's gets the group's grade): the gradebook's final
    /// total (the total less the late penalty), no grade while a student has none yet, and
    /// said on standard error with the count. The students are those the records name (from
    /// grade class --roster or a Gradescope export), completed or overridden by --roster, and
    /// everyone else on the roster (missing: the rubric's missing grade). A student whose
    /// identifier (the columns the platform maps by) is blank or another row's too is left out
    /// and named, and the command fails unless given --allow-missing.
    #[command(after_help = EXPORT_HELP)]
    Export(ExportArgs),
    /// Compare every pair of a class's submissions (Rust, Java, Python) for code they share,
    /// and each with earlier years' archives; rank the pairs
    ///
    /// Every source file of a submission, wherever it lies, is parsed into syntax tokens
    /// (names, literals, comments and layout made alike), and its k-grams of tokens are
    /// winnowed into fingerprints, as MOSS and Dolos do. A pair's score, what it is ranked by,
    /// is the share of the smaller side's own code found in the other: the code every student
    /// was given (the course's starter beside the kit, or --base) and the code most of the
    /// class holds are left out of it. Its fragments are the stretches of tokens the two
    /// share, given code included; its longest fragment is the one with the most tokens that
    /// are not given code. Pairs are leads for a person to judge, never a deduction.
    #[command(after_help = SIMILAR_HELP)]
    Similar(SimilarArgs),
}

/// The outputs and examples, after `grade similar --help`.
const SIMILAR_HELP: &str = concat!(
    "Output: the first 20 pairs ranked on standard output; with --csv every pair (rank, the two\n",
    "names, the score, the share of both sides' fingerprints shared, the longest fragment and\n",
    "where it is on each side); with --report DIR the same CSV as DIR/similarity.csv, an index\n",
    "of the first 100 pairs and a page per pair with the two submissions side by side, each\n",
    "shared fragment numbered and in a colour of its own, the given and common code greyed, in\n",
    "DIR/similarity/. grade class --report writes them too, and the ranking in its summary.\n",
    "\n",
    "Exit codes: 0 after comparing, 1 when a folder cannot be read or a file written, 2 for\n",
    "bad arguments.\n",
    "\n",
    "Examples:\n",
    "  grade similar submissions\n",
    "  grade similar submissions --archive 2024 --archive 2025 --report similar\n",
    "  grade similar submissions --base starter --base supplied-java --csv pairs.csv"
);

/// `grade similar`'s arguments.
#[derive(Args, Debug)]
pub struct SimilarArgs {
    /// The class folder: one subdirectory per submission
    #[arg(value_name = "DIR")]
    submissions: PathBuf,
    /// A folder of code every student was given, left out of the score (repeat for more);
    /// default: the course's starter/ beside the kit
    #[arg(long, value_name = "DIR", conflicts_with = "no_base")]
    base: Vec<PathBuf>,
    /// Leave no given code out
    #[arg(long)]
    no_base: bool,
    /// A folder of an earlier year's class (one subdirectory per submission): each of this
    /// class is compared with each of it, never two archived ones with each other (repeat for
    /// more years)
    #[arg(long, value_name = "DIR")]
    archive: Vec<PathBuf>,
    /// Write the CSV and the pages into DIR
    #[arg(long, value_name = "DIR")]
    report: Option<PathBuf>,
    /// Write every pair as CSV to PATH
    #[arg(long, value_name = "PATH")]
    csv: Option<PathBuf>,
    #[command(flatten)]
    kit: KitArgs,
}

/// The layouts and examples, after `grade export --help`.
const EXPORT_HELP: &str = concat!(
    "Layouts:\n",
    "  --canvas      Student, ID, SIS User ID, SIS Login ID, Section, <rubric title>, with a\n",
    "                Points Possible row: Grades > Import makes a new column of it; students\n",
    "                matched by SIS User ID (student id) and SIS Login ID (login, else email);\n",
    "                --canvas-id ID names an existing assignment: <title> (ID)\n",
    "  --moodle      Email address, ID number, <rubric title>, Feedback: Grades > Import > CSV\n",
    "                file, mapping Email address (or ID number: --moodle-by idnumber) to the\n",
    "                user; no grade is written -, as Moodle reads it\n",
    "  --gradescope  Name, SID, Email, each category part graded by hand, Late penalty: the\n",
    "                hand scores for the assignment's manually graded questions\n",
    "\n",
    "A class graded with --skip-timing is out of fewer points: refused unless --partial, which\n",
    "exports it out of the points graded.\n",
    "\n",
    "Exit codes: 0 after writing, 1 when the records, the roster or the kit cannot be read,\n",
    "a student is left out (without --allow-missing) or the grading is partial (without\n",
    "--partial), 2 for bad arguments.\n",
    "\n",
    "Examples:\n",
    "  grade export reports --canvas canvas.csv --moodle moodle.csv\n",
    "  grade export reports --gradescope hand-scores.csv --roster roster.csv\n",
    "  grade export gradebook.csv --moodle moodle.csv --moodle-by idnumber --allow-missing"
);

/// `grade export`'s arguments.
#[derive(Args, Debug)]
#[command(group(clap::ArgGroup::new("layout").required(true).multiple(true)))]
pub struct ExportArgs {
    /// The class's report directory (grade class --report), or, graded without one, its
    /// gradebook (--csv), beside which the class's records are
    #[arg(value_name = "DIR")]
    class: PathBuf,
    /// Write Canvas's gradebook import to OUT
    #[arg(long, value_name = "OUT", group = "layout")]
    canvas: Option<PathBuf>,
    /// Write Moodle's "Import grades: CSV file" to OUT
    #[arg(long, value_name = "OUT", group = "layout")]
    moodle: Option<PathBuf>,
    /// The column Moodle's import is told to map to its users ("Identify user by"): a row
    /// blank or repeated in it is left out
    #[arg(long, value_name = "COLUMN", value_enum, default_value_t = MoodleByArg::Email)]
    moodle_by: MoodleByArg,
    /// Write the hand scores per question, for Gradescope, to OUT
    #[arg(long, value_name = "OUT", group = "layout")]
    gradescope: Option<PathBuf>,
    /// The roster (as for grade class --roster, or a platform's as downloaded): completes or
    /// overrides who each row is, its extensions count, and its students with no row are
    /// exported as missing
    #[arg(long, value_name = "PATH")]
    roster: Option<PathBuf>,
    /// Succeed though students are left out (their identifier blank or repeated), or the
    /// reconciliation finds roster students without a graded submission or submissions without
    /// a roster student (said in its table either way)
    #[arg(long)]
    allow_missing: bool,
    /// Export a class graded with --skip-timing, out of the points graded (refused without)
    #[arg(long)]
    partial: bool,
    /// The grade column's title (default: the rubric's title)
    #[arg(long, value_name = "TITLE")]
    title: Option<String>,
    /// Canvas's id of the existing assignment to import into (the number after its name in
    /// Canvas's own export, or in its address: /assignments/ID)
    #[arg(long, value_name = "ID")]
    canvas_id: Option<u64>,
    #[command(flatten)]
    kit: KitArgs,
}

/// `--moodle-by`'s values.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum MoodleByArg {
    /// Email address, to the user's email
    Email,
    /// ID number, to the user's ID number (the student id)
    Idnumber,
}

/// `grade pack`'s arguments.
#[derive(Args, Debug)]
pub struct PackArgs {
    /// The new folder to pack into
    #[arg(value_name = "DIR")]
    out: PathBuf,
    /// The students' grade to put in the kit (default: built from the course's repository, the
    /// kit's parent folder, with `cargo build --release --locked --features students-kit` into
    /// students-kit/ in its build directory, $CARGO_TARGET_DIR or target/); it must be a
    /// students' build, which has no reference engine
    #[arg(long, value_name = "PATH")]
    grade: Option<PathBuf>,
    /// Pack changes that are not committed (listed by git status), with a warning, instead of
    /// refusing them; the kit, the supplied crate and the grader are checked
    #[arg(long)]
    allow_uncommitted: bool,
    #[command(flatten)]
    kit: KitArgs,
}

/// `grade handout`'s arguments.
#[derive(Args, Debug)]
pub struct HandoutArgs {
    /// The course's copy of handout.md
    #[arg(value_name = "FILE")]
    file: PathBuf,
}

/// The players' syntax and examples, after `grade match --help`.
const MATCH_HELP: &str = concat!(
    "Players:\n",
    "  reference:DEPTH        the reference engine, in this process, searching DEPTH plies\n",
    "  reference:DEPTH:prune  the same with exact alpha-beta: the same moves, found faster\n",
    "  cmd:DEPTH:COMMAND      a program that speaks the grading protocol, started for each game as\n",
    "                         COMMAND ROWS COLS DEPTH THREADS --protocol (as grade student does)\n",
    "\n",
    "Each game the runner keeps the board and judges it; a program is asked `genmove` for its\n",
    "moves and told its opponent's with `play COL`. A program that chooses a column that cannot be\n",
    "played, crashes, times out, breaks a resource limit (the grader's defaults) or answers\n",
    "garbage loses that game, and the match goes on. With the same --seed, a match between\n",
    "reference engines ends the same way every time.\n",
    "\n",
    "Exit codes: 0 after the match, 1 if a player cannot start (each is tried before the first\n",
    "game), 2 for bad arguments.\n",
    "\n",
    "Examples:\n",
    "  grade match reference:1 reference:4 --games 10 --seed 1\n",
    "  grade match 'cmd:5:./target/release/connect_four' reference:5:prune --time-limit 30\n",
    "  grade match 'cmd:4:java -cp build ConnectFour' reference:4 --games 40 --threads 2"
);

/// `grade match`'s arguments.
#[derive(clap::Args, Debug)]
pub struct MatchArgs {
    /// Player A, red: reference:DEPTH, reference:DEPTH:prune or cmd:DEPTH:COMMAND
    #[arg(value_name = "A")]
    a: Spec,
    /// Player B, black: the same forms
    #[arg(value_name = "B")]
    b: Spec,
    /// Games to play; A moves first in the odd-numbered ones
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    games: u32,
    /// The board's rows
    #[arg(long, default_value_t = 6, value_parser = parse_size)]
    rows: usize,
    /// The board's columns
    #[arg(long, default_value_t = 7, value_parser = parse_size)]
    cols: usize,
    /// Worker threads of each reference engine, and the THREADS programs are started with
    #[arg(long, default_value_t = 1, value_parser = parse_threads)]
    threads: usize,
    /// Seed for the reference engines' tie-breaks (random if not given; the summary prints it)
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// The longest a program may take to answer one command (`new`, `genmove`, `play`)
    #[arg(long, value_name = "SECONDS", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..))]
    time_limit: u64,
}

impl CourseCommand {
    /// How an error of this subcommand starts: `grade match: ...`, else `grade: ...`.
    pub fn name(&self) -> &'static str {
        match self {
            CourseCommand::Match(_) => "grade match",
            CourseCommand::Export(_) => "grade export",
            CourseCommand::Similar(_) => "grade similar",
            _ => "grade",
        }
    }

    /// Runs the subcommand.
    pub fn run(self) -> Result<(), CourseCommandError> {
        match self {
            CourseCommand::Generate(args) => {
                Ok(commands::solutions::run(args.kit.as_deref(), false)?)
            }
            CourseCommand::Check(args) => Ok(commands::solutions::run(args.kit.as_deref(), true)?),
            CourseCommand::Pack(args) => Ok(commands::pack::run(
                args.kit.kit.as_deref(),
                args.grade.as_deref(),
                &args.out,
                args.allow_uncommitted,
            )?),
            CourseCommand::Handout(args) => Ok(commands::handout::run(&args.file)?),
            CourseCommand::Match(args) => {
                let settings = Conditions {
                    rows: args.rows,
                    cols: args.cols,
                    games: args.games,
                    threads: args.threads,
                    seed: args.seed.unwrap_or_else(rand::random),
                    time_limit: Duration::from_secs(args.time_limit),
                    limits: Limits::default(),
                };
                Ok(commands::matchup::run(&[args.a, args.b], &settings)?)
            }
            CourseCommand::Export(args) => commands::export::run(&commands::export::ExportRun {
                class: args.class,
                canvas: args.canvas,
                moodle: args.moodle,
                moodle_by: match args.moodle_by {
                    MoodleByArg::Email => MoodleBy::Email,
                    MoodleByArg::Idnumber => MoodleBy::IdNumber,
                },
                gradescope: args.gradescope,
                roster: args.roster,
                allow_missing: args.allow_missing,
                kit: args.kit.kit,
                partial: args.partial,
                title: args.title,
                canvas_id: args.canvas_id,
            })
            .map_err(CourseCommandError::Export),
            CourseCommand::Similar(args) => {
                Ok(commands::similar::run(&commands::similar::SimilarRun {
                    submissions: args.submissions,
                    base: args.base,
                    no_base: args.no_base,
                    archive: args.archive,
                    report: args.report,
                    csv: args.csv,
                    kit: args.kit.kit,
                })?)
            }
        }
    }
}
