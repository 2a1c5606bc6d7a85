//! What a speed-up case measured: the CPUs the program could use, what the student's threads
//! did in each timed search round by round (the kernel's account of their CPU time and of the
//! time they were ready to run, and the instructions they retired where hardware counters
//! counted them, see [`Work`]), the grader's own calibration of the machine's ceiling, whether the evidence settled the credit, what it earned, and the thread design seen
//! (with the uneven position that tells a division of the columns fixed in advance).

use std::time::Duration;

use super::design::Design;
use crate::process::counters::Uncounted;
use crate::process::topology::Chosen;
use crate::process::{Cpus, Failure};

/// What the student's threads did during one search, from the kernel's account of each thread
/// (every process of the student's counted, not only the one asked).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Work {
    /// From sending the command to reading its answer.
    pub wall: Duration,
    /// The CPU time all the threads ran, added up.
    pub cpu: Duration,
    /// The time they were ready to run (running, or waiting for a CPU), added up: over `wall`,
    /// how many threads were at work at once on average, however busy the machine was.
    pub ready: Duration,
    /// How long the search would have taken on a machine that kept none of its threads
    /// waiting: `wall` scaled by the share of its ready time that the best-served worker
    /// actually ran, and never more than `cpu`. The wall-clock time a busy machine stretches,
    /// taken out.
    pub span: Duration,
    /// How many threads did the search's work (see [`crate::judge`]'s design).
    pub workers: usize,
    /// The share of `cpu` that the busiest worker ran.
    pub busiest: f64,
    /// Whether the kernel said how long each thread waited for a CPU (else `span` is `wall`).
    pub accounted: bool,
    /// The instructions the threads retired in user space, where hardware counters counted
    /// them.
    pub instructions: Option<u64>,
}

impl Work {
    /// How many threads were at work at once, on average.
    pub fn at_once(&self) -> f64 {
        self.ready.as_secs_f64() / self.wall.as_secs_f64().max(1e-9)
    }

    /// How many threads ran side by side over the span, on average: its CPU time over its
    /// span (1 for one thread at work, at least 1 since a span is never more than the CPU
    /// time). Waiting for a CPU stretches neither.
    pub fn parallelism(&self) -> f64 {
        self.cpu.as_secs_f64() / self.span.as_secs_f64().max(1e-9)
    }

    /// The share of the threads' ready time that the machine kept them waiting for a CPU:
    /// their waiting, but no more than the CPU time that the `cpus` they could use had to
    /// spare over the wall-clock time. More threads at work than those CPUs wait for each
    /// other, the program's own doing (a JVM's collector beside the workers). With `cpus`
    /// unknown, all their waiting.
    pub fn waited(&self, cpus: Option<f64>) -> f64 {
        let (ready, cpu) = (self.ready.as_secs_f64(), self.cpu.as_secs_f64());
        let spare = cpus.map_or(f64::INFINITY, |c| c * self.wall.as_secs_f64() - cpu);
        (ready - cpu).min(spare).max(0.0) / ready.max(1e-9)
    }
}

/// One `scores DEPTH` searched round after round: by the program on one thread and on many,
/// with the grader's own calibration of what many threads can give on this machine now in
/// between. Each round's ratios are judged, taken close together.
#[derive(Clone, Debug, PartialEq)]
pub struct Measurement {
    /// The depth searched.
    pub depth: u32,
    /// Each round's search on one thread.
    pub one: Vec<Work>,
    /// Each round's search on the speed-up's threads.
    pub many: Vec<Work>,
    /// Each round's ceiling: the most the speed-up's threads can give on this machine, from the
    /// grader's own work run on one thread and then on that many at once ([`Work::span`]s).
    pub ceilings: Vec<f64>,
    /// How many CPUs the program's threads could use at once (those chosen for it, no more
    /// than the quota); unknown in records made before it was kept.
    pub cpus: Option<f64>,
    /// Each round's growth of the grader's own work: its CPU time on the speed-up's threads at
    /// once over the same work on one thread, on the same CPUs in the same round. The
    /// machine's share of any growth (a busy host slows two CPUs at work at once more than
    /// one); empty in records made before it was kept.
    pub machine: Vec<f64>,
    /// What the growth of the rounds' work is measured in: the instructions retired while
    /// every search's and every calibration's counters were opened and read, else CPU time and
    /// why; unknown in records made before it was kept (CPU time).
    pub counted: Option<Counting>,
    /// Each round's growth of the grader's own work in instructions retired, as
    /// [`Measurement::machine`] in CPU time, while they are counted.
    pub machine_instructions: Vec<f64>,
}

