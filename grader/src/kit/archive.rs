//! A `.zip` (Gradescope's "Export Submissions" as downloaded) extracted into a temporary folder
//! that lives as long as the run. Its entries are students' files, so none is trusted: one whose
//! path is absolute or climbs out with `..` is left out, a symbolic link is never made (so no
//! later entry can be written through one), no file is written over, a file is executable only
//! if the archive says so and never setuid or writable by others, and the whole is bounded in
//! size and entries before anything is written: the sizes the archive declares must fit the
//! bounds and the temporary folder's free space, and each entry is cut off, and the archive
//! refused, at the first byte past the size it declares, so a zip bomb writes at most what
//! it declares (nothing past the bounds). A name that is not UTF-8 is written with `�` for
//! what is not. Whatever is not extracted as the archive has it is noted, with why. The zip
//! format itself is read by the `zip` crate.

use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, ErrorKind, Read, Write};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Component, Path, PathBuf};
use std::time::SystemTime;

use tempfile::TempDir;
use zip::read::ZipFile;
use zip::ZipArchive;

/// What an archive may hold once extracted: its bytes and its entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Bounds {
    /// Bytes of all its files together.
    bytes: u64,
    /// Entries (files and folders).
    entries: usize,
}

/// The bounds of [`extract`]: far above a class's export, far below a zip bomb's.
const BOUNDS: Bounds = Bounds {
    bytes: 4 << 30,
    entries: 250_000,
};

/// An archive extracted: its folder, removed when this is dropped, and what was noted.
#[derive(Debug)]
pub struct Extracted {
    folder: TempDir,
    /// Each entry not extracted as the archive has it.
    pub notes: Vec<Note>,
}

impl Extracted {
    /// The folder the archive was extracted into.
    pub fn path(&self) -> &Path {
        self.folder.path()
    }
}

/// An entry not extracted as the archive has it: its name, and what was done.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    /// The entry's name in the archive.
    pub entry: String,
    /// What was done.
    pub done: Done,
}

/// What was done with an entry that could not be extracted as it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Done {
    /// Left out: its path is absolute or leads out of the folder.
    Outside,
    /// Left out: a symbolic link.
    Link,
    /// Left out: an earlier entry has its place (a file where a folder goes, or the other way
    /// round).
    Taken,
    /// Written with `�` for the bytes of its name that are not UTF-8.
    Renamed,
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let entry = &self.entry;
        match self.done {
            Done::Outside => write!(f, "{entry}: left out: its path leads out of the folder"),
            Done::Link => write!(f, "{entry}: left out: a symbolic link, never made"),
            Done::Taken => write!(f, "{entry}: left out: an earlier entry has its place"),
            Done::Renamed => write!(f, "{entry}: its name is not UTF-8: written with � for that"),
        }
    }
}

/// What an archive's errors of size and writing end with.
const YOURSELF: &str = "if it is a real export, unzip it yourself and give grade the folder";

/// Why an archive could not be extracted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ArchiveError {
    /// It cannot be opened or read.
    #[error("{}: cannot read: {}", .0.display(), .1)]
    Unreadable(PathBuf, String),
    /// It is not a zip archive, or its index is damaged (the reader's message).
    #[error(
        "{}: not a zip archive ({}): download Gradescope's export again (it may have \
         been cut short), or give grade the folder of submissions",
        .0.display(),
        .1
    )]
    NotZip(PathBuf, String),
    /// An entry cannot be read: damaged, encrypted, or compressed by a method other than
    /// deflate (the entry's name, and the reader's message).
    #[error(
        "{}: {}: cannot be read ({}): download Gradescope's export again",
        .0.display(),
        .1,
        .2
    )]
    Entry(PathBuf, String, String),
    /// It has more entries than its bounds allow: how many, and the bound.
    #[error(
        "{}: {} entries, more than the {} grade extracts (a zip bomb?); {YOURSELF}",
        .0.display(),
        .1,
        .2,
        YOURSELF = YOURSELF
    )]
    TooManyEntries(PathBuf, usize, usize),
    /// Its files come to more bytes than its bounds allow (the bound).
    #[error(
        "{}: more than {} MiB once extracted (a zip bomb?); {YOURSELF}",
        .0.display(),
        .1 >> 20,
        YOURSELF = YOURSELF
    )]
    TooLarge(PathBuf, u64),
    /// An entry holds more bytes than the archive declares for it (the entry's name): a zip
    /// bomb, or a damaged archive.
    #[error(
        "{}: {}: holds more than the archive declares (a zip bomb?); {YOURSELF}",
        .0.display(),
        .1,
        YOURSELF = YOURSELF
    )]
    Understated(PathBuf, String),
    /// Its files come to more bytes than the temporary folder has room for (that room).
    #[error(
        "{}: more than the {} MiB the temporary folder has room for once extracted; {YOURSELF}",
        .0.display(),
        .1 >> 20,
        YOURSELF = YOURSELF
    )]
    NoRoom(PathBuf, u64),
    /// The temporary folder cannot be made or written (the path, and why).
    #[error(
        "{}: cannot write the extracted archive: {} (the temporary folder is TMPDIR's, \
         else /tmp); {YOURSELF}",
        .0.display(),
        .1,
        YOURSELF = YOURSELF
    )]
    Write(PathBuf, String),
}

