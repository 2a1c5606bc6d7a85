//! The speed-up's causes and CPUs in words, for the hand grader and the student: which of the
//! two causes made the rounds other than a pool's on CPUs of its own (the machine, or work that
//! grew beyond the machine's share), what it means and what to do about it, what limits the CPUs the program could
//! use, and the CPUs and cores the measurement ran on.

use super::numbers::{cpu_count, percent, spoken_list};
use crate::judge::result::design::Design;
use crate::judge::result::speedup::{median, Busy, Cause, Scale, Speedup, SpeedupOutcome};
use crate::process::topology::Chosen;
use crate::process::Cpus;

/// The line naming the cause, if one made the rounds other than a pool's on CPUs of its own.
pub fn cause_note(speedup: &Speedup) -> Option<String> {
    let many = speedup.threads.1;
    let m = speedup.outcome.measurement()?;
    let waited = percent(m.waited());
    Some(match speedup.outcome.cause()? {
        Cause::Machine => {
            let kept = match waited > 0.0 && m.rounds() > 0 {
                true => format!(
                    " (on {many} threads it kept them waiting for one {waited}% of the time \
                     they were ready to run)"
                ),
                false => String::new(),
            };
            let what = match &speedup.outcome {
                SpeedupOutcome::Busy(_, Busy::Ceiling(_)) => {
                    "the machine could not run the threads at once"
                }
                SpeedupOutcome::Busy(_, Busy::Waited(..)) => {
                    "the machine kept the threads waiting for a CPU too much of the time for a \
                     deduction to be judged by"
                }
                _ => {
                    "the machine's speed moved while the rounds were taken, so they did not \
                      settle or did not repeat, and nothing is deducted on such evidence"
                }
            };
            format!(
                "Cause: {what}{kept}. Another run on idle CPUs can change this: grade again \
                 (`--jobs 1`, nothing else running)."
            )
        }
        Cause::WorkGrew(grew) => {
            let where_to_look = match speedup.design {
                Design::Duplicated { .. } => {
                    "They did more work than the search: see the thread design below.".into()
                }
                // Threads that slow each other down run the same instructions, only slower.
                _ if m.in_instructions() => "They do more than the search. Where to look: a \
                    lock or an atomic a worker spins on while it waits for another, work a worker \
                    repeats."
                    .into(),
                _ => format!(
                    "They slow each other down. Where to look: a lock held while searching; an \
                     atomic or shared counter every thread writes; per-task data (each task's \
                     copy of the board) made by the dispatching thread, side by side on the \
                     heap, so that the {many} workers write the same cache lines (let each \
                     worker make its own copy, or pad the data to 64 bytes)."
                ),
            };
            let machine = median(m.machine_growths());
            let machine = match m.machine_growths().is_empty() {
                true => String::new(),
                false => format!(
                    ", where the grader's own work grew {machine:.2}x on the same CPUs in the \
                     same rounds"
                ),
            };
            let grown = median(&m.growths());
            let did = match m.in_instructions() {
                true => format!("retired {grown:.2}x the instructions"),
                false => format!("ran {grown:.2}x the CPU time"),
            };
            format!(
                "Cause: work grew, not the machine: on {many} threads the program's threads \
                 {did} of the same search on 1 thread{machine} (the program's own share: \
                 {grew:.2}x), where the same work split among threads costs about the same. The \
                 two halves of the rounds gave the same credit, so grading again gives the same; \
                 the speed-up is judged as measured. {where_to_look}"
            )
        }
    })
}

/// What limits the CPUs the program could use, in words: "1 CPU (1 of the machine's 2, by the
/// grader's CPU affinity)".
pub fn cpus(cpus: &Cpus) -> String {
    let usable = cpu_count(cpus.usable());
    match cpus.quota {
        Some(quota) if quota < cpus.affinity as f64 => format!(
            "{usable} (the CPU quota of the grader's cgroup, on a machine with {})",
            cpu_count(cpus.online as f64)
        ),
        _ if cpus.affinity < cpus.online => format!(
            "{usable} ({} of the machine's {}, by the grader's CPU affinity)",
            cpus.affinity, cpus.online
        ),
        _ => format!("{usable} (all the machine has)"),
    }
}

/// `CPUs 0 and 1`, `CPU 3`.
fn cpu_names(cpus: &[usize]) -> String {
    let word = if cpus.len() > 1 { "CPUs" } else { "CPU" };
    format!("{word} {}", spoken_list(cpus))
}

/// The line on the CPUs the measurement and the calibration ran on, and their cores; whether
/// the machine was simulated.
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
    let simulated = simulated_note(chosen).map_or(String::new(), |note| format!(" {note}"));
    format!(
        "Measured on {}, the program and the calibration alike ({}){shared}.{simulated}",
        cpu_names(&chosen.cpus),
        cores.join(", ")
    )
}

/// The words that say the machine was simulated, when it was.
pub fn simulated_note(chosen: &Chosen) -> Option<String> {
    let real = chosen.simulated_on?;
    Some(format!(
        "SIMULATED machine (a test's CONNECT_FOUR_GRADER_CPUS or CONNECT_FOUR_GRADER_SYSFS): \
         these CPUs and cores are the simulation's, run on this machine's {real} real CPUs, so \
         the figures are not those of the machine named."
    ))
}