/// What the growth of a measurement's work is measured in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counting {
    /// The instructions the threads retired, which a busy host does not stretch.
    Instructions,
    /// The threads' CPU time: a counter could not be opened or read, for this reason.
    CpuTime(Uncounted),
}

impl Measurement {
    /// No rounds yet, at `depth`, on `cpus` CPUs, counting instructions until a round cannot.
    pub fn new(depth: u32, cpus: f64) -> Self {
        Measurement {
            depth,
            one: Vec::new(),
            many: Vec::new(),
            ceilings: Vec::new(),
            cpus: Some(cpus),
            machine: Vec::new(),
            counted: Some(Counting::Instructions),
            machine_instructions: Vec::new(),
        }
    }

    /// Adds a round's count: the growth of the grader's own work in instructions retired, or
    /// why the round's searches or calibration could not be counted. The first that could not
    /// turns the whole measurement to CPU time, so that every round is measured alike.
    pub fn count(&mut self, counted: Result<f64, Uncounted>) {
        if self.counted != Some(Counting::Instructions) {
            return;
        }
        match counted {
            Ok(growth) => self.machine_instructions.push(growth),
            Err(why) => {
                self.counted = Some(Counting::CpuTime(why));
                self.machine_instructions.clear();
            }
        }
    }

    /// Each round's speed-up: the one-thread search's span over the many-thread search's,
    /// [`capped`].
    pub fn speedups(&self) -> Vec<f64> {
        let span = |w: &Work| w.span.as_secs_f64();
        ratios(&self.one, &self.many, span)
            .into_iter()
            .zip(&self.many)
            .map(|(speedup, many)| capped(speedup, many))
            .collect()
    }

    /// Each round's speed-up by the clock on the wall, for information: a busy machine
    /// stretches it.
    pub fn wall_speedups(&self) -> Vec<f64> {
        let wall = |w: &Work| w.wall.as_secs_f64();
        ratios(&self.one, &self.many, wall)
    }

    /// Each round's one-thread CPU work over the many-thread search's: about 1 for the same
    /// search split among threads.
    pub fn work_ratios(&self) -> Vec<f64> {
        let cpu = |w: &Work| w.cpu.as_secs_f64();
        ratios(&self.one, &self.many, cpu)
    }

    /// The median of the rounds' speed-ups.
    pub fn speedup(&self) -> f64 {
        median(&self.speedups())
    }

    /// The median of the rounds' ceilings (0 for none).
    pub fn ceiling(&self) -> f64 {
        median(&self.ceilings)
    }

    /// Where the median speed-up lies with [`CONFIDENCE`], from the rounds': lowest, highest.
    pub fn speedup_range(&self) -> (f64, f64) {
        median_range(&self.speedups())
    }

    /// Where the median ceiling lies with [`CONFIDENCE`].
    pub fn ceiling_range(&self) -> (f64, f64) {
        median_range(&self.ceilings)
    }

    /// How many rounds were timed.
    pub fn rounds(&self) -> usize {
        self.one.len()
    }

    /// Whether the growth of the rounds' work is measured in instructions retired.
    pub fn in_instructions(&self) -> bool {
        self.counted == Some(Counting::Instructions)
    }

    /// Each round's work on the speed-up's threads over the one-thread search's, in
    /// instructions retired where they were counted, else in CPU time: about 1 for the same
    /// search split among threads, more when the threads' work grew.
    pub fn growths(&self) -> Vec<f64> {
        match self.in_instructions() {
            true => ratios(&self.many, &self.one, |w| {
                w.instructions.unwrap_or_default() as f64
            }),
            false => ratios(&self.many, &self.one, |w| w.cpu.as_secs_f64()),
        }
    }

