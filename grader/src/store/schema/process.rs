//! The process layer's results as a record stores them: how a program failed or ended, the
//! limit it hit, the sandbox's protections, the CPUs a measurement had and a display's trouble.
//! An exit status is stored as its raw wait status; a name the process layer keeps as
//! `&'static str` (a signal's, a tool's, a kernel's) is read back interned ([`intern`]).

use std::collections::BTreeSet;
use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;
use std::sync::Mutex;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::process::{self, display, logged, sandbox, topology};

/// The texts read back so far, each allocated once.
static INTERNED: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());

/// `text` as a `&'static str`: the same text read twice is the same allocation, so that
/// reading many records keeps one copy of each name.
fn intern(text: String) -> &'static str {
    let mut interned = INTERNED
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(&kept) = interned.get(text.as_str()) {
        return kept;
    }
    let kept: &'static str = Box::leak(text.into_boxed_str());
    interned.insert(kept);
    kept
}

/// [`process::Failure`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub enum Failure {
    TimedOut {
        limit: Duration,
        first: Option<String>,
    },
    Starved {
        limit: Duration,
        had: Duration,
        wall: Duration,
    },
    Ended(Ending),
    Closed {
        stream: Stream,
        stderr: String,
    },
    Garbage(String),
    Flood,
    Io(String),
}

impl From<&process::Failure> for Failure {
    fn from(failure: &process::Failure) -> Failure {
        use process::Failure as F;
        match failure.clone() {
            F::TimedOut { limit, first } => Failure::TimedOut { limit, first },
            F::Starved { limit, had, wall } => Failure::Starved { limit, had, wall },
            F::Ended(ending) => Failure::Ended((&ending).into()),
            F::Closed { stream, stderr } => Failure::Closed {
                stream: (&stream).into(),
                stderr,
            },
            F::Garbage(line) => Failure::Garbage(line),
            F::Flood => Failure::Flood,
            F::Io(why) => Failure::Io(why),
        }
    }
}

impl From<Failure> for process::Failure {
    fn from(failure: Failure) -> process::Failure {
        use process::Failure as F;
        match failure {
            Failure::TimedOut { limit, first } => F::TimedOut { limit, first },
            Failure::Starved { limit, had, wall } => F::Starved { limit, had, wall },
            Failure::Ended(ending) => F::Ended(ending.into()),
            Failure::Closed { stream, stderr } => F::Closed {
                stream: stream.into(),
                stderr,
            },
            Failure::Garbage(line) => F::Garbage(line),
            Failure::Flood => F::Flood,
            Failure::Io(why) => F::Io(why),
        }
    }
}

/// [`process::Ending`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub struct Ending {
    status: i32,
    limit: Option<LimitHit>,
    escaped: usize,
    stderr: String,
}

impl From<&process::Ending> for Ending {
    fn from(ending: &process::Ending) -> Ending {
        Ending {
            status: ending.status.into_raw(),
            limit: ending.limit.as_ref().map(Into::into),
            escaped: ending.escaped,
            stderr: ending.stderr.clone(),
        }
    }
}

impl From<Ending> for process::Ending {
    fn from(ending: Ending) -> process::Ending {
        process::Ending {
            status: ExitStatus::from_raw(ending.status),
            limit: ending.limit.map(Into::into),
            escaped: ending.escaped,
            stderr: ending.stderr,
        }
    }
}

unit_enum!(Stream = process::Stream { Input, Output });
unit_enum!(
    Limit = process::Limit {
        Memory,
        Processes,
        CpuTime,
        FileSize,
        JobMemory,
        Disk
    }
);

/// [`process::LimitHit`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub struct LimitHit {
    limit: Limit,
    amount: u64,
    evidence: Detection,
}

impl From<&process::LimitHit> for LimitHit {
    fn from(hit: &process::LimitHit) -> LimitHit {
        LimitHit {
            limit: (&hit.limit).into(),
            amount: hit.amount,
            evidence: (&hit.evidence).into(),
        }
    }
}

