//! A speed-up case's measurement as a record stores it: the CPUs it had, what the threads did
//! in each timed search, the outcome and its credit, and the thread design seen.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::each::{all, back};
use super::process::{Chosen, Cpus, Failure};
use crate::judge::result::design as judge_design;
use crate::judge::result::speedup as judge;
use crate::process::counters;

/// [`judge::Speedup`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub struct Speedup {
    threads: (usize, usize),
    cpus: Cpus,
    chosen: Option<Chosen>,
    scaling: Vec<Scale>,
    outcome: SpeedupOutcome,
    uneven: Option<Uneven>,
    design: Design,
}

impl From<&judge::Speedup> for Speedup {
    fn from(speedup: &judge::Speedup) -> Speedup {
        Speedup {
            threads: speedup.threads,
            cpus: (&speedup.cpus).into(),
            chosen: speedup.chosen.as_ref().map(Into::into),
            scaling: all(&speedup.scaling),
            outcome: (&speedup.outcome).into(),
            uneven: speedup.uneven.as_ref().map(|uneven| Uneven {
                columns: uneven.columns.clone(),
                seen: match &uneven.seen {
                    Ok(split) => Ok(split.into()),
                    Err(fault) => Err(fault.into()),
                },
            }),
            design: (&speedup.design).into(),
        }
    }
}

impl From<Speedup> for judge::Speedup {
    fn from(speedup: Speedup) -> judge::Speedup {
        judge::Speedup {
            threads: speedup.threads,
            cpus: speedup.cpus.into(),
            chosen: speedup.chosen.map(Into::into),
            scaling: back(speedup.scaling),
            outcome: speedup.outcome.into(),
            uneven: speedup.uneven.map(|uneven| judge::Uneven {
                columns: uneven.columns,
                seen: uneven.seen.map(Into::into).map_err(Into::into),
            }),
            design: speedup.design.into(),
        }
    }
}

/// [`judge::Scale`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub struct Scale {
    threads: usize,
    speedup: f64,
    ceiling: f64,
}

impl From<&judge::Scale> for Scale {
    fn from(scale: &judge::Scale) -> Scale {
        Scale {
            threads: scale.threads,
            speedup: scale.speedup,
            ceiling: scale.ceiling,
        }
    }
}

impl From<Scale> for judge::Scale {
    fn from(scale: Scale) -> judge::Scale {
        judge::Scale {
            threads: scale.threads,
            speedup: scale.speedup,
            ceiling: scale.ceiling,
        }
    }
}

/// [`judge::Uneven`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub struct Uneven {
    columns: Vec<usize>,
    seen: Result<Split, SpeedupFault>,
}

/// [`judge::Split`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub struct Split {
    depth: u32,
    work: Work,
}

impl From<&judge::Split> for Split {
    fn from(split: &judge::Split) -> Split {
        Split {
            depth: split.depth,
            work: (&split.work).into(),
        }
    }
}

impl From<Split> for judge::Split {
    fn from(split: Split) -> judge::Split {
        judge::Split {
            depth: split.depth,
            work: split.work.into(),
        }
    }
}

/// [`judge::Work`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub struct Work {
    wall: Duration,
    cpu: Duration,
    ready: Duration,
    span: Duration,
    workers: usize,
    busiest: f64,
    accounted: bool,
    /// None in version 1.
    #[serde(default)]
    instructions: Option<u64>,
}

impl From<&judge::Work> for Work {
    fn from(work: &judge::Work) -> Work {
        let judge::Work {
            wall,
            cpu,
            ready,
            span,
            workers,
            busiest,
            accounted,
            instructions,
        } = *work;
        Work {
            wall,
            cpu,
            ready,
            span,
            workers,
            busiest,
            accounted,
            instructions,
        }
    }
}

impl From<Work> for judge::Work {
    fn from(work: Work) -> judge::Work {
        judge::Work {
            wall: work.wall,
            cpu: work.cpu,
            ready: work.ready,
            span: work.span,
            workers: work.workers,
            busiest: work.busiest,
            accounted: work.accounted,
            instructions: work.instructions,
        }
    }
}

/// [`judge::Measurement`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub struct Measurement {
    depth: u32,
    one: Vec<Work>,
    many: Vec<Work>,
    ceilings: Vec<f64>,
    cpus: Option<f64>,
    machine: Vec<f64>,
    /// None in version 1, which kept `counters` (whether the machine offered them) instead:
    /// ignored, its growth read as measured in CPU time.
    #[serde(default)]
    counted: Option<Counting>,
    /// Empty in version 1.
    #[serde(default)]
    machine_instructions: Vec<f64>,
}

