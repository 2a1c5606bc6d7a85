//! The class summary, what an instructor reads after grading a batch: per automatic category the
//! mean, median, lowest and highest score and how the students spread over bands of a tenth of
//! the points; how many builds failed; how long grading took; and the cases failed most often,
//! with how many students failed each and how many of those timed out or crashed. Markdown,
//! which reads as well in a terminal: `grade class` prints it and writes it to
//! `class-summary.md`.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::words::{self, points};
use crate::judge::result::{FaultKind, StudentResult};
use crate::kit::Rubric;

/// How many of the cases failed most often are listed.
const MOST_FAILED: usize = 10;
/// The file name the summary is written to.
pub const FILE_NAME: &str = "class-summary.md";

/// One automatic category (or the automatic total) and each student's points in it: earned and
/// possible.
struct Column {
    name: String,
    scores: Vec<(f64, f64)>,
}

/// The automatic categories, then the automatic total, each with every student's points.
fn columns(rubric: &Rubric, results: &[&StudentResult]) -> Vec<Column> {
    let mut columns: Vec<Column> = Vec::new();
    for result in results {
        let (earned, max) = result.total();
        let scores = result
            .categories(rubric)
            .into_iter()
            .filter_map(|c| c.earned.map(|earned| (c.name, earned, c.max)))
            .chain([("Automatic total".to_string(), earned, max)]);
        for (name, earned, max) in scores {
            match columns.iter_mut().find(|c| c.name == name) {
                Some(column) => column.scores.push((earned, max)),
                None => columns.push(Column {
                    name,
                    scores: vec![(earned, max)],
                }),
            }
        }
    }
    columns
}

/// `count` students, in words.
fn students(count: usize) -> String {
    match count {
        1 => "1 student".into(),
        _ => format!("{count} students"),
    }
}

/// The mean of `values` (not empty).
fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len() as f64
}

/// The median of `values` (not empty): the middle one, or the mean of the middle two.
fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let middle = sorted.len() / 2;
    if sorted.len() % 2 == 0 {
        (sorted[middle - 1] + sorted[middle]) / 2.0
    } else {
        sorted[middle]
    }
}

/// The band of a score: 0 for under a tenth of the points, ..., 9 for at least nine tenths but
/// not all, 10 for all of them.
fn band(earned: f64, max: f64) -> usize {
    let share = earned / max;
    if share >= 1.0 - 1e-9 {
        10
    } else {
        // Truncation is the point: 0.37 is in the band 30-39%.
        ((share * 10.0).floor().max(0.0) as usize).min(9)
    }
}

/// The builds: how many failed, and how.
fn builds(results: &[StudentResult]) -> Option<String> {
    let built: Vec<&str> = results
        .iter()
        .filter_map(|r| r.build.as_ref().map(words::build_word))
        .collect();
    if built.is_empty() {
        return None;
    }
    let count = |word: &str| built.iter().filter(|w| **w == word).count();
    let failed = count("failed") + count("timed out");
    Some(format!(
        "Failed builds: {failed} of {} ({} failed, {} timed out); they score 0 in every automatic \
         category.",
        built.len(),
        count("failed"),
        count("timed out")
    ))
}

/// How long grading took: the mean, the median and the longest, with whose.
fn times(results: &[StudentResult]) -> String {
    let seconds: Vec<f64> = results.iter().map(|r| r.elapsed.as_secs_f64()).collect();
    let longest = results
        .iter()
        .max_by(|a, b| a.elapsed.cmp(&b.elapsed))
        .map_or(String::new(), |r| {
            format!("{:.1} s ({})", r.elapsed.as_secs_f64(), r.student)
        });
    format!(
        "Grading time per student: mean {:.1} s, median {:.1} s, longest {longest}.",
        mean(&seconds),
        median(&seconds)
    )
}

/// The mean, median, lowest and highest score of each column, as a table.
fn scores_table(columns: &[Column]) -> String {
    let mut out = String::from(
        "| Category | Points | Mean | Median | Lowest | Highest |\n|---|---:|---:|---:|---:|---:|\n",
    );
    for column in columns {
        let earned: Vec<f64> = column.scores.iter().map(|(e, _)| *e).collect();
        let max = column.scores.iter().map(|(_, m)| *m).fold(0.0, f64::max);
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} |",
            column.name,
            points(max),
            points(mean(&earned)),
            points(median(&earned)),
            points(earned.iter().copied().fold(f64::INFINITY, f64::min)),
            points(earned.iter().copied().fold(f64::NEG_INFINITY, f64::max)),
        );
    }
    out
}

