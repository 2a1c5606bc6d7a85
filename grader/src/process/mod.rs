//! The bottom layer: running a program under limits. A process [`group`] for a build and for a
//! student's program alike, the resource [`limits`], the process-count [`watch`], what `/proc`
//! tells ([`procfs`]), the protocol conversation with a running [`program`], and a command run
//! to a log file ([`logged`]). It knows nothing of cases, students or scores. Linux only.

pub mod group;
pub mod limits;
pub mod logged;
pub mod procfs;
pub mod program;
mod watch;

pub use limits::{Evidence, Limit, LimitHit, Limits};
pub use program::{Ending, Failure, Program, Stream, MAX_LINE, MAX_OUTPUT};
