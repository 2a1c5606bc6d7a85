//! What a student's sandbox was: off, not set up (and why), or which protections were in force
//! and whether anything outlived the student's last case.

use crate::process::sandbox::{Protections, Survivors};

/// What one student's sandbox was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Confinement {
    /// The grader was told not to sandbox (`--no-sandbox`).
    Off,
    /// The sandbox could not be set up as described (why): no case was run.
    Failed(String),
    /// The sandbox was set up.
    On {
        /// What was in force.
        protections: Box<Protections>,
        /// The uid the student's processes ran as, when they had a user of their own.
        uid: Option<u32>,
        /// After the last case: how many of the student's processes were still running and
        /// were killed, or those that outlived even that.
        swept: Result<usize, Survivors>,
    },
}