/// Extracts the archive `zip` into a new temporary folder, within [`BOUNDS`].
pub fn extract(zip: &Path) -> Result<Extracted, ArchiveError> {
    let folder = tempfile::Builder::new()
        .prefix("grade-export-")
        .tempdir()
        .map_err(|e| ArchiveError::Write(std::env::temp_dir(), e.to_string()))?;
    let notes = extract_into(zip, folder.path(), BOUNDS)?;
    Ok(Extracted { folder, notes })
}

/// Extracts the archive `zip` into the empty folder `into`, within `bounds`: every file and
/// folder dated as the archive is, so that extracting it again gives the same stamps.
fn extract_into(zip: &Path, into: &Path, bounds: Bounds) -> Result<Vec<Note>, ArchiveError> {
    let unreadable = |e: io::Error| ArchiveError::Unreadable(zip.to_path_buf(), e.to_string());
    let file = File::open(zip).map_err(unreadable)?;
    let dated = file
        .metadata()
        .and_then(|m| m.modified())
        .map_err(unreadable)?;
    let mut archive = ZipArchive::new(file)
        .map_err(|e| ArchiveError::NotZip(zip.to_path_buf(), e.to_string()))?;
    if archive.len() > bounds.entries {
        let (path, entries) = (zip.to_path_buf(), archive.len());
        return Err(ArchiveError::TooManyEntries(path, entries, bounds.entries));
    }
    let declared = archive.decompressed_size().unwrap_or(u128::MAX);
    if declared > u128::from(bounds.bytes) {
        return Err(ArchiveError::TooLarge(zip.to_path_buf(), bounds.bytes));
    }
    let room = rustix::fs::statvfs(into)
        .map(|stats| stats.f_bavail.saturating_mul(stats.f_frsize))
        .unwrap_or(u64::MAX);
    if declared > u128::from(room) {
        return Err(ArchiveError::NoRoom(zip.to_path_buf(), room));
    }
    let mut notes = Vec::new();
    let mut folders = Vec::new();
    let mut left = bounds.bytes;
    for index in 0..archive.len() {
        let mut entry = archive.by_index(index).map_err(|e| {
            let name = format!("entry {}", index + 1);
            ArchiveError::Entry(zip.to_path_buf(), name, e.to_string())
        })?;
        let name = entry.name().to_string();
        let note = |done| Note {
            entry: name.clone(),
            done,
        };
        let Some(place) = place(&entry) else {
            notes.push(note(Done::Outside));
            continue;
        };
        if entry.is_symlink() {
            notes.push(note(Done::Link));
            continue;
        }
        if std::str::from_utf8(entry.name_raw()).is_err() && entry.name().contains('\u{FFFD}') {
            notes.push(note(Done::Renamed));
        }
        let path = into.join(&place);
        let made = match entry.is_dir() {
            true => folder(&path).map(|()| folders.push(path.clone())),
            false => write_file(zip, &mut entry, &path, &mut left, dated),
        };
        match made {
            Ok(()) => {}
            Err(Failed::Taken) => notes.push(note(Done::Taken)),
            Err(Failed::TooLarge) => {
                return Err(ArchiveError::TooLarge(zip.to_path_buf(), bounds.bytes))
            }
            Err(Failed::Understated) => {
                return Err(ArchiveError::Understated(zip.to_path_buf(), name))
            }
            Err(Failed::Archive(error)) => return Err(error),
            Err(Failed::Io(e)) => return Err(ArchiveError::Write(path, e.to_string())),
        }
        // The folders it was written in, dated once every entry is in.
        folders.extend(place.ancestors().skip(1).map(|p| into.join(p)));
    }
    folders.sort();
    folders.dedup();
    for path in folders.iter().filter(|p| p.as_path() != into) {
        let _ = File::open(path).and_then(|f| f.set_modified(dated));
    }
    Ok(notes)
}