    /// Each round's growth of the grader's own work, measured as [`Measurement::growths`]:
    /// the machine's share.
    pub fn machine_growths(&self) -> &[f64] {
        match self.in_instructions() {
            true => &self.machine_instructions,
            false => &self.machine,
        }
    }

    /// Each round's [`Measurement::growths`] over the grader's own work's growth in the same
    /// round ([`Measurement::machine_growths`]): the program's own share of it (the rounds'
    /// growths as they are where the machine's was not kept).
    pub fn own_growths(&self) -> Vec<f64> {
        let machine = self.machine_growths().iter().copied();
        let machine = machine.chain(std::iter::repeat(1.0));
        self.growths()
            .into_iter()
            .zip(machine)
            .map(|(grew, machine)| grew / machine.max(1e-9))
            .collect()
    }

    /// The share of their ready time that the machine kept the threads of the searches on
    /// more threads waiting for a CPU (the median of the rounds' [`Work::waited`]).
    pub fn waited(&self) -> f64 {
        medians(&self.many, |w| w.waited(self.cpus))
    }

    /// The searches' spans in seconds, on one thread and on the speed-up's threads (the
    /// medians of the rounds').
    pub fn spans(&self) -> (f64, f64) {
        let span = |w: &Work| w.span.as_secs_f64();
        (medians(&self.one, span), medians(&self.many, span))
    }

    /// The searches' wall-clock times in seconds, on one thread and on the speed-up's threads
    /// (the medians of the rounds'), for information: a busy machine stretches them.
    pub fn walls(&self) -> (f64, f64) {
        let wall = |w: &Work| w.wall.as_secs_f64();
        (medians(&self.one, wall), medians(&self.many, wall))
    }

    /// How many threads were at work at once in the searches on the speed-up's threads (the
    /// median of the rounds').
    pub fn at_once(&self) -> f64 {
        medians(&self.many, Work::at_once)
    }

    /// The one-thread search's CPU work over the many-thread search's (the median of the
    /// rounds' [`Measurement::work_ratios`]): about 1 for the same search split among threads.
    pub fn work_ratio(&self) -> f64 {
        median(&self.work_ratios())
    }

    /// Whether the kernel said how long every thread waited for a CPU in every search: without
    /// that, a busy machine cannot be told from a slow program.
    pub fn accounted(&self) -> bool {
        self.one.iter().chain(&self.many).all(|w| w.accounted)
    }
}

/// A `speedup` measured against the search `many`, never more than its [`Work::parallelism`]:
/// threads that did not run side by side did not share the search, so a speed-up beyond
/// theirs is the CPU time of one search jumping from the next (one worker, or workers taking
/// turns, on a loaded machine), not a gain.
pub fn capped(speedup: f64, many: &Work) -> f64 {
    speedup.min(many.parallelism())
}

/// Each of `times`' value (by `of`) over the same round's in `over`.
fn ratios(times: &[Work], over: &[Work], of: impl Fn(&Work) -> f64) -> Vec<f64> {
    times
        .iter()
        .zip(over)
        .map(|(t, o)| of(t) / of(o).max(1e-9))
        .collect()
}

/// The median of each of `works`' value by `of` (0 for none).
fn medians(works: &[Work], of: impl Fn(&Work) -> f64) -> f64 {
    median(&works.iter().map(of).collect::<Vec<f64>>())
}

/// How sure [`median_range`] is that the true median lies in the range it gives.
pub const CONFIDENCE: f64 = 0.8;

/// The median of `values` (0 for none).
pub fn median(values: &[f64]) -> f64 {
    let sorted = sorted(values);
    match sorted.len() {
        0 => 0.0,
        n if n % 2 == 0 => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
        n => sorted[n / 2],
    }
}

