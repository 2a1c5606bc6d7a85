//! How the build went, in words: the sentence every report opens with (with what made it the
//! course's: the configuration set aside and whether it was put back, what was refused, a
//! supplied crate cargo's log does not name), the build's log tail for plain-text outputs, the
//! gradebook's word for it, and how a logged command (a build, a lint) ended.

use super::numbers::seconds;
use super::{inert, starved};
use crate::judge::Build;
use crate::kit::build_config::Redirection;
use crate::kit::supplied::PACKAGE;
use crate::process::logged::{Ended, MAX_LOG};

/// The gradebook's word for a build: `ok`, `failed` or `timed out`.
pub fn build_word(build: &Build) -> &'static str {
    if !build.refused.is_empty() {
        return "failed";
    }
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
/// the submission's own build configuration was set aside for it, and whether it was put back;
/// a supplied crate that cargo's log does not name.
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
    let back = match &build.not_put_back {
        Some((why, kept)) => format!(
            " What was set aside could not all be put back after grading ({}): what was not is \
             in `{}/`.",
            inert::line(why),
            inert::line(kept)
        ),
        None => String::new(),
    };
    let unseen = match build.supplied_unseen {
        true => format!(
            " Cargo's log does not name the supplied crate (a quiet build command, a build \
             without the sandbox over output already there, or a program that does not use \
             {PACKAGE}), so which copy the program is linked with could not be checked."
        ),
        false => String::new(),
    };
    format!("{}{aside}{back}{unseen}", headline(build))
}

/// What would have made, or made, the build take another supplied crate than the course's.
fn redirection(redirection: &Redirection) -> String {
    const FOLDER: &str = "not from the supplied crate's folder";
    match redirection {
        Redirection::Patch(manifest) => format!("{manifest} has a [patch] table"),
        Redirection::Replace(manifest) => format!("{manifest} has a [replace] table"),
        Redirection::Supplied { manifest, to } => {
            format!("{manifest} takes {PACKAGE} from {to}, {FOLDER}")
        }
        Redirection::Compiled(source) => format!("cargo built {source}, {FOLDER}"),
    }
}

/// How a build ended and, if it failed, what that costs.
fn headline(build: &Build) -> String {
    const COST: &str = "no case was run, and every automatic category scores 0";
    if !build.refused.is_empty() {
        let why: Vec<String> = build
            .refused
            .iter()
            .map(|refused| inert::line(&redirection(refused)))
            .collect();
        return format!(
            "The build was refused, as it is not built against the course's supplied crate \
             ({}): {COST}.",
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::fixtures;

    /// A build that ended `ended`, with nothing set aside or refused.
    fn built(ended: Ended) -> Build {
        Build {
            ended,
            ..Build::not_started(String::new())
        }
    }

    #[test]
    fn a_supplied_crate_compiled_from_elsewhere_refuses_the_build_and_says_from_where() {
        let source = "connect_four_supplied v0.1.0 (/s/ann/.course/supplied)";
        let build = Build {
            refused: vec![Redirection::Compiled(source.into())],
            set_aside: vec![".cargo/config.toml".into()],
            ..built(Ended::Succeeded)
        };
        assert!(!build.succeeded());
        assert_eq!(build_word(&build), "failed");
        assert_eq!(
            build_headline(&build),
            "The build was refused, as it is not built against the course's supplied crate \
             (cargo built connect_four_supplied v0.1.0 (/s/ann/.course/supplied), not from \
             the supplied crate's folder): no case was run, and every automatic category scores \
             0. The submission's own cargo and rustup configuration was set aside for it, so \
             that the build is the course's: `.cargo/config.toml`."
        );
    }

    #[test]
    fn a_supplied_crate_not_seen_compiled_and_files_not_put_back_are_said() {
        let build = Build {
            supplied_unseen: true,
            set_aside: vec!["rust-toolchain".into()],
            not_put_back: Some((
                format!("cannot put back /s/ann/rust-toolchain{}", fixtures::HOSTILE),
                ".grade-config-x".into(),
            )),
            ..built(Ended::Succeeded)
        };
        let said = build_headline(&build);
        assert!(said.starts_with("The build succeeded in "), "{said}");
        assert!(
            said.contains(
                "What was set aside could not all be put back after grading (cannot put back \
                 /s/ann/rust-toolchain"
            ) && said.contains("): what was not is in `.grade-config-x/`.")
                && said.ends_with(
                    "Cargo's log does not name the supplied crate (a quiet build command, a \
                     build without the sandbox over output already there, or a program that \
                     does not use connect_four_supplied), so which copy the program is linked \
                     with could not be checked."
                ),
            "{said}"
        );
        assert!(!said.contains('\u{1b}'), "made inert: {said}");
    }
}
