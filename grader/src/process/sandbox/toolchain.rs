//! The Rust toolchain as a sandboxed build sees it: rustup's toolchains, cargo's programs and
//! the registry and git sources already downloaded, all read-only (a build runs offline, with the
//! crates the course's starter locks), and the environment that points cargo and rustup at them
//! once `HOME` is the job's scratch directory and tells cargo it is offline.

use std::env;
use std::ffi::OsStr;
use std::path::PathBuf;

/// Where rustup and cargo keep what they have: `RUSTUP_HOME` and `CARGO_HOME`, else their
/// defaults under `HOME`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Toolchain {
    /// rustup's home, if there is one.
    pub rustup_home: Option<PathBuf>,
    /// cargo's home, if there is one.
    pub cargo_home: Option<PathBuf>,
}

impl Toolchain {
    /// The toolchain of the grader's own environment.
    pub fn here() -> Toolchain {
        let home = env::var_os("HOME").map(PathBuf::from);
        let find = |variable: &str, default: &str| {
            env::var_os(variable)
                .map(PathBuf::from)
                .or_else(|| home.as_ref().map(|h| h.join(default)))
                .filter(|p| p.is_dir())
        };
        Toolchain {
            rustup_home: find("RUSTUP_HOME", ".rustup"),
            cargo_home: find("CARGO_HOME", ".cargo"),
        }
    }

    /// What a build reads: rustup's home, and cargo's programs, registry and git sources.
    pub fn readable(&self) -> Vec<PathBuf> {
        let cargo = self
            .cargo_home
            .iter()
            .flat_map(|home| ["bin", "registry", "git"].map(|part| home.join(part)));
        self.rustup_home
            .iter()
            .cloned()
            .chain(cargo)
            .filter(|p| p.exists())
            .collect()
    }

    /// The variables that point cargo and rustup at their homes, whatever `HOME` is, and make
    /// cargo work offline: the sandbox has no network, and cargo then says at once that a crate
    /// it has not got cannot be downloaded rather than try.
    pub fn env(&self) -> Vec<(&'static str, &OsStr)> {
        let rustup = self
            .rustup_home
            .as_deref()
            .map(|p| ("RUSTUP_HOME", p.as_os_str()));
        let cargo = self
            .cargo_home
            .as_deref()
            .map(|p| ("CARGO_HOME", p.as_os_str()));
        rustup
            .into_iter()
            .chain(cargo)
            .chain([("CARGO_NET_OFFLINE", OsStr::new("true"))])
            .collect()
    }
}