/// [`judge::Counting`] as stored.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub enum Counting {
    Instructions,
    CpuTime(Uncounted),
}

/// [`counters::Uncounted`] as stored.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub enum Uncounted {
    NoCounter,
    Denied,
    NoDescriptors,
    NoThreads,
    TooManyThreads,
    Failed(Option<i32>),
}

impl From<judge::Counting> for Counting {
    fn from(counting: judge::Counting) -> Counting {
        match counting {
            judge::Counting::Instructions => Counting::Instructions,
            judge::Counting::CpuTime(why) => Counting::CpuTime(why.into()),
        }
    }
}

impl From<Counting> for judge::Counting {
    fn from(counting: Counting) -> judge::Counting {
        match counting {
            Counting::Instructions => judge::Counting::Instructions,
            Counting::CpuTime(why) => judge::Counting::CpuTime(why.into()),
        }
    }
}

impl From<counters::Uncounted> for Uncounted {
    fn from(why: counters::Uncounted) -> Uncounted {
        match why {
            counters::Uncounted::NoCounter => Uncounted::NoCounter,
            counters::Uncounted::Denied => Uncounted::Denied,
            counters::Uncounted::NoDescriptors => Uncounted::NoDescriptors,
            counters::Uncounted::NoThreads => Uncounted::NoThreads,
            counters::Uncounted::TooManyThreads => Uncounted::TooManyThreads,
            counters::Uncounted::Failed(errno) => Uncounted::Failed(errno),
        }
    }
}

impl From<Uncounted> for counters::Uncounted {
    fn from(why: Uncounted) -> counters::Uncounted {
        match why {
            Uncounted::NoCounter => counters::Uncounted::NoCounter,
            Uncounted::Denied => counters::Uncounted::Denied,
            Uncounted::NoDescriptors => counters::Uncounted::NoDescriptors,
            Uncounted::NoThreads => counters::Uncounted::NoThreads,
            Uncounted::TooManyThreads => counters::Uncounted::TooManyThreads,
            Uncounted::Failed(errno) => counters::Uncounted::Failed(errno),
        }
    }
}

impl From<&judge::Measurement> for Measurement {
    fn from(m: &judge::Measurement) -> Measurement {
        Measurement {
            depth: m.depth,
            one: all(&m.one),
            many: all(&m.many),
            ceilings: m.ceilings.clone(),
            cpus: m.cpus,
            machine: m.machine.clone(),
            counted: m.counted.map(Into::into),
            machine_instructions: m.machine_instructions.clone(),
        }
    }
}

impl From<Measurement> for judge::Measurement {
    fn from(m: Measurement) -> judge::Measurement {
        judge::Measurement {
            depth: m.depth,
            one: back(m.one),
            many: back(m.many),
            ceilings: m.ceilings,
            cpus: m.cpus,
            machine: m.machine,
            counted: m.counted.map(Into::into),
            machine_instructions: m.machine_instructions,
        }
    }
}

/// [`judge::SpeedupOutcome`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub enum SpeedupOutcome {
    TooFewCpus,
    Failed(SpeedupFault),
    Busy(Measurement, Busy),
    Refused(Measurement, Refusal),
    Judged(Measurement, Judged),
}

impl From<&judge::SpeedupOutcome> for SpeedupOutcome {
    fn from(outcome: &judge::SpeedupOutcome) -> SpeedupOutcome {
        use judge::SpeedupOutcome as O;
        match outcome {
            O::TooFewCpus => SpeedupOutcome::TooFewCpus,
            O::Failed(fault) => SpeedupOutcome::Failed(fault.into()),
            O::Busy(m, busy) => SpeedupOutcome::Busy(m.into(), busy.into()),
            O::Refused(m, refusal) => SpeedupOutcome::Refused(m.into(), refusal.into()),
            O::Judged(m, judged) => SpeedupOutcome::Judged(m.into(), judged.into()),
        }
    }
}

impl From<SpeedupOutcome> for judge::SpeedupOutcome {
    fn from(outcome: SpeedupOutcome) -> judge::SpeedupOutcome {
        use judge::SpeedupOutcome as O;
        match outcome {
            SpeedupOutcome::TooFewCpus => O::TooFewCpus,
            SpeedupOutcome::Failed(fault) => O::Failed(fault.into()),
            SpeedupOutcome::Busy(m, busy) => O::Busy(m.into(), busy.into()),
            SpeedupOutcome::Refused(m, refusal) => O::Refused(m.into(), refusal.into()),
            SpeedupOutcome::Judged(m, judged) => O::Judged(m.into(), judged.into()),
        }
    }
}

