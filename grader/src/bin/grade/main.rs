//! `grade`: the grading kit's command line, one subcommand per job. `grade student COMMAND`
//! grades one program; `grade class DIR --command TEMPLATE` a folder of submissions, with a
//! gradebook, a class summary and the graders' gallery; `grade gallery DIR` serves that gallery
//! and takes the hand scores typed in it. The course's `grade` adds `feedback` (the files
//! returned to students: an instructor's job, not a student's checking their work) and the
//! subcommands of [`course`] (`generate`, `check`, `pack`, `handout`, `match` and `export`),
//! which the students' (built with the `students-kit` feature) has not. Each parses into its
//! settings and calls one function of the
//! library's commands layer, as ripgrep's main does.
//!
//! Exit codes: 0 after grading or a match, 1 when the kit's files are missing or malformed (the
//! message names the file and line), a report cannot be written or a match's player cannot
//! start, 2 for bad arguments (and for `grade class --only` or `--not-counted` when the
//! student, the gradebook or the report directory to grade again into is not there, and for a
//! malformed `CONNECT_FOUR_GRADER_CPUS`, a test's simulated CPUs), and for a
//! class run stopped by a signal 128 and its number (130 for Ctrl-C, 143 for `SIGTERM`), and 75
//! for one a full disk stopped (`EX_TEMPFAIL`: run it again when there is room).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand};
use connect_four_grader::commands::class::ClassRun;
#[cfg(not(feature = "students-kit"))]
use connect_four_grader::commands::feedback::FeedbackRun;
use connect_four_grader::commands::gallery::GalleryRun;
use connect_four_grader::commands::student::StudentRun;
use connect_four_grader::commands::{self, Grading, WindowAsk};
use connect_four_grader::process::topology;
use connect_four_grader::report::gradescope::NotCountedAs;

#[cfg(not(feature = "students-kit"))]
mod course;

/// What `grade --version` says: which of the two builds this is.
#[cfg(not(feature = "students-kit"))]
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (the course's, with the reference)"
);
#[cfg(feature = "students-kit")]
const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (the students' kit's)");

/// Examples after `grade --help`.
#[cfg(not(feature = "students-kit"))]
const EXAMPLES: &str = "Examples:\n  grade student ./target/release/connect_four\n  grade student 'java -cp build ConnectFour' --report ~/grade-report\n  grade class submissions/ --command 'python3 {dir}/connect_four.py' --jobs 2 --csv grades.csv\n  grade gallery reports\n  grade feedback reports\n  grade export reports --canvas canvas.csv --roster roster.csv\n  grade check\n  grade match reference:2 'cmd:5:java -cp build ConnectFour' --games 20\n\nEach subcommand has its own --help.";
#[cfg(feature = "students-kit")]
const EXAMPLES: &str = "Examples:\n  grade student ./target/release/connect_four\n  grade student 'java -cp build ConnectFour' --report ~/grade-report\n\nEach subcommand has its own --help.";

/// Grades Connect Four programs in any language through the grading protocol.
#[derive(Parser, Debug)]
#[command(
    name = "grade",
    version = VERSION,
    max_term_width = 100,
    after_help = EXAMPLES
)]
struct Cli {
    #[command(subcommand)]
    mode: Mode,
}

/// One mode per subcommand.
#[derive(Subcommand, Debug)]
enum Mode {
    /// Grade one program: the command that starts it (ROWS COLS DEPTH THREADS --protocol is
    /// appended)
    #[command(after_help = STUDENT_HELP)]
    Student(StudentArgs),
    /// Grade every subdirectory of a folder, one student each, with a gradebook and a class
    /// summary
    #[command(after_help = CLASS_HELP)]
    Class(ClassArgs),
    /// Serve the graders' gallery that `grade class --report DIR` wrote, on 127.0.0.1, and
    /// take the hand scores typed in it into the gradebook
    ///
    /// Each student's page shows the kit's evidence (the window's steps and screenshots, the
    /// style facts, the thread design) beside the rubric's checklist items, with a box per item
    /// and a comment per category. Open the address printed: its token (after #) lets the pages
    /// save. Each save is checked against the rubric, kept in DIR/hand-scores.json and merged
    /// into the gradebook at once; `grade class` run again on the same DIR keeps them. The
    /// pages also open as files, read only. Ctrl-C stops the server.
    #[command(after_help = GALLERY_HELP)]
    Gallery(GalleryArgs),
    /// Write the feedback files returned to students, DIR/feedback/<student>.md and .html, from
    /// the results `grade class --report DIR` kept and the hand scores typed in the gallery
    ///
    /// Each file has the student's automatic results as their Markdown report has them, every
    /// checklist item's score and the graders' comments, and the totals; the page is
    /// self-contained (no script, no link). Written for each student whose hand grading is done
    /// (every checklist item scored); `grade class` and the gallery's saves write them too, as
    /// soon as it is. Nothing is graded again.
    #[cfg(not(feature = "students-kit"))]
    #[command(after_help = FEEDBACK_HELP)]
    Feedback(FeedbackArgs),
    #[cfg(not(feature = "students-kit"))]
    #[command(flatten)]
    Course(course::CourseCommand),
}

