//! The speed-up case: sets programs up with the case's script (through [`super::script`]),
//! raises the depth of `scores` until one thread's search spans the case's target time, watches
//! a program on more threads search twice and sit idle ([`super::design`]), and then, on a
//! machine with a CPU for every thread, searches round after round on one thread and on more,
//! with the grader's own [`Calibration`] of the machine's ceiling in between, until the medians
//! settle the credit or the case's most rounds are taken.
//!
//! Every search is judged by what the student's threads did, from the kernel's account of each
//! ([`super::work`]), not by the wall clock alone: the span of a search (its time with the
//! waiting for a CPU taken out) does not stretch on a busy machine, so an honest pool keeps its
//! credit there. Every process of the student's is counted, so another copy of the program
//! cannot work on a search's behalf; a one-thread search that costs more CPU work than the same
//! search on more threads is no baseline; and workers that poll for work between commands
//! earn nothing. The rubric's rule then judges the speed-up against the calibrated ceiling.
//!
//! For the thread design it also searches a position where moves have filled some columns, so
//! that a division of the columns fixed in advance leaves one thread with all the work.

use std::time::Duration;

use super::calibration::Calibration;
use super::design::{classify, idle, turns, watched, with_uneven, Watched};
use super::job::Job;
use super::result::design::{Design, Unseen};
use super::result::speedup::{
    capped, median, median_range, Busy, Judged, Measurement, Refusal, Scale, Speedup, SpeedupFault,
    SpeedupOutcome, Split, Uneven, Work, REPEATED, WORK_GREW,
};
use super::result::{Exchange, Expect};
use super::scaling::{counts, view};
use super::script::{exact, normalize, run_script};
use super::work::work;
use crate::kit::case::{Case, SpeedupPlan};
use crate::kit::rubric::SpeedupRule;
use crate::kit::Solution;
use crate::process::counters::Uncounted;
use crate::process::threads::is_jit_compiler;
use crate::process::topology::{allowed, hold, pin, Topology};
use crate::process::{Cpus, Failure, Program, ThreadUse};

/// A one-thread search that costs more than this many times the CPU work of the same search on
/// more threads is no baseline: an honest program's costs about the same (measured: 1.03 for
/// the reference on a machine loaded by a build; less where two threads share a core's
/// pipeline and run slower together), one that burns CPU on purpose when given one thread
/// twice as much (the forging fixture: 2.0).
pub const NO_BASELINE: f64 = 1.5;

/// The rounds of each thread count of the scaling view beyond the speed-up's: it is not
/// scored, so its medians need not settle anything.
const SCALE_ROUNDS: usize = 3;

/// The pairs of searches (one thread, then several) on one CPU whose median tells work beside
/// the search: on a loaded shared host one search may take twice the CPU time of the next
/// (a burner judged by a single pair was once named a pool per search, loaded); the median of
/// three pairs outlasts one such jump.
const ONE_CPU_PAIRS: usize = 3;

/// The speed-up case: the CPUs the program may use, the plain position's outcome (credit by the
/// rubric's `rule`, none if a measurement failed or was refused, not counted on too few CPUs or
/// when the rounds never settled), the uneven position, and the thread design seen. Also
/// returns the exchanges of a script that did not get through.
pub(crate) fn measure(
    case: &Case,
    solution: &Solution,
    job: &Job,
    rule: &SpeedupRule,
    plan: &SpeedupPlan,
) -> (Speedup, Vec<Exchange>) {
    let cpus = Cpus::of_this_process();
    // The programs and the calibration alike run on CPUs chosen on distinct cores: this
    // thread's, which they inherit.
    let (allowed, topology) = (allowed(), Topology::of_this_machine());
    let held = hold(&allowed, &topology, plan.threads);
    let chosen = held.as_ref().map(|(chosen, _)| chosen.clone());
    let _pinned = chosen.as_ref().and_then(|c| pin(&c.cpus).ok());
    let expects = exact(solution);
    let mut failed = Vec::new();
    let mut design = Design::Unseen(Unseen::NotSearched);
    let mut scaling = Vec::new();
    let bench = Bench {
        case,
        job,
        expects: &expects,
        plan,
        allowed: &allowed,
        topology: &topology,
        given: chosen.as_ref().map_or(allowed.len(), |c| c.cpus.len()),
    };
    let outcome = bench
        .plain(cpus, rule, &mut design, &mut failed, &mut scaling)
        .unwrap_or_else(SpeedupOutcome::Failed);
    let searched = !matches!(design, Design::Unseen(Unseen::NotSearched));
    let uneven = (searched && !plan.uneven_moves.is_empty()).then(|| bench.uneven());
    if let Some(Uneven {
        seen: Ok(split), ..
    }) = &uneven
    {
        design = with_uneven(design, &split.work);
    }
    let speedup = Speedup {
        threads: (case.threads, plan.threads),
        cpus,
        chosen,
        scaling,
        outcome,
        uneven,
        design,
    };
    (speedup, failed)
}

