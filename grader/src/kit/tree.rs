//! A submission's file tree, read the only safe way. The grader reads a submission as root,
//! outside the sandbox, so a submission's entries must never lead it anywhere else: a link to
//! `/dev/zero` would be read without end, a link to `/etc/shadow` or the kit's secret would be
//! read with root's rights, a FIFO would block. Here every path below the submission is opened
//! one folder at a time from the folder above (`openat`), never following a link (`O_NOFOLLOW`),
//! and a file is read only if the descriptor opened is a regular file (`fstat` on it, so that
//! nothing can be swapped in between a check and the open), at most a cap's bytes. Links, FIFOs,
//! sockets and devices are never opened: they are listed ([`EntryKind`]), for the reports to name.

use std::fs::File;
use std::io::Read;
use std::os::fd::{AsFd, OwnedFd};
use std::path::Path;

use rustix::fs::{fstat, openat, readlinkat, statat, AtFlags, Dir, FileType, Mode, OFlags, CWD};
use rustix::io::Errno;

/// What an entry of a submission is, by its own metadata: a link is never followed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EntryKind {
    /// A regular file.
    File,
    /// A folder.
    Folder,
    /// A symbolic link.
    Link(Link),
    /// A named pipe.
    Fifo,
    /// A UNIX socket.
    Socket,
    /// A block or character device (or any other special file).
    Device,
}

/// A symbolic link's target, as it was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    /// The target's text (lossily decoded).
    pub target: String,
    /// Whether the target names something inside the submission (a relative target that never
    /// climbs above the submission's folder), such as `src/lib.rs -> main.rs`.
    pub within: bool,
}

/// One entry of a submission, by its path below the submission's folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The path, `/`-separated.
    pub path: String,
    /// What it is.
    pub kind: EntryKind,
}

/// Why a submission's file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// There is nothing at that path.
    Missing,
    /// The entry is not a regular file (and so was not opened, or not read).
    NotAFile(EntryKind),
    /// A folder along the path (its path given) is a link or not a folder: it is not followed.
    Through(Entry),
    /// The file holds more than the cap, in bytes: it was not read whole.
    TooLarge(u64),
    /// The path is not one below the submission's folder (empty, absolute, or with `..`).
    Outside,
    /// The system refused (permissions, I/O): its message.
    Io(String),
}

/// Where a walk stopped before seeing everything.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cutoff {
    /// It had seen this many entries, the most a walk looks at.
    TooMany(usize),
    /// This folder is deeper than the deepest a walk enters.
    TooDeep(String),
}

/// What a walk found below a folder of a submission.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Listing {
    /// Every entry but folders, sorted by path.
    pub entries: Vec<Entry>,
    /// The folders that could not be listed, by path.
    pub unlisted: Vec<String>,
    /// Why the walk did not see everything, if it did not.
    pub stopped: Option<Cutoff>,
}

/// The most entries a walk looks at: a submission is a project, not a disk.
pub const MAX_ENTRIES: usize = 100_000;
/// The deepest folder a walk enters, below the folder walked.
pub const MAX_DEPTH: usize = 64;

/// Reads the regular file `relative` (`/`-separated) below the folder `root`, at most `cap`
/// bytes. `root` is the grader's choice and its own path is resolved as usual; below it no link
/// is followed, and nothing but a regular file is opened.
pub fn read(root: &Path, relative: &str, cap: u64) -> Result<Vec<u8>, ReadError> {
    let (folders, name) = split(relative)?;
    let folder = open_below(root, &folders)?;
    match kind_at(&folder, name, &folders)? {
        EntryKind::File => {}
        other => return Err(ReadError::NotAFile(other)),
    }
    let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::NOCTTY;
    let fd = openat(&folder, name, flags | OFlags::CLOEXEC, Mode::empty()).map_err(io)?;
    // What was opened is what is read: if the entry was replaced since, say what is there now.
    if !FileType::from_raw_mode(fstat(&fd).map_err(io)?.st_mode).is_file() {
        return Err(ReadError::NotAFile(kind_at(&folder, name, &folders)?));
    }
    let mut bytes = Vec::new();
    File::from(fd)
        .take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| ReadError::Io(e.to_string()))?;
    match bytes.len() as u64 > cap {
        true => Err(ReadError::TooLarge(cap)),
        false => Ok(bytes),
    }
}

