//! The speed-up case: sets programs up with the case's script (through [`super::script`]),
//! raises the depth of `scores` until one thread needs the case's target time, watches a
//! program on more threads search twice ([`super::design`]), and then, on a machine with a CPU
//! for every thread, times the search round after round: one thread alone, more threads, and
//! as many one-thread copies at once as there are threads, which is the most more threads can
//! give on this machine now (its ceiling), until the medians settle the credit or the case's
//! most rounds are taken. The medians are judged against that ceiling by the rubric's rule; a
//! machine too busy to judge by is said to be, and not counted, like one with too few CPUs.
//! Kept apart from the correctness cases because only it measures time.
//!
//! For the hand grader it also times a second position, where moves have filled some columns so
//! that a division of the columns fixed in advance leaves threads idle, and flags a speed-up
//! there well below the plain one. That measurement earns nothing by itself.

use std::thread;
use std::time::Duration;

use super::design::{classify, watched};
use super::job::Job;
use super::result::design::{Design, Unseen};
use super::result::speedup::{
    as_seconds, median, Busy, Evenness, Judged, Measurement, Outcome, Speedup, SpeedupFault, Uneven,
};
use super::result::{Exchange, Expect};
use super::script::{exact, normalize, run_script};
use crate::kit::case::{Case, SpeedupPlan};
use crate::kit::rubric::SpeedupRule;
use crate::kit::Solution;
use crate::process::{Cpus, Failure, Program};

/// An uneven speed-up below this share of the plain one is flagged for the hand grader.
pub const UNEVEN_FLAG_SHARE: f64 = 0.75;
/// The uneven position is judged only when one thread needs at least this share of the case's
/// target time there: shorter timings are mostly noise.
pub const UNEVEN_LEAST_SHARE: f64 = 0.5;

/// The speed-up case: the CPUs the program may use, the plain position's outcome (credit by the
/// rubric's `rule`, none if a measurement failed, not counted on too few CPUs or a busy
/// machine), the uneven position when the plain one was judged, and the thread design seen.
/// Also returns the exchanges of a script that did not get through.
pub(crate) fn measure(
    case: &Case,
    solution: &Solution,
    job: &Job,
    rule: &SpeedupRule,
    plan: &SpeedupPlan,
) -> (Speedup, Vec<Exchange>) {
    let cpus = Cpus::of_this_process();
    let expects = exact(solution);
    let mut failed = Vec::new();
    let mut design = Design::Unseen(Unseen::NotSearched);
    let bench = Bench {
        case,
        job,
        expects: &expects,
        plan,
    };
    let outcome = bench
        .plain(cpus, rule, &mut design, &mut failed)
        .unwrap_or_else(Outcome::Failed);
    let uneven = match &outcome {
        Outcome::Judged(_, judged) if !plan.uneven_moves.is_empty() => {
            Some(bench.uneven(judged.speedup))
        }
        _ => None,
    };
    let speedup = Speedup {
        threads: (case.threads, plan.threads),
        cpus,
        outcome,
        uneven,
        design,
    };
    (speedup, failed)
}

/// Judges a measurement on `threads` threads by `rule`: the machine was busy when its own gain
/// fell short, or when the credits that the medians' ranges allow are farther apart than the
/// rule lets them be (more rounds may settle that); otherwise the speed-up's gain against the
/// ceiling earns its credit.
pub fn judge(measurement: Measurement, threads: usize, rule: &SpeedupRule) -> Outcome {
    let most = threads as f64;
    let ceiling = measurement.ceiling(threads).unwrap_or(most);
    if (ceiling - 1.0) / (most - 1.0).max(1.0) < rule.busy_ceiling {
        return Outcome::Busy(measurement, Busy::Ceiling(ceiling));
    }
    let (slowest, fastest) = measurement.speedup_range();
    let (lowest, highest) = measurement.ceiling_range(threads).unwrap_or((most, most));
    let least = rule.credit(gain(slowest, highest));
    let most_credit = rule.credit(gain(fastest, lowest));
    if most_credit - least > rule.busy_credit_range {
        return Outcome::Busy(measurement, Busy::Unsettled(least, most_credit));
    }
    let speedup = measurement.speedup();
    let gain = gain(speedup, ceiling);
    let judged = Judged {
        speedup,
        ceiling,
        gain,
        full_at: 1.0 + rule.full_gain * (ceiling - 1.0),
        credit: rule.credit(gain),
    };
    Outcome::Judged(measurement, judged)
}