/// The range in which the median of what `values` sample lies with [`CONFIDENCE`], whatever
/// their distribution: from the k-th smallest to the k-th largest, for the largest k such that
/// the median falls below the k-th smallest (each value is below it with chance one half) no
/// more often than half of `1 - CONFIDENCE`. More rounds narrow it. (0, 0) for none.
pub fn median_range(values: &[f64]) -> (f64, f64) {
    let sorted = sorted(values);
    let n = sorted.len();
    if n == 0 {
        return (0.0, 0.0);
    }
    let tail = (1.0 - CONFIDENCE) / 2.0;
    // `chance`: that exactly j of the n values fall below the median; `below`: j or fewer.
    let mut chance = 0.5_f64.powi(i32::try_from(n).unwrap_or(i32::MAX));
    let mut below = 0.0;
    let mut k = 1;
    for j in 0..n / 2 {
        below += chance;
        if below > tail {
            break;
        }
        k = j + 1;
        chance *= (n - j) as f64 / (j + 1) as f64;
    }
    (sorted[k - 1], sorted[n - k])
}

/// `values` in order.
fn sorted(values: &[f64]) -> Vec<f64> {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted
}

/// Why a position could not be measured.
#[derive(Clone, Debug, PartialEq)]
pub enum SpeedupFault {
    /// The case's script did not get through with this many threads (the case's exchanges say
    /// why).
    Script(usize),
    /// A command failed, with this many threads.
    Program {
        /// The command.
        command: String,
        /// The threads the program was started with.
        threads: usize,
        /// How it failed.
        failure: Failure,
    },
    /// A `play` setting the position up was refused: the command and the answer.
    Refused(String, String),
    /// `scores DEPTH` answered differently with one thread and with more (or from one run to
    /// another), or failed.
    Differ {
        /// The depth.
        depth: u32,
        /// The first answer with one thread.
        one: String,
        /// The answer that differs.
        other: String,
        /// The threads it was given with.
        threads: usize,
    },
}

/// Why the speed-up could not be judged, though the program was measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Busy {
    /// The rounds, as many as the case allows, still left the credit unsettled below full:
    /// the medians' ranges allowed anything from the first share of the points to the
    /// second, further apart than the rule lets them be.
    Unsettled(f64, f64),
    /// The grader's own threads gained only this ceiling: the machine could not run the
    /// speed-up's threads at once.
    Ceiling(f64),
    /// The kernel does not say how long threads wait for a CPU (no `schedstat`), so a busy
    /// machine cannot be told from a slow program.
    Unaccounted,
    /// The rounds settled below full credit, but their first half and their second, each
    /// judged alone, gave these shares of the points, further apart than [`REPEATED`]: a
    /// deduction that does not hold when measured again is no deduction.
    Unrepeated(f64, f64),
    /// The rounds settled below full credit, but the machine kept the program's threads
    /// waiting for a CPU the first share of their ready time (the median of the many-thread
    /// searches'), more than the second, the rule's `busy_waiting`: a pool's work then goes to
    /// whichever worker runs, and the evidence says more of the machine than of the program.
    Waited(f64, f64),
}

/// Two halves of the rounds agree when the credits they give alone are no further apart than
/// this share of the points (one point of ten): a credit below full is given only then.
pub const REPEATED: f64 = 0.1;

/// Why a measured speed-up earns nothing, whatever its figures.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Refusal {
    /// The one-thread search cost this many times the CPU work of the many-thread one (the
    /// median of the rounds): it did more than the same search, so it is no baseline to
    /// measure a speed-up against.
    NoBaseline(f64),
    /// Between commands, with nothing to do, the program's workers kept this many threads
    /// ready to run on average: they poll for work instead of waiting for it.
    BusyWaiting(f64),
    /// On `THREADS` 1 this many threads did the search's work (a thread per column, whatever
    /// `THREADS` says): there is no one-thread search to measure a speed-up against, on any
    /// machine, so the machine's load never decides it.
    IgnoresThreads(usize),
}

/// What became of the plain position.
#[derive(Clone, Debug, PartialEq)]
pub enum SpeedupOutcome {
    /// Fewer CPUs than the speed-up's threads: not timed, not counted.
    TooFewCpus,
    /// A measurement failed: no credit.
    Failed(SpeedupFault),
    /// Measured, but not judged: not counted (grade again).
    Busy(Measurement, Busy),
    /// Measured, and refused: no credit.
    Refused(Measurement, Refusal),
    /// Measured and judged.
    Judged(Measurement, Judged),
}