/// Examples after `grade student --help`.
const STUDENT_HELP: &str = "Examples:\n  grade student ./target/release/connect_four\n  grade student 'java -cp build ConnectFour' --report ~/grade-report\n  In a student's directory, built first, for Gradescope:\n  grade student ./target/release/connect_four \\\n    --build 'cargo build --release --no-default-features --locked' --gradescope ~/results.json";

/// Examples after `grade class --help`.
const CLASS_HELP: &str = "Grading again only some students, with the class run's options (the others' rows,\nreports and hand scores kept):\n  grade class class/ --command 'sh {dir}/run' --report reports --not-counted\n  grade class class/ --command 'sh {dir}/run' --report reports --only ann --only bob\n\nBuilding first (--build), per language:\n  Rust:   grade class submissions/ --build 'cargo build --release --no-default-features --locked' \\\n            --command '{dir}/target/release/connect_four' --report reports\n  Java:   grade class submissions/ --build 'javac -d build *.java' --command 'java -cp {dir}/build ConnectFour'\n  Python: grade class submissions/ --command 'python3 {dir}/connect_four.py'   (nothing to build)";

/// Examples after `grade gallery --help`.
const GALLERY_HELP: &str = "Examples:\n  grade class class/ --command 'python3 {dir}/connect_four.py' --style --report reports \\\n    --window 'python3 {dir}/connect_four.py' --csv gradebook.csv\n  grade gallery reports\n  grade gallery reports --port 8123 --csv ~/grades/gradebook.csv";

/// `grade gallery`'s arguments.
#[derive(Args, Debug)]
struct GalleryArgs {
    /// The report directory `grade class --report DIR` wrote the gallery into
    #[arg(value_name = "DIR")]
    dir: PathBuf,
    /// The port on 127.0.0.1 (0: any free one)
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// The gradebook to merge the hand scores into (default: the one `grade class` wrote with
    /// this DIR)
    #[arg(long, value_name = "PATH")]
    csv: Option<PathBuf>,
    #[command(flatten)]
    kit: KitArgs,
}

/// Examples after `grade feedback --help`.
#[cfg(not(feature = "students-kit"))]
const FEEDBACK_HELP: &str =
    "Examples:\n  grade feedback reports\n  grade feedback reports --all --kit grading\n  grade feedback reports --moodle-worksheet grading-worksheet.csv";

/// `grade feedback`'s arguments.
#[cfg(not(feature = "students-kit"))]
#[derive(Args, Debug)]
struct FeedbackArgs {
    /// The report directory `grade class --report DIR` wrote
    #[arg(value_name = "DIR")]
    dir: PathBuf,
    /// Also write the feedback of students whose hand grading is not done, marked "Hand
    /// grading not finished" at the top, with blanks for the scores not given
    #[arg(long)]
    all: bool,
    /// A Moodle assignment's grading worksheet, as downloaded (View all submissions > Download
    /// grading worksheet): also write DIR/feedback/moodle-feedback.zip for its "Upload multiple
    /// feedback files in a zip", each student's page named by their participant id, found by
    /// their ID number or email in the gradebook
    #[arg(long, value_name = "CSV")]
    moodle_worksheet: Option<PathBuf>,
    /// Succeed even when students are left out of the Moodle zip (no participant id found)
    #[arg(long)]
    allow_missing: bool,
    #[command(flatten)]
    kit: KitArgs,
}

/// Where the kit is.
#[derive(Args, Debug)]
struct KitArgs {
    /// The kit: a directory with rubric.toml and cases/ (default: ./grading or . when it holds
    /// rubric.toml, else a grading/ folder beside the grade binary or beside any folder above it)
    #[arg(long, value_name = "DIR")]
    kit: Option<PathBuf>,
}