/// The share of what more threads could gain on a machine with this `ceiling` that a program
/// with this `speedup` gained: `(speedup - 1) / (ceiling - 1)`.
fn gain(speedup: f64, ceiling: f64) -> f64 {
    (speedup - 1.0) / (ceiling - 1.0).max(1e-6)
}

/// What every measurement of one case needs.
struct Bench<'a> {
    case: &'a Case,
    job: &'a Job<'a>,
    expects: &'a [Expect],
    plan: &'a SpeedupPlan,
}

impl Bench<'_> {
    /// The plain position: the depth found on one thread, the thread design seen on more (in
    /// `design`), then, with a CPU for every thread, the rounds timed and judged. The programs
    /// all run until the end (a program's end sweeps its student's sandbox).
    fn plain(
        &self,
        cpus: Cpus,
        rule: &SpeedupRule,
        design: &mut Design,
        failed: &mut Vec<Exchange>,
    ) -> Result<Outcome, SpeedupFault> {
        let threads = self.plan.threads;
        let mut one = self.set_up(self.case.threads, &[], failed)?;
        let (depth, answer) = self.ramp(&mut one, self.plan.max_depth)?;
        let mut many = self.set_up(threads, &[], failed)?;
        *design = self.observe(&mut many, depth, &answer)?;
        if cpus.usable() < threads as f64 {
            return Ok(Outcome::TooFewCpus);
        }
        let mut copies = vec![one];
        for _ in 1..threads {
            copies.push(self.set_up(self.case.threads, &[], failed)?);
        }
        // The new copies' first search is not timed: it may include a JIT compiler's work.
        self.together(&mut copies[1..], depth, &answer)?;
        let mut measurement = Measurement::new(depth);
        loop {
            self.round(&mut copies, &mut many, &answer, &mut measurement)?;
            if measurement.rounds() < self.plan.rounds {
                continue;
            }
            // A busy verdict hands the rounds back, to go on with while more are allowed.
            match judge(measurement, threads, rule) {
                Outcome::Busy(rounds, _) if rounds.rounds() < self.plan.most_rounds() => {
                    measurement = rounds;
                }
                outcome => return Ok(outcome),
            }
        }
    }

    /// The uneven position, timed like the plain one without the ceiling, and compared with the
    /// `plain` speed-up.
    fn uneven(&self, plain: f64) -> Uneven {
        let (case, plan) = (self.case, self.plan);
        // Fewer open cells: the search may go as deep as the game itself, to take long enough.
        let open = (case.rows * case.cols).saturating_sub(plan.uneven_moves.len());
        let deepest = plan.max_depth.max(u32::try_from(open).unwrap_or(u32::MAX));
        let measured = self.uneven_rounds(deepest);
        let evenness = match &measured {
            Err(_) => Evenness::Unknown,
            Ok(m) if median(&as_seconds(&m.one)) < UNEVEN_LEAST_SHARE * plan.target_seconds => {
                Evenness::TooQuick
            }
            Ok(m) if m.speedup() < UNEVEN_FLAG_SHARE * plain => Evenness::Flagged,
            Ok(_) => Evenness::Even,
        };
        Uneven {
            columns: plan.filled(case.rows),
            measured,
            evenness,
        }
    }

    /// The uneven position's rounds: one thread alone and more threads, in turn.
    fn uneven_rounds(&self, deepest: u32) -> Result<Measurement, SpeedupFault> {
        let moves = &self.plan.uneven_moves;
        let mut ignored = Vec::new();
        let mut one = self.set_up(self.case.threads, moves, &mut ignored)?;
        let (depth, answer) = self.ramp(&mut one, deepest)?;
        let mut many = self.set_up(self.plan.threads, moves, &mut ignored)?;
        // Its first search is not timed: it may include a JIT compiler's work.
        self.timed(&mut many, depth, self.plan.threads, &answer)?;
        self.rounds(&mut one, &mut many, depth, &answer)
    }

    /// A program with `threads` threads set up: the case's script, then `moves` played. A
    /// script that does not get through leaves its exchanges in `failed`.
    fn set_up(
        &self,
        threads: usize,
        moves: &[usize],
        failed: &mut Vec<Exchange>,
    ) -> Result<Program, SpeedupFault> {
        let case = self.case;
        let run = run_script(
            case,
            threads,
            self.job,
            self.expects,
            &format!("threads {threads}"),
        );
        let Some(mut program) = run.program else {
            *failed = run.exchanges;
            return Err(SpeedupFault::Script(threads));
        };
        for col in moves {
            let command = format!("play {col}");
            let lines = ask(&mut program, &command, case, threads)?.0;
            if !lines.first().is_some_and(|l| l.starts_with('=')) {
                return Err(SpeedupFault::Refused(command, lines.join(" ")));
            }
        }
        Ok(program)
    }

    /// `scores DEPTH` on a program with `threads` threads: its answer (which must be values)
    /// and how long it took.
    fn search(
        &self,
        program: &mut Program,
        depth: u32,
        threads: usize,
    ) -> Result<(String, Duration), SpeedupFault> {
        let command = format!("scores {depth}");
        let (lines, took) = ask(program, &command, self.case, threads)?;
        let answer = normalize(&lines.join("\n"));
        if !answer.starts_with("= ") {
            return Err(SpeedupFault::Refused(command, answer));
        }
        Ok((answer, took))
    }

    /// [`Bench::search`] whose answer must be `answer`: how long it took.
    fn timed(
        &self,
        program: &mut Program,
        depth: u32,
        threads: usize,
        answer: &str,
    ) -> Result<Duration, SpeedupFault> {
        let (got, took) = self.search(program, depth, threads)?;
        same(answer, got, depth, threads)?;
        Ok(took)
    }

    /// Raises the depth from the plan's first until one thread needs the target time (or
    /// `deepest` is reached): that depth and the answer there.
    fn ramp(&self, program: &mut Program, deepest: u32) -> Result<(u32, String), SpeedupFault> {
        let mut depth = self.plan.start_depth;
        loop {
            let (answer, took) = self.search(program, depth, self.case.threads)?;
            if took.as_secs_f64() >= self.plan.target_seconds || depth >= deepest {
                return Ok((depth, answer));
            }
            depth += 1;
        }
    }

    /// Two searches on `many`, each answering `answer`, with its threads watched: the design
    /// they show.
    fn observe(
        &self,
        many: &mut Program,
        depth: u32,
        answer: &str,
    ) -> Result<Design, SpeedupFault> {
        let threads = self.plan.threads;
        let command = format!("scores {depth}");
        let mut look = || {
            let (lines, seen) = watched(many, &command, self.case.time_limit)
                .map_err(|failure| fault(&command, threads, failure))?;
            same(answer, normalize(&lines.join("\n")), depth, threads)?;
            Ok::<_, SpeedupFault>(seen)
        };
        let first = look()?;
        let second = look()?;
        Ok(classify(&first, &second))
    }

    /// Every one-thread program of `copies` searching at once, each answering `answer`: their
    /// times.
    fn together(
        &self,
        copies: &mut [Program],
        depth: u32,
        answer: &str,
    ) -> Result<Vec<Duration>, SpeedupFault> {
        let threads = self.case.threads;
        thread::scope(|scope| {
            let searches: Vec<_> = copies
                .iter_mut()
                .map(|copy| scope.spawn(move || self.timed(copy, depth, threads, answer)))
                .collect();
            searches
                .into_iter()
                .map(|search| {
                    search
                        .join()
                        .unwrap_or_else(|e| std::panic::resume_unwind(e))
                })
                .collect()
        })
    }

    /// The plan's rounds on the uneven position: `one` alone on one thread, then `many`.
    fn rounds(
        &self,
        one: &mut Program,
        many: &mut Program,
        depth: u32,
        answer: &str,
    ) -> Result<Measurement, SpeedupFault> {
        let mut measurement = Measurement::new(depth);
        for _ in 0..self.plan.rounds {
            self.round(std::slice::from_mut(one), many, answer, &mut measurement)?;
        }
        Ok(measurement)
    }

    /// One round, added to `measurement`: `copies[0]` alone on one thread, `many`, and, when
    /// there is more than one copy, every copy at once (their mean time): every answer must be
    /// `answer`.
    fn round(
        &self,
        copies: &mut [Program],
        many: &mut Program,
        answer: &str,
        measurement: &mut Measurement,
    ) -> Result<(), SpeedupFault> {
        let depth = measurement.depth;
        let alone = self.timed(&mut copies[0], depth, self.case.threads, answer)?;
        measurement.one.push(alone);
        let more = self.timed(many, depth, self.plan.threads, answer)?;
        measurement.many.push(more);
        if copies.len() > 1 {
            let times = self.together(copies, depth, answer)?;
            let count = u32::try_from(times.len()).unwrap_or(u32::MAX);
            measurement
                .together
                .push(times.iter().sum::<Duration>() / count);
        }
        Ok(())
    }
}

