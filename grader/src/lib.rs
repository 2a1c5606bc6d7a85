//! The grading kit: runs a student's program through the grading protocol, compares it with the
//! reference and scores it by the rubric in `grading/`.
//!
//! Six layers, each importing only those above it in this list, and the commands on top:
//! - [`process`]: running a program under limits (process groups, resource limits, `/proc`,
//!   the sandbox); nothing of cases or scores.
//! - [`kit`]: what we grade with, as data: the rubric, the case files, their stored answers and
//!   the course's copy of the supplied crate; no child processes.
//! - [`judge`]: a program against the kit: scripts played and judged, consistency and the
//!   speed-up, requirements between cases, builds, a student, a class, a match; typed results.
//! - [`similarity`]: a class's submissions compared with each other and with earlier years'
//!   (winnowed fingerprints of syntax tokens, the given code left out); reads, never runs.
//! - [`store`]: the class store: one versioned, typed record per student (result, submission
//!   stamp, who and when, hand scores) and the class a run grades; the only code that
//!   reads a file the kit wrote.
//! - [`report`]: records and results in words: terminal, Markdown, gradebook, exports,
//!   feedback, results.json, class summary, match summary, similar pairs, the graders'
//!   gallery; pure functions, never runs anything.
//! - [`commands`]: one function per `grade` subcommand (`student`, `class`, `gallery`,
//!   `feedback`, `export`, `generate`, `check`, `pack`, `match`, `similar`, ...), which
//!   `main.rs` calls; `publish` writes the files made of the store's records.
//!
//! Linux only: the process layer reads `/proc` and uses process groups and `setrlimit`.
//!
//! One submission, from `grade class` to its feedback file, read in this order (18 files, 6
//! climbs back up a layer; a test keeps the list true):
//! 1. `bin/grade/main.rs`: the arguments parsed into a `ClassRun`.
//! 2. `commands/class/mod.rs`: the run: the kit, the class's folders, the store, then the files.
//! 3. `kit/gradescope_download.rs`: the folder of submissions, or Gradescope's export of them.
//! 4. `judge/class.rs`: one `Student` per folder, graded on the run's jobs, panics caught.
//! 5. `judge/student.rs`: one student: sandbox, build, each case, style, window.
//! 6. `judge/confinement.rs`: the student's sandbox asked for and said.
//! 7. `process/sandbox/mod.rs`: the sandbox itself: user, cgroup, namespaces, Landlock.
//! 8. `judge/build.rs`: the build, inside it.
//! 9. `judge/compare.rs`: a case played and judged against its stored answers.
//! 10. `judge/script.rs`: the case's script, line by line.
//! 11. `process/program.rs`: the student's program, under limits.
//! 12. `judge/result/mod.rs`: the typed result of it all.
//! 13. `commands/class/grading.rs`: the student's end, told: their record kept, then reports.
//! 14. `store/mod.rs`: the record put in the class store, synced.
//! 15. `store/format.rs`: the record, as written.
//! 16. `commands/publish.rs`: the files made of the records, feedback once hand grading is done.
//! 17. `report/feedback.rs`: the feedback's words.
//! 18. `commands/files.rs`: the file replaced whole.

pub mod commands;
pub mod judge;
pub mod kit;
pub mod process;
pub mod report;
pub mod similarity;
pub mod store;

#[cfg(test)]
mod tests {
    /// The layers, lowest first, as the header lists them (`bin` above them all).
    const LAYERS: &str = "process kit judge similarity store report commands bin";

    #[test]
    fn the_walk_of_one_submission_names_files_that_exist_in_at_most_20_and_10_climbs() {
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut walk = Vec::new();
        for line in include_str!("lib.rs")
            .lines()
            .filter(|l| l.starts_with("//! "))
        {
            let Some((_, rest)) = line.split_once(". `") else {
                continue;
            };
            let path = rest.split('`').next().unwrap_or_default();
            assert!(
                src.join(path).is_file(),
                "{path} is in the walk but not in src/"
            );
            let folder = path.split('/').next().unwrap_or_default();
            walk.push(LAYERS.split(' ').position(|l| l == folder).unwrap());
        }
        let climbs = walk.windows(2).filter(|w| w[1] > w[0]).count();
        assert_eq!((walk.len(), climbs), (18, 6), "the header's count");
    }
}