/// How many students fall in each band of each column, as a table.
fn distribution_table(columns: &[Column]) -> String {
    let mut out = String::from("| Category |");
    for band in 0..10 {
        let _ = write!(out, " {}-{}% |", band * 10, band * 10 + 9);
    }
    out.push_str(" 100% |\n|---|");
    out.push_str(&"---:|".repeat(11));
    out.push('\n');
    for column in columns {
        let mut counts = [0usize; 11];
        for &(earned, max) in column.scores.iter().filter(|(_, max)| *max > 0.0) {
            counts[band(earned, max)] += 1;
        }
        let _ = write!(out, "| {} |", column.name);
        for count in counts {
            let _ = write!(out, " {count} |");
        }
        out.push('\n');
    }
    out
}

/// How many students failed one case: in all, and by time-out and by crash (an exit, a limit
/// hit, a closed output) among them.
#[derive(Clone, Copy, Debug, Default)]
struct Failures {
    students: usize,
    timed_out: usize,
    crashed: usize,
}

/// The cases failed by the most students (leaving out those whose build failed: they failed
/// every case), with how many failed each, and how many of those by a time-out or a crash.
fn most_failed(results: &[&StudentResult]) -> String {
    let built: Vec<&StudentResult> = results
        .iter()
        .copied()
        .filter(|r| r.failed_build().is_none())
        .collect();
    let mut failures: BTreeMap<(&str, &str), Failures> = BTreeMap::new();
    for case in built.iter().flat_map(|r| r.failed()) {
        let kinds = case.kinds();
        let entry = failures.entry((&case.name, &case.category)).or_default();
        entry.students += 1;
        entry.timed_out += usize::from(kinds.contains(&FaultKind::TimedOut));
        entry.crashed += usize::from(
            kinds
                .iter()
                .any(|k| matches!(k, FaultKind::Crashed | FaultKind::Limit | FaultKind::Closed)),
        );
    }
    let who = if built.len() == results.len() {
        format!("the {}", students(built.len()))
    } else {
        format!(
            "the {} whose build succeeded (a failed build fails every case)",
            students(built.len())
        )
    };
    if failures.is_empty() {
        return format!("Every case was passed by {who}.\n");
    }
    let mut ranked: Vec<((&str, &str), Failures)> = failures.into_iter().collect();
    // Most failures first; the map's order (by name) breaks ties.
    ranked.sort_by_key(|(_, count)| std::cmp::Reverse(count.students));
    let mut out = format!(
        "Of {who}, how many failed each case (lost some of its points), and how many of them \
         because their program timed out or crashed (exited, hit a limit or closed its \
         output):\n\n\
         | Case | Category | Students | Timed out | Crashed |\n|---|---|---:|---:|---:|\n"
    );
    for ((name, category), count) in ranked.into_iter().take(MOST_FAILED) {
        let _ = writeln!(
            out,
            "| {name} | {category} | {} of {} | {} | {} |",
            count.students,
            built.len(),
            count.timed_out,
            count.crashed
        );
    }
    out
}