/// What every grading run takes.
#[derive(Args, Debug)]
struct GradingArgs {
    #[command(flatten)]
    kit: KitArgs,
    /// Write one Markdown report per student into DIR, with their page in the graders' gallery
    /// (and keep build logs there)
    #[arg(long, value_name = "DIR")]
    report: Option<PathBuf>,
    /// Leave out the speed-up measurement (its points count neither way)
    #[arg(long)]
    skip_timing: bool,
    /// Leave out the scaling view (not scored): the speed-up at 4, 8... threads measured on a
    /// machine with more CPUs than the speed-up's, where grading time matters
    #[arg(long)]
    no_scaling: bool,
    /// Run student code without the sandbox, with the grader's own rights (for a system where
    /// the sandbox cannot be set up; every report says so)
    ///
    /// By default each student's build and program run in a sandbox: only their submission and
    /// a private scratch folder writable, the Rust toolchain readable, nothing else of the
    /// machine (the kit, the reference, the reports, other students) reachable; no network; a
    /// process limit the kernel enforces; everything they started killed before their result is
    /// written; and, when grade runs as root, a user of their own. See grading/README.md.
    #[arg(long)]
    no_sandbox: bool,
    /// When grade runs as root: the first uid (and gid) of the sandbox users; each student runs
    /// as the first of this uid, the next, and so on, that no other student being graded uses
    /// (claimed with a lock file, also across runs of grade). No account is needed, but no file
    /// or process may belong to these uids
    #[arg(long, value_name = "UID", default_value_t = connect_four_grader::process::sandbox::BASE_UID)]
    sandbox_uid: u32,
    /// The course's copy of the supplied crate (default: the kit's ../starter/supplied)
    ///
    /// Each submission's copy (its supplied/ folder, or a folder at most two levels down whose
    /// Cargo.toml names connect_four_supplied; with `student`, in the directory grade runs in) is
    /// compared with it byte for byte: Cargo.toml, src/, images/ and tests/. Every file changed,
    /// added or removed is listed in the summary, the report, the gradebook's supplied_changed
    /// column and Gradescope's results. It is not scored. With --build, a changed copy is moved
    /// aside and the course's copy put in its place for the build and the grading; the
    /// submitted copy is put back afterwards. Without the course's copy the check is skipped,
    /// with a warning.
    #[arg(long, value_name = "DIR")]
    supplied: Option<PathBuf>,
    /// Build each submission first with this shell command: with `class` in each
    /// submission's directory, with `student` in the current one; {dir} stands for that
    /// directory's absolute path
    ///
    /// A build that fails or runs out of time scores 0 in every automatic category: no case is
    /// run, and the reports show the last lines of its log. The log is kept as
    /// <student>.build.log in the --report directory (without --report, in a temporary file).
    /// The gradebook's build column says ok, failed or timed out. For Rust, a shared CARGO_HOME
    /// whose registry already holds the crates makes builds fast (see grading/README.md).
    #[arg(long, value_name = "TEMPLATE")]
    build: Option<String>,
    /// With --build: the longest one build may take; then it is killed with its process group
    #[arg(long, value_name = "SECONDS", default_value_t = 600, value_parser = clap::value_parser!(u64).range(1..))]
    build_timeout: u64,
    /// The longest one student's cases may take, the build not counted: once it has passed, the
    /// cases not yet started are not run and count as failed, and grading goes on with the next
    /// student
    ///
    /// A case already running finishes under its own limits (each command has the case's
    /// time_limit). The gradebook's time column says how long each student took.
    #[arg(long, value_name = "SECONDS", default_value_t = 900, value_parser = clap::value_parser!(u64).range(1..))]
    student_deadline: u64,
    /// Each process of a student program may use this much memory, in MiB (default: memory_mib
    /// in rubric.toml's [limits])
    ///
    /// Writable memory: heap, anonymous mappings, thread stacks (RLIMIT_DATA), not the address
    /// space a JVM reserves without using. A program that fails because of a limit fails that
    /// command with the limit named: for certain when the kernel's signal (SIGXCPU, SIGXFSZ) or
    /// the process watch stopped it, as probable when its standard error reports a failed
    /// allocation or a file too large. See grading/README.md.
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..))]
    limit_memory: Option<u64>,
    /// A student program may run this many processes at once (default: processes in
    /// rubric.toml's [limits])
    ///
    /// Its processes and threads. In the sandbox the kernel enforces it (RLIMIT_NPROC): a fork
    /// or a new thread past it fails. Everywhere, its process group and everything started from
    /// it are also counted in /proc ten times a second; when there are more, all are killed.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    limit_processes: Option<u64>,
    /// Each process of a student program may use this much CPU time, in seconds, all its
    /// threads together (default: cpu_seconds in rubric.toml's [limits])
    #[arg(long, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..))]
    limit_cpu: Option<u64>,
    /// A student program may write files up to this size, in MiB (default: file_size_mib in
    /// rubric.toml's [limits])
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..))]
    limit_file_size: Option<u64>,
    /// A student's job (their build, or their program with everything it starts) may use this
    /// much memory of every kind together, in MiB (default: job_memory_mib in rubric.toml's
    /// [limits])
    ///
    /// Anonymous and shared mappings, /dev/shm, pipes: counted by a control group of the job's
    /// own, where the system gives one (the report says when it does not).
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..))]
    limit_job_memory: Option<u64>,
    /// A student's job may write this much in all, in MiB: its build's output, its files, its
    /// homes (default: disk_mib in rubric.toml's [limits])
    ///
    /// On a disk of the job's own, layered over the submission and counted in the job's memory
    /// too: the submission folder itself is never changed, and nothing written stays.
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..))]
    limit_disk: Option<u64>,
    /// Gather the style facts for the Programming style grader (not scored)
    ///
    /// Each source file's header items missing (name, course, project, date, what it holds),
    /// the counts of the kit's lint commands (rubric.toml's [style]; by default cargo clippy and
    /// cargo fmt --check for Rust, javac -Xlint:all for Java), each run as the build is, in the
    /// sandbox, and the longest functions (Rust). Shown in every report and the gradebook.
    #[arg(long)]
    style: bool,
    /// Also play each student's window under a private Xvfb, in their sandbox: the shell
    /// command that starts their window build, {dir} standing for their directory (ROWS COLS
    /// DEPTH THREADS and --opponent, --first are appended)
    ///
    /// At 4 x 5 it records whether a dialog comes first, measures the 75-pixel grid and the
    /// strip under it, clicks a column, a full column and a column after a four, hides and
    /// shows the window while the computer searches, and compares the window with the supplied
    /// one's pictures (the kit's window/). Each step is reported with its screenshots, kept in
    /// the --report directory's window/<student>/. Nothing is scored: it is evidence for the
    /// GUI's hand grading. Needs Xvfb, xdotool and ImageMagick (scripts/setup.sh xvfb). See
    /// grading/README.md.
    #[arg(long, value_name = "TEMPLATE", requires = "report")]
    window: Option<String>,
    /// With --window: build the window first with this shell command in the student's
    /// directory (default features, FLTK), {dir} standing for it; a failed build is reported
    /// as "no window"
    #[arg(long, value_name = "TEMPLATE", requires = "window")]
    window_build: Option<String>,
    /// With --window: the depth of the game whose search is watched for redraws; pick one at
    /// which the search takes a few seconds at 4 x 5 on one thread
    #[arg(long, value_name = "DEPTH", default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=64))]
    window_depth: u32,
}

