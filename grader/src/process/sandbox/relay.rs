//! The relay that puts each of a job's commands into the job's PID namespace. Joining a PID
//! namespace (`setns`) changes only where the caller's children are born, never the caller: so
//! the process the grader forked (the relay) forks once more, between fork and exec, and the
//! second child runs the command inside the namespace, where the job's fresh `/proc` shows
//! itself and its own and nothing else. The relay stays outside, closes every descriptor (the
//! program's pipes end with the program), waits, and ends as the program ended: the same exit
//! code, or killed by the same signal, so the grader sees what it always saw. Its process
//! group, process family and CPU times take the program in, so the grader's limits, kills and
//! measurements reach it unchanged.

use std::io;

use super::environment;
use super::namespaces::clone_process;

/// Between fork and exec, after joining the job's PID namespace: returns `Ok` in the new child,
/// which goes on to exec the command; the relay never returns.
///
/// # Safety
/// Only between fork and exec (the caller is a child of the grader with one thread), after
/// `setns` into the PID namespace.
pub(super) unsafe fn split() -> io::Result<()> {
    let child = clone_process();
    if child < 0 {
        return Err(io::Error::last_os_error());
    }
    if child == 0 {
        return Ok(());
    }
    environment::close_range(0, i32::MAX, false);
    let child = child as libc::pid_t;
    let mut status = 0;
    loop {
        let waited = libc::waitpid(child, &mut status, 0);
        if waited == child {
            break;
        }
        if waited < 0 && *libc::__errno_location() != libc::EINTR {
            libc::_exit(127);
        }
    }
    if libc::WIFEXITED(status) {
        libc::_exit(libc::WEXITSTATUS(status));
    }
    if libc::WIFSIGNALED(status) {
        end_by(libc::WTERMSIG(status));
    }
    libc::_exit(127)
}

/// Ends the relay by `signal`, as the program ended: its default action, unblocked, and no core
/// file (the program wrote its own, if its limits let it).
unsafe fn end_by(signal: libc::c_int) -> ! {
    let none = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    libc::setrlimit(libc::RLIMIT_CORE, &none);
    libc::signal(signal, libc::SIG_DFL);
    let mut all: libc::sigset_t = std::mem::zeroed();
    libc::sigemptyset(&mut all);
    libc::sigaddset(&mut all, signal);
    libc::sigprocmask(libc::SIG_UNBLOCK, &all, std::ptr::null_mut());
    libc::kill(libc::getpid(), signal);
    libc::_exit(128 + signal)
}
