//! How the build went, in words: the sentence every report opens with, the build's log tail
//! for plain-text outputs, the gradebook's word for it, and how a logged command (a build, a
//! lint) ended.

use super::numbers::seconds;
use super::{inert, starved};
use crate::judge::Build;
use crate::process::logged::{Ended, MAX_LOG};

/// The gradebook's word for a build: `ok`, `failed` or `timed out`.
pub fn build_word(build: &Build) -> &'static str {
    match build.ended {
        Ended::Succeeded => "ok",
        Ended::TimedOut(_) => "timed out",
        Ended::Starved { .. } => "machine busy",
        _ => "failed",
    }
}

/// How a logged command (a build, a lint) ended, in a few words: `exit status: 101`, `it
/// timed out after 600 s`.
pub fn ended(ended: &Ended) -> String {
    match ended {
        Ended::Succeeded => "it succeeded".into(),
        Ended::TimedOut(limit) => format!("it timed out after {} s", limit.as_secs()),
        Ended::Starved { limit, had, wall } => starved::build(*limit, *had, *wall),
        Ended::Failed(status) => status.to_string(),
        Ended::DiskFull(status) => format!(
            "{status}, its disk full: all a student's job may write, its build's output \
             included (disk_mib in rubric.toml's [limits])"
        ),
        Ended::Flooded => format!("its output passed {} MiB", MAX_LOG >> 20),
        Ended::NotStarted(why) => format!("it could not be started: {}", inert::line(why)),
        Ended::NoLog(why) => format!("its log cannot be written: {}", inert::line(why)),
    }
}

/// One sentence for the reports: how a build ended and, if it failed, what that costs; what of
/// the submission's own build configuration was set aside for it.
pub fn build_headline(build: &Build) -> String {
    let aside = match build.set_aside.as_slice() {
        [] => String::new(),
        files => format!(
            " The submission's own cargo and rustup configuration was set aside for it, so that \
             the build is the course's: {}.",
            files
                .iter()
                .map(|file| format!("`{}`", inert::line(file)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    format!("{}{aside}", headline(build))
}

/// How a build ended and, if it failed, what that costs.
fn headline(build: &Build) -> String {
    const COST: &str = "no case was run, and every automatic category scores 0";
    if !build.refused.is_empty() {
        let why: Vec<String> = build
            .refused
            .iter()
            .map(|redirection| inert::line(&redirection.to_string()))
            .collect();
        return format!(
            "The build was refused, as it would not be built against the course's supplied \
             crate ({}): {COST}.",
            why.join("; ")
        );
    }
    let took = seconds(build.elapsed);
    let how = match &build.ended {
        Ended::Succeeded => return format!("The build succeeded in {took}."),
        Ended::TimedOut(limit) => {
            return format!("The build timed out after {} s: {COST}.", limit.as_secs())
        }
        Ended::Starved { limit, had, wall } => {
            return format!(
                "The build was stopped: {}. No case was run, and nothing is counted: grade \
                 again on a quieter machine.",
                starved::build(*limit, *had, *wall)
            )
        }
        ended => self::ended(ended),
    };
    let offline = if build.offline {
        format!(" {OFFLINE}")
    } else {
        String::new()
    };
    format!("The build failed ({how}) after {took}: {COST}.{offline}")
}

/// Said after a build that cargo stopped for want of a crate it could not download.
const OFFLINE: &str = "The build runs offline, in the sandbox: the grading machine has the \
     crates of the course's starter, at the versions its Cargo.lock locks, and no others.";

/// The build as plain text: how it went and, if it failed, the last lines of its log (made
/// inert).
pub fn build(build: &Build) -> String {
    if build.succeeded() {
        build_headline(build)
    } else if build.tail.is_empty() {
        format!("{}\nIts log is empty.", build_headline(build))
    } else {
        format!(
            "{}\nThe last lines of its log:\n\n{}",
            build_headline(build),
            inert::text(&build.tail)
        )
    }
}