/// What the entry `relative` below the folder `root` is, itself (a link is not followed).
pub fn kind(root: &Path, relative: &str) -> Result<EntryKind, ReadError> {
    let (folders, name) = split(relative)?;
    let folder = open_below(root, &folders)?;
    kind_at(&folder, name, &folders)
}

/// Every entry below `under` (`/`-separated below the folder `root`; empty for `root` itself),
/// never following a link, leaving out the folders for which `skip` (given a folder's path and
/// name) is true, and their contents; at most [`MAX_ENTRIES`] entries, [`MAX_DEPTH`] folders
/// down.
pub fn walk(
    root: &Path,
    under: &str,
    skip: &dyn Fn(&str, &str) -> bool,
) -> Result<Listing, ReadError> {
    let folder = match under.is_empty() {
        true => open_root(root)?,
        false => {
            let (folders, name) = split(under)?;
            let parent = open_below(root, &folders)?;
            open_folder(&parent, name, &join(&folders.join("/"), name))?
        }
    };
    let mut walker = Walker {
        skip,
        seen: 0,
        listing: Listing::default(),
    };
    walker.folder(folder, under, 0);
    walker.listing.entries.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(walker.listing)
}

/// A survey of the submission `root`'s special entries: its links, FIFOs, sockets and devices,
/// which the grader never reads, listed for the graders. Build output (a `target` folder at
/// the top, if it is a folder) is left out.
pub fn survey(root: &Path) -> Listing {
    let skip = |path: &str, _: &str| path == "target";
    match walk(root, "", &skip) {
        Ok(mut listing) => {
            listing
                .entries
                .retain(|entry| entry.kind != EntryKind::File);
            listing
        }
        Err(_) => Listing {
            unlisted: vec![String::new()],
            ..Listing::default()
        },
    }
}

/// Whether a link in the folder `folder` (`/`-separated below the submission) whose target is
/// `target` names something inside the submission: a relative target whose `..`s never climb
/// above the submission's folder.
pub fn within(folder: &str, target: &str) -> bool {
    if target.starts_with('/') {
        return false;
    }
    let mut depth = folder.split('/').filter(|part| !part.is_empty()).count();
    for part in target.split('/') {
        match part {
            "" | "." => {}
            ".." if depth == 0 => return false,
            ".." => depth -= 1,
            _ => depth += 1,
        }
    }
    true
}

/// A walk under way.
struct Walker<'a> {
    skip: &'a dyn Fn(&str, &str) -> bool,
    seen: usize,
    listing: Listing,
}

impl Walker<'_> {
    /// Adds what the open folder `fd`, at `path`, `depth` folders below the walk's, holds.
    fn folder(&mut self, fd: OwnedFd, path: &str, depth: usize) {
        let Ok(names) = names(&fd) else {
            self.listing.unlisted.push(path.to_string());
            return;
        };
        for name in names {
            if self.listing.stopped.is_some() {
                return;
            }
            self.seen += 1;
            if self.seen > MAX_ENTRIES {
                self.listing.stopped = Some(Cutoff::TooMany(MAX_ENTRIES));
                return;
            }
            let child = join(path, &name);
            // An entry gone since it was listed is left out.
            let Ok(kind) = kind_in(&fd, &name, path) else {
                continue;
            };
            if kind != EntryKind::Folder {
                self.listing.entries.push(Entry { path: child, kind });
                continue;
            }
            if (self.skip)(&child, &name) {
                continue;
            }
            if depth + 1 > MAX_DEPTH {
                self.listing.stopped = Some(Cutoff::TooDeep(child));
                return;
            }
            match open_folder(&fd, &name, &child) {
                Ok(inner) => self.folder(inner, &child, depth + 1),
                Err(_) => self.listing.unlisted.push(child),
            }
        }
    }
}