/// `grade student`'s arguments.
#[derive(Args, Debug)]
struct StudentArgs {
    /// The shell command that starts the program
    #[arg(value_name = "COMMAND")]
    command: String,
    /// Write Gradescope's results.json to PATH
    #[arg(long, value_name = "PATH")]
    gradescope: Option<PathBuf>,
    /// With --gradescope: what results.json gives a speed-up the machine could not judge (too
    /// few CPUs, busy): pending (0 of its points until the instructor grades it again, the score
    /// flagged), full (all its points) or zero (0 of them)
    #[arg(
        long,
        value_name = "SHOWS",
        default_value = "pending",
        requires = "gradescope",
        value_parser = PossibleValuesParser::new(NotCountedAs::NAMES)
            .map(|name| name.parse::<NotCountedAs>().unwrap_or_default())
    )]
    gradescope_not_counted: NotCountedAs,
    /// Print only the score table, not the failed cases
    #[arg(long)]
    quiet: bool,
    /// The student's name, in the report's title, its file names and its gallery page
    /// (default: the current folder's name, unless it is a generic one such as submission,
    /// connect_four or starter; then the command)
    #[arg(long, value_name = "NAME", value_parser = clap::builder::NonEmptyStringValueParser::new())]
    name: Option<String>,
    #[command(flatten)]
    grading: GradingArgs,
}

