//! `grade`: the grading kit's command line. Grades one student (`--student`), a whole class
//! (`--submissions` with `--command`), or writes the reference's answers (`--generate`). While
//! grading it also compares each Rust submission's copy of the supplied crate with the course's
//! (`--supplied`) and reports the changes. `--build` builds each submission first; a class ends
//! with a summary (`class-summary.md`).
//!
//! Exit codes: 0 after grading, 1 when the kit's files are missing or malformed (the message
//! names the file and line) or a report cannot be written, 2 for bad arguments.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::{ArgGroup, Parser};
use connect_four_grader::limits::Limits;
use connect_four_grader::{
    batch, build, case, gradescope, report, solution, summary, supplied, Kit, KitError, Options,
    Student,
};

/// Grades Connect Four programs in any language through the grading protocol.
#[derive(Parser, Debug)]
#[command(
    name = "grade",
    version,
    group(ArgGroup::new("mode").required(true).args(["generate", "check", "student", "submissions"])),
    after_help = "Examples:\n  grade --student './target/release/connect_four'\n  grade --student 'java -cp build ConnectFour' --report reports\n  grade --submissions class/ --command 'python3 {dir}/connect_four.py' --jobs 2 --csv grades.csv\n  grade --generate\n\nBuilding first (--build), per language:\n  Rust:   grade --submissions class/ --build 'cargo build --release --no-default-features --locked' \\\n            --command '{dir}/target/release/connect_four' --report reports\n  Java:   grade --submissions class/ --build 'javac -d build *.java' --command 'java -cp {dir}/build ConnectFour'\n  Python: grade --submissions class/ --command 'python3 {dir}/connect_four.py'   (nothing to build)\n  One student, in their directory:\n          grade --build 'cargo build --release --no-default-features --locked' \\\n            --student ./target/release/connect_four --gradescope results.json"
)]
struct Args {
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

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("grade: {error}");
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