/// [`judge::SpeedupFault`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub enum SpeedupFault {
    Script(usize),
    Program {
        command: String,
        threads: usize,
        failure: Failure,
    },
    Refused(String, String),
    Differ {
        depth: u32,
        one: String,
        other: String,
        threads: usize,
    },
}

impl From<&judge::SpeedupFault> for SpeedupFault {
    fn from(fault: &judge::SpeedupFault) -> SpeedupFault {
        use judge::SpeedupFault as F;
        match fault {
            F::Script(line) => SpeedupFault::Script(*line),
            F::Program {
                command,
                threads,
                failure,
            } => SpeedupFault::Program {
                command: command.clone(),
                threads: *threads,
                failure: failure.into(),
            },
            F::Refused(command, answer) => SpeedupFault::Refused(command.clone(), answer.clone()),
            F::Differ {
                depth,
                one,
                other,
                threads,
            } => SpeedupFault::Differ {
                depth: *depth,
                one: one.clone(),
                other: other.clone(),
                threads: *threads,
            },
        }
    }
}

impl From<SpeedupFault> for judge::SpeedupFault {
    fn from(fault: SpeedupFault) -> judge::SpeedupFault {
        use judge::SpeedupFault as F;
        match fault {
            SpeedupFault::Script(line) => F::Script(line),
            SpeedupFault::Program {
                command,
                threads,
                failure,
            } => F::Program {
                command,
                threads,
                failure: failure.into(),
            },
            SpeedupFault::Refused(command, answer) => F::Refused(command, answer),
            SpeedupFault::Differ {
                depth,
                one,
                other,
                threads,
            } => F::Differ {
                depth,
                one,
                other,
                threads,
            },
        }
    }
}

/// [`judge::Busy`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub enum Busy {
    Unsettled(f64, f64),
    Ceiling(f64),
    Unaccounted,
    Unrepeated(f64, f64),
    Waited(f64, f64),
}

impl From<&judge::Busy> for Busy {
    fn from(busy: &judge::Busy) -> Busy {
        use judge::Busy as B;
        match *busy {
            B::Unsettled(low, high) => Busy::Unsettled(low, high),
            B::Ceiling(ceiling) => Busy::Ceiling(ceiling),
            B::Unaccounted => Busy::Unaccounted,
            B::Unrepeated(one, other) => Busy::Unrepeated(one, other),
            B::Waited(waited, allowed) => Busy::Waited(waited, allowed),
        }
    }
}

impl From<Busy> for judge::Busy {
    fn from(busy: Busy) -> judge::Busy {
        use judge::Busy as B;
        match busy {
            Busy::Unsettled(low, high) => B::Unsettled(low, high),
            Busy::Ceiling(ceiling) => B::Ceiling(ceiling),
            Busy::Unaccounted => B::Unaccounted,
            Busy::Unrepeated(one, other) => B::Unrepeated(one, other),
            Busy::Waited(waited, allowed) => B::Waited(waited, allowed),
        }
    }
}

/// [`judge::Refusal`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub enum Refusal {
    NoBaseline(f64),
    BusyWaiting(f64),
    IgnoresThreads(usize),
}

impl From<&judge::Refusal> for Refusal {
    fn from(refusal: &judge::Refusal) -> Refusal {
        use judge::Refusal as R;
        match *refusal {
            R::NoBaseline(share) => Refusal::NoBaseline(share),
            R::BusyWaiting(share) => Refusal::BusyWaiting(share),
            R::IgnoresThreads(workers) => Refusal::IgnoresThreads(workers),
        }
    }
}

impl From<Refusal> for judge::Refusal {
    fn from(refusal: Refusal) -> judge::Refusal {
        use judge::Refusal as R;
        match refusal {
            Refusal::NoBaseline(share) => R::NoBaseline(share),
            Refusal::BusyWaiting(share) => R::BusyWaiting(share),
            Refusal::IgnoresThreads(workers) => R::IgnoresThreads(workers),
        }
    }
}

/// [`judge::Judged`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub struct Judged {
    speedup: f64,
    ceiling: f64,
    gain: f64,
    full_at: f64,
    credit: f64,
    grew: Option<f64>,
    repeated: Option<(f64, f64)>,
}

impl From<&judge::Judged> for Judged {
    fn from(judged: &judge::Judged) -> Judged {
        let judge::Judged {
            speedup,
            ceiling,
            gain,
            full_at,
            credit,
            grew,
            repeated,
        } = *judged;
        Judged {
            speedup,
            ceiling,
            gain,
            full_at,
            credit,
            grew,
            repeated,
        }
    }
}

impl From<Judged> for judge::Judged {
    fn from(judged: Judged) -> judge::Judged {
        judge::Judged {
            speedup: judged.speedup,
            ceiling: judged.ceiling,
            gain: judged.gain,
            full_at: judged.full_at,
            credit: judged.credit,
            grew: judged.grew,
            repeated: judged.repeated,
        }
    }
}