/// Judges a measurement on `threads` threads of a program with `design` by `rule`: refused when
/// its one-thread search is no baseline (more than one thread did it, or it did more work) or
/// its workers busy-wait; not counted when the kernel did not account for the threads' waiting
/// or when the grader's own threads gained too little (the machine could not run that many at
/// once); otherwise the speed-up's gain against the ceiling earns its credit.
///
/// Noise never lowers it. While the credits that the medians' ranges allow are farther apart
/// than the rule lets them be, the rounds are handed back as long as `more_rounds` may be
/// taken. Where the most they allow is full credit, it is full credit: nothing deducted on
/// evidence that includes "no worse than the machine allows". A credit below full is given
/// only on evidence that settled and repeats, from a machine that ran the program's threads
/// (where they worked side by side, kept waiting for a CPU no more than the rule's
/// `busy_waiting` of their time), and the first half of the rounds and the second, each
/// judged alone, within [`REPEATED`] of each other; else it is not counted (grade again).
/// Where the threads' work grew beyond the grader's own work's growth in the same rounds,
/// that is named as the cause.
pub fn judge(
    measurement: Measurement,
    threads: usize,
    rule: &SpeedupRule,
    design: Design,
    more_rounds: bool,
) -> SpeedupOutcome {
    if !measurement.accounted() {
        return SpeedupOutcome::Busy(measurement, Busy::Unaccounted);
    }
    match design {
        Design::BusyWaiting { idle, .. } => {
            return SpeedupOutcome::Refused(measurement, Refusal::BusyWaiting(idle));
        }
        Design::IgnoresThreads { alone, .. } => {
            return SpeedupOutcome::Refused(measurement, Refusal::IgnoresThreads(alone));
        }
        _ => {}
    }
    let extra = measurement.work_ratio();
    if extra > NO_BASELINE {
        return SpeedupOutcome::Refused(measurement, Refusal::NoBaseline(extra));
    }
    let most = threads as f64;
    let ceiling = measurement.ceiling().min(most);
    if (ceiling - 1.0) / (most - 1.0).max(1.0) < rule.busy_ceiling {
        return SpeedupOutcome::Busy(measurement, Busy::Ceiling(ceiling));
    }
    let (speedups, ceilings) = (measurement.speedups(), &measurement.ceilings);
    let (least, most_credit) = credit_range(&speedups, ceilings, most, rule);
    let unsettled = most_credit - least > rule.busy_credit_range;
    if unsettled && more_rounds {
        return SpeedupOutcome::Busy(measurement, Busy::Unsettled(least, most_credit));
    }
    let speedup = median(&speedups);
    let gain = gain(speedup, ceiling);
    let full = most_credit >= 1.0;
    if !full && unsettled {
        return SpeedupOutcome::Busy(measurement, Busy::Unsettled(least, most_credit));
    }
    // Threads never at work side by side (as few at once as workers taking turns) gain
    // nothing however the machine ran them: their evidence needs no CPUs of their own.
    let side_by_side = measurement.at_once() >= turns(threads);
    let waited = measurement.waited();
    if !full && side_by_side && waited > rule.busy_waiting {
        return SpeedupOutcome::Busy(measurement, Busy::Waited(waited, rule.busy_waiting));
    }
    let repeated = (!full).then(|| halves(&speedups, ceilings, most, rule));
    if let Some((first, second)) = repeated.filter(|(a, b)| (a - b).abs() > REPEATED) {
        return SpeedupOutcome::Busy(measurement, Busy::Unrepeated(first, second));
    }
    let own = measurement.own_growths();
    let grew = (median_range(&own).0 >= WORK_GREW).then(|| median(&own));
    let judged = Judged {
        speedup,
        ceiling,
        gain,
        full_at: 1.0 + rule.full_gain * (ceiling - 1.0),
        credit: if full { 1.0 } else { rule.credit(gain) },
        grew,
        repeated,
    };
    SpeedupOutcome::Judged(measurement, judged)
}

/// The least and the most credit that the ranges of the medians of these rounds' `speedups`
/// and `ceilings` allow on `most` threads: the slowest speed-up against the highest ceiling,
/// and the other way round.
fn credit_range(speedups: &[f64], ceilings: &[f64], most: f64, rule: &SpeedupRule) -> (f64, f64) {
    let (slowest, fastest) = median_range(speedups);
    let (lowest, highest) = median_range(ceilings);
    (
        rule.credit(gain(slowest, highest.min(most))),
        rule.credit(gain(fastest, lowest.min(most))),
    )
}

/// The credits that the first half of the rounds and the second give, each judged alone by
/// its medians: two measurements of the same program, one after the other.
fn halves(speedups: &[f64], ceilings: &[f64], most: f64, rule: &SpeedupRule) -> (f64, f64) {
    let rounds: Vec<(f64, f64)> = speedups
        .iter()
        .copied()
        .zip(ceilings.iter().copied())
        .collect();
    let (first, second) = rounds.split_at(rounds.len() / 2);
    let credit = |half: &[(f64, f64)]| {
        let (speedups, ceilings): (Vec<f64>, Vec<f64>) = half.iter().copied().unzip();
        rule.credit(gain(median(&speedups), median(&ceilings).min(most)))
    };
    (credit(first), credit(second))
}