impl From<LimitHit> for process::LimitHit {
    fn from(hit: LimitHit) -> process::LimitHit {
        process::LimitHit {
            limit: hit.limit.into(),
            amount: hit.amount,
            evidence: hit.evidence.into(),
        }
    }
}

/// [`process::Detection`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub enum Detection {
    Counted(usize),
    Signal { name: String, shell: Option<i32> },
    ControlGroup,
    DiskFull,
    Stderr { status: i32, line: String },
}

impl From<&process::Detection> for Detection {
    fn from(detection: &process::Detection) -> Detection {
        use process::Detection as D;
        match detection {
            D::Counted(count) => Detection::Counted(*count),
            D::Signal { name, shell } => Detection::Signal {
                name: name.to_string(),
                shell: shell.map(ExitStatus::into_raw),
            },
            D::ControlGroup => Detection::ControlGroup,
            D::DiskFull => Detection::DiskFull,
            D::Stderr { status, line } => Detection::Stderr {
                status: status.into_raw(),
                line: line.clone(),
            },
        }
    }
}

impl From<Detection> for process::Detection {
    fn from(detection: Detection) -> process::Detection {
        use process::Detection as D;
        match detection {
            Detection::Counted(count) => D::Counted(count),
            Detection::Signal { name, shell } => D::Signal {
                name: intern(name),
                shell: shell.map(ExitStatus::from_raw),
            },
            Detection::ControlGroup => D::ControlGroup,
            Detection::DiskFull => D::DiskFull,
            Detection::Stderr { status, line } => D::Stderr {
                status: ExitStatus::from_raw(status),
                line,
            },
        }
    }
}

/// [`logged::Ended`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub enum Ended {
    Succeeded,
    Failed(i32),
    DiskFull(i32),
    TimedOut(Duration),
    Starved {
        limit: Duration,
        had: Duration,
        wall: Duration,
    },
    Flooded,
    NotStarted(String),
    NoLog(String),
}

impl From<&logged::Ended> for Ended {
    fn from(ended: &logged::Ended) -> Ended {
        use logged::Ended as E;
        match ended.clone() {
            E::Succeeded => Ended::Succeeded,
            E::Failed(status) => Ended::Failed(status.into_raw()),
            E::DiskFull(status) => Ended::DiskFull(status.into_raw()),
            E::TimedOut(limit) => Ended::TimedOut(limit),
            E::Starved { limit, had, wall } => Ended::Starved { limit, had, wall },
            E::Flooded => Ended::Flooded,
            E::NotStarted(why) => Ended::NotStarted(why),
            E::NoLog(why) => Ended::NoLog(why),
        }
    }
}

impl From<Ended> for logged::Ended {
    fn from(ended: Ended) -> logged::Ended {
        use logged::Ended as E;
        match ended {
            Ended::Succeeded => E::Succeeded,
            Ended::Failed(status) => E::Failed(ExitStatus::from_raw(status)),
            Ended::DiskFull(status) => E::DiskFull(ExitStatus::from_raw(status)),
            Ended::TimedOut(limit) => E::TimedOut(limit),
            Ended::Starved { limit, had, wall } => E::Starved { limit, had, wall },
            Ended::Flooded => E::Flooded,
            Ended::NotStarted(why) => E::NotStarted(why),
            Ended::NoLog(why) => E::NoLog(why),
        }
    }
}

/// [`process::Cpus`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub struct Cpus {
    online: usize,
    affinity: usize,
    quota: Option<f64>,
}

impl From<&process::Cpus> for Cpus {
    fn from(cpus: &process::Cpus) -> Cpus {
        Cpus {
            online: cpus.online,
            affinity: cpus.affinity,
            quota: cpus.quota,
        }
    }
}

impl From<Cpus> for process::Cpus {
    fn from(cpus: Cpus) -> process::Cpus {
        process::Cpus {
            online: cpus.online,
            affinity: cpus.affinity,
            quota: cpus.quota,
        }
    }
}

/// [`topology::Chosen`] as stored: a machine that is not simulated leaves `simulated_on` out.
#[derive(Debug, Serialize, Deserialize)]
pub struct Chosen {
    cpus: Vec<usize>,
    cores: Vec<(usize, usize)>,
    distinct: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    simulated_on: Option<usize>,
}

