//! Judging: a student's program against the kit. A case's [`script`] played and each answer
//! judged, cases of each kind ([`compare`]), the [`speedup`] measured and the thread
//! [`design`] seen with the [`scaling`] view beyond, the [`requirement`]s between cases, the [`build`] step, each student's
//! sandbox ([`confinement`]), the [`style`] facts, one [`student`] graded and a whole [`class`]
//! (which can be asked to [`stop`]),
//! the student's [`window`] played under Xvfb, and the games of a [`matchup`] (the course's
//! `grade` only). Everything comes out as typed [`result`]s; nothing here is worded for people,
//! which is the reports' job.

pub mod build;
mod calibration;
pub mod class;
mod compare;
pub mod confinement;
pub mod design;
#[cfg(test)]
pub(crate) mod fixtures;
pub mod job;
#[cfg(not(feature = "students-kit"))]
pub mod matchup;
mod requirement;
pub mod result;
pub mod scaling;
pub mod script;
pub mod speedup;
pub mod stop;
pub mod student;
pub mod style;
pub mod window;
mod work;

pub use build::BuildCommand;
pub use confinement::Policy;
pub use job::{file_stem, Job, Student};
pub use result::build::Build;
pub use result::confinement::Confinement;
pub use result::{
    CaseResult, CategoryScore, Exchange, Fault, FaultKind, NotRun, Skip, StudentResult, Verdict,
};
pub use student::{grade_student, grade_student_unless_stopped, Options, Stage};
pub use style::StyleCheck;
