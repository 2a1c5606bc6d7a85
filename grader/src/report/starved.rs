//! The words for what a busy machine could not give its time ([`Starved`]): a command or a
//! build that ran out of time waiting for a CPU, not counted either way, to be graded again.
//! Said with the figures that show it: the limit, the time it had, the time on the clock.

use std::time::Duration;

use super::numbers::seconds;
use crate::judge::result::Starved;

/// How much of its limit a program or build had, and in how long on the clock.
fn had(limit: Duration, had: Duration, wall: Duration) -> String {
    format!(
        "it had {} of its {} limit in {} on the clock, the rest spent waiting for a CPU",
        seconds(had),
        seconds(limit),
        seconds(wall)
    )
}

/// A command with no answer because the machine was too busy.
pub fn command(limit: Duration, had_: Duration, wall: Duration) -> String {
    format!(
        "no answer, but the machine was too busy to give the program its time ({}): not the \
         program's fault",
        had(limit, had_, wall)
    )
}

/// A build stopped because the machine was too busy.
pub fn build(limit: Duration, had_: Duration, wall: Duration) -> String {
    format!(
        "the machine was too busy to give the build its time ({})",
        had(limit, had_, wall)
    )
}

/// Why a case is not counted, in brief (a gradebook cell, a report's line).
pub fn not_counted(starved: &Starved) -> String {
    let (what, limit, had, wall) = match starved {
        Starved::Build { limit, had, wall } => ("the build".to_string(), limit, had, wall),
        Starved::Command {
            sent,
            limit,
            had,
            wall,
        } => (format!("`{sent}`"), limit, had, wall),
    };
    format!(
        "the machine was too busy: {what} had {} of its {} limit in {} on the clock; grade again",
        seconds(*had),
        seconds(*limit),
        seconds(*wall)
    )
}
