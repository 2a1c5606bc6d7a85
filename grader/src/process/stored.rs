//! How the process layer's results are kept on disk (serde), where a type of theirs is not one
//! serde knows: an [`ExitStatus`] is kept as the raw wait status it is made from, and a
//! `&'static str` (a tool's or a signal's name, a kernel version) is read back interned, each
//! distinct text allocated once for the life of the process. Used by `#[serde(with = ...)]` and
//! `#[serde(deserialize_with = ...)]` on the fields concerned, so that a student's whole result
//! can be kept and read again (`grade feedback`).

use std::collections::BTreeSet;
use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;
use std::sync::Mutex;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An [`ExitStatus`] kept as its raw wait status.
pub mod exit_status {
    use super::*;

    /// Writes `status` as its raw wait status.
    pub fn serialize<S: Serializer>(status: &ExitStatus, out: S) -> Result<S::Ok, S::Error> {
        status.into_raw().serialize(out)
    }

    /// Reads a raw wait status back.
    pub fn deserialize<'de, D: Deserializer<'de>>(input: D) -> Result<ExitStatus, D::Error> {
        i32::deserialize(input).map(ExitStatus::from_raw)
    }
}

/// An optional [`ExitStatus`] kept as its raw wait status, or null.
pub mod exit_status_option {
    use super::*;

    /// Writes `status` as its raw wait status, or null.
    pub fn serialize<S: Serializer>(
        status: &Option<ExitStatus>,
        out: S,
    ) -> Result<S::Ok, S::Error> {
        status.map(ExitStatus::into_raw).serialize(out)
    }

    /// Reads a raw wait status, or null, back.
    pub fn deserialize<'de, D: Deserializer<'de>>(
        input: D,
    ) -> Result<Option<ExitStatus>, D::Error> {
        Option::<i32>::deserialize(input).map(|raw| raw.map(ExitStatus::from_raw))
    }
}

/// A `&'static str` field's type as the fields kept with [`interned`] spell it: serde's derive
/// takes a field written `&'static str` for text borrowed from the input (and would then read
/// its type only from input that lives for ever), an alias it reads as any other type.
pub type StaticStr = &'static str;

/// The texts read back so far, each allocated once.
static INTERNED: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());

/// Reads a `&'static str` back: the same text read twice is the same allocation, so that
/// reading many results keeps one copy of each name.
pub fn interned<'de, D: Deserializer<'de>>(input: D) -> Result<&'static str, D::Error> {
    let text = String::deserialize(input)?;
    let mut interned = INTERNED
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(&kept) = interned.get(text.as_str()) {
        return Ok(kept);
    }
    let kept: &'static str = Box::leak(text.into_boxed_str());
    interned.insert(kept);
    Ok(kept)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Kept {
        #[serde(with = "exit_status")]
        status: ExitStatus,
        #[serde(with = "exit_status_option")]
        shell: Option<ExitStatus>,
        #[serde(deserialize_with = "interned")]
        name: StaticStr,
    }

    #[test]
    fn exit_statuses_and_static_names_read_back() {
        let kept = Kept {
            status: ExitStatus::from_raw(9),
            shell: Some(ExitStatus::from_raw(137 << 8)),
            name: "SIGXCPU",
        };
        let json = serde_json::to_string(&kept).unwrap();
        assert_eq!(json, r#"{"status":9,"shell":35072,"name":"SIGXCPU"}"#);
        let back: Kept = serde_json::from_str(&json).unwrap();
        assert_eq!(back, kept);
        let again: Kept = serde_json::from_str(&json).unwrap();
        assert!(std::ptr::eq(back.name, again.name), "one copy of each name");
    }
}
