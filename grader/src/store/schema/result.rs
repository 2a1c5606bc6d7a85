//! A student's whole result as a record stores it: their cases, their build, their copy of the
//! supplied crate, their special entries, the sandbox they ran in, their style and window.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::build::Build;
use super::case::CaseResult;
use super::each::{all, back};
use super::kit::{Language, Listing, SuppliedCopy};
use super::process::{Protections, Survivors};
use super::style::Style;
use super::window::WindowResult;
use crate::judge::result::{confinement, StudentResult};

/// [`StudentResult`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub struct Result {
    student: String,
    cases: Vec<CaseResult>,
    left_out: Vec<String>,
    elapsed: Duration,
    build: Option<Build>,
    supplied: Option<SuppliedCopy>,
    special: Listing,
    confinement: Confinement,
    style: Option<Style>,
    window: Option<WindowResult>,
    language: Option<Language>,
}

impl From<&StudentResult> for Result {
    fn from(result: &StudentResult) -> Result {
        Result {
            student: result.student.clone(),
            cases: all(&result.cases),
            left_out: result.left_out.clone(),
            elapsed: result.elapsed,
            build: result.build.as_ref().map(Into::into),
            supplied: result.supplied.as_ref().map(Into::into),
            special: (&result.special).into(),
            confinement: (&result.confinement).into(),
            style: result.style.as_ref().map(Into::into),
            window: result.window.as_ref().map(Into::into),
            language: result.language.as_ref().map(Into::into),
        }
    }
}

impl From<Result> for StudentResult {
    fn from(result: Result) -> StudentResult {
        StudentResult {
            student: result.student,
            cases: back(result.cases),
            left_out: result.left_out,
            elapsed: result.elapsed,
            build: result.build.map(Into::into),
            supplied: result.supplied.map(Into::into),
            special: result.special.into(),
            confinement: result.confinement.into(),
            style: result.style.map(Into::into),
            window: result.window.map(Into::into),
            language: result.language.map(Into::into),
        }
    }
}

/// [`confinement::Confinement`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub enum Confinement {
    Off,
    Failed(String),
    On {
        protections: Box<Protections>,
        uid: Option<u32>,
        swept: std::result::Result<usize, Survivors>,
    },
}

impl From<&confinement::Confinement> for Confinement {
    fn from(confinement: &confinement::Confinement) -> Confinement {
        use confinement::Confinement as C;
        match confinement {
            C::Off => Confinement::Off,
            C::Failed(why) => Confinement::Failed(why.clone()),
            C::On {
                protections,
                uid,
                swept,
            } => Confinement::On {
                protections: Box::new(protections.as_ref().into()),
                uid: *uid,
                swept: swept.as_ref().map(|swept| *swept).map_err(Into::into),
            },
        }
    }
}

impl From<Confinement> for confinement::Confinement {
    fn from(confinement: Confinement) -> confinement::Confinement {
        use confinement::Confinement as C;
        match confinement {
            Confinement::Off => C::Off,
            Confinement::Failed(why) => C::Failed(why),
            Confinement::On {
                protections,
                uid,
                swept,
            } => C::On {
                protections: Box::new((*protections).into()),
                uid,
                swept: swept.map_err(Into::into),
            },
        }
    }
}