/// The share of what more threads could gain on a machine with this `ceiling` that a program
/// with this `speedup` gained: `(speedup - 1) / (ceiling - 1)`.
fn gain(speedup: f64, ceiling: f64) -> f64 {
    (speedup - 1.0) / (ceiling - 1.0).max(1e-6)
}

/// The CPU time `threads` ran, in seconds, a JVM's compilers left out.
fn cpu_time(threads: &[ThreadUse]) -> f64 {
    threads
        .iter()
        .filter(|t| !is_jit_compiler(t.id))
        .map(|t| t.used().as_secs_f64())
        .sum()
}

/// What every measurement of one case needs.
struct Bench<'a> {
    case: &'a Case,
    job: &'a Job<'a>,
    expects: &'a [Expect],
    plan: &'a SpeedupPlan,
    /// The CPUs the grader may use, and their layout.
    allowed: &'a [usize],
    topology: &'a Topology,
    /// How many CPUs the programs are given: those chosen, else all allowed.
    given: usize,
}

/// A search's answer, what its threads did, and the instructions they retired or why they
/// were not counted.
struct Searched {
    answer: String,
    work: Work,
    threads: Vec<ThreadUse>,
    counted: Result<u64, Uncounted>,
}

impl Bench<'_> {
    /// The plain position: the depth found on one thread, the thread design seen on more (in
    /// `design`), then, with a CPU for every thread, the rounds searched and judged. The
    /// programs all run until the end (a program's end sweeps its student's sandbox).
    fn plain(
        &self,
        cpus: Cpus,
        rule: &SpeedupRule,
        design: &mut Design,
        failed: &mut Vec<Exchange>,
        scaling: &mut Vec<Scale>,
    ) -> Result<SpeedupOutcome, SpeedupFault> {
        let threads = self.plan.threads;
        let mut one = self.set_up(self.case.threads, &[], failed)?;
        let (depth, alone) = self.ramp(&mut one, self.plan.max_depth)?;
        let mut many = self.set_up(threads, &[], failed)?;
        let first = self.agreeing(&mut many, depth, threads, &alone.answer)?;
        let second = self.agreeing(&mut many, depth, threads, &alone.answer)?;
        let idle = idle(&many, self.job.sandbox);
        // A JVM's compiler still at work in these first searches is no worker.
        let without_compilers = |threads: &[ThreadUse]| -> Vec<ThreadUse> {
            threads
                .iter()
                .filter(|t| !is_jit_compiler(t.id))
                .copied()
                .collect()
        };
        let (alone_seen, first_seen, second_seen) = (
            without_compilers(&alone.threads),
            without_compilers(&first.threads),
            without_compilers(&second.threads),
        );
        let watched = |on_one_cpu| Watched {
            alone: &alone_seen,
            first: &first_seen,
            second: (&second_seen, second.work.wall),
            idle: &idle,
            on_one_cpu,
            columns: self.case.cols,
        };
        *design = classify(&watched(None));
        // Where the work grew, the design is named from the same two searches again, side by
        // side on one CPU: two searches of different programs, each once, differ by up to half
        // on a shared host (a pool on one CPU was once seen at 1.52x).
        let side_by_side = |grew: f64| {
            let &cpu = self.allowed.first().filter(|_| grew >= WORK_GREW)?;
            self.on_one_cpu(depth, &alone.answer, cpu).ok().flatten()
        };
        let growth = second.work.cpu.as_secs_f64() / alone.work.cpu.as_secs_f64().max(1e-9);
        if cpus.usable() < threads as f64 {
            *design = classify(&watched(side_by_side(growth)));
            return Ok(SpeedupOutcome::TooFewCpus);
        }
        let calibration = Calibration::new();
        let mut measurement = Measurement::new(depth, cpus.usable().min(self.given as f64));
        loop {
            self.round(
                &mut one,
                &mut many,
                &alone.answer,
                &calibration,
                &mut measurement,
            )?;
            if measurement.rounds() < self.plan.rounds {
                continue;
            }
            // Unsettled or unrepeated rounds are handed back, to go on with while more are
            // allowed.
            let more = measurement.rounds() < self.plan.most_rounds();
            let outcome = match judge(measurement, threads, rule, *design, more) {
                SpeedupOutcome::Busy(rounds, Busy::Unsettled(..) | Busy::Unrepeated(..))
                    if more =>
                {
                    measurement = rounds;
                    continue;
                }
                outcome => outcome,
            };
            // What follows starts programs of its own, and a program's end sweeps the
            // student's sandbox: `one` and `many` are done with.
            let measured = outcome.measurement();
            if let (Some(m), true) = (measured, self.plan.scaling) {
                let usable = (cpus.usable() as usize).min(self.allowed.len());
                let more: Vec<Scale> = counts(usable, self.case.cols, threads)
                    .into_iter()
                    .map_while(|n| self.scale(m, &alone.answer, n, &calibration))
                    .collect();
                *scaling = view(threads, m, &more);
            }
            // Whether the work grew: by the rounds' medians where there are rounds (one search
            // may take 40% longer than the next on a shared host), else by the design's
            // searches; the design is named whatever the rounds' outcome.
            let grew = measured.map_or(growth, |m| median(&m.growths()));
            *design = classify(&watched(side_by_side(grew)));
            return Ok(outcome);
        }
    }

    /// The scaling view's figures on `n` threads, pinned to `n` CPUs chosen as the speed-up's
    /// were: [`SCALE_ROUNDS`] rounds of a program on `n` threads searching at the depth of
    /// `m`, and of the calibration on `n`, against `m`'s one-thread spans, each round's speed-up
    /// [`capped`]. `None` if they could not be chosen or pinned, or a search failed (the view
    /// stops there: it earns nothing).
    fn scale(
        &self,
        m: &Measurement,
        answer: &str,
        n: usize,
        calibration: &Calibration,
    ) -> Option<Scale> {
        let (chosen, _held) = hold(self.allowed, self.topology, n)?;
        let _pinned = pin(&chosen.cpus).ok()?;
        let mut many = self.set_up(n, &[], &mut Vec::new()).ok()?;
        let one = m.spans().0;
        let (mut speedups, mut ceilings) = (Vec::new(), Vec::new());
        for _ in 0..SCALE_ROUNDS {
            let more = self.agreeing(&mut many, m.depth, n, answer).ok()?.work;
            speedups.push(capped(one / more.span.as_secs_f64().max(1e-9), &more));
            ceilings.push(calibration.ceiling(n).map_or(n as f64, |c| c.most));
        }
        Some(Scale {
            threads: n,
            speedup: median(&speedups),
            ceiling: median(&ceilings),
        })
    }

    /// The search at `depth` by a program on the speed-up's threads, all of them on `cpu`
    /// (where they cannot slow each other down through a lock or a cache line), against the
    /// same search by the program on one thread there, just before: the median over
    /// [`ONE_CPU_PAIRS`] pairs of the CPU time of the first over the second's, after each
    /// program's first search (which may warm a runtime up), a JVM's compilers left out. Side
    /// by side, so that the machine's speed, which drifts by a third over a class run on a
    /// shared host, is the same for both.
    /// `None` if the thread could not be pinned there.
    fn on_one_cpu(
        &self,
        depth: u32,
        answer: &str,
        cpu: usize,
    ) -> Result<Option<f64>, SpeedupFault> {
        let Ok(_pinned) = pin(&[cpu]) else {
            return Ok(None);
        };
        let (one, many) = (self.case.threads, self.plan.threads);
        let mut alone = self.set_up(one, &[], &mut Vec::new())?;
        let mut program = self.set_up(many, &[], &mut Vec::new())?;
        self.agreeing(&mut alone, depth, one, answer)?;
        self.agreeing(&mut program, depth, many, answer)?;
        let mut ratios = Vec::new();
        for _ in 0..ONE_CPU_PAIRS {
            let baseline = cpu_time(&self.agreeing(&mut alone, depth, one, answer)?.threads);
            let searched = cpu_time(&self.agreeing(&mut program, depth, many, answer)?.threads);
            ratios.push(searched / baseline.max(1e-9));
        }
        Ok(Some(median(&ratios)))
    }

    /// The uneven position: a program on the speed-up's threads set up there, searching
    /// deeper until its threads together ran the case's target time: how they split it.
    fn uneven(&self) -> Uneven {
        let (case, plan) = (self.case, self.plan);
        // Fewer open cells: the search may go as deep as the game itself, to take long enough.
        let open = (case.rows * case.cols).saturating_sub(plan.uneven_moves.len());
        let deepest = plan.max_depth.max(u32::try_from(open).unwrap_or(u32::MAX));
        let seen = (|| {
            let mut many = self.set_up(plan.threads, &plan.uneven_moves, &mut Vec::new())?;
            let mut depth = plan.start_depth;
            loop {
                let searched = self.search(&mut many, depth, plan.threads)?;
                let ran = searched.work.cpu.as_secs_f64();
                if ran >= plan.target_seconds || depth >= deepest {
                    return Ok(Split {
                        depth,
                        work: searched.work,
                    });
                }
                depth += 1;
            }
        })();
        Uneven {
            columns: plan.filled(case.rows),
            seen,
        }
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

    /// `scores DEPTH` on a program with `threads` threads, watched: its answer (which must be
    /// values) and what the student's threads did meanwhile.
    fn search(
        &self,
        program: &mut Program,
        depth: u32,
        threads: usize,
    ) -> Result<Searched, SpeedupFault> {
        let command = format!("scores {depth}");
        let (lines, took, seen) =
            watched(program, self.job.sandbox, &command, self.case.time_limit)
                .map_err(|failure| fault(&command, threads, failure))?;
        let answer = normalize(&lines.join("\n"));
        if !answer.starts_with("= ") {
            return Err(SpeedupFault::Refused(command, answer));
        }
        Ok(Searched {
            answer,
            work: Work {
                instructions: seen.instructions.ok(),
                ..work(&seen.threads, took)
            },
            threads: seen.threads,
            counted: seen.instructions,
        })
    }

    /// [`Bench::search`] whose answer must be `answer`.
    fn agreeing(
        &self,
        program: &mut Program,
        depth: u32,
        threads: usize,
        answer: &str,
    ) -> Result<Searched, SpeedupFault> {
        let searched = self.search(program, depth, threads)?;
        if searched.answer != answer {
            return Err(SpeedupFault::Differ {
                depth,
                one: answer.to_string(),
                other: searched.answer,
                threads,
            });
        }
        Ok(searched)
    }

    /// Raises the depth from the plan's first until one thread's search spans the target time
    /// (or `deepest` is reached): that depth and the search there.
    fn ramp(&self, program: &mut Program, deepest: u32) -> Result<(u32, Searched), SpeedupFault> {
        let mut depth = self.plan.start_depth;
        loop {
            let searched = self.search(program, depth, self.case.threads)?;
            if searched.work.span.as_secs_f64() >= self.plan.target_seconds || depth >= deepest {
                return Ok((depth, searched));
            }
            depth += 1;
        }
    }

    /// One round, added to `measurement`: `one` on one thread, `many`, each answering
    /// `answer`, and the machine's ceiling and share of the growth from `calibration`, in CPU
    /// time and, where every counter could be read, in instructions retired.
    fn round(
        &self,
        one: &mut Program,
        many: &mut Program,
        answer: &str,
        calibration: &Calibration,
        measurement: &mut Measurement,
    ) -> Result<(), SpeedupFault> {
        let (depth, threads) = (measurement.depth, self.plan.threads);
        let alone = self.agreeing(one, depth, self.case.threads, answer)?;
        measurement.one.push(alone.work);
        let more = self.agreeing(many, depth, threads, answer)?;
        measurement.many.push(more.work);
        let calibrated = calibration.ceiling(threads);
        let most = threads as f64;
        measurement
            .ceilings
            .push(calibrated.map_or(most, |c| c.most));
        measurement
            .machine
            .push(calibrated.map_or(1.0, |c| c.growth));
        let machine = calibrated.map_or(Ok(1.0), |c| c.instructions);
        measurement.count(alone.counted.and(more.counted).and(machine));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::result::speedup::{Cause, Counting};
    use crate::kit::Rubric;
    use std::path::Path;

    /// The kit's own rule.
    fn rule() -> SpeedupRule {
        let kit = Path::new(env!("CARGO_MANIFEST_DIR")).join("../grading/rubric.toml");
        Rubric::load(&kit).unwrap().speedup
    }

    /// A search whose span and wall-clock time were `ms` milliseconds, its CPU work `cpu`.
    fn search(ms: u64, cpu: u64) -> Work {
        Work {
            wall: Duration::from_millis(ms),
            cpu: Duration::from_millis(cpu),
            ready: Duration::from_millis(cpu),
            span: Duration::from_millis(ms),
            workers: 1,
            busiest: 1.0,
            accounted: true,
            instructions: None,
        }
    }

    /// A measurement of these rounds, in milliseconds, on an idle machine (the spans are the
    /// wall-clock times): one thread alone, two threads, and the ceiling as two one-thread
    /// runs at once showed it (two threads' worth of work in `together`). Both searches did
    /// the one-thread search's CPU work.
    fn rounds(one: &[u64], many: &[u64], together: &[u64]) -> Measurement {
        let ceilings = one
            .iter()
            .zip(together)
            .map(|(&o, &t)| (2.0 * o as f64 / t as f64).min(2.0))
            .collect();
        measured(one, many, |cpu| cpu, ceilings)
    }

    /// A measurement of these rounds, in milliseconds, spans the wall-clock times: the
    /// searches on more threads each ran `work` of the one-thread search's CPU time.
    fn measured(
        one: &[u64],
        many: &[u64],
        work: fn(u64) -> u64,
        ceilings: Vec<f64>,
    ) -> Measurement {
        Measurement {
            depth: 8,
            one: one.iter().map(|&t| search(t, t)).collect(),
            many: many
                .iter()
                .zip(one)
                .map(|(&t, &cpu)| search(t, work(cpu)))
                .collect(),
            ceilings,
            cpus: Some(2.0),
            machine: Vec::new(),
            counted: None,
            machine_instructions: Vec::new(),
        }
    }

    /// A pool of two workers, as designs go.
    const POOL: Design = Design::Pool {
        workers: 2,
        division: crate::judge::result::design::Division::Unknown,
    };

    /// The credit of a measurement on 2 threads, or `None` if it was not judged.
    fn credit(measurement: Measurement) -> Option<f64> {
        match judge(measurement, 2, &rule(), POOL, true) {
            SpeedupOutcome::Judged(_, judged) => Some(judged.credit),
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
        let SpeedupOutcome::Judged(_, judged) = judge(m, 2, &rule(), POOL, true) else {
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
            judge(taken, 2, &rule(), POOL, true),
            SpeedupOutcome::Busy(_, Busy::Ceiling(c)) if (c - 1.333).abs() < 0.01
        ));
        // Something else came and went: the many-thread times jumped about, and the medians'
        // ranges allow anything from nothing to full credit.
        let jumpy = rounds(
            &[1000, 1010, 990, 1000, 1005],
            &[560, 900, 600, 950, 700],
            &[1040, 1050, 1030, 1045, 1040],
        );
        let SpeedupOutcome::Busy(_, Busy::Unsettled(least, most)) =
            judge(jumpy, 2, &rule(), POOL, true)
        else {
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

    /// Rounds of a pool of two whose every search the machine kept waiting half the time:
    /// the wall-clock times doubled, as the busy loops of two other programs make them.
    fn loaded(one: u64, many: u64, rounds: usize) -> Measurement {
        let stretched = |span: u64, cpu: u64| Work {
            wall: Duration::from_millis(2 * span),
            ready: Duration::from_millis(2 * cpu),
            ..search(span, cpu)
        };
        Measurement {
            depth: 8,
            one: vec![stretched(one, one); rounds],
            many: vec![stretched(many, one + 20); rounds],
            ceilings: vec![1.95; rounds],
            cpus: Some(2.0),
            machine: Vec::new(),
            counted: None,
            machine_instructions: Vec::new(),
        }
    }

    #[test]
    fn a_deduction_where_the_machine_kept_the_threads_waiting_is_not_counted() {
        // A pool that gains a quarter of what two threads can: judged on a quiet machine...
        let quiet = credit(rounds(&[1000; 7], &[800; 7], &[1000; 7]));
        assert!(quiet.is_some_and(|c| c > 0.0 && c < 1.0), "{quiet:?}");
        // ...not where the machine kept its two threads, at work side by side, waiting more
        // than half the time, however steady the rounds: there a pool's columns go to
        // whichever worker the machine runs.
        let mut m = loaded(1000, 800, 7);
        for work in &mut m.many {
            work.ready = Duration::from_millis(2400);
        }
        let outcome = judge(m.clone(), 2, &rule(), POOL, true);
        let SpeedupOutcome::Busy(_, Busy::Waited(waited, allowed)) = outcome else {
            panic!("{outcome:?}")
        };
        assert!((waited - 0.575).abs() < 0.01, "{waited}");
        assert_eq!(allowed, rule().busy_waiting);
        // Threads at work one at a time are judged as measured, however long the machine kept
        // them waiting: their evidence needs no CPUs of their own.
        for work in &mut m.many {
            work.ready = work.wall;
        }
        assert!(credit(m).is_some_and(|c| c < 1.0));
    }

    #[test]
    fn a_pool_on_a_loaded_machine_earns_its_credit() {
        let SpeedupOutcome::Judged(m, judged) = judge(loaded(1000, 540, 7), 2, &rule(), POOL, true)
        else {
            panic!("the spans settle the credit");
        };
        assert_eq!(judged.credit, 1.0);
        // By the wall clock alone it was the same speed-up: a second program would have
        // shown the machine's ceiling collapsing.
        assert!(median(&m.wall_speedups()) > 1.8);
    }

    #[test]
    fn a_one_thread_search_that_does_more_work_is_no_baseline() {
        // One worker whatever THREADS says, burning as much again when given one thread.
        let m = Measurement {
            depth: 8,
            one: vec![search(1000, 2000); 7],
            many: vec![search(1000, 1000); 7],
            ceilings: vec![1.9; 7],
            cpus: Some(2.0),
            machine: Vec::new(),
            counted: None,
            machine_instructions: Vec::new(),
        };
        assert!(matches!(
            judge(m.clone(), 2, &rule(), POOL, true),
            SpeedupOutcome::Refused(_, Refusal::NoBaseline(r)) if (r - 2.0).abs() < 1e-9
        ));
        // The same rounds from a spinning second thread instead: spans say 2x, work says no.
        let spun = Measurement {
            one: vec![search(1000, 2000); 7],
            many: vec![search(500, 1000); 7],
            ..m
        };
        assert!(matches!(
            judge(spun, 2, &rule(), POOL, true),
            SpeedupOutcome::Refused(_, Refusal::NoBaseline(_))
        ));
    }

    #[test]
    fn a_thread_per_column_is_refused_however_busy_the_machine() {
        // Seven threads on THREADS 1 too, waiting for each other on two CPUs, on a machine so
        // loaded that its rounds could not settle a pool's credit: no baseline either way.
        let per_column = Design::IgnoresThreads {
            workers: 7,
            alone: 7,
            per_column: true,
        };
        let [_, [one, many, together]] = NOISY;
        for m in [loaded(1000, 980, 7), rounds(&one, &many, &together)] {
            assert!(matches!(
                judge(m, 2, &rule(), per_column, true),
                SpeedupOutcome::Refused(_, Refusal::IgnoresThreads(7))
            ));
        }
    }

    #[test]
    fn a_busy_waiting_pool_earns_nothing_and_unaccounted_threads_are_not_judged() {
        let waiting = Design::BusyWaiting {
            workers: 2,
            idle: 1.9,
        };
        assert!(matches!(
            judge(loaded(1000, 540, 7), 2, &rule(), waiting, true),
            SpeedupOutcome::Refused(_, Refusal::BusyWaiting(idle)) if idle == 1.9
        ));
        let mut m = loaded(1000, 540, 7);
        m.many[3].accounted = false;
        assert!(matches!(
            judge(m, 2, &rule(), POOL, true),
            SpeedupOutcome::Busy(_, Busy::Unaccounted)
        ));
    }

    #[test]
    fn a_noisy_machine_settles_the_credit_with_more_rounds_or_is_not_judged() {
        let [reference, one_worker] = NOISY;
        let [one, many, together] = reference;
        // The reference's rounds jumped about, yet every credit the medians allow is full.
        assert_eq!(credit(rounds(&one, &many, &together)), Some(1.0));
        // One worker's rounds, had its threads been at work side by side as often as the
        // speed-ups say: a median of 1.11x, whose range reaches 1.25x, is unsettled after 7
        // rounds (it was given 0.45 of 10 points by a rule without ranges)...
        let [one, many, together] = one_worker;
        assert_eq!(credit(rounds(&one, &many, &together)), None);
        // ... and earns nothing once three times as many rounds like them narrow the ranges.
        let more = |times: [u64; 7]| [times, times, times].concat();
        let (one, many, together) = (more(one), more(many), more(together));
        assert_eq!(credit(rounds(&one, &many, &together)), Some(0.0));
    }

    #[test]
    fn threads_never_at_work_side_by_side_gain_nothing_however_noisy_the_machine() {
        // One worker as it really ran those rounds, on a machine that kept it waiting half
        // the time: its one thread was ready all along, so never more than one was at work.
        let [_, [one, many, _]] = NOISY;
        let alone = |span: u64| Work {
            wall: Duration::from_millis(2 * span),
            ready: Duration::from_millis(2 * span),
            ..search(span, span)
        };
        let m = Measurement {
            depth: 8,
            one: one.map(alone).to_vec(),
            many: many.map(alone).to_vec(),
            ceilings: vec![1.8; 7],
            cpus: Some(2.0),
            machine: Vec::new(),
            counted: None,
            machine_instructions: Vec::new(),
        };
        assert!(m.speedups().iter().all(|&s| s <= 1.0), "{:?}", m.speedups());
        for more_rounds in [true, false] {
            let outcome = judge(m.clone(), 2, &rule(), Design::OneWorker, more_rounds);
            let SpeedupOutcome::Judged(_, judged) = &outcome else {
                panic!("settled: {outcome:?}");
            };
            assert_eq!((judged.credit, judged.repeated), (0.0, Some((0.0, 0.0))));
        }
    }

    /// Rounds of the pool recorded on a 16-CPU Xeon (the issue's): its workers' boards lay
    /// side by side on the heap, so its 2-thread searches ran 1.9x the CPU time of its one-thread
    /// search and gained nothing, noisily; the machine was idle, so its threads hardly waited.
    fn shared_lines() -> Measurement {
        let one = [1000, 980, 1010, 990, 1005, 1000, 995];
        let many = [1000, 640, 1190, 650, 1150, 980, 1010];
        let ceilings = vec![1.92, 1.9, 1.93, 1.91, 1.92, 1.94, 1.9];
        measured(&one, &many, |cpu| 19 * cpu / 10, ceilings)
    }

    #[test]
    fn noisy_rounds_that_grew_lose_nothing_and_steady_ones_are_judged_as_measured() {
        // Noisy: while more rounds may be taken they are; after the last, the medians' ranges
        // still reach full credit, so nothing is deducted, whatever the work did.
        let m = shared_lines();
        assert!(matches!(
            judge(m.clone(), 2, &rule(), POOL, true),
            SpeedupOutcome::Busy(_, Busy::Unsettled(..))
        ));
        let outcome = judge(m, 2, &rule(), POOL, false);
        let SpeedupOutcome::Judged(_, judged) = &outcome else {
            panic!("full credit: {outcome:?}");
        };
        assert_eq!((judged.credit, judged.repeated), (1.0, None));
        assert_eq!(outcome.cause(), None);
        // Steady: the same growth round after round, no gain, and both halves of the rounds
        // say so: judged as measured, the work that grew named.
        let steady = measured(
            &[1000; 8],
            &[1000, 990, 1010, 1000, 1005, 995, 1000, 1000],
            |cpu| 19 * cpu / 10,
            vec![1.92; 8],
        );
        let outcome = judge(steady.clone(), 2, &rule(), POOL, false);
        let SpeedupOutcome::Judged(_, judged) = &outcome else {
            panic!("judged as measured: {outcome:?}");
        };
        assert_eq!((judged.credit, judged.repeated), (0.0, Some((0.0, 0.0))));
        assert!(
            matches!(judged.grew, Some(g) if (g - 1.9).abs() < 0.01),
            "{judged:?}"
        );
        assert!(matches!(outcome.cause(), Some(Cause::WorkGrew(_))));
        // The same rounds where the grader's own work grew as much on the same CPUs: the
        // machine's share, not the program's, so no growth is named.
        let machine = Measurement {
            machine: vec![1.85; 8],
            ..steady
        };
        let SpeedupOutcome::Judged(_, judged) = judge(machine, 2, &rule(), POOL, false) else {
            panic!("judged");
        };
        assert_eq!(judged.grew, None);
        // An honest pool's work does not grow: full credit, no cause named.
        let SpeedupOutcome::Judged(_, pool) = judge(
            rounds(&[1000; 7], &[540; 7], &[1040; 7]),
            2,
            &rule(),
            POOL,
            false,
        ) else {
            panic!("judged");
        };
        assert_eq!((pool.credit, pool.grew, pool.repeated), (1.0, None, None));
    }

    #[test]
    fn work_grew_is_judged_on_instructions_where_they_were_counted() {
        // The steady rounds of a pool that gained nothing, its CPU time 1.9x on 2 threads.
        let steady = || measured(&[1000; 8], &[1000; 8], |cpu| 19 * cpu / 10, vec![1.92; 8]);
        let grew = |one: u64, many: u64| {
            let mut m = steady();
            for (w, n) in m.one.iter_mut().zip(m.many.iter_mut()) {
                (w.instructions, n.instructions) = (Some(one), Some(many));
            }
            m.counted = Some(Counting::Instructions);
            m.machine_instructions = vec![1.0; 8];
            match judge(m, 2, &rule(), POOL, false) {
                SpeedupOutcome::Judged(_, judged) => judged.grew,
                outcome => panic!("judged: {outcome:?}"),
            }
        };
        // The same instructions, each slower (cache lines both workers write): not grown.
        assert_eq!(grew(1_000_000, 1_010_000), None);
        // Twice the instructions (a lock spun on): grown, by the same rule as CPU time.
        assert!(matches!(grew(1_000_000, 2_000_000), Some(g) if (g - 2.0).abs() < 1e-9));
    }

    #[test]
    fn noisy_rounds_whose_range_reaches_full_credit_lose_nothing() {
        // Something came and went: the medians' ranges allow anything up to full credit, so
        // nothing is deducted, whether or not the machine kept the threads waiting.
        let jumpy = rounds(
            &[1000, 1010, 990, 1000, 1005],
            &[560, 900, 600, 950, 700],
            &[1040, 1050, 1030, 1045, 1040],
        );
        let mut waited = jumpy.clone();
        for w in &mut waited.many {
            (w.ready, w.wall) = (w.cpu * 2, w.wall * 2);
        }
        for m in [jumpy, waited] {
            let outcome = judge(m, 2, &rule(), POOL, false);
            let SpeedupOutcome::Judged(_, judged) = &outcome else {
                panic!("full credit: {outcome:?}");
            };
            assert_eq!((judged.credit, judged.repeated), (1.0, None));
            assert_eq!(outcome.cause(), None);
        }
    }

    #[test]
    fn a_deduction_that_does_not_repeat_is_not_counted() {
        // Settled below full, but the first half of the rounds gave 1.30x and the second
        // 1.34x: 42% and 57% of the credit, judged alone.
        let m = rounds(
            &[1000; 14],
            &[
                769, 769, 769, 769, 769, 769, 769, 746, 746, 746, 746, 746, 746, 746,
            ],
            &[1042; 14],
        );
        let outcome = judge(m.clone(), 2, &rule(), POOL, false);
        let SpeedupOutcome::Busy(_, Busy::Unrepeated(first, second)) = outcome else {
            panic!("not counted: {outcome:?}");
        };
        assert!(second - first > REPEATED, "{first} {second}");
        assert_eq!(credit(m), None, "while more rounds may be taken, they are");
        // The same rounds all like the first half: settled and repeated, a partial credit.
        let m = rounds(&[1000; 14], &[769; 14], &[1042; 14]);
        let SpeedupOutcome::Judged(_, judged) = judge(m, 2, &rule(), POOL, false) else {
            panic!("judged");
        };
        let (first, second) = judged.repeated.expect("measured twice");
        assert!((first - second).abs() < 1e-9 && (judged.credit - first).abs() < 1e-9);
        assert!(judged.credit > 0.3 && judged.credit < 0.5, "{judged:?}");
    }
}
