//! `grade`: the grading kit's command line. Grades one student (`--student`), a whole class
//! (`--submissions` with `--command`), or writes the reference's answers (`--generate`). While
//! grading it also compares each Rust submission's copy of the supplied crate with the course's
//! (`--supplied`) and reports the changes. `--build` builds each submission first; a class ends
//! with a summary (`class-summary.md`). `grade match A B` plays a match between two players,
//! the reference or programs ([`matchup`]).
//!
//! Exit codes: 0 after grading or a match, 1 when the kit's files are missing or malformed (the
//! message names the file and line), a report cannot be written or a match's player cannot
//! start, 2 for bad arguments.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::{ArgGroup, Parser, Subcommand};
use connect_four_grader::limits::Limits;
use connect_four_grader::matchup::{self, Spec};
use connect_four_grader::{
    batch, build, case, gradescope, report, solution, summary, supplied, Kit, KitError, Options,
    Student,
};
use connect_four_supplied::limits::{parse_size, parse_threads};

/// Grades Connect Four programs in any language through the grading protocol.
#[derive(Parser, Debug)]
#[command(
    name = "grade",
    version,
    group(ArgGroup::new("mode").required(true).args(["generate", "check", "student", "submissions"])),
    subcommand_negates_reqs = true,
    args_conflicts_with_subcommands = true,
    after_help = "Examples:\n  grade --student './target/release/connect_four'\n  grade --student 'java -cp build ConnectFour' --report reports\n  grade --submissions class/ --command 'python3 {dir}/connect_four.py' --jobs 2 --csv grades.csv\n  grade --generate\n  grade match reference:2 'cmd:5:java -cp build ConnectFour' --games 20   (see grade match --help)\n\nBuilding first (--build), per language:\n  Rust:   grade --submissions class/ --build 'cargo build --release --no-default-features --locked' \\\n            --command '{dir}/target/release/connect_four' --report reports\n  Java:   grade --submissions class/ --build 'javac -d build *.java' --command 'java -cp {dir}/build ConnectFour'\n  Python: grade --submissions class/ --command 'python3 {dir}/connect_four.py'   (nothing to build)\n  One student, in their directory:\n          grade --build 'cargo build --release --no-default-features --locked' \\\n            --student ./target/release/connect_four --gradescope results.json"
)]
struct Args {
    /// Instead of grading: `match`, a match between two players
    #[command(subcommand)]
    task: Option<Task>,
    /// The kit: a directory with rubric.toml and cases/ (default: ./grading, else the one this
    /// grader was built with)
    #[arg(long, value_name = "DIR")]
    kit: Option<PathBuf>,
    /// Write every case's .solution file from the reference
    #[arg(long)]
    generate: bool,
    /// Check that every stored .solution file is what the reference says now
    #[arg(long)]
    check: bool,
    /// Grade one program: the command that starts it (ROWS COLS DEPTH THREADS --protocol is appended)
    #[arg(long, value_name = "COMMAND")]
    student: Option<String>,
    /// Grade every subdirectory of DIR, one student each
    #[arg(long, value_name = "DIR", requires = "command")]
    submissions: Option<PathBuf>,
    /// With --submissions: the command for one student, {dir} standing for their directory
    #[arg(long, value_name = "TEMPLATE", requires = "submissions")]
    command: Option<String>,
    /// With --submissions: students graded at once
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    jobs: u16,
    /// With --submissions: where to write the CSV gradebook
    #[arg(long, value_name = "PATH", default_value = "gradebook.csv")]
    csv: PathBuf,
    /// Write one Markdown report per student into DIR
    #[arg(long, value_name = "DIR")]
    report: Option<PathBuf>,
    /// Write Gradescope's results.json to PATH (one student only)
    #[arg(long, value_name = "PATH", conflicts_with = "submissions")]
    gradescope: Option<PathBuf>,
    /// Leave out the speed-up measurement (its points count neither way)
    #[arg(long)]
    skip_timing: bool,
    /// The course's copy of the supplied crate (default: the kit's ../starter/supplied)
    ///
    /// Each submission's copy (its supplied/ folder, or a folder at most two levels down whose
    /// Cargo.toml names connect_four_supplied; with --student, in the directory grade runs in) is
    /// compared with it byte for byte: Cargo.toml, src/, images/ and tests/. Every file changed,
    /// added or removed is listed in the summary, the report, the gradebook's supplied_changed
    /// column and Gradescope's results. It is not scored. With --build, a changed copy is
    /// renamed supplied.submitted/ and the course's copy put in its place before the build.
    /// Without the course's copy the check is skipped, with a warning.
    #[arg(long, value_name = "DIR")]
    supplied: Option<PathBuf>,
    /// Print only the score table, not the failed cases
    #[arg(long)]
    quiet: bool,
    /// Build each submission first with this shell command: with --submissions in each
    /// submission's directory, with --student in the current one; {dir} stands for that
    /// directory's absolute path
    ///
    /// A build that fails or runs out of time scores 0 in every automatic category: no case is
    /// run, and the reports show the last lines of its log. The log is kept as
    /// <student>.build.log in the --report directory (without --report, in a temporary file).
    /// The gradebook's build column says ok, failed or timed out. For Rust, a shared CARGO_HOME
    /// whose registry already holds the crates makes builds fast (see grading/README.md).
    #[arg(long, value_name = "TEMPLATE", conflicts_with_all = ["generate", "check"])]
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
    /// Its process group and everything started from it, counted in /proc ten times a second;
    /// when there are more, all are killed.
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
}