impl SpeedupOutcome {
    /// The rounds measured, if any.
    pub fn measurement(&self) -> Option<&Measurement> {
        match self {
            SpeedupOutcome::Busy(m, _)
            | SpeedupOutcome::Refused(m, _)
            | SpeedupOutcome::Judged(m, _) => Some(m),
            SpeedupOutcome::TooFewCpus | SpeedupOutcome::Failed(_) => None,
        }
    }
}

/// A speed-up judged against the machine's ceiling.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Judged {
    /// The one-thread span over the many-thread span (medians).
    pub speedup: f64,
    /// The most the threads could give on this machine, from the grader's own calibration in
    /// the same rounds.
    pub ceiling: f64,
    /// `(speedup - 1) / (ceiling - 1)`: the share of the possible gain that the program gained.
    pub gain: f64,
    /// The speed-up that earns full credit on this machine.
    pub full_at: f64,
    /// The share of the case's points it earns, 0 to 1.
    pub credit: f64,
    /// Cause (b): the threads' work (CPU time, or instructions retired where counted) on the
    /// speed-up's threads over the same search's on one thread, set against the grader's own
    /// work's growth in the same rounds (the median of the rounds'
    /// [`Measurement::own_growths`]), when even the low end of its range reached
    /// [`WORK_GREW`]: they did more work, or slowed each other down (a lock held, an atomic or
    /// a cache line both write: in CPU time only, as the same instructions take longer),
    /// beyond what the machine did to the grader's own.
    pub grew: Option<f64>,
    /// For a credit below full, what the first half of the rounds and the second gave, each
    /// judged alone: no further apart than [`REPEATED`], the evidence that the deduction
    /// holds when measured again. `None` for full credit.
    pub repeated: Option<(f64, f64)>,
}

/// The threads' work grew when the speed-up's threads together ran this many times the CPU
/// time of the same search on one thread (or retired this many times its instructions, where
/// they were counted): the same work split among threads costs about the same (the reference:
/// 1.03 on this project's machine), a pool whose workers write the same cache lines at every
/// node more CPU time (a fixture packing each task's board beside the other worker's: 1.9 and
/// more).
pub const WORK_GREW: f64 = 1.3;

/// Why a speed-up is not what a pool on CPUs of its own would show, as the reports name it:
/// the machine's doing, or the program's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Cause {
    /// (a) The machine could not give the threads the CPU, the grader's own threads could not
    /// run at once, or the rounds did not settle or repeat: another run, on an idle machine,
    /// can change it: grade again.
    Machine,
    /// (b) The program's threads did this many times the one-thread search's work, beyond
    /// the machine's share, and two halves of the rounds gave the same credit: judged as
    /// measured.
    WorkGrew(f64),
}

impl SpeedupOutcome {
    /// The cause that made the rounds other than a pool's on CPUs of its own, if one did and
    /// it cost credit or the count.
    pub fn cause(&self) -> Option<Cause> {
        match self {
            SpeedupOutcome::Busy(_, Busy::Unaccounted) => None,
            SpeedupOutcome::Busy(..) => Some(Cause::Machine),
            SpeedupOutcome::Judged(_, judged) if judged.credit < 1.0 => {
                judged.grew.map(Cause::WorkGrew)
            }
            _ => None,
        }
    }
}

/// How the work was split among the threads at the uneven position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Split {
    /// The depth searched.
    pub depth: u32,
    /// What the many-thread search's threads did.
    pub work: Work,
}

/// The uneven position: some columns filled, so that a division of the columns fixed in
/// advance leaves threads idle while a pool keeps them all busy.
#[derive(Clone, Debug, PartialEq)]
pub struct Uneven {
    /// The columns filled to the top.
    pub columns: Vec<usize>,
    /// How the work was split there, or why it was not seen.
    pub seen: Result<Split, SpeedupFault>,
}

/// One thread count's figures in the scaling view: the median speed-up of the program and the median ceiling.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scale {
    /// The threads the program was given.
    pub threads: usize,
    /// The one-thread search's span over this many threads' (the median of the rounds',
    /// each [`capped`]).
    pub speedup: f64,
    /// The grader's own work on this many threads at once against one (the median).
    pub ceiling: f64,
}