impl From<&topology::Chosen> for Chosen {
    fn from(chosen: &topology::Chosen) -> Chosen {
        let topology::Chosen {
            cpus,
            cores,
            distinct,
            simulated_on,
        } = chosen.clone();
        Chosen {
            cpus,
            cores,
            distinct,
            simulated_on,
        }
    }
}

impl From<Chosen> for topology::Chosen {
    fn from(chosen: Chosen) -> topology::Chosen {
        topology::Chosen {
            cpus: chosen.cpus,
            cores: chosen.cores,
            distinct: chosen.distinct,
            simulated_on: chosen.simulated_on,
        }
    }
}

/// [`display::DisplayError`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub enum DisplayError {
    Missing(String),
    NoDisplay(String),
    Tool(String, String),
    Picture(String),
}

impl From<&display::DisplayError> for DisplayError {
    fn from(error: &display::DisplayError) -> DisplayError {
        use display::DisplayError as D;
        match error.clone() {
            D::Missing(tool) => DisplayError::Missing(tool.into()),
            D::NoDisplay(why) => DisplayError::NoDisplay(why),
            D::Tool(tool, why) => DisplayError::Tool(tool, why),
            D::Picture(why) => DisplayError::Picture(why),
        }
    }
}

impl From<DisplayError> for display::DisplayError {
    fn from(error: DisplayError) -> display::DisplayError {
        use display::DisplayError as D;
        match error {
            DisplayError::Missing(tool) => D::Missing(intern(tool)),
            DisplayError::NoDisplay(why) => D::NoDisplay(why),
            DisplayError::Tool(tool, why) => D::Tool(tool, why),
            DisplayError::Picture(why) => D::Picture(why),
        }
    }
}

/// [`display::Rect`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub struct Rect {
    x: i32,
    y: i32,
    width: u32,
    height: u32,
}

impl From<&display::Rect> for Rect {
    fn from(rect: &display::Rect) -> Rect {
        Rect {
            x: rect.x,
            y: rect.y,
            width: rect.width,
            height: rect.height,
        }
    }
}

impl From<Rect> for display::Rect {
    fn from(rect: Rect) -> display::Rect {
        display::Rect {
            x: rect.x,
            y: rect.y,
            width: rect.width,
            height: rect.height,
        }
    }
}

/// [`sandbox::Protections`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub struct Protections {
    user: Status,
    filesystem: Status,
    network: Status,
    processes: Status,
    survivors: Status,
    signals: Status,
    tree: Status,
    sight: Status,
    objects: Status,
    memory: Status,
    cpu: Status,
    disk: Status,
}

impl From<&sandbox::Protections> for Protections {
    fn from(p: &sandbox::Protections) -> Protections {
        Protections {
            user: (&p.user).into(),
            filesystem: (&p.filesystem).into(),
            network: (&p.network).into(),
            processes: (&p.processes).into(),
            survivors: (&p.survivors).into(),
            signals: (&p.signals).into(),
            tree: (&p.tree).into(),
            sight: (&p.sight).into(),
            objects: (&p.objects).into(),
            memory: (&p.memory).into(),
            cpu: (&p.cpu).into(),
            disk: (&p.disk).into(),
        }
    }
}

impl From<Protections> for sandbox::Protections {
    fn from(p: Protections) -> sandbox::Protections {
        sandbox::Protections {
            user: p.user.into(),
            filesystem: p.filesystem.into(),
            network: p.network.into(),
            processes: p.processes.into(),
            survivors: p.survivors.into(),
            signals: p.signals.into(),
            tree: p.tree.into(),
            sight: p.sight.into(),
            objects: p.objects.into(),
            memory: p.memory.into(),
            cpu: p.cpu.into(),
            disk: p.disk.into(),
        }
    }
}

/// [`sandbox::Status`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub enum Status {
    InForce,
    Partly(Reason),
    Unavailable(Reason),
    NotRequested,
}

