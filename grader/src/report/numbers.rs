//! Numbers as every report prints them: points rounded to two decimals (never -0), seconds,
//! shares as whole percentages, and counted things with their unit (`1 student`, `2 threads`,
//! `1.5 CPUs`). One place, so that the terminal, the Markdown report, the gradebook, Gradescope
//! and the commands print the same figure the same way.

use std::time::Duration;

/// Seconds as the case files and reports write them: `1.25 s`.
pub fn seconds(duration: Duration) -> String {
    format!("{:.2} s", duration.as_secs_f64())
}

/// Points rounded to two decimals, as every report and results.json gives them; never -0.
pub fn rounded(value: f64) -> f64 {
    // Adding 0.0 turns -0 into 0.
    (value * 100.0).round() / 100.0 + 0.0
}

/// `count` things of `unit`, in words: `1 move`, `3 moves`.
pub fn counted(count: usize, unit: &str) -> String {
    match count {
        1 => format!("1 {unit}"),
        n => format!("{n} {unit}s"),
    }
}

/// `count` students, in words: `1 student`, `3 students`.
pub fn students(count: usize) -> String {
    counted(count, "student")
}

/// Points as reports print them: at most two decimals, no trailing zeros.
pub fn points(value: f64) -> String {
    let text = format!("{:.2}", rounded(value));
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// CPUs as reports write them: `1 CPU`, `1.5 CPUs`.
pub fn cpu_count(count: f64) -> String {
    match points(count).as_str() {
        "1" => "1 CPU".into(),
        shown => format!("{shown} CPUs"),
    }
}

/// `1 thread`, `2 threads`.
pub fn threads(count: usize) -> String {
    counted(count, "thread")
}

/// Numbers as a sentence lists them: `1, 3 and 5`.
pub fn spoken_list(numbers: &[usize]) -> String {
    let words: Vec<String> = numbers.iter().map(usize::to_string).collect();
    match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => words.join(""),
    }
}

/// A share as a whole percentage.
pub fn percent(share: f64) -> f64 {
    (share * 100.0).round() + 0.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_print_short() {
        assert_eq!(points(2.5), "2.5");
        assert_eq!(points(3.0), "3");
        assert_eq!(points(-0.0), "0");
        assert_eq!(points(1.0 / 3.0), "0.33");
        assert!(rounded(-0.0).is_sign_positive() && rounded(-0.001).is_sign_positive());
    }
}
