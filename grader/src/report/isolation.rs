//! The sandbox a student's code ran in, in words: which protections were in force, which were
//! not and why, and whether anything outlived the student's last case. One paragraph, the
//! same in every report.

use super::inert;
use crate::judge::Confinement;
use crate::process::sandbox::{Protection, Status};

/// What a protection is called in reports.
fn protection(protection: Protection) -> &'static str {
    match protection {
        Protection::User => "own unprivileged user",
        Protection::Filesystem => "filesystem (only the submission and a scratch folder)",
        Protection::Network => "no network",
        Protection::Processes => "process limit (enforced by the kernel)",
        Protection::Survivors => "nothing outlives grading",
        Protection::Signals => "no signals or abstract sockets out of the sandbox",
        Protection::Tree => "own file tree (no named socket, FIFO or device outside it)",
        Protection::Sight => "own processes (no other process of the machine visible)",
        Protection::Objects => "own IPC objects and keyrings (none left for the next student)",
        Protection::Memory => "one memory limit for the whole job (all its processes and memory)",
        Protection::Cpu => "a fair share of the CPUs (no neighbour slowed down)",
        Protection::Disk => "a disk of its own, bounded (the submission folder left as it was)",
    }
}

/// The sandbox a student's code ran in: which protections were in force, which were not and
/// why, and whether anything outlived the student's last case. One paragraph.
pub fn confinement(confinement: &Confinement) -> String {
    let (protections, uid, swept) = match confinement {
        Confinement::Off => {
            return "Sandbox: off (--no-sandbox): the student's code ran with the grader's \
                    rights and could read everything the grader can."
                .into()
        }
        Confinement::Failed(why) => {
            return format!(
                "Sandbox: could not be set up, so no student code was run: {}.",
                inert::line(why)
            )
        }
        Confinement::On {
            protections,
            uid,
            swept,
        } => (protections, uid, swept),
    };
    let mut on = Vec::new();
    let mut off = Vec::new();
    for (which, status) in protections.iter() {
        let name = match (which, uid) {
            (Protection::User, Some(uid)) => format!("{} (uid {uid})", protection(which)),
            _ => protection(which).to_string(),
        };
        match status {
            Status::InForce => on.push(name),
            Status::Partly(why) => off.push(format!("{name} only in part: {why}")),
            Status::Unavailable(why) => off.push(format!("{name}: not in force, {why}")),
            Status::NotRequested => off.push(format!("{name}: not asked for")),
        }
    }
    let mut out = format!("Sandbox: in force: {}.", on.join("; "));
    if !off.is_empty() {
        out.push_str(&format!(" Not in force: {}.", off.join("; ")));
    }
    match swept {
        Ok(0) => {}
        Ok(n) => out.push_str(&format!(
            " {n} process(es) still running after the last case were killed."
        )),
        Err(survivors) => out.push_str(&format!(
            " WARNING: {} process(es) of the student's outlived grading (ids {:?}): do not \
             trust this result until they are gone.",
            survivors.pids.len(),
            survivors.pids
        )),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sandbox_says_what_was_in_force_and_what_survived() {
        use crate::process::sandbox::{Protections, Reason, Survivors};
        let protections = Protections {
            user: Status::Unavailable(Reason::NotRoot),
            filesystem: Status::InForce,
            network: Status::InForce,
            processes: Status::InForce,
            survivors: Status::InForce,
            signals: Status::Partly(Reason::NoLandlock),
            tree: Status::InForce,
            sight: Status::InForce,
            objects: Status::InForce,
            memory: Status::InForce,
            cpu: Status::InForce,
            disk: Status::InForce,
        };
        let on = |swept| Confinement::On {
            protections: Box::new(protections.clone()),
            uid: None,
            swept,
        };
        assert_eq!(
            confinement(&on(Ok(2))),
            "Sandbox: in force: filesystem (only the submission and a scratch folder); own file \
             tree (no named socket, FIFO or device outside it); own processes (no other process \
             of the machine visible); own IPC objects and keyrings (none left for the next \
             student); one memory limit for the whole job (all its processes and memory); a fair \
             share of the CPUs (no neighbour slowed down); a disk of its own, bounded (the \
             submission folder left as it was); no network; process limit \
             (enforced by the kernel); nothing outlives grading. Not in force: own unprivileged \
             user: not in force, the grader does not run as root, so student code runs as the \
             grader's user; no signals or abstract sockets out of the sandbox only in part: the kernel has no Landlock (or it is disabled). 2 process(es) still \
             running after the last case were killed."
        );
        let survived = confinement(&on(Err(Survivors { pids: vec![41, 42] })));
        assert!(
            survived.ends_with(
                "WARNING: 2 process(es) of the student's outlived grading (ids \
                 [41, 42]): do not trust this result until they are gone."
            ),
            "{survived}"
        );
        assert!(confinement(&Confinement::Off).starts_with("Sandbox: off (--no-sandbox)"));
        assert_eq!(
            confinement(&Confinement::Failed("the kit is inside".into())),
            "Sandbox: could not be set up, so no student code was run: the kit is inside."
        );
    }
}
