//! The kit's facts as a record stores them: a submission's special entries, its copy of the
//! supplied crate, the build's redirections refused, a source language, and who a submission
//! is, when it came in and how late.

use jiff::SignedDuration;
use serde::{Deserialize, Serialize};

use super::each::{all, back};
use crate::kit::{build_config, late, roster, style, submitted, supplied, tree};

unit_enum!(
    #[serde(rename_all = "lowercase")]
    Language = style::Language { Rust, Java, Python }
);
unit_enum!(
    #[serde(rename_all = "snake_case")]
    Source = submitted::Source {
        Gradescope,
        Roster,
        Files
    }
);

/// [`tree::Listing`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub struct Listing {
    entries: Vec<Entry>,
    unlisted: Vec<String>,
    stopped: Option<Cutoff>,
}

impl From<&tree::Listing> for Listing {
    fn from(listing: &tree::Listing) -> Listing {
        Listing {
            entries: all(&listing.entries),
            unlisted: listing.unlisted.clone(),
            stopped: listing.stopped.as_ref().map(Into::into),
        }
    }
}

impl From<Listing> for tree::Listing {
    fn from(listing: Listing) -> tree::Listing {
        tree::Listing {
            entries: back(listing.entries),
            unlisted: listing.unlisted,
            stopped: listing.stopped.map(Into::into),
        }
    }
}

/// [`tree::Entry`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub struct Entry {
    path: String,
    kind: EntryKind,
}

impl From<&tree::Entry> for Entry {
    fn from(entry: &tree::Entry) -> Entry {
        use tree::EntryKind as K;
        let kind = match &entry.kind {
            K::File => EntryKind::File,
            K::Folder => EntryKind::Folder,
            K::Link(link) => EntryKind::Link(Link {
                target: link.target.clone(),
                within: link.within,
            }),
            K::Fifo => EntryKind::Fifo,
            K::Socket => EntryKind::Socket,
            K::Device => EntryKind::Device,
        };
        Entry {
            path: entry.path.clone(),
            kind,
        }
    }
}

impl From<Entry> for tree::Entry {
    fn from(entry: Entry) -> tree::Entry {
        use tree::EntryKind as K;
        let kind = match entry.kind {
            EntryKind::File => K::File,
            EntryKind::Folder => K::Folder,
            EntryKind::Link(Link { target, within }) => K::Link(tree::Link { target, within }),
            EntryKind::Fifo => K::Fifo,
            EntryKind::Socket => K::Socket,
            EntryKind::Device => K::Device,
        };
        tree::Entry {
            path: entry.path,
            kind,
        }
    }
}

/// [`tree::EntryKind`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub enum EntryKind {
    File,
    Folder,
    Link(Link),
    Fifo,
    Socket,
    Device,
}

/// [`tree::Link`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub struct Link {
    target: String,
    within: bool,
}

/// [`tree::Cutoff`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub enum Cutoff {
    TooMany(usize),
    TooDeep(String),
}

impl From<&tree::Cutoff> for Cutoff {
    fn from(cutoff: &tree::Cutoff) -> Cutoff {
        match cutoff {
            tree::Cutoff::TooMany(count) => Cutoff::TooMany(*count),
            tree::Cutoff::TooDeep(path) => Cutoff::TooDeep(path.clone()),
        }
    }
}

impl From<Cutoff> for tree::Cutoff {
    fn from(cutoff: Cutoff) -> tree::Cutoff {
        match cutoff {
            Cutoff::TooMany(count) => tree::Cutoff::TooMany(count),
            Cutoff::TooDeep(path) => tree::Cutoff::TooDeep(path),
        }
    }
}

/// [`supplied::SuppliedCopy`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub struct SuppliedCopy {
    folder: String,
    changes: Vec<Change>,
    replaced: bool,
    not_put_back: Option<(String, String)>,
}

impl From<&supplied::SuppliedCopy> for SuppliedCopy {
    fn from(copy: &supplied::SuppliedCopy) -> SuppliedCopy {
        SuppliedCopy {
            folder: copy.folder.clone(),
            changes: all(&copy.changes),
            replaced: copy.replaced,
            not_put_back: copy.not_put_back.clone(),
        }
    }
}