/// [`judge_design::Design`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub enum Design {
    Pool {
        workers: usize,
        division: Division,
    },
    PerSearch {
        workers: usize,
        new: usize,
        division: Division,
        serial: bool,
    },
    IgnoresThreads {
        workers: usize,
        alone: usize,
        per_column: bool,
    },
    BusyWaiting {
        workers: usize,
        idle: f64,
    },
    TakingTurns {
        workers: usize,
        at_once: f64,
    },
    Polling {
        workers: usize,
        wakeups: f64,
    },
    Duplicated {
        workers: usize,
        work: f64,
    },
    OneWorker,
    Unseen(Unseen),
}

impl From<&judge_design::Design> for Design {
    fn from(design: &judge_design::Design) -> Design {
        use judge_design::Design as D;
        match *design {
            D::Pool { workers, division } => Design::Pool {
                workers,
                division: (&division).into(),
            },
            D::PerSearch {
                workers,
                new,
                division,
                serial,
            } => Design::PerSearch {
                workers,
                new,
                division: (&division).into(),
                serial,
            },
            D::IgnoresThreads {
                workers,
                alone,
                per_column,
            } => Design::IgnoresThreads {
                workers,
                alone,
                per_column,
            },
            D::BusyWaiting { workers, idle } => Design::BusyWaiting { workers, idle },
            D::TakingTurns { workers, at_once } => Design::TakingTurns { workers, at_once },
            D::Polling { workers, wakeups } => Design::Polling { workers, wakeups },
            D::Duplicated { workers, work } => Design::Duplicated { workers, work },
            D::OneWorker => Design::OneWorker,
            D::Unseen(unseen) => Design::Unseen((&unseen).into()),
        }
    }
}

impl From<Design> for judge_design::Design {
    fn from(design: Design) -> judge_design::Design {
        use judge_design::Design as D;
        match design {
            Design::Pool { workers, division } => D::Pool {
                workers,
                division: division.into(),
            },
            Design::PerSearch {
                workers,
                new,
                division,
                serial,
            } => D::PerSearch {
                workers,
                new,
                division: division.into(),
                serial,
            },
            Design::IgnoresThreads {
                workers,
                alone,
                per_column,
            } => D::IgnoresThreads {
                workers,
                alone,
                per_column,
            },
            Design::BusyWaiting { workers, idle } => D::BusyWaiting { workers, idle },
            Design::TakingTurns { workers, at_once } => D::TakingTurns { workers, at_once },
            Design::Polling { workers, wakeups } => D::Polling { workers, wakeups },
            Design::Duplicated { workers, work } => D::Duplicated { workers, work },
            Design::OneWorker => D::OneWorker,
            Design::Unseen(unseen) => D::Unseen(unseen.into()),
        }
    }
}

/// [`judge_design::Division`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub enum Division {
    Shared(f64),
    Fixed(f64),
    Unknown,
}

impl From<&judge_design::Division> for Division {
    fn from(division: &judge_design::Division) -> Division {
        use judge_design::Division as D;
        match *division {
            D::Shared(share) => Division::Shared(share),
            D::Fixed(share) => Division::Fixed(share),
            D::Unknown => Division::Unknown,
        }
    }
}

impl From<Division> for judge_design::Division {
    fn from(division: Division) -> judge_design::Division {
        use judge_design::Division as D;
        match division {
            Division::Shared(share) => D::Shared(share),
            Division::Fixed(share) => D::Fixed(share),
            Division::Unknown => D::Unknown,
        }
    }
}

unit_enum!(
    Unseen = judge_design::Unseen {
        TooQuick,
        NotSearched
    }
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_measurement_kept_before_the_counting_reads_as_cpu_time() {
        // As version 1 kept it: whether the machine offered counters, no instructions.
        let secs = r#"{"secs": 0, "nanos": 400000000}"#;
        let work = format!(
            r#"{{"wall": {secs}, "cpu": {secs}, "ready": {secs}, "span": {secs},
                "workers": 1, "busiest": 1.0, "accounted": true}}"#
        );
        let kept = format!(
            r#"{{"depth": 8, "one": [{work}], "many": [{work}], "ceilings": [1.9], "cpus": 2.0,
                "machine": [1.0], "counters": true}}"#
        );
        let m: Measurement = serde_json::from_str(&kept).unwrap();
        let m = judge::Measurement::from(m);
        assert_eq!((m.counted, m.one[0].instructions), (None, None));
        assert!(!m.in_instructions());
        assert_eq!(m.growths(), [1.0]);
    }
}