/// The names in the open folder `fd`, sorted, without `.` and `..`.
fn names(fd: &OwnedFd) -> Result<Vec<String>, Errno> {
    let mut dir = Dir::read_from(fd)?;
    let mut names = Vec::new();
    while let Some(entry) = dir.read() {
        let name = entry?.file_name().to_string_lossy().into_owned();
        if name != "." && name != ".." {
            names.push(name);
        }
    }
    names.sort();
    Ok(names)
}

/// `relative` split into its folders and its last name; an error unless every part is a name.
fn split(relative: &str) -> Result<(Vec<&str>, &str), ReadError> {
    let parts: Vec<&str> = relative.split('/').collect();
    if parts
        .iter()
        .any(|p| p.is_empty() || *p == "." || *p == "..")
    {
        return Err(ReadError::Outside);
    }
    let (name, folders) = parts.split_last().ok_or(ReadError::Outside)?;
    Ok((folders.to_vec(), name))
}

/// `path/name`, or `name` at the top.
fn join(path: &str, name: &str) -> String {
    match path.is_empty() {
        true => name.to_string(),
        false => format!("{path}/{name}"),
    }
}

/// The grader's folder `root`, opened.
fn open_root(root: &Path) -> Result<OwnedFd, ReadError> {
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
    openat(CWD, root, flags, Mode::empty()).map_err(|e| match e {
        Errno::NOENT => ReadError::Missing,
        e => io(e),
    })
}

/// The folder `root/folders...`, opened one folder at a time without following a link.
fn open_below(root: &Path, folders: &[&str]) -> Result<OwnedFd, ReadError> {
    let mut fd = open_root(root)?;
    let mut path = String::new();
    for name in folders {
        path = join(&path, name);
        fd = open_folder(&fd, name, &path)?;
    }
    Ok(fd)
}

/// The folder `name` in the open folder `parent` (at `path`), opened without following a
/// link; anything else there is [`ReadError::Through`].
fn open_folder(parent: &OwnedFd, name: &str, path: &str) -> Result<OwnedFd, ReadError> {
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    openat(parent, name, flags, Mode::empty()).map_err(|e| {
        let parent_path = path.rsplit_once('/').map_or("", |(p, _)| p);
        match (e, kind_in(parent, name, parent_path)) {
            (Errno::NOENT, _) => ReadError::Missing,
            (_, Ok(kind)) if kind != EntryKind::Folder => ReadError::Through(Entry {
                path: path.to_string(),
                kind,
            }),
            (e, _) => io(e),
        }
    })
}

/// What `name` in the open folder `folder` (at the parts `folders`) is.
fn kind_at(folder: &OwnedFd, name: &str, folders: &[&str]) -> Result<EntryKind, ReadError> {
    kind_in(folder, name, &folders.join("/")).map_err(|e| match e {
        Errno::NOENT => ReadError::Missing,
        e => io(e),
    })
}

/// What `name` in the open folder `folder`, at `path`, is, itself.
fn kind_in(folder: impl AsFd, name: &str, path: &str) -> Result<EntryKind, Errno> {
    let stat = statat(&folder, name, AtFlags::SYMLINK_NOFOLLOW)?;
    Ok(match FileType::from_raw_mode(stat.st_mode) {
        FileType::RegularFile => EntryKind::File,
        FileType::Directory => EntryKind::Folder,
        FileType::Fifo => EntryKind::Fifo,
        FileType::Socket => EntryKind::Socket,
        FileType::Symlink => {
            let target = readlinkat(&folder, name, Vec::new())?;
            let target = target.to_string_lossy().into_owned();
            EntryKind::Link(Link {
                within: within(path, &target),
                target,
            })
        }
        FileType::BlockDevice | FileType::CharacterDevice | FileType::Unknown => EntryKind::Device,
    })
}

/// A system error as a [`ReadError`].
fn io(errno: Errno) -> ReadError {
    ReadError::Io(std::io::Error::from(errno).to_string())
}

#[cfg(test)]
mod tests;