impl From<SuppliedCopy> for supplied::SuppliedCopy {
    fn from(copy: SuppliedCopy) -> supplied::SuppliedCopy {
        supplied::SuppliedCopy {
            folder: copy.folder,
            changes: back(copy.changes),
            replaced: copy.replaced,
            not_put_back: copy.not_put_back,
        }
    }
}

/// [`supplied::Change`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub enum Change {
    Changed(String),
    Added(String),
    Removed(String),
}

impl From<&supplied::Change> for Change {
    fn from(change: &supplied::Change) -> Change {
        use supplied::Change as C;
        match change.clone() {
            C::Changed(path) => Change::Changed(path),
            C::Added(path) => Change::Added(path),
            C::Removed(path) => Change::Removed(path),
        }
    }
}

impl From<Change> for supplied::Change {
    fn from(change: Change) -> supplied::Change {
        use supplied::Change as C;
        match change {
            Change::Changed(path) => C::Changed(path),
            Change::Added(path) => C::Added(path),
            Change::Removed(path) => C::Removed(path),
        }
    }
}

/// [`build_config::Redirection`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub enum Redirection {
    Patch(String),
    Replace(String),
    Supplied { manifest: String, to: String },
    Compiled(String),
}

impl From<&build_config::Redirection> for Redirection {
    fn from(redirection: &build_config::Redirection) -> Redirection {
        use build_config::Redirection as R;
        match redirection.clone() {
            R::Patch(what) => Redirection::Patch(what),
            R::Replace(what) => Redirection::Replace(what),
            R::Supplied { manifest, to } => Redirection::Supplied { manifest, to },
            R::Compiled(what) => Redirection::Compiled(what),
        }
    }
}

impl From<Redirection> for build_config::Redirection {
    fn from(redirection: Redirection) -> build_config::Redirection {
        use build_config::Redirection as R;
        match redirection {
            Redirection::Patch(what) => R::Patch(what),
            Redirection::Replace(what) => R::Replace(what),
            Redirection::Supplied { manifest, to } => R::Supplied { manifest, to },
            Redirection::Compiled(what) => R::Compiled(what),
        }
    }
}

/// [`roster::Member`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub struct Member {
    student_id: String,
    name: String,
    email: String,
    login: String,
}

impl From<&roster::Member> for Member {
    fn from(member: &roster::Member) -> Member {
        let roster::Member {
            student_id,
            name,
            email,
            login,
        } = member.clone();
        Member {
            student_id,
            name,
            email,
            login,
        }
    }
}

impl From<Member> for roster::Member {
    fn from(member: Member) -> roster::Member {
        roster::Member {
            student_id: member.student_id,
            name: member.name,
            email: member.email,
            login: member.login,
        }
    }
}

/// [`submitted::Submitted`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub struct Submitted {
    at: Moment,
    source: Source,
}

impl From<&submitted::Submitted> for Submitted {
    fn from(submitted: &submitted::Submitted) -> Submitted {
        Submitted {
            at: Moment(submitted.at),
            source: (&submitted.source).into(),
        }
    }
}

impl From<Submitted> for submitted::Submitted {
    fn from(submitted: Submitted) -> submitted::Submitted {
        submitted::Submitted {
            at: submitted.at.0,
            source: submitted.source.into(),
        }
    }
}

/// A [`late::Moment`] as stored: RFC 3339 in its own offset, to the nanosecond.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Moment(late::Moment);

impl TryFrom<String> for Moment {
    type Error = String;

    fn try_from(text: String) -> Result<Moment, String> {
        late::Moment::parse(&text)
            .map(Moment)
            .ok_or_else(|| format!("{text:?} is not a date-time with its offset (RFC 3339)"))
    }
}

impl From<Moment> for String {
    fn from(moment: Moment) -> String {
        moment.0.at.display_with_offset(moment.0.offset).to_string()
    }
}

/// [`late::Lateness`] as stored.
#[derive(Debug, Serialize, Deserialize)]
pub struct Lateness {
    late: SignedDuration,
    periods: i64,
    penalty: f64,
}

impl From<&late::Lateness> for Lateness {
    fn from(lateness: &late::Lateness) -> Lateness {
        Lateness {
            late: lateness.late,
            periods: lateness.periods,
            penalty: lateness.penalty,
        }
    }
}

impl From<Lateness> for late::Lateness {
    fn from(lateness: Lateness) -> late::Lateness {
        late::Lateness {
            late: lateness.late,
            periods: lateness.periods,
            penalty: lateness.penalty,
        }
    }
}
