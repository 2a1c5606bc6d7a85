//! What student code starts with: a short list of the grader's variables (the language and
//! locale, and what a toolchain needs to find itself), never the rest, where a token set for
//! `grade`, an ssh-agent's or a session bus's address, or a `MAKEFLAGS` naming the caller's
//! descriptors would be; what the grader sets on a command itself (the toolchain's homes,
//! `DISPLAY` for a window) is kept. And no descriptor beyond 0, 1 and 2 ([`inherit_none`]),
//! by the same range operation with which the namespaces helper drops what it inherited
//! ([`close_range`]).

use std::ffi::{OsStr, OsString};
use std::process::Command;

/// The grader's variables kept, by name.
const KEPT: [&str; 8] = [
    "LANG",
    "LANGUAGE",
    "TZ",
    "JAVA_HOME",
    "RUSTUP_TOOLCHAIN",
    "RUSTFLAGS",
    "CARGO_TARGET_DIR",
    "CARGO_BUILD_JOBS",
];
/// The grader's variables kept, by the start of their name: the locale's categories.
const KEPT_PREFIX: &str = "LC_";

/// Whether the grader's variable `name` is passed on.
pub(super) fn kept(name: &OsStr) -> bool {
    name.to_str()
        .is_some_and(|name| KEPT.contains(&name) || name.starts_with(KEPT_PREFIX))
}

/// Makes `command` start from [`kept`] variables of `inherited` (the grader's environment)
/// and what was set on it already, then adds `extra`.
pub(super) fn clean(
    command: &mut Command,
    inherited: impl Iterator<Item = (OsString, OsString)>,
    extra: &[(&str, &OsStr)],
) {
    let explicit: Vec<(OsString, Option<OsString>)> = command
        .get_envs()
        .map(|(name, value)| (name.to_owned(), value.map(OsStr::to_owned)))
        .collect();
    command.env_clear();
    command.envs(inherited.filter(|(name, _)| kept(name)));
    for (name, value) in explicit {
        match value {
            Some(value) => command.env(name, value),
            None => command.env_remove(name),
        };
    }
    for (name, value) in extra {
        command.env(name, value);
    }
}

/// Closes the descriptors `first..=last`, or with `keep_open` marks them close-on-exec
/// instead: `close_range` (Linux 5.9, its close-on-exec flag 5.11), else one by one, as far
/// as descriptors usually go.
///
/// # Safety
/// Only between fork and exec, or in a child just forked, which owns nothing else it needs
/// in that range.
pub(super) unsafe fn close_range(first: i32, last: i32, keep_open: bool) {
    let flags = if keep_open {
        libc::CLOSE_RANGE_CLOEXEC
    } else {
        0
    };
    if libc::syscall(
        libc::SYS_close_range,
        first as libc::c_uint,
        last as libc::c_uint,
        flags,
    ) != 0
    {
        for fd in first..=last.min(65_535) {
            if keep_open {
                libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
            } else {
                libc::close(fd);
            }
        }
    }
}

/// Marks every descriptor from 3 up close-on-exec, so that none the grader's caller left open
/// (or another thread of the grader opened without the flag) reaches student code. std's own
/// pipe, which reports a failed exec, is close-on-exec already.
pub(super) fn inherit_none() {
    // SAFETY: called between fork and exec; only flags change, nothing is closed.
    unsafe { close_range(3, i32::MAX, true) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_short_list_and_what_the_grader_set_are_passed_on() {
        let mut command = Command::new("env");
        command.env("DISPLAY", ":5").env_remove("LANG");
        let inherited = [
            ("GRADE_TOKEN", "secret"),
            ("SSH_AUTH_SOCK", "/tmp/ssh-x/agent.1"),
            ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/run/user/0/bus"),
            ("MAKEFLAGS", "--jobserver-auth=3,4"),
            ("LANG", "C.UTF-8"),
            ("LC_ALL", "C"),
            ("CARGO_TARGET_DIR", "/srv/target"),
            ("CARGO_REGISTRY_TOKEN", "secret"),
        ]
        .map(|(n, v)| (OsString::from(n), OsString::from(v)));
        clean(
            &mut command,
            inherited.into_iter(),
            &[("HOME", OsStr::new("/s"))],
        );
        let mut names: Vec<String> = command
            .get_envs()
            .filter(|(_, value)| value.is_some())
            .map(|(name, _)| name.to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["CARGO_TARGET_DIR", "DISPLAY", "HOME", "LC_ALL"]);
    }
}