/// Why an entry was not written.
enum Failed {
    /// An earlier entry has its place.
    Taken,
    /// The archive's bytes are more than its bounds allow.
    TooLarge,
    /// The entry holds more bytes than the archive declares.
    Understated,
    /// The archive failed.
    Archive(ArchiveError),
    /// The folder could not be written.
    Io(io::Error),
}

impl From<io::Error> for Failed {
    fn from(error: io::Error) -> Self {
        match error.kind() {
            ErrorKind::AlreadyExists | ErrorKind::NotADirectory => Failed::Taken,
            _ => Failed::Io(error),
        }
    }
}

/// The entry's place below the folder, in plain components; `None` when it is absolute, holds a
/// NUL or leads out (the `zip` crate's `enclosed_name`), or holds a `..` at all.
fn place<R: Read>(entry: &ZipFile<R>) -> Option<PathBuf> {
    let enclosed = entry.enclosed_name()?;
    enclosed
        .components()
        .filter(|c| *c != Component::CurDir)
        .map(|c| match c {
            Component::Normal(part) => Some(part),
            _ => None,
        })
        .collect()
}

/// Makes the folder `path` and those it is in (mode 755).
fn folder(path: &Path) -> Result<(), Failed> {
    fs::DirBuilder::new()
        .recursive(true)
        .mode(0o755)
        .create(path)
        .map_err(Failed::from)
}

