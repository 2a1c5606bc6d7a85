//! The class summary, what an instructor reads after grading a batch: per automatic category the
//! mean, median, lowest and highest score and how the students spread over bands of a tenth of
//! the points; how many builds failed; how long grading took; the students to grade again,
//! whose speed-up the machine could not judge (their missing points are left out of the
//! figures, not counted as zeros); and the cases failed most often, with how many students
//! failed each and how many of those timed out or crashed. Markdown, which reads as well in a
//! terminal: `grade class` prints it and writes it to `class-summary.md`.
//!
//! It is made from each student's [`Standing`], what the summary needs of their result, which
//! `grade class` keeps beside it in `class-summary.json`: grading some students again rewrites
//! the summary from their new standings and the others' as they were. A Gradescope export whose
//! metadata and folders do not match has a section of its own ([`unmatched_section`]).

use std::collections::BTreeMap;
use std::fmt::Write;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::inert;
use super::numbers::{counted, points, students};
use super::{building, timing};
use crate::judge::result::{FaultKind, StudentResult};
use crate::kit::gradescope_download::Unmatched;
use crate::kit::roster::Member;
use crate::kit::Rubric;

/// How many of the cases failed most often are listed.
const MOST_FAILED: usize = 10;
/// The file name the summary is written to.
pub const FILE_NAME: &str = "class-summary.md";
/// The file name of the students' standings, beside the summary.
pub const STANDINGS: &str = "class-summary.json";
/// The name of the automatic total's row.
const AUTOMATIC_TOTAL: &str = "Automatic total";

/// One student as the class summary counts them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Standing {
    /// The student's name.
    pub student: String,
    /// How long grading them took, the build included.
    pub elapsed: Duration,
    /// The gradebook's word for their build (`ok`, `failed`, `timed out`), when there was one.
    pub build: Option<String>,
    /// Why none of their code ran, when their sandbox could not be set up.
    pub ungraded: Option<String>,
    /// Each automatic part of the rubric, in its order, with the points of the cases counted.
    pub categories: Vec<Score>,
    /// The points of every case counted.
    pub total: Score,
    /// The cases that lost points, in order.
    pub failed: Vec<FailedCase>,
    /// The cases whose speed-up the machine could not judge: grade again.
    pub not_counted: Vec<NotCounted>,
}

/// Points earned and possible, under a name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Score {
    /// The category, or the automatic total.
    pub name: String,
    /// Points earned.
    pub earned: f64,
    /// Points possible.
    pub max: f64,
}

/// A case that lost points, and the kinds of its failures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FailedCase {
    pub case: String,
    pub category: String,
    /// Every kind of failure in it, each once.
    pub kinds: Vec<FaultKind>,
}

/// A case whose speed-up was not counted, and why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NotCounted {
    pub case: String,
    /// Its category, whose points are missing.
    pub category: String,
    /// Why, in the reports' words.
    pub why: String,
}

impl Standing {
    /// `result` as the class summary counts it.
    pub fn of(rubric: &Rubric, result: &StudentResult) -> Standing {
        let (earned, max) = result.total();
        Standing {
            student: result.student.clone(),
            elapsed: result.elapsed,
            build: result
                .build
                .as_ref()
                .map(|b| building::build_word(b).into()),
            ungraded: result.ungraded().map(String::from),
            categories: result
                .categories(rubric)
                .into_iter()
                .filter_map(|c| {
                    Some(Score {
                        earned: c.earned?,
                        name: c.name,
                        max: c.max,
                    })
                })
                .collect(),
            total: Score {
                name: AUTOMATIC_TOTAL.into(),
                earned,
                max,
            },
            failed: result
                .failed()
                .into_iter()
                .map(|case| FailedCase {
                    case: case.name.clone(),
                    category: case.category.clone(),
                    kinds: case.kinds(),
                })
                .collect(),
            not_counted: result
                .not_counted()
                .map(|case| NotCounted {
                    case: case.name.clone(),
                    category: case.category.clone(),
                    why: timing::case_not_counted(case).unwrap_or_default(),
                })
                .collect(),
        }
    }

