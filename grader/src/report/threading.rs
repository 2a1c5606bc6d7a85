//! The speed-up's causes and CPUs in words, for the hand grader and the student: which of the
//! three causes made the rounds other than a pool's on CPUs of its own (the machine, work that
//! grew, noise), what it means and what to do about it, and the CPUs and cores the
//! measurement ran on.

use crate::judge::result::design::Design;
use crate::judge::result::speedup::{Cause, Outcome, Speedup};
use crate::process::topology::Chosen;

/// `1` as a whole percentage.
fn percent(share: f64) -> f64 {
    (share * 100.0).round() + 0.0
}

/// The line naming the cause, if one made the rounds other than a pool's on CPUs of its own.
pub fn cause_note(speedup: &Speedup) -> Option<String> {
    let many = speedup.threads.1;
    let m = speedup.outcome.measurement()?;
    let waited = percent(m.waited());
    Some(match speedup.outcome.cause()? {
        Cause::Machine => match &speedup.outcome {
            Outcome::Busy(..) if waited > 0.0 && m.rounds() > 0 => format!(
                "Cause: the machine could not give the threads the CPU (on {many} threads they \
                 waited for one {waited}% of the time they were ready to run). Another run on \
                 idle CPUs can change this: grade again (`--jobs 1`, nothing else running)."
            ),
            _ => "Cause: the machine could not run the threads at once. Another run on idle \
                  CPUs can change this: grade again (`--jobs 1`, nothing else running)."
                .into(),
        },
        Cause::WorkGrew(grew) => {
            let where_to_look = match speedup.design {
                Design::Duplicated { .. } => {
                    "They did more work than the search: see the thread design below.".into()
                }
                _ => format!(
                    "They slow each other down. Where to look: a lock held while searching; an \
                     atomic or shared counter every thread writes; per-task data (each task's \
                     copy of the board) made by the dispatching thread, side by side on the \
                     heap, so that the {many} workers write the same cache lines (let each \
                     worker make its own copy, or pad the data to 64 bytes)."
                ),
            };
            format!(
                "Cause: work grew, not the machine: on {many} threads the program's threads ran \
                 {grew:.2}x the CPU time of the same search on 1 thread, where the same work \
                 split among threads costs about the same; grading again gives the same, so the \
                 speed-up is judged as measured. {where_to_look}"
            )
        }
        Cause::Noise(least, most) => format!(
            "Cause: noisy rounds, not the machine (the threads waited for a CPU {waited}% of \
             the time they were ready to run): after {} rounds the medians decided; the rounds \
             allowed anything from {}% to {}% credit, and grading again would not narrow that \
             much.",
            m.rounds(),
            percent(least),
            percent(most)
        ),
    })
}

/// `CPUs 0 and 1`, `CPU 3`.
fn cpu_names(cpus: &[usize]) -> String {
    let words: Vec<String> = cpus.iter().map(usize::to_string).collect();
    match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("CPUs {} and {last}", rest.join(", ")),
        _ => format!("CPU {}", words.join("")),
    }
}

/// The line on the CPUs the measurement and the calibration ran on, and their cores.
pub fn chosen_note(chosen: &Chosen) -> String {
    let cores: Vec<String> = chosen
        .cpus
        .iter()
        .zip(&chosen.cores)
        .map(|(cpu, (package, core))| format!("{cpu}: core {core} of package {package}"))
        .collect();
    let shared = if chosen.shares_a_core() {
        format!(
            "; {} physical cores for {} CPUs: SMT siblings share a core's pipeline and slow each \
             other down, as the calibration's ceiling shows",
            chosen.distinct,
            chosen.cpus.len()
        )
    } else {
        ", a physical core each".into()
    };
    format!(
        "Measured on {}, the program and the calibration alike ({}){shared}.",
        cpu_names(&chosen.cpus),
        cores.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cpus_chosen_are_named_with_their_cores() {
        let apart = Chosen {
            cpus: vec![0, 1],
            cores: vec![(0, 0), (0, 1)],
            distinct: 2,
        };
        assert_eq!(
            chosen_note(&apart),
            "Measured on CPUs 0 and 1, the program and the calibration alike (0: core 0 of \
             package 0, 1: core 1 of package 0), a physical core each."
        );
        let siblings = Chosen {
            cpus: vec![0, 1],
            cores: vec![(0, 0), (0, 0)],
            distinct: 1,
        };
        assert!(chosen_note(&siblings).contains("1 physical cores for 2 CPUs: SMT siblings"));
        assert_eq!(cpu_names(&[3]), "CPU 3");
    }
}