impl From<&sandbox::Status> for Status {
    fn from(status: &sandbox::Status) -> Status {
        use sandbox::Status as S;
        match status {
            S::InForce => Status::InForce,
            S::Partly(why) => Status::Partly(why.into()),
            S::Unavailable(why) => Status::Unavailable(why.into()),
            S::NotRequested => Status::NotRequested,
        }
    }
}

impl From<Status> for sandbox::Status {
    fn from(status: Status) -> sandbox::Status {
        use sandbox::Status as S;
        match status {
            Status::InForce => S::InForce,
            Status::Partly(why) => S::Partly(why.into()),
            Status::Unavailable(why) => S::Unavailable(why.into()),
            Status::NotRequested => S::NotRequested,
        }
    }
}

/// [`sandbox::Reason`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub enum Reason {
    NotRoot,
    NoLandlock,
    LandlockAbi {
        kernel: i32,
        needed: i32,
        missing: String,
    },
    Namespaces(String),
    NoJobIdentity,
    NestedNamespaces(String),
    NoOwnTree(String),
    Shared(String),
    NoFreshProc(String),
    NotKnown,
    Cgroup(String),
    NoDisk(String),
    OldKernel {
        release: String,
        needed: String,
    },
}

impl From<&sandbox::Reason> for Reason {
    fn from(reason: &sandbox::Reason) -> Reason {
        use sandbox::Reason as R;
        match reason.clone() {
            R::NotRoot => Reason::NotRoot,
            R::NoLandlock => Reason::NoLandlock,
            R::LandlockAbi {
                kernel,
                needed,
                missing,
            } => Reason::LandlockAbi {
                kernel,
                needed,
                missing: missing.into(),
            },
            R::Namespaces(why) => Reason::Namespaces(why),
            R::NoJobIdentity => Reason::NoJobIdentity,
            R::NestedNamespaces(why) => Reason::NestedNamespaces(why),
            R::NoOwnTree(why) => Reason::NoOwnTree(why),
            R::Shared(what) => Reason::Shared(what),
            R::NoFreshProc(why) => Reason::NoFreshProc(why),
            R::NotKnown => Reason::NotKnown,
            R::Cgroup(why) => Reason::Cgroup(why),
            R::NoDisk(why) => Reason::NoDisk(why),
            R::OldKernel { release, needed } => Reason::OldKernel {
                release,
                needed: needed.into(),
            },
        }
    }
}

impl From<Reason> for sandbox::Reason {
    fn from(reason: Reason) -> sandbox::Reason {
        use sandbox::Reason as R;
        match reason {
            Reason::NotRoot => R::NotRoot,
            Reason::NoLandlock => R::NoLandlock,
            Reason::LandlockAbi {
                kernel,
                needed,
                missing,
            } => R::LandlockAbi {
                kernel,
                needed,
                missing: intern(missing),
            },
            Reason::Namespaces(why) => R::Namespaces(why),
            Reason::NoJobIdentity => R::NoJobIdentity,
            Reason::NestedNamespaces(why) => R::NestedNamespaces(why),
            Reason::NoOwnTree(why) => R::NoOwnTree(why),
            Reason::Shared(what) => R::Shared(what),
            Reason::NoFreshProc(why) => R::NoFreshProc(why),
            Reason::NotKnown => R::NotKnown,
            Reason::Cgroup(why) => R::Cgroup(why),
            Reason::NoDisk(why) => R::NoDisk(why),
            Reason::OldKernel { release, needed } => R::OldKernel {
                release,
                needed: intern(needed),
            },
        }
    }
}

/// [`sandbox::Survivors`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub struct Survivors {
    pids: Vec<i32>,
}

impl From<&sandbox::Survivors> for Survivors {
    fn from(survivors: &sandbox::Survivors) -> Survivors {
        Survivors {
            pids: survivors.pids.clone(),
        }
    }
}

impl From<Survivors> for sandbox::Survivors {
    fn from(survivors: Survivors) -> sandbox::Survivors {
        sandbox::Survivors {
            pids: survivors.pids,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_read_twice_is_one_allocation() {
        let (one, two) = (intern("SIGXCPU".into()), intern("SIGXCPU".into()));
        assert!(std::ptr::eq(one, two));
        assert_eq!(one, "SIGXCPU");
    }
}