/// `grade class`'s arguments.
#[derive(Args, Debug)]
struct ClassArgs {
    /// The folder of submissions (one subdirectory per student), or Gradescope's "Export
    /// Submissions" as downloaded: its .zip, or the folder it was unzipped into
    #[arg(value_name = "DIR")]
    submissions: PathBuf,
    /// The command for one student, {dir} standing for their directory
    #[arg(long, value_name = "TEMPLATE")]
    command: String,
    /// Students graded at once
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    jobs: u16,
    /// Where to write the CSV gradebook
    #[arg(long, value_name = "PATH", default_value = "gradebook.csv")]
    csv: PathBuf,
    /// Grade again only this student, the name of their submission folder (repeat it for
    /// more), into the gradebook and reports a class run wrote with the same --csv and --report
    ///
    /// Everyone else's gradebook row, report and gallery page stay as they were, byte for byte,
    /// every hand score and comment typed in the gallery is kept, and the class summary is
    /// written again from every student's standing (class-summary.json, beside it). A student
    /// with a folder but no row yet (a late submission) gets one, in name order. A name with no
    /// folder, or no gradebook to grade again into, exits with status 2.
    #[arg(long, value_name = "NAME")]
    only: Vec<String>,
    /// Grade again, as --only does, the students whose speed-up the gradebook says was not
    /// counted: the machine was busy or had too few CPUs (blank points, and why, in its
    /// "<category>: not counted" column)
    #[arg(long)]
    not_counted: bool,
    /// Grade everyone, though an earlier run of this class was stopped part way
    ///
    /// Without it a class run carries on an earlier one that stopped before every student was
    /// graded (a crash, Ctrl-C, a full disk): the records kept in its class store (records/,
    /// beside the class summary) stand, and only the students without one, or whose submission
    /// changed since, are graded. A run after one that graded everyone, or with another kit or other
    /// settings, grades everyone anyway.
    #[arg(long, conflicts_with_all = ["only", "not_counted"])]
    restart: bool,
    /// The roster: a CSV file with a header row and the columns folder (the submission
    /// folder's name, or Gradescope's submission_123456), student_id, name, email, login,
    /// extension (hours more, or a due date-time in RFC 3339) and submitted (when the student
    /// submitted, RFC 3339, where no Gradescope export says it), each row naming a folder, id,
    /// email or login; or Gradescope's roster, Canvas's gradebook export or Moodle's
    /// participants or grades export as downloaded (`,` or `;`, UTF-8)
    ///
    /// A student without a folder is matched by id, email or login (Gradescope's submitters,
    /// or a folder of that name), never by name; each student on it with no submission gets a
    /// row at the gradebook's end, `missing` (final total 0 with the rubric's missing = "zero",
    /// else blank).
    ///
    /// The gradebook then gains, after its other columns, student id, name and email (a line
    /// per student of a group: several rows with one folder), submitted, late, late penalty and
    /// final total. A Gradescope export (its "Export Submissions" .zip, or a folder that holds
    /// its submission_metadata.yml or a folder above) is read the same way without a roster:
    /// its names, ids, emails and submission times; a roster given too completes or overrides
    /// them. The rubric's [late] table sets the due date and the penalty. See
    /// grading/README.md.
    #[arg(long, value_name = "PATH")]
    roster: Option<PathBuf>,
    /// Judge lateness by the newest modification time of a submission's files where neither
    /// Gradescope's metadata nor the roster's submitted column gives a time (a copy without
    /// cp -p, an unzip or a checkout changes them): said in the run, the gradebook and the
    /// feedback. Without it such a submission's lateness is "no submission time"
    #[arg(long)]
    late_from_files: bool,
    /// Succeed though the reconciliation finds roster students without a graded submission or
    /// submissions without a roster student (said in its table either way)
    #[arg(long)]
    allow_missing: bool,
    #[command(flatten)]
    grading: GradingArgs,
}

