//! The tree's tests: every kind of entry a hostile submission can hold, read and walked
//! without being followed, opened or read past its cap; and which link targets stay inside.

use super::*;
use std::fs;
use std::os::unix::fs::{symlink, PermissionsExt};
use std::os::unix::net::UnixListener;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use proptest::prelude::*;
use rustix::fs::mknodat;

/// A submission folder with `src/main.rs` in it, and a secret beside it (outside it) that no
/// one but root may read: mode 0000, which root reads all the same, as the grader would.
fn submission() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let work = tempfile::tempdir().unwrap();
    let root = work.path().join("student");
    fs::create_dir_all(root.join("src")).unwrap();
    fs::write(root.join("src/main.rs"), "fn main() {}\n").unwrap();
    let secret = work.path().join("secret.toml");
    fs::write(&secret, "seed = 1234567\n").unwrap();
    fs::set_permissions(&secret, fs::Permissions::from_mode(0o000)).unwrap();
    (work, root, secret)
}

fn link(target: &str, within: bool) -> EntryKind {
    EntryKind::Link(Link {
        target: target.into(),
        within,
    })
}

#[test]
fn a_regular_file_is_read_up_to_its_cap_and_no_further() {
    let (_work, root, _) = submission();
    assert_eq!(read(&root, "src/main.rs", 13).unwrap(), b"fn main() {}\n");
    assert_eq!(read(&root, "src/main.rs", 12), Err(ReadError::TooLarge(12)));
    assert_eq!(read(&root, "src/other.rs", 100), Err(ReadError::Missing));
    assert_eq!(read(&root, "nowhere/main.rs", 100), Err(ReadError::Missing));
}

#[test]
fn a_link_to_dev_zero_or_to_a_secret_is_never_read() {
    let (_work, root, secret) = submission();
    symlink("/dev/zero", root.join("src/zero.rs")).unwrap();
    symlink(&secret, root.join("src/secret.rs")).unwrap();
    let started = Instant::now();
    assert_eq!(
        read(&root, "src/zero.rs", u64::MAX),
        Err(ReadError::NotAFile(link("/dev/zero", false)))
    );
    let target = secret.to_str().unwrap();
    assert_eq!(
        read(&root, "src/secret.rs", 1 << 20),
        Err(ReadError::NotAFile(link(target, false)))
    );
    // Reading `/dev/zero` would never end: any bound tells the two apart, on any machine.
    assert!(started.elapsed() < Duration::from_secs(60));
}

#[test]
fn a_fifo_a_socket_and_a_device_are_not_opened() {
    let (_work, root, _) = submission();
    let folder = open_root(&root).unwrap();
    mknodat(&folder, "pipe", FileType::Fifo, Mode::RUSR | Mode::WUSR, 0).unwrap();
    let _socket = UnixListener::bind(root.join("socket")).unwrap();
    // A FIFO opened for reading would block until a writer came: it is not even opened.
    assert_eq!(
        read(&root, "pipe", 10),
        Err(ReadError::NotAFile(EntryKind::Fifo))
    );
    assert_eq!(
        read(&root, "socket", 10),
        Err(ReadError::NotAFile(EntryKind::Socket))
    );
    // Making a device takes root's rights; the system's are devices all the same.
    assert_eq!(
        read(Path::new("/dev"), "zero", 10),
        Err(ReadError::NotAFile(EntryKind::Device))
    );
    assert_eq!(kind(Path::new("/dev"), "null"), Ok(EntryKind::Device));
}

#[test]
fn a_link_along_the_path_is_not_followed() {
    let (work, root, _) = submission();
    fs::create_dir_all(work.path().join("elsewhere")).unwrap();
    fs::write(work.path().join("elsewhere/lib.rs"), "// not theirs\n").unwrap();
    symlink("../elsewhere", root.join("away")).unwrap();
    symlink("/etc", root.join("etc")).unwrap();
    symlink("src", root.join("source")).unwrap();
    assert_eq!(
        read(&root, "away/lib.rs", 100),
        Err(ReadError::Through(Entry {
            path: "away".into(),
            kind: link("../elsewhere", false),
        }))
    );
    assert!(matches!(
        read(&root, "etc/shadow", 100),
        Err(ReadError::Through(Entry { path, .. })) if path == "etc"
    ));
    // Even a link that stays inside is not followed: its own entry is what is listed.
    assert!(matches!(
        read(&root, "source/main.rs", 100),
        Err(ReadError::Through(Entry {
            kind: EntryKind::Link(Link { within: true, .. }),
            ..
        }))
    ));
    assert!(matches!(
        read(&root, "src/main.rs/x", 100),
        Err(ReadError::Through(Entry {
            kind: EntryKind::File,
            ..
        }))
    ));
    assert!(matches!(
        walk(&root, "away", &|_, _| false),
        Err(ReadError::Through(_))
    ));
}