/// Writes `entry` as the new file `path` (its folders made), taking its bytes from `left`, at
/// most the size the archive declares for it: mode 755 when the archive makes it executable by
/// anyone, else 644; dated `dated`.
fn write_file<R: Read>(
    zip: &Path,
    entry: &mut ZipFile<R>,
    path: &Path,
    left: &mut u64,
    dated: SystemTime,
) -> Result<(), Failed> {
    if let Some(parent) = path.parent() {
        folder(parent)?;
    }
    let executable = entry.unix_mode().is_some_and(|mode| mode & 0o111 != 0);
    let mut out = OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(if executable { 0o755 } else { 0o644 })
        .open(path)?;
    let mut declared = entry.size();
    let mut buffer = [0; 64 * 1024];
    loop {
        let read = entry.read(&mut buffer).map_err(|e| {
            let name = entry.name().to_string();
            Failed::Archive(ArchiveError::Entry(zip.to_path_buf(), name, e.to_string()))
        })?;
        if read == 0 {
            break;
        }
        declared = declared
            .checked_sub(read as u64)
            .ok_or(Failed::Understated)?;
        *left = left.checked_sub(read as u64).ok_or(Failed::TooLarge)?;
        out.write_all(&buffer[..read]).map_err(Failed::Io)?;
    }
    out.set_modified(dated).map_err(Failed::Io)
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;
    use std::os::unix::fs::PermissionsExt;

    use zip::write::SimpleFileOptions;
    use zip::{CompressionMethod, ZipWriter};

    use super::*;

    /// An archive of `entries` (name, contents, mode), written by the `zip` crate, deflated.
    fn archive(entries: &[(&str, &[u8], u32)]) -> Vec<u8> {
        let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
        let options = SimpleFileOptions::default().compression_method(CompressionMethod::Deflated);
        for (name, contents, mode) in entries {
            match name.ends_with('/') {
                true => writer.add_directory(*name, options).unwrap(),
                false => {
                    writer
                        .start_file(*name, options.unix_permissions(*mode))
                        .unwrap();
                    writer.write_all(contents).unwrap();
                }
            }
        }
        writer.finish().unwrap().into_inner()
    }

    /// Sets the unix mode the central directory records for the entry `name` to `mode` (the
    /// crate's writer keeps only the permission bits).
    fn with_mode(mut zip: Vec<u8>, name: &str, mode: u32) -> Vec<u8> {
        let at = zip
            .windows(46 + name.len())
            .position(|w| w.starts_with(b"PK\x01\x02") && &w[46..] == name.as_bytes())
            .expect("the entry in the central directory");
        zip[at + 38..at + 42].copy_from_slice(&(mode << 16).to_le_bytes());
        zip
    }

    /// `zip` written to a file and extracted within `bounds`: the folder, and the notes or the
    /// error.
    fn extracted(zip: &[u8], bounds: Bounds) -> (TempDir, Result<Vec<Note>, ArchiveError>) {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("export.zip"), zip).unwrap();
        fs::create_dir(dir.path().join("out")).unwrap();
        let notes = extract_into(
            &dir.path().join("export.zip"),
            &dir.path().join("out"),
            bounds,
        );
        (dir, notes)
    }

    fn mode(path: &Path) -> u32 {
        fs::symlink_metadata(path).unwrap().permissions().mode() & 0o7777
    }

    #[test]
    fn an_export_is_extracted_with_its_folders_and_only_the_executable_bit_of_its_modes() {
        let zip = archive(&[
            ("assignment_1_export/", b"", 0),
            (
                "assignment_1_export/submission_metadata.yml",
                b"{}\n",
                0o644,
            ),
            (
                "assignment_1_export/submission_2/run",
                b"#!/bin/sh\n",
                0o755,
            ),
            (
                "assignment_1_export/submission_2/deep/main.py",
                b"print()\n",
                0o777,
            ),
        ]);
        let zip = with_mode(zip, "assignment_1_export/submission_2/run", 0o104_777);
        let (dir, notes) = extracted(&zip, BOUNDS);
        assert_eq!(notes.unwrap(), []);
        let export = dir.path().join("out/assignment_1_export");
        assert_eq!(
            fs::read(export.join("submission_metadata.yml")).unwrap(),
            b"{}\n"
        );
        assert_eq!(mode(&export.join("submission_2/run")) & 0o7022, 0o000);
        assert_eq!(mode(&export.join("submission_2/run")) & 0o100, 0o100);
        assert_eq!(mode(&export.join("submission_2/deep/main.py")) & 0o7022, 0);
        // Dated as the archive, so that a second extraction is stamped the same.
        let dated = fs::metadata(dir.path().join("export.zip"))
            .unwrap()
            .modified()
            .unwrap();
        for path in [
            export.join("submission_2"),
            export.join("submission_2/deep/main.py"),
        ] {
            assert_eq!(fs::metadata(&path).unwrap().modified().unwrap(), dated);
        }
    }

    #[test]
    fn what_would_leave_the_folder_link_or_overwrite_is_left_out_and_noted() {
        let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
        let options = SimpleFileOptions::default();
        for name in [
            "../escaped",
            "/tmp/absolute",
            "a/../../escaped",
            "a/b",
            "a/b/c",
        ] {
            writer.start_file(name, options).unwrap();
            writer.write_all(b"x").unwrap();
        }
        writer.add_symlink("a/link", "/etc", options).unwrap();
        writer.start_file("a/link/passwd", options).unwrap();
        writer.start_file("a/ok\u{e9}", options).unwrap();
        let mut zip = writer.finish().unwrap().into_inner();
        // The `é` of a name flagged UTF-8 made bytes that are not UTF-8, everywhere it is.
        while let Some(at) = zip.windows(2).position(|w| w == "\u{e9}".as_bytes()) {
            zip[at..at + 2].copy_from_slice(&[0xff, 0xfe]);
        }
        let (dir, notes) = extracted(&zip, BOUNDS);
        let notes = notes.unwrap();
        let done: Vec<(&str, &Done)> = notes.iter().map(|n| (n.entry.as_str(), &n.done)).collect();
        assert_eq!(
            done,
            [
                ("../escaped", &Done::Outside),
                ("/tmp/absolute", &Done::Outside),
                ("a/../../escaped", &Done::Outside),
                ("a/b/c", &Done::Taken),
                ("a/link", &Done::Link),
                ("a/ok\u{fffd}\u{fffd}", &Done::Renamed),
            ]
        );
        assert_eq!(
            notes[0].to_string(),
            "../escaped: left out: its path leads out of the folder"
        );
        let out = dir.path().join("out");
        assert_eq!(fs::read(out.join("a/b")).unwrap(), b"x");
        // What a link would have led elsewhere lands in a folder of the extraction's own.
        assert!(fs::symlink_metadata(out.join("a/link")).unwrap().is_dir());
        assert!(out.join("a/link/passwd").is_file());
        assert!(out.join("a/ok\u{fffd}\u{fffd}").is_file());
        let mut listed: Vec<String> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        listed.sort();
        assert_eq!(listed, ["export.zip", "out"]);
    }

    #[test]
    fn a_zip_bomb_is_refused_by_its_size_or_its_entries() {
        let big = vec![0; 64 * 1024];
        let zip = archive(&[("a", &big, 0o644), ("b", &big, 0o644)]);
        let small = Bounds {
            bytes: 100_000,
            entries: 10,
        };
        let (_dir, error) = extracted(&zip, small);
        assert!(
            matches!(error, Err(ArchiveError::TooLarge(..))),
            "{error:?}"
        );
        // Sizes the archive understates are counted as they are read.
        let mut lying = zip.clone();
        for header in [&b"PK\x03\x04"[..], b"PK\x01\x02"] {
            let mut from = 0;
            while let Some(at) = lying[from..].windows(4).position(|w| w == header) {
                let at = from + at;
                let size = at + if header[2] == 3 { 22 } else { 24 };
                lying[size..size + 4].copy_from_slice(&1u32.to_le_bytes());
                from = at + 4;
            }
        }
        let (_dir, error) = extracted(&lying, small);
        assert!(error.is_err(), "{error:?}");
        // A bomb that understates its sizes writes nothing past them: 64 MiB of zeros
        // declared as one byte, refused with at most that byte written.
        let zeros = vec![0; 64 << 20];
        let mut bomb = archive(&[("bomb", &zeros, 0o644)]);
        for header in [&b"PK\x03\x04"[..], b"PK\x01\x02"] {
            let at = bomb.windows(4).position(|w| w == header).unwrap();
            let size = at + if header[2] == 3 { 22 } else { 24 };
            bomb[size..size + 4].copy_from_slice(&1u32.to_le_bytes());
        }
        let (dir, error) = extracted(&bomb, BOUNDS);
        assert!(
            matches!(&error, Err(ArchiveError::Understated(_, name)) if name == "bomb"),
            "{error:?}"
        );
        let written = fs::metadata(dir.path().join("out/bomb")).map_or(0, |m| m.len());
        assert!(written <= 1, "{written} bytes written");
        let (_dir, error) = extracted(
            &zip,
            Bounds {
                entries: 1,
                ..BOUNDS
            },
        );
        assert_eq!(
            error.unwrap_err().to_string().split(": ").nth(1),
            Some(
                "2 entries, more than the 1 grade extracts (a zip bomb?); if it is a real \
                 export, unzip it yourself and give grade the folder"
            )
        );
    }

    #[test]
    fn what_is_not_a_zip_is_refused_saying_to_download_it_again() {
        let (_dir, error) = extracted(b"not a zip at all", BOUNDS);
        let error = error.unwrap_err();
        assert!(matches!(error, ArchiveError::NotZip(..)), "{error:?}");
        assert!(
            error
                .to_string()
                .contains("download Gradescope's export again"),
            "{error}"
        );
        let zip = archive(&[("a", &[7; 5000], 0o644)]);
        let mut damaged = zip.clone();
        damaged[40..60].fill(0);
        let (_dir, error) = extracted(&damaged, BOUNDS);
        assert!(error.unwrap_err().to_string().contains("again"));
        let missing = extract(Path::new("/no/such/export.zip")).unwrap_err();
        assert!(
            matches!(missing, ArchiveError::Unreadable(..)),
            "{missing:?}"
        );
    }
}
