//! The bottom layer: running a program under limits and in a sandbox. A process [`group`] for a
//! build and for a student's program alike, the resource [`limits`], the process-count
//! [`watch`], what `/proc` tells ([`procfs`]), the [`sandbox`] every student process runs in,
//! the protocol conversation with a running [`program`], a command run to a log file
//! ([`logged`]), the [`cpus`] a program may use and the [`topology`] they are chosen from, its
//! [`threads`] seen at work, the instructions they retire ([`counters`]) and the time a busy
//! machine [`served`] it, and a private X [`display`] to watch a program's window on. It knows
//! nothing of cases, students or scores. Linux only.

pub mod counters;
pub mod cpus;
pub mod display;
pub mod group;
pub mod limits;
pub mod logged;
pub mod procfs;
pub mod program;
pub mod sandbox;
pub mod served;
pub mod threads;
pub mod topology;
mod watch;

pub use cpus::Cpus;
pub use limits::{Detection, Limit, LimitHit, Limits};
pub use program::{Ending, Failure, Program, Stream, MAX_LINE, MAX_OUTPUT};
pub use threads::{ThreadUse, ThreadWatch};