/// The scaling view as a small table on one line, for every report: "Scaling (not scored),
/// speed-up of the ceiling at each thread count: 1: 1.00x of 1.00x | 2: 1.85x of 1.90x".
pub fn scaling_note(rows: &[Scale]) -> Option<String> {
    if rows.len() < 2 {
        return None;
    }
    let cells: Vec<String> = rows
        .iter()
        .map(|r| format!("{}: {:.2}x of {:.2}x", r.threads, r.speedup, r.ceiling))
        .collect();
    Some(format!(
        "Scaling (not scored), threads: speed-up of the ceiling the grader's own work reached on \
         as many CPUs: {}.",
        cells.join(" | ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::judge::result::design::Division;
    use crate::judge::result::speedup::{Counting, Judged, Measurement, Work};
    use crate::process::Cpus;
    use std::time::Duration;

    /// The pool on a 16-CPU Xeon, its boards side by side: 2-thread searches of 1.9x
    /// the CPU time, no faster, judged as measured.
    fn grown() -> Speedup {
        let ms = Duration::from_millis;
        let one = Work {
            wall: ms(1000),
            cpu: ms(1000),
            ready: ms(1010),
            span: ms(1000),
            workers: 1,
            busiest: 1.0,
            accounted: true,
            instructions: None,
        };
        let many = Work {
            cpu: ms(1900),
            ready: ms(1920),
            workers: 2,
            busiest: 0.5,
            ..one
        };
        Speedup {
            threads: (1, 2),
            cpus: Cpus {
                online: 16,
                affinity: 16,
                quota: None,
            },
            chosen: None,
            scaling: Vec::new(),
            outcome: SpeedupOutcome::Judged(
                Measurement {
                    depth: 8,
                    one: vec![one; 21],
                    many: vec![many; 21],
                    ceilings: vec![1.92; 21],
                    cpus: Some(2.0),
                    machine: vec![1.0; 21],
                    counted: None,
                    machine_instructions: Vec::new(),
                },
                Judged {
                    speedup: 1.0,
                    ceiling: 1.92,
                    gain: 0.0,
                    full_at: 1.46,
                    credit: 0.0,
                    grew: Some(1.9),
                    repeated: Some((0.0, 0.0)),
                },
            ),
            uneven: None,
            design: Design::Pool {
                workers: 2,
                division: Division::Unknown,
            },
        }
    }

    #[test]
    fn work_that_grew_is_named_with_where_to_look_not_a_busy_machine() {
        let speedup = grown();
        let note = cause_note(&speedup).unwrap();
        assert!(
            note.starts_with("Cause: work grew, not the machine"),
            "{note}"
        );
        assert!(note.contains("ran 1.90x the CPU time"), "{note}");
        assert!(note.contains("Where to look: a lock held"), "{note}");
        assert!(note.contains("same cache lines"), "{note}");
        // Counted in instructions: said so, and where the threads may spin.
        let mut counted = grown();
        if let SpeedupOutcome::Judged(m, _) = &mut counted.outcome {
            m.one.iter_mut().for_each(|w| w.instructions = Some(1000));
            m.many.iter_mut().for_each(|w| w.instructions = Some(1900));
            m.counted = Some(Counting::Instructions);
            m.machine_instructions = vec![1.0; 21];
        }
        let counted = cause_note(&counted).unwrap();
        assert!(
            counted.contains("retired 1.90x the instructions of the same search"),
            "{counted}"
        );
        assert!(
            counted.contains("a lock or an atomic a worker spins on"),
            "{counted}"
        );
        let all = crate::report::timing::speedup_notes(&speedup).join("\n");
        assert!(!all.contains("busy"), "{all}");
        assert_eq!(crate::report::timing::not_counted(&speedup), None);
        // Work beside the search says so instead.
        let beside = Speedup {
            design: Design::Duplicated {
                workers: 2,
                work: 1.98,
            },
            ..grown()
        };
        assert!(cause_note(&beside)
            .unwrap()
            .contains("more work than the search"));
    }

    #[test]
    fn the_scaling_view_is_a_row_per_thread_count() {
        // Synthetic figures of a 16-CPU machine for the reference (6x12, depth 7: 3.77 s
        // on 1 thread, 1.67 s on 2, 0.83 s on 4, 0.43 s on 12 would need 12 columns).
        let rows = [
            Scale {
                threads: 1,
                speedup: 1.0,
                ceiling: 1.0,
            },
            Scale {
                threads: 2,
                speedup: 2.26,
                ceiling: 1.98,
            },
            Scale {
                threads: 4,
                speedup: 4.54,
                ceiling: 3.9,
            },
            Scale {
                threads: 7,
                speedup: 5.1,
                ceiling: 6.6,
            },
        ];
        insta::assert_snapshot!(scaling_note(&rows).unwrap(), @"Scaling (not scored), threads: speed-up of the ceiling the grader's own work reached on as many CPUs: 1: 1.00x of 1.00x | 2: 2.26x of 1.98x | 4: 4.54x of 3.90x | 7: 5.10x of 6.60x.");
        assert_eq!(scaling_note(&rows[..1]), None);
    }

    #[test]
    fn the_cpus_chosen_are_named_with_their_cores() {
        let apart = Chosen {
            cpus: vec![0, 1],
            cores: vec![(0, 0), (0, 1)],
            distinct: 2,
            simulated_on: None,
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
            simulated_on: None,
        };
        assert!(chosen_note(&siblings).contains("1 physical cores for 2 CPUs: SMT siblings"));
        assert!(!chosen_note(&siblings).contains("SIMULATED"));
        let simulated = Chosen {
            simulated_on: Some(2),
            ..apart
        };
        assert!(chosen_note(&simulated).ends_with(
            "run on this machine's 2 real CPUs, so the figures are not those of the machine named."
        ));
        assert_eq!(cpu_names(&[3]), "CPU 3");
    }
}