/// What `grade` does instead of grading.
#[derive(Subcommand, Debug)]
enum Task {
    /// Play a match between two players, the reference or programs, and sum it up
    ///
    /// GAMES games between A (red) and B (black), the first player alternating; then A's wins,
    /// losses, ties and score with a 95% interval.
    #[command(after_help = MATCH_HELP)]
    Match(MatchArgs),
}

/// The players' syntax and examples, after `grade match --help`.
const MATCH_HELP: &str = concat!(
    "Players:\n",
    "  reference:DEPTH        the reference engine, in this process, searching DEPTH plies\n",
    "  reference:DEPTH:prune  the same with exact alpha-beta: the same moves, found faster\n",
    "  cmd:DEPTH:COMMAND      a program that speaks the grading protocol, started for each game as\n",
    "                         COMMAND ROWS COLS DEPTH THREADS --protocol (as grade --student does)\n",
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
struct MatchArgs {
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

fn main() -> ExitCode {
    let args = Args::parse();
    if let Some(Task::Match(options)) = &args.task {
        return play_match(options);
    }
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("grade: {error}");
            ExitCode::FAILURE
        }
    }
}

/// Plays the match `options` ask for and prints its summary; exit code 1 if a player cannot
/// start.
fn play_match(options: &MatchArgs) -> ExitCode {
    let specs = [options.a.clone(), options.b.clone()];
    let settings = matchup::Settings {
        rows: options.rows,
        cols: options.cols,
        games: options.games,
        threads: options.threads,
        seed: options.seed.unwrap_or_else(rand::random),
        time_limit: Duration::from_secs(options.time_limit),
        limits: Limits::default(),
    };
    match matchup::play_showing_progress(&specs, &settings) {
        Ok(summary) => {
            let text = matchup::report(&specs, &settings, &summary);
            let _ = write!(std::io::stdout().lock(), "{text}");
            ExitCode::SUCCESS
        }
        Err(why) => {
            eprintln!("grade match: {why}");
            ExitCode::FAILURE
        }
    }
}

/// The kit directory: `--kit`, else `./grading`, else the source tree's.
fn kit_dir(args: &Args) -> PathBuf {
    args.kit.clone().unwrap_or_else(|| {
        let here = PathBuf::from("grading");
        if here.join("rubric.toml").is_file() {
            here
        } else {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../grading")
        }
    })
}

/// Writes `text` to `path`, creating its directory.
fn write(path: &Path, text: &str) -> Result<(), KitError> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        fs::create_dir_all(parent).map_err(|e| KitError(format!("{}: {e}", parent.display())))?;
    }
    fs::write(path, text).map_err(|e| KitError(format!("{}: cannot write: {e}", path.display())))
}

