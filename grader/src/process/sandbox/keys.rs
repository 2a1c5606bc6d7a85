//! The kernel's keyrings, which live outside every namespace but the user namespace: a job
//! joins a session keyring of its own (or it would possess the grader's session keys), and the
//! user keyrings of a job's uid (its user, user-session and persistent keyrings, which outlive
//! its processes) are cleared before the job starts and after it ends, so that no key one
//! student leaves reaches the next student graded under the same uid. A job in a user namespace
//! of its own (the grader is not root) has user keyrings of its own already.

use super::survivors::as_user;
use super::user::User;

/// `KEYCTL_JOIN_SESSION_KEYRING`: with no name, a new anonymous session keyring.
pub(super) const JOIN_SESSION_KEYRING: libc::c_long = 1;
const CLEAR: libc::c_long = 7;
const GET_PERSISTENT: libc::c_long = 22;
const USER_KEYRING: libc::c_long = -4;
const USER_SESSION_KEYRING: libc::c_long = -5;
const SESSION_KEYRING: libc::c_long = -3;

/// Clears the user, user-session and persistent keyrings of `user`, from a child that becomes
/// that user (only root can). Where keyrings are refused (a container), there is nothing to
/// clear.
pub(super) fn clear(user: User) {
    // SAFETY (the closure): keyctl system calls only.
    as_user(user.uid, Some(user.gid), || unsafe {
        libc::syscall(libc::SYS_keyctl, JOIN_SESSION_KEYRING, 0);
        libc::syscall(libc::SYS_keyctl, CLEAR, USER_KEYRING);
        libc::syscall(libc::SYS_keyctl, CLEAR, USER_SESSION_KEYRING);
        let persistent = libc::syscall(libc::SYS_keyctl, GET_PERSISTENT, -1, SESSION_KEYRING);
        if persistent > 0 {
            libc::syscall(libc::SYS_keyctl, CLEAR, persistent);
        }
    });
}