#[test]
fn a_path_that_is_not_below_the_folder_is_refused() {
    let (_work, root, _) = submission();
    for path in [
        "",
        "/etc/passwd",
        "../student/src/main.rs",
        "src/../src/main.rs",
        "./src",
    ] {
        assert_eq!(read(&root, path, 100), Err(ReadError::Outside), "{path}");
    }
}

#[test]
fn a_walk_lists_every_entry_without_entering_links_or_skipped_folders() {
    let (_work, root, secret) = submission();
    let folder = open_root(&root).unwrap();
    mknodat(&folder, "src/pipe", FileType::Fifo, Mode::RUSR, 0).unwrap();
    symlink("main.rs", root.join("src/lib.rs")).unwrap();
    symlink(&secret, root.join("secret")).unwrap();
    // Loops, by a link to its own folder and by a link to a folder above.
    symlink(".", root.join("src/loop")).unwrap();
    fs::create_dir_all(root.join("a/b")).unwrap();
    symlink("../../a", root.join("a/b/up")).unwrap();
    fs::create_dir_all(root.join("target/debug")).unwrap();
    symlink("/dev/zero", root.join("target/debug/zero")).unwrap();
    let listing = walk(&root, "", &|path, _| path == "target").unwrap();
    let found: Vec<(&str, &EntryKind)> = listing
        .entries
        .iter()
        .map(|e| (e.path.as_str(), &e.kind))
        .collect();
    let secret_link = link(secret.to_str().unwrap(), false);
    assert_eq!(
        found,
        [
            ("a/b/up", &link("../../a", true)),
            ("secret", &secret_link),
            ("src/lib.rs", &link("main.rs", true)),
            ("src/loop", &link(".", true)),
            ("src/main.rs", &EntryKind::File),
            ("src/pipe", &EntryKind::Fifo),
        ]
    );
    assert_eq!(listing.stopped, None);
    assert!(listing.unlisted.is_empty());
    let src = walk(&root, "src", &|_, _| false).unwrap();
    assert_eq!(src.entries.len(), 4, "{src:?}");
    assert_eq!(src.entries[0].path, "src/lib.rs");
}

#[test]
fn a_walk_stops_at_its_deepest_folder() {
    let (_work, root, _) = submission();
    let deep: PathBuf = std::iter::repeat_n("d", MAX_DEPTH + 2).collect();
    fs::create_dir_all(root.join(&deep)).unwrap();
    fs::write(root.join(&deep).join("x"), "").unwrap();
    let listing = walk(&root, "", &|_, _| false).unwrap();
    let too_deep = vec!["d"; MAX_DEPTH + 1].join("/");
    assert_eq!(listing.stopped, Some(Cutoff::TooDeep(too_deep)));
    assert!(listing.entries.iter().all(|e| !e.path.starts_with("d/")));
}

#[test]
fn a_folder_that_cannot_be_listed_is_said() {
    let (_work, root, _) = submission();
    fs::create_dir_all(root.join("closed")).unwrap();
    fs::set_permissions(root.join("closed"), fs::Permissions::from_mode(0o000)).unwrap();
    let listing = walk(&root, "", &|_, _| false).unwrap();
    // Root lists it all the same; anyone else cannot.
    let listable = fs::read_dir(root.join("closed")).is_ok();
    assert_eq!(listing.unlisted.is_empty(), listable, "{listing:?}");
    fs::set_permissions(root.join("closed"), fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn link_targets_inside_and_outside() {
    assert!(within("src", "main.rs"));
    assert!(within("src", "../Cargo.toml"));
    assert!(within("", "."));
    assert!(!within("", ".."));
    assert!(!within("src", "../../x"));
    assert!(!within("src", "/dev/zero"));
    // Out and back in by the submission's name is out: that name is not the submission's own.
    assert!(!within("", "../student/src"));
}

/// The oracle: the target followed on a real tree of folders (no links), each step's folder
/// made as needed and resolved by the system; inside if every step stays under the root. An
/// absolute target starts at `/`.
fn resolved_within(folder: &[&str], target: &[&str]) -> bool {
    let work = tempfile::tempdir().unwrap();
    fs::create_dir_all(work.path().join("r/o/o/t")).unwrap();
    let root = work.path().join("r/o/o/t").canonicalize().unwrap();
    if target.join("/").starts_with('/') {
        return Path::new("/").starts_with(&root);
    }
    let mut at = root.clone();
    for name in folder {
        at.push(name);
    }
    fs::create_dir_all(&at).unwrap();
    for part in target {
        at.push(part);
        fs::create_dir_all(&at).unwrap();
        at = at.canonicalize().unwrap();
        if !at.starts_with(&root) {
            return false;
        }
    }
    true
}

proptest! {
    #[test]
    fn within_agrees_with_the_system(
        folder in proptest::collection::vec(prop::sample::select(vec!["a", "b"]), 0..3),
        target in proptest::collection::vec(
            prop::sample::select(vec!["..", ".", "a", "b", ""]),
            1..7,
        ),
    ) {
        prop_assert_eq!(
            within(&folder.join("/"), &target.join("/")),
            resolved_within(&folder, &target)
        );
    }
}
