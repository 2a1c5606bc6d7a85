//! A build as a record stores it: how it ended, its log's tail, and what of the submission's
//! build settings was set aside or refused.

use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::each::{all, back};
use super::kit::Redirection;
use super::process::Ended;
use crate::judge::result::build;

/// [`build::Build`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub struct Build {
    ended: Ended,
    elapsed: Duration,
    tail: String,
    log: Option<PathBuf>,
    offline: bool,
    set_aside: Vec<String>,
    refused: Vec<Redirection>,
    supplied_unseen: bool,
    not_put_back: Option<(String, String)>,
}

impl From<&build::Build> for Build {
    fn from(build: &build::Build) -> Build {
        Build {
            ended: (&build.ended).into(),
            elapsed: build.elapsed,
            tail: build.tail.clone(),
            log: build.log.clone(),
            offline: build.offline,
            set_aside: build.set_aside.clone(),
            refused: all(&build.refused),
            supplied_unseen: build.supplied_unseen,
            not_put_back: build.not_put_back.clone(),
        }
    }
}

impl From<Build> for build::Build {
    fn from(build: Build) -> build::Build {
        build::Build {
            ended: build.ended.into(),
            elapsed: build.elapsed,
            tail: build.tail,
            log: build.log,
            offline: build.offline,
            set_aside: build.set_aside,
            refused: back(build.refused),
            supplied_unseen: build.supplied_unseen,
            not_put_back: build.not_put_back,
        }
    }
}