/// Sends `command` to a program with `threads` threads under the case's time limit.
fn ask(
    program: &mut Program,
    command: &str,
    case: &Case,
    threads: usize,
) -> Result<(Vec<String>, Duration), SpeedupFault> {
    program
        .ask(command, case.time_limit)
        .map_err(|failure| fault(command, threads, failure))
}

/// A command's failure as the speed-up's.
fn fault(command: &str, threads: usize, failure: Failure) -> SpeedupFault {
    SpeedupFault::Program {
        command: command.to_string(),
        threads,
        failure,
    }
}

/// Whether `got`, given with `threads` threads, is the first one-thread `answer`.
fn same(answer: &str, got: String, depth: u32, threads: usize) -> Result<(), SpeedupFault> {
    if got == answer {
        Ok(())
    } else {
        Err(SpeedupFault::Differ {
            depth,
            one: answer.to_string(),
            other: got,
            threads,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::Rubric;
    use std::path::Path;

    /// The kit's own rule.
    fn rule() -> SpeedupRule {
        let kit = Path::new(env!("CARGO_MANIFEST_DIR")).join("../grading/rubric.toml");
        Rubric::load(&kit).unwrap().speedup
    }

    /// A measurement of these rounds, in milliseconds.
    fn rounds(one: &[u64], many: &[u64], together: &[u64]) -> Measurement {
        let ms = |times: &[u64]| times.iter().map(|&t| Duration::from_millis(t)).collect();
        Measurement {
            depth: 8,
            one: ms(one),
            many: ms(many),
            together: ms(together),
        }
    }

    /// The credit of a measurement on 2 threads, or `None` if it was not judged.
    fn credit(measurement: Measurement) -> Option<f64> {
        match judge(measurement, 2, &rule()) {
            Outcome::Judged(_, judged) => Some(judged.credit),
            _ => None,
        }
    }

    #[test]
    fn root_columns_handed_out_one_at_a_time_earn_full_credit_with_margin() {
        // 7 equal columns on 2 threads take 4 columns' time instead of 7, on a machine whose
        // two runs at once are each 4% slower than one alone: a speed-up of about 1.70x.
        let together = 1040;
        let many = 4 * together / 7;
        let m = rounds(
            &[1000, 1020, 990, 1010, 1000],
            &[many, many + 10, many - 5, many, many + 5],
            &[
                together,
                together + 10,
                together - 10,
                together,
                together + 5,
            ],
        );
        let Outcome::Judged(_, judged) = judge(m, 2, &rule()) else {
            panic!("an idle machine is judged");
        };
        assert_eq!(judged.credit, 1.0);
        assert!(judged.gain > rule().full_gain + 0.15, "{judged:?}");
    }

    /// Rounds (milliseconds on one thread, on two, and two one-thread copies at once) recorded
    /// on this project's two-CPU virtual machine, load average under 0.7, grading the
    /// reference four times and the completed starter twice in a row (2026-11-23).
    const RECORDED: [[[u64; 7]; 3]; 6] = [
        [
            [484, 364, 361, 391, 354, 396, 385],
            [264, 240, 251, 229, 251, 238, 246],
            [519, 419, 520, 400, 360, 410, 404],
        ],
        [
            [509, 525, 530, 561, 458, 374, 354],
            [272, 310, 247, 281, 289, 236, 318],
            [525, 484, 551, 558, 525, 405, 704],
        ],
        [
            [401, 414, 529, 523, 376, 357, 345],
            [242, 283, 283, 282, 315, 222, 229],
            [436, 513, 539, 493, 580, 388, 432],
        ],
        [
            [488, 339, 483, 434, 360, 491, 511],
            [267, 225, 219, 277, 227, 251, 285],
            [416, 406, 426, 422, 436, 435, 508],
        ],
        [
            [464, 480, 480, 391, 500, 481, 320],
            [213, 271, 273, 194, 283, 233, 208],
            [391, 494, 488, 383, 499, 417, 334],
        ],
        [
            [467, 283, 499, 489, 493, 489, 281],
            [241, 223, 289, 280, 280, 243, 195],
            [516, 401, 496, 463, 475, 362, 347],
        ],
    ];

    #[test]
    fn the_same_program_graded_again_and_again_earns_the_same_credit() {
        // The machine's speed drifted between two levels from round to round in all of these
        // (a one-thread search took 0.28 s or 0.49 s); the credit did not. The former rule (the
        // better of two runs each, steps at 1.5x, 1.3x and 1.15x) gave the last one 3 of 10.
        for [one, many, together] in RECORDED {
            assert_eq!(
                credit(rounds(&one, &many, &together)),
                Some(1.0),
                "{one:?} {many:?} {together:?}"
            );
        }
    }

    #[test]
    fn no_threads_earn_nothing() {
        let m = rounds(
            &[1000, 1010, 990, 1000, 1005],
            &[1010, 1000, 1020, 1005, 1000],
            &[1040, 1030, 1050, 1040, 1045],
        );
        assert_eq!(credit(m), Some(0.0));
    }

    #[test]
    fn a_little_noise_moves_partial_credit_by_a_little() {
        // Anywhere on the scale, two gradings whose many-thread medians are 5% apart (with the
        // same ceiling) differ by less than 0.3 of the credit: 3 of the case's 10 points, where
        // thresholds with steps jumped by 4. (Within one grading, the rounds go on until the
        // credits the medians' ranges allow are within 0.2 of each other.)
        let together = [1040, 1040, 1040];
        for many in (500..1000).step_by(10) {
            let at = |factor: f64| {
                let t = (many as f64 * factor) as u64;
                credit(rounds(&[1000, 1000, 1000], &[t, t, t], &together)).unwrap()
            };
            let (low, high) = (at(0.975), at(1.025));
            assert!((low - high).abs() < 0.3, "{many} ms: {low} against {high}");
        }
    }

    #[test]
    fn a_busy_machine_is_not_judged() {
        // The other core was taken: two runs at once each took half as long again as one.
        let taken = rounds(
            &[1000, 1010, 990, 1000, 1005],
            &[900, 890, 910, 905, 900],
            &[1500, 1520, 1490, 1510, 1500],
        );
        assert!(matches!(
            judge(taken, 2, &rule()),
            Outcome::Busy(_, Busy::Ceiling(c)) if (c - 1.333).abs() < 0.01
        ));
        // Something else came and went: the many-thread times jumped about, and the medians'
        // ranges allow anything from nothing to full credit.
        let jumpy = rounds(
            &[1000, 1010, 990, 1000, 1005],
            &[560, 900, 600, 950, 700],
            &[1040, 1050, 1030, 1045, 1040],
        );
        let Outcome::Busy(_, Busy::Unsettled(least, most)) = judge(jumpy, 2, &rule()) else {
            panic!("jumpy rounds are not judged");
        };
        assert!(most - least > rule().busy_credit_range, "{least} {most}");
    }

    /// Rounds recorded as [`RECORDED`], on the same machine while it was noisy (a one-thread
    /// search took from 0.70 s to 1.25 s): the reference, and the Java fixture made to run one
    /// worker whatever THREADS says.
    const NOISY: [[[u64; 7]; 3]; 2] = [
        [
            [1141, 1094, 900, 698, 1161, 769, 968],
            [517, 594, 528, 625, 534, 488, 536],
            [934, 1072, 805, 1004, 948, 879, 1177],
        ],
        [
            [1736, 1383, 1804, 1773, 1829, 957, 1716],
            [1440, 1110, 1801, 1941, 1078, 1614, 1540],
            [1855, 1565, 1680, 1692, 1859, 1463, 1212],
        ],
    ];

    #[test]
    fn a_noisy_machine_settles_the_credit_with_more_rounds_or_is_not_judged() {
        let [reference, one_worker] = NOISY;
        let [one, many, together] = reference;
        // The reference's rounds jumped about, yet every credit the medians allow is full.
        assert_eq!(credit(rounds(&one, &many, &together)), Some(1.0));
        // One worker: a median speed-up of 1.11x, whose range reaches 1.25x, is unsettled
        // after 7 rounds (it was given 0.45 of 10 points by a rule without ranges)...
        let [one, many, together] = one_worker;
        assert_eq!(credit(rounds(&one, &many, &together)), None);
        // ... and earns nothing once three times as many rounds like them narrow the ranges.
        let more = |times: [u64; 7]| [times, times, times].concat();
        let (one, many, together) = (more(one), more(many), more(together));
        assert_eq!(credit(rounds(&one, &many, &together)), Some(0.0));
    }
}
