//! Stamps of folders, which the class store keeps of the kit and of each student's
//! submission, so that a run carrying on an earlier one can tell what changed since: every
//! file's path, kind, size and modification time (not its contents, which would cost a read of
//! every submission), hashed with 64-bit FNV-1a, a hash that never changes between builds of
//! `grade`. A submission's `target/` (its build's output) is left out. Symbolic links are not
//! followed; a folder that cannot be read counts as such.

use std::fs::{self, Metadata};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// What a folder held, in brief: equal stamps, the same files as far as their sizes and
/// times tell.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stamp {
    /// How many files, folders and links (the folder itself left out).
    pub entries: u64,
    /// Their sizes, added up.
    pub bytes: u64,
    /// The hash of each one's path, kind, size and time, in the order of their paths.
    pub digest: String,
}

/// The stamp of `dir`, its top-level entries named in `skip` left out.
pub fn of(dir: &Path, skip: &[&str]) -> Stamp {
    let mut hash = Fnv::default();
    let (mut entries, mut bytes) = (0, 0);
    // Folders still to read, each as a path below `dir`; read in order, depth first.
    let mut folders = vec![PathBuf::new()];
    while let Some(folder) = folders.pop() {
        let listed = fs::read_dir(dir.join(&folder)).and_then(|read| {
            let mut names: Vec<_> = read
                .map(|entry| entry.map(|e| e.file_name()))
                .collect::<Result<_, _>>()?;
            names.sort();
            Ok(names)
        });
        let names = match listed {
            Ok(names) => names,
            Err(e) => {
                hash.write(folder.as_os_str().as_bytes());
                hash.write(format!("\0unreadable {:?}\0", e.kind()).as_bytes());
                continue;
            }
        };
        // Pushed in reverse, so that the first name is read next.
        let mut below = Vec::new();
        for name in names {
            if folder.as_os_str().is_empty() && skip.iter().any(|s| name.as_bytes() == s.as_bytes())
            {
                continue;
            }
            let path = folder.join(&name);
            let Ok(meta) = fs::symlink_metadata(dir.join(&path)) else {
                continue;
            };
            entries += 1;
            bytes += meta.len();
            hash.write(path.as_os_str().as_bytes());
            hash.write(&describe(&meta));
            if meta.file_type().is_symlink() {
                let target = fs::read_link(dir.join(&path)).unwrap_or_default();
                hash.write(target.as_os_str().as_bytes());
            }
            if meta.is_dir() {
                below.push(path);
            }
        }
        folders.extend(below.into_iter().rev());
    }
    Stamp {
        entries,
        bytes,
        digest: format!("{:016x}", hash.0),
    }
}

/// An entry's kind, size and modification time, as bytes to hash, set off from the next path.
fn describe(meta: &Metadata) -> Vec<u8> {
    let kind = match meta.file_type() {
        t if t.is_symlink() => b'l',
        t if t.is_dir() => b'd',
        t if t.is_file() => b'f',
        _ => b'o',
    };
    let mut out = vec![0, kind];
    out.extend(meta.len().to_le_bytes());
    out.extend(meta.mtime().to_le_bytes());
    out.extend(meta.mtime_nsec().to_le_bytes());
    out.push(0);
    out
}

/// 64-bit FNV-1a.
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    /// Hashes `bytes` in.
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// 64-bit FNV-1a of `bytes`.
pub fn fnv(bytes: &[u8]) -> u64 {
    let mut hash = Fnv::default();
    hash.write(bytes);
    hash.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, SystemTime};

    #[test]
    fn fnv_1a_gives_the_published_values() {
        assert_eq!(fnv(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv(b"foobar"), 0x8594_4171_f739_67e8);
    }

    /// Sets `path`'s modification time to `seconds` after the epoch.
    fn touch(path: &Path, seconds: u64) {
        let file = fs::File::options().write(true).open(path).unwrap();
        file.set_modified(SystemTime::UNIX_EPOCH + Duration::from_secs(seconds))
            .unwrap();
    }

    #[test]
    fn a_change_of_content_size_time_or_name_changes_it_and_target_does_not() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("src")).unwrap();
        fs::create_dir_all(root.join("target/debug")).unwrap();
        fs::write(root.join("src/main.py"), "print(1)\n").unwrap();
        fs::write(root.join("run"), "exec python3 src/main.py\n").unwrap();
        touch(&root.join("src/main.py"), 1_000);
        let first = of(root, &["target"]);
        assert_eq!(first.entries, 3, "{first:?}");
        assert_eq!(
            of(root, &["target"]),
            first,
            "the same files, the same stamp"
        );
        // The build's output is left out.
        fs::write(root.join("target/debug/program"), "binary").unwrap();
        assert_eq!(of(root, &["target"]), first);
        assert_ne!(of(root, &[]), first);
        // Same size, another time.
        fs::write(root.join("src/main.py"), "print(2)\n").unwrap();
        touch(&root.join("src/main.py"), 1_000);
        assert_eq!(
            of(root, &["target"]),
            first,
            "only sizes and times are seen"
        );
        touch(&root.join("src/main.py"), 2_000);
        let touched = of(root, &["target"]);
        assert_ne!(touched, first);
        // Another size.
        fs::write(root.join("src/main.py"), "print(22)\n").unwrap();
        touch(&root.join("src/main.py"), 2_000);
        assert_ne!(of(root, &["target"]), touched);
        // A file renamed, or added.
        let before = of(root, &["target"]);
        fs::rename(root.join("run"), root.join("run.sh")).unwrap();
        assert_ne!(of(root, &["target"]), before);
        let before = of(root, &["target"]);
        fs::write(root.join("notes"), "").unwrap();
        assert_ne!(of(root, &["target"]), before);
        // A nested `target` is the student's own, and counts.
        let before = of(root, &["target"]);
        fs::create_dir(root.join("src/target")).unwrap();
        assert_ne!(of(root, &["target"]), before);
    }

    #[test]
    fn a_link_is_not_followed_but_its_target_counts() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::os::unix::fs::symlink("/etc", root.join("etc")).unwrap();
        let first = of(root, &[]);
        assert_eq!(first.entries, 1);
        fs::remove_file(root.join("etc")).unwrap();
        std::os::unix::fs::symlink("/usr", root.join("etc")).unwrap();
        assert_ne!(of(root, &[]), first);
    }
}
