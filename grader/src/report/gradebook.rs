//! The gradebook: a CSV file with one row per student, one column per category part, and
//! columns for the automatic total, the build, the time grading took, the supplied crate
//! comparison, the speed-up measured, the thread design seen (for the grader of the pool) and
//! the style facts, for a spreadsheet or a learning platform's import.

use super::style;
use super::words::{self, points};
use crate::judge::result::StudentResult;
use crate::kit::Rubric;

/// One CSV field, quoted when it must be.
fn field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// The gradebook: a header, then per student each category's points (blank for the categories
/// graded by hand), the automatic total, how their build went (`ok`, `failed`, `timed out`;
/// blank without a build step), how long grading them took in seconds, whether their copy of
/// the supplied crate was changed (`yes` or `no`; blank when they have none or it was not
/// checked), and, last so that the older columns keep their places, the speed-up (`1.89x of
/// 1.93x`: theirs and the machine's ceiling; or why it was not judged; `left out` with
/// `--skip-timing`), the thread design seen (`pool`, `new threads per search`, `one
/// worker`), and with `--style` the header items missing, the lints' counts and the longest
/// function's lines.
pub fn csv(rubric: &Rubric, results: &[StudentResult]) -> String {
    let mut header = vec!["student".to_string()];
    header.extend(
        rubric
            .categories
            .iter()
            .flat_map(|c| c.parts())
            .map(|part| format!("{} ({})", part.name, points(part.points))),
    );
    header.push("automatic total".into());
    header.push("build".into());
    header.push("time (s)".into());
    header.push("supplied_changed".into());
    header.push("speed-up".into());
    header.push("thread design".into());
    header.push("header items missing".into());
    header.push("lint".into());
    header.push("longest function (lines)".into());
    let mut out = header
        .iter()
        .map(|h| field(h))
        .collect::<Vec<_>>()
        .join(",")
        + "\n";
    for result in results {
        let mut row = vec![field(&result.student)];
        row.extend(
            result
                .categories(rubric)
                .iter()
                .map(|c| c.earned.map_or(String::new(), points)),
        );
        row.push(points(result.total().0));
        row.push(result.build.as_ref().map_or("", words::build_word).into());
        row.push(format!("{:.1}", result.elapsed.as_secs_f64()));
        row.push(
            match result.supplied.as_ref().map(|c| c.changed()) {
                Some(true) => "yes",
                Some(false) => "no",
                None => "",
            }
            .into(),
        );
        let speedup = result.speedup();
        row.push(match speedup {
            Some(speedup) => field(&words::speedup_word(speedup)),
            None if !result.left_out.is_empty() => "left out".into(),
            None => String::new(),
        });
        row.push(speedup.map_or("", |s| words::design_word(s.design)).into());
        row.extend(style::cells(result.style.as_ref()).map(|cell| field(&cell)));
        out.push_str(&row.join(","));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_with_commas_or_quotes_are_quoted() {
        assert_eq!(field("plain"), "plain");
        assert_eq!(field("a,b"), "\"a,b\"");
        assert_eq!(field("say \"hi\""), "\"say \"\"hi\"\"\"");
    }
}
