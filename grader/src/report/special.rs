//! The submission's special files in words: its links (with their targets, and whether they
//! stay inside the submission), FIFOs, sockets and devices, which the grader never reads, for
//! every report to list the same way. Paths and targets are the student's text, so each is
//! quoted and escaped (`"src/lib.rs"`): a name cannot pass for report text or control a terminal.

use crate::kit::tree::{Cutoff, EntryKind, Listing, MAX_DEPTH};

/// The most entries a report lists; the rest are counted.
const SHOWN: usize = 20;

/// What a report says above the listing.
pub const HEADING: &str = "Special files";
/// Why they are listed, said below the heading.
pub const WHY: &str = "The grader never reads these (nor follows a link); they are listed for \
    the graders and cost no points by themselves.";

/// Whether there is anything to list.
pub fn any(listing: &Listing) -> bool {
    !listing.entries.is_empty() || !listing.unlisted.is_empty() || listing.stopped.is_some()
}

/// Whether everything listed is harmless: links that stay inside the submission.
pub fn harmless(listing: &Listing) -> bool {
    let inside = |kind: &EntryKind| matches!(kind, EntryKind::Link(link) if link.within);
    listing.entries.iter().all(|entry| inside(&entry.kind))
        && listing.unlisted.is_empty()
        && listing.stopped.is_none()
}

/// One line per entry (at most [`SHOWN`], then how many more), then the folders that could not
/// be listed and where the listing stopped.
pub fn lines(listing: &Listing) -> Vec<String> {
    let mut lines: Vec<String> = listing
        .entries
        .iter()
        .take(SHOWN)
        .map(|entry| format!("{:?}: {}", entry.path, kind(&entry.kind)))
        .collect();
    if listing.entries.len() > SHOWN {
        lines.push(format!("and {} more", listing.entries.len() - SHOWN));
    }
    for folder in &listing.unlisted {
        let folder = match folder.is_empty() {
            true => "the submission".to_string(),
            false => format!("{folder:?}"),
        };
        lines.push(format!("{folder}: a folder that could not be listed"));
    }
    match &listing.stopped {
        Some(Cutoff::TooMany(count)) => lines.push(format!(
            "the listing stopped after {count} entries: the submission holds more"
        )),
        Some(Cutoff::TooDeep(folder)) => lines.push(format!(
            "{folder:?}: not looked in, deeper than {MAX_DEPTH} folders"
        )),
        None => {}
    }
    lines
}

/// What an entry is, in words.
fn kind(kind: &EntryKind) -> String {
    match kind {
        EntryKind::Link(link) => format!(
            "a link to {:?}, {} the submission",
            link.target,
            if link.within { "inside" } else { "outside" }
        ),
        EntryKind::Fifo => "a FIFO (named pipe)".into(),
        EntryKind::Socket => "a socket".into(),
        EntryKind::Device => "a device".into(),
        EntryKind::File => "a file".into(),
        EntryKind::Folder => "a folder".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::tree::{Entry, Link};

    fn entry(path: &str, kind: EntryKind) -> Entry {
        Entry {
            path: path.into(),
            kind,
        }
    }

    #[test]
    fn each_kind_is_named_and_hostile_text_is_escaped() {
        let link = |target: &str, within| {
            EntryKind::Link(Link {
                target: target.into(),
                within,
            })
        };
        let listing = Listing {
            entries: vec![
                entry("pipe", EntryKind::Fifo),
                entry("src/lib.rs", link("main.rs", true)),
                entry("supplied/src/zero.rs", link("/dev/zero", false)),
                entry("x\n\u{1b}[2J", EntryKind::Device),
            ],
            unlisted: vec!["closed".into()],
            stopped: Some(Cutoff::TooDeep("d/d".into())),
        };
        assert_eq!(
            lines(&listing),
            [
                "\"pipe\": a FIFO (named pipe)",
                "\"src/lib.rs\": a link to \"main.rs\", inside the submission",
                "\"supplied/src/zero.rs\": a link to \"/dev/zero\", outside the submission",
                "\"x\\n\\u{1b}[2J\": a device",
                "\"closed\": a folder that could not be listed",
                "\"d/d\": not looked in, deeper than 64 folders",
            ]
        );
        assert!(any(&listing) && !harmless(&listing));
        let inside = Listing {
            entries: vec![entry("src/lib.rs", link("main.rs", true))],
            ..Listing::default()
        };
        assert!(any(&inside) && harmless(&inside));
        assert!(!any(&Listing::default()));
    }

    #[test]
    fn a_long_listing_is_cut_and_counted() {
        let listing = Listing {
            entries: (0..SHOWN + 3)
                .map(|i| entry(&format!("p{i:02}"), EntryKind::Socket))
                .collect(),
            ..Listing::default()
        };
        let lines = lines(&listing);
        assert_eq!(lines.len(), SHOWN + 1);
        assert_eq!(lines[SHOWN], "and 3 more");
    }
}