impl GradingArgs {
    /// The settings the commands layer takes.
    fn settings(&self) -> Grading {
        Grading {
            kit: self.kit.kit.clone(),
            supplied: self.supplied.clone(),
            build: self
                .build
                .clone()
                .map(|template| (template, Duration::from_secs(self.build_timeout))),
            skip_timing: self.skip_timing,
            no_scaling: self.no_scaling,
            student_deadline: Duration::from_secs(self.student_deadline),
            limits: [
                self.limit_memory,
                self.limit_processes,
                self.limit_cpu,
                self.limit_file_size,
                self.limit_job_memory,
                self.limit_disk,
            ],
            report: self.report.clone(),
            no_sandbox: self.no_sandbox,
            base_uid: self.sandbox_uid,
            style: self.style,
            window: self.window.clone().map(|command| WindowAsk {
                command,
                build: self
                    .window_build
                    .clone()
                    .map(|template| (template, Duration::from_secs(self.build_timeout))),
                depth: self.window_depth,
            }),
        }
    }
}

/// Why `grade` failed: the simulated CPUs' switch, or the subcommand's own error.
#[derive(Debug, thiserror::Error)]
enum GradeError {
    /// `CONNECT_FOUR_GRADER_CPUS` is malformed.
    #[error(transparent)]
    SimulatedCpus(#[from] topology::SimulatedCpusError),
    /// `grade student`.
    #[error(transparent)]
    Student(#[from] commands::student::StudentError),
    /// `grade class`.
    #[error(transparent)]
    Class(commands::class::ClassError),
    /// `grade gallery`.
    #[error(transparent)]
    Gallery(#[from] commands::gallery::GalleryError),
    /// `grade feedback`.
    #[cfg(not(feature = "students-kit"))]
    #[error(transparent)]
    Feedback(commands::feedback::FeedbackError),
    /// The course's subcommands (boxed: their errors are large).
    #[cfg(not(feature = "students-kit"))]
    #[error(transparent)]
    Course(Box<course::CourseCommandError>),
}

impl GradeError {
    /// The exit status it ends `grade` with: 2 for what the command line (or the environment)
    /// asked, 1 for the rest, a class run's own.
    fn exit_status(&self) -> u8 {
        match self {
            GradeError::SimulatedCpus(_) => 2,
            GradeError::Class(error) => error.exit_status(),
            _ => 1,
        }
    }
}

fn main() -> ExitCode {
    let mode = Cli::parse().mode;
    // An error is said after the command that failed: `grade match: ...`, else `grade: ...`.
    #[cfg(not(feature = "students-kit"))]
    let name = match &mode {
        Mode::Course(course) => course.name(),
        _ => "grade",
    };
    #[cfg(feature = "students-kit")]
    let name = "grade";
    // A test's simulated CPUs (a malformed list would otherwise be this machine's CPUs).
    let done = match topology::simulated_cpus() {
        Err(error) => Err(GradeError::from(error)),
        Ok(_) => run(mode),
    };
    match done {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("{name}: {error}");
            ExitCode::from(error.exit_status())
        }
    }
}

/// Runs the subcommand `mode` asks for.
fn run(mode: Mode) -> Result<(), GradeError> {
    match mode {
        Mode::Student(args) => commands::student::run(&StudentRun {
            command: args.command,
            name: args.name,
            grading: args.grading.settings(),
            gradescope: args.gradescope,
            not_counted: args.gradescope_not_counted,
            quiet: args.quiet,
        })?,
        Mode::Class(args) => commands::class::run(&ClassRun {
            submissions: args.submissions,
            command: args.command,
            jobs: usize::from(args.jobs),
            csv: args.csv,
            grading: args.grading.settings(),
            only: args.only,
            not_counted: args.not_counted,
            restart: args.restart,
            roster: args.roster,
            late_from_files: args.late_from_files,
            allow_missing: args.allow_missing,
        })
        .map_err(GradeError::Class)?,
        Mode::Gallery(args) => commands::gallery::run(&GalleryRun {
            dir: args.dir,
            port: args.port,
            kit: args.kit.kit,
            csv: args.csv,
        })?,
        #[cfg(not(feature = "students-kit"))]
        Mode::Feedback(args) => commands::feedback::run(&FeedbackRun {
            dir: args.dir,
            kit: args.kit.kit,
            all: args.all,
            moodle_worksheet: args.moodle_worksheet,
            allow_missing: args.allow_missing,
        })
        .map_err(GradeError::Feedback)?,
        #[cfg(not(feature = "students-kit"))]
        Mode::Course(course) => course
            .run()
            .map_err(|error| GradeError::Course(Box::new(error)))?,
    }
    Ok(())
}