    /// Whether the student's points in the category (or the automatic total) called `name`
    /// are all known: no speed-up of it was left uncounted.
    fn known(&self, name: &str) -> bool {
        match name {
            AUTOMATIC_TOTAL => self.not_counted.is_empty(),
            category => self.not_counted.iter().all(|n| n.category != category),
        }
    }

    /// Whether the build failed (or timed out): every case then failed.
    fn build_failed(&self) -> bool {
        self.build.as_deref().is_some_and(|word| word != "ok")
    }
}

/// Every student's standing, as `class-summary.json` keeps them, in the class's order.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Standings {
    /// Each student's.
    pub students: Vec<Standing>,
}

/// One automatic category (or the automatic total), its points in the rubric, and the points
/// of each student whose points there are known: earned and possible.
struct Scored {
    name: String,
    points: f64,
    scores: Vec<(f64, f64)>,
}

/// The automatic categories, then the automatic total, each with every student's points where
/// they are known.
fn columns(rubric: &Rubric, standings: &[&Standing]) -> Vec<Scored> {
    let parts = rubric.categories.iter().flat_map(|c| c.parts());
    let mut columns: Vec<Scored> = parts
        .filter(|p| p.automatic)
        .map(|p| (p.name, p.points))
        .chain([(
            AUTOMATIC_TOTAL.to_string(),
            rubric.categories.iter().map(|c| c.automatic_points()).sum(),
        )])
        .map(|(name, points)| Scored {
            name,
            points,
            scores: Vec::new(),
        })
        .collect();
    for standing in standings {
        for score in standing.categories.iter().chain([&standing.total]) {
            let column = columns.iter_mut().find(|c| c.name == score.name);
            if let Some(column) = column.filter(|_| standing.known(&score.name)) {
                column.scores.push((score.earned, score.max));
            }
        }
    }
    columns
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
fn builds(standings: &[Standing]) -> Option<String> {
    let built: Vec<&str> = standings
        .iter()
        .filter_map(|s| s.build.as_deref())
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
fn times(standings: &[Standing]) -> String {
    let seconds: Vec<f64> = standings.iter().map(|s| s.elapsed.as_secs_f64()).collect();
    let longest = standings
        .iter()
        .max_by(|a, b| a.elapsed.cmp(&b.elapsed))
        .map_or(String::new(), |s| {
            format!(
                "{:.1} s ({})",
                s.elapsed.as_secs_f64(),
                inert::line(&s.student)
            )
        });
    format!(
        "Grading time per student: mean {:.1} s, median {:.1} s, longest {longest}.",
        mean(&seconds),
        median(&seconds)
    )
}

/// The mean, median, lowest and highest score of each column, as a table; a column whose
/// points no student has yet shows its points in the rubric and no figures.
fn scores_table(columns: &[Scored]) -> String {
    let mut out = String::from(
        "| Category | Points | Mean | Median | Lowest | Highest |\n|---|---:|---:|---:|---:|---:|\n",
    );
    for column in columns {
        if column.scores.is_empty() {
            let _ = writeln!(
                out,
                "| {} | {} | - | - | - | - |",
                column.name,
                points(column.points)
            );
            continue;
        }
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
fn distribution_table(columns: &[Scored]) -> String {
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
fn most_failed(standings: &[&Standing]) -> String {
    let built: Vec<&Standing> = standings
        .iter()
        .copied()
        .filter(|s| !s.build_failed())
        .collect();
    let mut failures: BTreeMap<(&str, &str), Failures> = BTreeMap::new();
    for case in built.iter().flat_map(|s| &s.failed) {
        let kinds = &case.kinds;
        let entry = failures.entry((&case.case, &case.category)).or_default();
        entry.students += 1;
        entry.timed_out += usize::from(kinds.contains(&FaultKind::TimedOut));
        entry.crashed += usize::from(
            kinds
                .iter()
                .any(|k| matches!(k, FaultKind::Crashed | FaultKind::Limit | FaultKind::Closed)),
        );
    }
    let who = if built.len() == standings.len() {
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

/// The students of `standings` as the summary lists them (made inert): `ann, bob`.
fn names(standings: &[&Standing]) -> String {
    inert::names(standings.iter().map(|s| &s.student))
}

/// The paragraph on the students to grade again, whose speed-up the machine could not judge:
/// who, why, and which figures leave them out; none when every speed-up counted.
fn grade_again(again: &[&Standing]) -> Option<String> {
    if again.is_empty() {
        return None;
    }
    let each: Vec<String> = again
        .iter()
        .map(|standing| {
            let why: Vec<String> = standing
                .not_counted
                .iter()
                .map(|n| format!("{}: {}", n.category, n.why))
                .collect();
            format!("{} ({})", inert::line(&standing.student), why.join("; "))
        })
        .collect();
    let mut categories: Vec<&str> = again
        .iter()
        .flat_map(|s| s.not_counted.iter().map(|n| n.category.as_str()))
        .collect();
    categories.sort_unstable();
    categories.dedup();
    Some(format!(
        "**Grade again: {}** (the machine could not judge their speed-up, so those points are \
         missing, not 0: blank in the gradebook, and left out of the figures below for {} and \
         the automatic total): {}. `grade class` with the same options and `--not-counted` \
         grades only them again.",
        students(again.len()),
        categories.join(", "),
        each.join(", ")
    ))
}

/// The line `grade class` ends with when students are to be graded again: how many, who, and
/// how; none when every speed-up counted.
pub fn grade_again_line(standings: &[Standing]) -> Option<String> {
    let again: Vec<&Standing> = standings
        .iter()
        .filter(|s| !s.not_counted.is_empty())
        .collect();
    if again.is_empty() {
        return None;
    }
    Some(format!(
        "the speed-up of {} was not counted (the machine could not judge it): {}; grade them \
         again with --not-counted",
        students(again.len()),
        names(&again)
    ))
}

/// The class summary of `standings`, in Markdown.
pub fn markdown(rubric: &Rubric, standings: &[Standing]) -> String {
    let mut out = format!("# Class summary: {}\n\n", rubric.title);
    if standings.is_empty() {
        out.push_str("No students.\n");
        return out;
    }
    let _ = writeln!(out, "{}.", students(standings.len()));
    if let Some(builds) = builds(standings) {
        let _ = writeln!(out, "{builds}");
    }
    let _ = writeln!(out, "{}", times(standings));
    let (graded, ungraded): (Vec<&Standing>, Vec<_>) =
        standings.iter().partition(|s| s.ungraded.is_none());
    if !ungraded.is_empty() {
        let _ = writeln!(
            out,
            "\n**Not graded** (their sandbox could not be set up, so none of their code ran; \
             the figures below leave them out): {}.",
            names(&ungraded)
        );
    }
    let again: Vec<&Standing> = graded
        .iter()
        .copied()
        .filter(|s| !s.not_counted.is_empty())
        .collect();
    if let Some(again) = grade_again(&again) {
        let _ = writeln!(out, "\n{again}");
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

/// Sentences on a Gradescope export's submissions that its metadata and its folders do not
/// both have: those listed with no folder (not graded), with who submitted each, and the
/// folders not listed; none when they match.
pub fn unmatched(unmatched: &Unmatched) -> Vec<String> {
    let mut lines = Vec::new();
    if !unmatched.no_folder.is_empty() {
        let listed: Vec<String> = (unmatched.no_folder.iter())
            .map(|(id, submitters)| {
                let people: Vec<String> = submitters.iter().map(person).collect();
                let people = match people.is_empty() {
                    true => "no submitter named".into(),
                    false => people.join(", "),
                };
                format!("{} ({people})", inert::line(id))
            })
            .collect();
        lines.push(format!(
            "Gradescope's metadata lists {} with no folder in the export, not graded (download \
             the export again if one should be there): {}",
            counted(listed.len(), "submission"),
            listed.join("; ")
        ));
    }
    if !unmatched.not_listed.is_empty() {
        let folders: Vec<String> = unmatched
            .not_listed
            .iter()
            .map(|f| inert::line(f))
            .collect();
        lines.push(format!(
            "{} of the export {} not in Gradescope's metadata, graded without its names and \
             times: {}",
            counted(folders.len(), "folder"),
            if folders.len() == 1 { "is" } else { "are" },
            folders.join(", ")
        ));
    }
    lines
}

/// The class summary's section on a Gradescope export whose metadata and folders do not match
/// ([`unmatched`]); empty when they match.
pub fn unmatched_section(unmatched: &Unmatched) -> String {
    let lines = self::unmatched(unmatched);
    if lines.is_empty() {
        return String::new();
    }
    let items: String = lines.iter().map(|line| format!("- {line}\n")).collect();
    format!("\n## The Gradescope export\n\n{items}")
}

/// A submitter as a sentence names them (made inert): `Ann Lee, 1001`, or whichever of their
/// name, id and email is known; `no name` when none is.
fn person(member: &Member) -> String {
    let known: Vec<String> = [&member.name, &member.student_id, &member.email]
        .into_iter()
        .filter(|part| !part.is_empty())
        .map(|part| inert::line(part))
        .collect();
    match known.is_empty() {
        true => "no name".into(),
        false => known.join(" "),
    }
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
                set_aside: Vec::new(),
                refused: Vec::new(),
                supplied_unseen: false,
                not_put_back: None,
            }),
            ..fixtures::student(name, cases, seconds)
        }
    }

    /// The summary of `results` on [`rubric`].
    fn summary(results: &[StudentResult]) -> String {
        let standings: Vec<Standing> = results.iter().map(|r| Standing::of(&rubric(), r)).collect();
        markdown(&rubric(), &standings)
    }

    #[test]
    fn a_student_s_name_is_shown_escaped() {
        let hostile = fixtures::hostile_student(false);
        let graded = CaseResult {
            speedup: fixtures::not_counted("s", "Rules", 1.0).speedup,
            ..fixtures::case_result("s", "Rules", 1.0)
        };
        let again = StudentResult {
            confinement: crate::judge::Confinement::Off,
            cases: vec![graded],
            ..hostile.clone()
        };
        let text = summary(&[hostile, again.clone()]);
        crate::report::inert::assert_inert(&text);
        assert!(text.contains("**Not graded**"), "{text}");
        let standings = [Standing::of(&rubric(), &again)];
        crate::report::inert::assert_inert(&grade_again_line(&standings).unwrap());
    }

    #[test]
    fn students_to_grade_again_are_named_and_their_missing_points_left_out() {
        let rubric: Rubric = toml::from_str(&format!(
            "title = \"Four\"\n{TEST_SPEEDUP}\
             [[category]]\nname = \"Rules\"\npoints = 10\n\
             [[category]]\nname = \"Threading\"\npoints = 10\n",
        ))
        .unwrap();
        let with = |name: &str, speedup: CaseResult| {
            let rules = CaseResult {
                earned: 10.0,
                ..fixtures::case_result("rules", "Rules", 10.0)
            };
            fixtures::student(name, vec![rules, speedup], 2)
        };
        let judged = |earned| CaseResult {
            earned,
            ..fixtures::case_result("speedup", "Threading", 10.0)
        };
        let results = [
            with("ann", fixtures::not_counted("speedup", "Threading", 10.0)),
            with("bob", judged(10.0)),
            with("cy", judged(5.0)),
        ];
        let standings: Vec<Standing> = results.iter().map(|r| Standing::of(&rubric, r)).collect();
        let text = markdown(&rubric, &standings);
        assert!(
            text.contains(
                "\n**Grade again: 1 student** (the machine could not judge their speed-up, so \
                 those points are missing, not 0: blank in the gradebook, and left out of the \
                 figures below for Threading and the automatic total): ann (Threading: not \
                 judged on 1 CPU). `grade class` with the same options and `--not-counted` \
                 grades only them again.\n"
            ),
            "{text}"
        );
        // Rules counts all three; Threading and the total only bob and cy, not ann's 0.
        for row in [
            "| Rules | 10 | 10 | 10 | 10 | 10 |\n",
            "| Threading | 10 | 7.5 | 7.5 | 5 | 10 |\n",
            "| Automatic total | 20 | 17.5 |",
            "| Threading | 0 | 0 | 0 | 0 | 0 | 1 | 0 | 0 | 0 | 0 | 1 |",
        ] {
            assert!(text.contains(row), "{row:?} not in {text}");
        }
        assert_eq!(
            grade_again_line(&standings).as_deref(),
            Some(
                "the speed-up of 1 student was not counted (the machine could not judge it): \
                 ann; grade them again with --not-counted"
            )
        );
        // Nobody's speed-up counted: the row says so with no figures.
        let nobody = [with(
            "ann",
            fixtures::not_counted("speedup", "Threading", 10.0),
        )];
        let nobody: Vec<Standing> = nobody.iter().map(|r| Standing::of(&rubric, r)).collect();
        let text = markdown(&rubric, &nobody);
        for row in [
            "| Threading | 10 | - | - | - | - |\n",
            "| Automatic total | 20 | - | - | - | - |\n",
        ] {
            assert!(text.contains(row), "{row:?} not in {text}");
        }
        // Kept as JSON beside the summary, a standing reads back the same.
        let kept = Standings {
            students: standings,
        };
        let json = serde_json::to_string(&kept).unwrap();
        assert_eq!(serde_json::from_str::<Standings>(&json).unwrap(), kept);
        assert_eq!(grade_again_line(&kept.students[1..]), None);
    }

    #[test]
    fn students_not_graded_are_named_and_left_out_of_the_figures() {
        let mut cy = student("cy", [0.0, 0.0], 1, None);
        cy.confinement = crate::judge::Confinement::Failed("the kit is inside".into());
        let results = [student("ann", [5.0, 5.0], 3, None), cy];
        let text = summary(&results);
        assert!(
            text.contains(
                "**Not graded** (their sandbox could not be set up, so none of their \
                 code ran; the figures below leave them out): cy."
            ),
            "{text}"
        );
        assert!(text.contains("| Rules | 10 | 10 | 10 | 10 |"), "{text}");
        let text = summary(&results[1..]);
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
        let text = summary(&results);
        assert!(
            text.starts_with("# Class summary: Four\n\n5 students.\n"),
            "{text}"
        );
        for part in [
            "Failed builds: 2 of 5 (1 failed, 1 timed out);",
            "mean 3.8 s, median 3.0 s, longest 9.0 s (bob).",
            // Rules: 10, 7, 3, 0, 0.
            "| Rules | 10 | 4 | 3 | 0 | 10 |\n",
            "| Rules | 2 | 0 | 0 | 1 | 0 | 0 | 0 | 1 | 0 | 0 | 1 |\n",
            "| Automatic total | 10 | 4 | 3 | 0 | 10 |\n",
            "Of the 3 students whose build succeeded",
        ] {
            assert!(text.contains(part), "{part:?} not in {text}");
        }
        assert!(!text.contains("| Style |"), "graded by hand: {text}");
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
        let everyone_passed = summary(&[student("ann", [5.0, 5.0], 1, None)]);
        assert!(everyone_passed.contains("1 student.\n"));
        assert!(everyone_passed.contains("Every case was passed by the 1 student."));
        assert!(!everyone_passed.contains("Failed builds"));
    }

    #[test]
    fn an_export_s_submissions_without_folders_and_folders_not_listed_are_named_inert() {
        assert_eq!(unmatched_section(&Unmatched::default()), "");
        let member = |name: &str, sid: &str| crate::kit::roster::member(sid, name, "");
        let export = Unmatched {
            no_folder: vec![
                (
                    "submission_4".into(),
                    vec![member("Dee\u{1b}[2J", "0044"), member("Eve", "")],
                ),
                ("submission_6".into(), Vec::new()),
            ],
            not_listed: vec!["submission_5".into()],
        };
        assert_eq!(
            unmatched_section(&export),
            "\n## The Gradescope export\n\n\
             - Gradescope's metadata lists 2 submissions with no folder in the export, not graded \
             (download the export again if one should be there): submission_4 (Dee\\u{1b}[2J \
             0044, Eve); submission_6 (no submitter named)\n\
             - 1 folder of the export is not in Gradescope's metadata, graded without its names \
             and times: submission_5\n"
        );
    }
}