/// The class summary of `results`, in Markdown.
pub fn markdown(rubric: &Rubric, results: &[StudentResult]) -> String {
    let mut out = format!("# Class summary: {}\n\n", rubric.title);
    if results.is_empty() {
        out.push_str("No students.\n");
        return out;
    }
    let _ = writeln!(out, "{}.", students(results.len()));
    if let Some(builds) = builds(results) {
        let _ = writeln!(out, "{builds}");
    }
    let _ = writeln!(out, "{}", times(results));
    let (graded, ungraded): (Vec<&StudentResult>, Vec<_>) = results
        .iter()
        .partition(|result| result.ungraded().is_none());
    if !ungraded.is_empty() {
        let names: Vec<&str> = ungraded.iter().map(|r| r.student.as_str()).collect();
        let _ = writeln!(
            out,
            "\n**Not graded** (their sandbox could not be set up, so none of their code ran; \
             the figures below leave them out): {}.",
            names.join(", ")
        );
    }
    if graded.is_empty() {
        out.push_str("\nNo student was graded.\n");
        return out;
    }
    let columns = columns(rubric, &graded);
    let _ = write!(
        out,
        "\n## Scores\n\n{}\n## Distribution\n\nStudents by the share of each category's points \
         they earned:\n\n{}\n## Cases failed most often\n\n{}",
        scores_table(&columns),
        distribution_table(&columns),
        most_failed(&graded)
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::fixtures;
    use crate::judge::{Build, CaseResult};
    use crate::kit::rubric::TEST_SPEEDUP;
    use crate::process::logged::Ended;
    use std::os::unix::process::ExitStatusExt;
    use std::process::ExitStatus;
    use std::time::Duration;

    fn rubric() -> Rubric {
        toml::from_str(&format!(
            "title = \"Four\"\n{TEST_SPEEDUP}\
             [[category]]\nname = \"Rules\"\npoints = 10\n\
             [[category]]\nname = \"Style\"\npoints = 5\nmanual = [\"(5) tidy\"]\n",
        ))
        .unwrap()
    }

    /// A student who earned `earned[i]` of 5 points in case `c{i}`, graded in `seconds`.
    fn student(name: &str, earned: [f64; 2], seconds: u64, build: Option<Ended>) -> StudentResult {
        let cases = earned
            .iter()
            .enumerate()
            .map(|(i, &earned)| CaseResult {
                earned,
                ..fixtures::case_result(&format!("c{i}"), "Rules", 5.0)
            })
            .collect();
        StudentResult {
            build: build.map(|ended| Build {
                ended,
                elapsed: Duration::from_secs(1),
                tail: String::new(),
                log: None,
                offline: false,
            }),
            ..fixtures::student(name, cases, seconds)
        }
    }

    #[test]
    fn students_not_graded_are_named_and_left_out_of_the_figures() {
        let mut cy = student("cy", [0.0, 0.0], 1, None);
        cy.confinement = crate::judge::Confinement::Failed("the kit is inside".into());
        let results = [student("ann", [5.0, 5.0], 3, None), cy];
        let text = markdown(&rubric(), &results);
        assert!(
            text.contains(
                "**Not graded** (their sandbox could not be set up, so none of their \
                 code ran; the figures below leave them out): cy."
            ),
            "{text}"
        );
        assert!(text.contains("| Rules | 10 | 10 | 10 | 10 |"), "{text}");
        let text = markdown(&rubric(), &results[1..]);
        assert!(text.ends_with("\nNo student was graded.\n"), "{text}");
    }

    #[test]
    fn means_medians_bands_and_the_most_failed_cases() {
        let results = [
            student("ann", [5.0, 5.0], 3, Some(Ended::Succeeded)),
            student("bob", [5.0, 2.0], 9, Some(Ended::Succeeded)),
            student("cy", [0.0, 3.0], 4, Some(Ended::Succeeded)),
            student(
                "dee",
                [0.0, 0.0],
                1,
                Some(Ended::Failed(ExitStatus::from_raw(1 << 8))),
            ),
            student(
                "eve",
                [0.0, 0.0],
                2,
                Some(Ended::TimedOut(Duration::from_secs(9))),
            ),
        ];
        let text = markdown(&rubric(), &results);
        assert!(
            text.starts_with("# Class summary: Four\n\n5 students.\n"),
            "{text}"
        );
        assert!(
            text.contains("Failed builds: 2 of 5 (1 failed, 1 timed out);"),
            "{text}"
        );
        assert!(
            text.contains("mean 3.8 s, median 3.0 s, longest 9.0 s (bob)."),
            "{text}"
        );
        // Rules: 10, 7, 3, 0, 0.
        assert!(text.contains("| Rules | 10 | 4 | 3 | 0 | 10 |\n"), "{text}");
        assert!(text.contains("| Rules | 2 | 0 | 0 | 1 | 0 | 0 | 0 | 1 | 0 | 0 | 1 |\n"));
        assert!(text.contains("| Automatic total | 10 | 4 | 3 | 0 | 10 |\n"));
        assert!(!text.contains("| Style |"), "graded by hand: {text}");
        assert!(text.contains("Of the 3 students whose build succeeded"));
        let ranking = text.split("| Case |").nth(1).unwrap();
        assert!(
            ranking.contains(
                "|---|---|---:|---:|---:|\n| c1 | Rules | 2 of 3 | 0 | 0 |\n\
                 | c0 | Rules | 1 of 3 | 0 | 0 |\n"
            ),
            "{ranking}"
        );
    }

    #[test]
    fn medians_and_bands_at_their_edges() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        assert_eq!(band(0.0, 30.0), 0);
        assert_eq!(band(2.99, 30.0), 0);
        assert_eq!(band(3.0, 30.0), 1);
        assert_eq!(band(29.9, 30.0), 9);
        assert_eq!(band(30.0, 30.0), 10);
        let everyone_passed = markdown(&rubric(), &[student("ann", [5.0, 5.0], 1, None)]);
        assert!(everyone_passed.contains("1 student.\n"));
        assert!(everyone_passed.contains("Every case was passed by the 1 student."));
        assert!(!everyone_passed.contains("Failed builds"));
    }
}