/// A speed-up case's measurement and credit.
#[derive(Clone, Debug, PartialEq)]
pub struct Speedup {
    /// The case's thread count (one) and the speed-up's.
    pub threads: (usize, usize),
    /// The CPUs the program could use.
    pub cpus: Cpus,
    /// The CPUs the measurement and the calibration ran on, and their cores (none for a
    /// result kept before they were chosen).
    pub chosen: Option<Chosen>,
    /// The scaling view (not scored): the speed-up and the ceiling at each thread count
    /// measured, from 1; empty when it was not asked for or nothing was measured.
    pub scaling: Vec<Scale>,
    /// The plain position, and what it earned.
    pub outcome: SpeedupOutcome,
    /// The uneven position, when the case has one and the program searched on several threads.
    pub uneven: Option<Uneven>,
    /// How the program used its threads.
    pub design: Design,
}

impl Speedup {
    /// The share of the case's points it earns, 0 to 1; `None` when it could not be judged (too
    /// few CPUs, the rounds unsettled), so that it is not counted either way.
    pub fn credit(&self) -> Option<f64> {
        match &self.outcome {
            SpeedupOutcome::TooFewCpus | SpeedupOutcome::Busy(..) => None,
            SpeedupOutcome::Failed(SpeedupFault::Program {
                failure: Failure::Starved { .. },
                ..
            }) => None,
            SpeedupOutcome::Failed(_) | SpeedupOutcome::Refused(..) => Some(0.0),
            SpeedupOutcome::Judged(_, judged) => Some(judged.credit),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A search of `span` milliseconds that ran `cpu` on the wall clock's `wall`.
    fn work(wall: u64, cpu: u64, span: u64) -> Work {
        Work {
            wall: Duration::from_millis(wall),
            cpu: Duration::from_millis(cpu),
            ready: Duration::from_millis(cpu),
            span: Duration::from_millis(span),
            workers: 1,
            busiest: 1.0,
            accounted: true,
            instructions: None,
        }
    }

    #[test]
    fn only_the_machine_s_share_of_the_waiting_is_counted() {
        let waiting = |wall: u64, cpu: u64, ready: u64| Work {
            ready: Duration::from_millis(ready),
            ..work(wall, cpu, wall)
        };
        let cases = [
            // Three threads of the program's ready all along on its two CPUs, both kept
            // busy: they waited for each other, not for the machine.
            (waiting(1000, 2000, 3000), 0.0, 1.0 / 3.0),
            // Two threads, one CPU of the two taken by another program all along.
            (waiting(1000, 1000, 2000), 0.5, 0.5),
            // Three threads, half a CPU taken: the machine's share is that half.
            (waiting(1000, 1500, 3000), 1.0 / 6.0, 0.5),
        ];
        for (w, machine, all) in cases {
            assert!((w.waited(Some(2.0)) - machine).abs() < 1e-9, "{w:?}");
            assert!((w.waited(None) - all).abs() < 1e-9, "{w:?}");
        }
    }

    #[test]
    fn each_rounds_spans_make_the_speedup_whatever_the_wall_clock_says() {
        // The machine was busy in the last rounds: the wall clock doubled, the spans held.
        let m = Measurement {
            depth: 8,
            one: vec![
                work(400, 400, 400),
                work(400, 400, 400),
                work(800, 400, 400),
            ],
            many: vec![
                work(220, 420, 215),
                work(230, 410, 210),
                work(460, 420, 220),
            ],
            ceilings: vec![1.9, 1.8, 1.85],
            cpus: Some(2.0),
            machine: Vec::new(),
            counted: None,
            machine_instructions: Vec::new(),
        };
        assert!((m.speedup() - 400.0 / 215.0).abs() < 1e-9);
        assert!((m.ceiling() - 1.85).abs() < 1e-9);
        assert!((median(&m.wall_speedups()) - 400.0 / 230.0).abs() < 1e-9);
        assert!((median(&m.work_ratios()) - 400.0 / 420.0).abs() < 1e-9);
        assert!((m.work_ratio() - 400.0 / 420.0).abs() < 1e-9);
        let ((one, many), (one_wall, many_wall)) = (m.spans(), m.walls());
        assert!((one - 0.4).abs() < 1e-9 && (many - 0.215).abs() < 1e-9);
        assert!((one_wall - 0.4).abs() < 1e-9 && (many_wall - 0.23).abs() < 1e-9);
        assert!((m.at_once() - 410.0 / 230.0).abs() < 1e-9);
        assert_eq!(m.rounds(), 3);
        assert!(m.accounted());
        let unaccounted = Measurement {
            one: vec![Work {
                accounted: false,
                ..work(400, 400, 400)
            }],
            ..m
        };
        assert!(!unaccounted.accounted());
        assert!((work(500, 900, 480).at_once() - 1.8).abs() < 1e-9);
        assert!((work(500, 900, 480).parallelism() - 1.875).abs() < 1e-9);
        // A round whose 2-thread search ran less CPU time than the one-thread span: the
        // speed-up is what its threads side by side could give, not the lost work's.
        let less = Measurement {
            one: vec![work(400, 400, 400)],
            many: vec![work(260, 300, 250)],
            ceilings: vec![1.9],
            cpus: Some(2.0),
            depth: 8,
            machine: Vec::new(),
            counted: None,
            machine_instructions: Vec::new(),
        };
        assert!((less.speedup() - 1.2).abs() < 1e-9);
    }

    #[test]
    fn growth_is_measured_in_instructions_until_a_round_cannot_count_them() {
        let counted = |cpu, instructions| Work {
            instructions: Some(instructions),
            ..work(400, cpu, 400)
        };
        let mut m = Measurement::new(8, 2.0);
        // A busy host stretched the CPU time on 2 threads by half, the grader's own by 1.4x;
        // the instructions grew 3%, the grader's not at all.
        for _ in 0..3 {
            m.one.push(counted(400, 1000));
            m.many.push(counted(600, 1030));
            m.machine.push(1.4);
            m.count(Ok(1.0));
        }
        assert!(m.in_instructions());
        assert_eq!(m.machine_growths(), [1.0; 3]);
        assert!(m.own_growths().iter().all(|g| (g - 1.03).abs() < 1e-9));
        // A round whose counter could not be opened: every round in CPU time, and why, even
        // when the next round is counted again.
        m.one.push(work(400, 400, 400));
        m.many.push(work(300, 600, 300));
        m.machine.push(1.4);
        m.count(Err(Uncounted::Denied));
        m.count(Ok(1.0));
        assert_eq!(m.counted, Some(Counting::CpuTime(Uncounted::Denied)));
        assert_eq!(m.machine_growths(), [1.4; 4]);
        assert!(m.growths().iter().all(|g| (g - 1.5).abs() < 1e-9));
        assert!(m.machine_instructions.is_empty());
    }

    /// The chance that the median of a uniform sample of `n` falls outside `median_range`,
    /// counted over many samples drawn by a fixed generator.
    fn missed(n: usize) -> f64 {
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        let trials = 20_000;
        let misses = (0..trials)
            .filter(|_| {
                let values: Vec<f64> = (0..n).map(|_| next()).collect();
                let (low, high) = median_range(&values);
                !(low..=high).contains(&0.5)
            })
            .count();
        misses as f64 / trials as f64
    }

    #[test]
    fn the_median_range_holds_the_median_as_often_as_it_says() {
        for n in [7, 10, 15, 21] {
            let missed = missed(n);
            assert!(
                missed <= 1.0 - CONFIDENCE + 0.01,
                "{n} values: missed {missed}"
            );
            // Not much wider than it needs to be either.
            assert!(
                missed >= (1.0 - CONFIDENCE) / 3.0,
                "{n} values: missed {missed}"
            );
        }
    }

    #[test]
    fn the_median_range_narrows_with_more_values_and_holds_the_median() {
        let values: Vec<f64> = (1..=7).map(f64::from).collect();
        assert_eq!(median_range(&values), (2.0, 6.0));
        let more: Vec<f64> = (1..=21).map(f64::from).collect();
        let (low, high) = median_range(&more);
        assert!(
            low <= 11.0 && 11.0 <= high && high - low < 10.0,
            "{low} {high}"
        );
        assert_eq!(median_range(&[3.0]), (3.0, 3.0));
        assert_eq!(median_range(&[]), (0.0, 0.0));
    }
}