/// The course's copy of the supplied crate: `--supplied`, else `../starter/supplied` beside the
/// kit `dir`. `None`, said once on standard error, when it cannot be used: the check is skipped
/// rather than grading stopped.
fn course_copy(args: &Args, dir: &Path) -> Option<supplied::Course> {
    let path = args
        .supplied
        .clone()
        .unwrap_or_else(|| dir.join("../starter/supplied"));
    match supplied::Course::load(&path) {
        Ok(course) => Some(course),
        Err(why) => {
            eprintln!(
                "grade: the course's copy of the supplied crate cannot be used ({why}); \
                 submissions' copies are not checked"
            );
            None
        }
    }
}

/// Does what `args` ask: writes or checks the solutions, or grades and reports.
fn run(args: &Args) -> Result<(), KitError> {
    let dir = kit_dir(args);
    if args.generate || args.check {
        return solutions(&dir, args.check);
    }
    let mut kit = Kit::load(&dir)?;
    kit.supplied = course_copy(args, &dir);
    let options = Options {
        skip_timing: args.skip_timing,
        build: args.build.as_ref().map(|template| build::Step {
            template: template.clone(),
            timeout: Duration::from_secs(args.build_timeout),
            logs: args.report.clone(),
        }),
        student_deadline: Some(Duration::from_secs(args.student_deadline)),
    };
    let kit_limits = kit.rubric.limits;
    let limits = Limits {
        memory_mib: args.limit_memory.unwrap_or(kit_limits.memory_mib),
        processes: args.limit_processes.unwrap_or(kit_limits.processes),
        cpu_seconds: args.limit_cpu.unwrap_or(kit_limits.cpu_seconds),
        file_size_mib: args.limit_file_size.unwrap_or(kit_limits.file_size_mib),
    };
    let class = args.submissions.is_some();
    let results = match (&args.student, &args.submissions, &args.command) {
        (Some(command), _, _) => {
            let student = Student {
                name: command.clone(),
                command: command.clone(),
                dir: None,
                limits,
            };
            vec![connect_four_grader::grade_student(&kit, &student, &options)]
        }
        (None, Some(submissions), Some(template)) => {
            let students = batch::submissions(submissions, template, limits)?;
            batch::grade_all(&kit, &students, &options, usize::from(args.jobs))
        }
        _ => return Err(KitError("nothing to grade".into())),
    };
    for result in &results {
        let text = if args.quiet || class {
            report::summary(&kit.rubric, result)
        } else {
            report::terminal(&kit.rubric, result)
        };
        // A closed pipe (`| head`) only means nobody reads the rest.
        let _ = writeln!(std::io::stdout().lock(), "{text}");
        if let Some(reports) = &args.report {
            write(
                &reports.join(format!("{}.md", report::file_name(&result.student))),
                &report::markdown(&kit.rubric, result),
            )?;
        }
        if let Some(path) = &args.gradescope {
            let json = gradescope::results(&kit.rubric, result);
            write(path, &format!("{json:#}\n"))?;
        }
    }
    if class {
        write(&args.csv, &batch::gradebook(&kit.rubric, &results))?;
        eprintln!("grade: wrote {}", args.csv.display());
        // Beside the reports, else beside the gradebook.
        let dir = args
            .report
            .as_deref()
            .unwrap_or_else(|| args.csv.parent().unwrap_or(Path::new("")));
        let path = dir.join(summary::FILE_NAME);
        let text = summary::markdown(&kit.rubric, &results);
        let _ = writeln!(std::io::stdout().lock(), "{text}");
        write(&path, &text)?;
        eprintln!("grade: wrote {}", path.display());
    }
    Ok(())
}

/// Writes (or, with `check_only`, compares) every case's solution.
fn solutions(dir: &Path, check_only: bool) -> Result<(), KitError> {
    let cases = case::load_all(&dir.join("cases"))?;
    let mut stale = Vec::new();
    for case in &cases {
        let fresh = solution::generate(case)?;
        if check_only {
            if solution::read(case).ok().as_ref() != Some(&fresh) {
                stale.push(solution::path(case).display().to_string());
            }
        } else {
            solution::write(case, &fresh)?;
        }
    }
    if !stale.is_empty() {
        return Err(KitError(format!(
            "{} stale solution file(s), run `grade --generate`: {}",
            stale.len(),
            stale.join(", ")
        )));
    }
    eprintln!(
        "grade: {} solution file(s) {}",
        cases.len(),
        if check_only {
            "match the reference"
        } else {
            "written"
        }
    );
    Ok(())
}
