//! The similarity check's test class: independent solutions of the assignment in Rust, Java
//! and Python, the starter handed in by two students who both changed little of it (the same
//! obvious one-line bodies), disguised copies of one solution per language (one per way of
//! disguising, and one with all of them), and a partial copy per language (another solution
//! with only the first's minimax and heuristic added), with the list of which pairs are
//! copies. The check must rank every copied pair above every independent one, and find
//! nothing in what the starter gave everyone.
//!
//! The solutions, each written separately in its own style:
//! - Rust: the reference (the repository's `Cargo.toml` and `src/`), the completed starter
//!   ([`completed_starter`]) and `tests/fixtures/similarity/rust/gus/` (its `src/` over the
//!   starter's, as a student hands in the starter project);
//! - Java: the Java fixture student (`tests/fixtures/java/`) and
//!   `tests/fixtures/similarity/java/{eli,fay}/`;
//! - Python: the fixture student `connect_four.py` (not its mutants: copies of it) and
//!   `tests/fixtures/similarity/python/{cho,dev}/`.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use crate::disguise::{disguise_folder, Disguise, Language};
use crate::support::{completed_starter, copy_dir, fixtures, repository};

/// How a student's folder came to be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A solution written on its own.
    Independent,
    /// The starter with little changed: the same few one-line bodies in both such students.
    Starter,
    /// A copy of the student `of`'s folder, disguised as `how` says.
    Disguised { of: String, how: Disguise },
    /// The independent solution `into` with the minimax and heuristic of `of` added.
    Partial { of: String, into: String },
}

/// One student of the class: the folder's name, its language and where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Student {
    pub name: String,
    pub language: Language,
    pub origin: Origin,
}

/// The test class, written into a folder of one submission folder per student.
#[derive(Debug)]
pub struct Class {
    /// The students, one folder each under the class's folder.
    pub students: Vec<Student>,
    /// The pairs of students whose folders are copies of each other (an original and its
    /// disguised copies, and any two copies of one original), each pair's names in order.
    pub copies: BTreeSet<(String, String)>,
    /// The pairs of a partial copy and a disguised copy of its original: copies of one
    /// source at two removes, counted neither as copies nor as independent.
    pub indirect: BTreeSet<(String, String)>,
    /// The code every student was given, to be left out: the starter (with its `supplied/`).
    pub base: PathBuf,
}

impl Class {
    /// The students written in `language`.
    pub fn of(&self, language: Language) -> impl Iterator<Item = &Student> {
        self.students.iter().filter(move |s| s.language == language)
    }

    /// Whether the two students' folders are copies of each other (in either order).
    pub fn copied(&self, a: &str, b: &str) -> bool {
        self.copies.contains(&ordered(a, b))
    }
}

/// Two names in order.
fn ordered(a: &str, b: &str) -> (String, String) {
    match a < b {
        true => (a.to_string(), b.to_string()),
        false => (b.to_string(), a.to_string()),
    }
}

/// A partial copy of a disguised solution: into which independent solution its minimax and
/// heuristic go, and where they are in it: whole files, and methods taken out of a file.
pub struct Partial {
    pub into: &'static str,
    pub files: &'static [&'static str],
    pub methods: (&'static str, &'static [&'static str]),
}

/// The partial copies, one for each of [`DISGUISED`] in its order.
pub const PARTIAL: [Partial; 3] = [
    Partial {
        into: "rust_gus",
        files: &["src/game/search.rs"],
        methods: ("src/game/board.rs", &["heuristic_at"]),
    },
    Partial {
        into: "java_eli",
        files: &["Search.java"],
        methods: ("Board.java", &["heuristic"]),
    },
    Partial {
        into: "python_dev",
        files: &["evaluate.py"],
        methods: ("search.py", &["minimax", "value_of_column"]),
    },
];

/// `partial`'s files of the solution in `from` copied into the folder `into` (a Rust project's
/// under its `src/`), and its methods in a file of their own, in a type of their own.
fn partial_copy(from: &Path, into: &Path, language: Language, partial: &Partial) {
    let folder = match language {
        Language::Rust => into.join("src/copied"),
        _ => into.join("copied"),
    };
    fs::create_dir_all(&folder).unwrap();
    for file in partial.files {
        let name = Path::new(file).file_name().unwrap();
        fs::copy(from.join(file), folder.join(name)).unwrap();
    }
    let (file, names) = partial.methods;
    let source = fs::read_to_string(from.join(file)).unwrap();
    let (path, text) = crate::disguise::items_named(language, &source, names);
    fs::write(folder.join(path), text).unwrap();
}

/// The starter with the few one-line bodies every student writes first (the board's size and
/// the depth kept in the game), as two students who did little more hand it in.
fn little_changed_starter(dir: &Path) {
    starter(dir);
    let game = dir.join("src/game.rs");
    let mut text = fs::read_to_string(&game).unwrap();
    for (from, to) in [
        ("    pool: Pool,\n}", "    pool: Pool,\n    rows: usize,\n    cols: usize,\n    depth: u32,\n}"),
        (
            "            pool: Pool::new(args.threads),\n",
            "            pool: Pool::new(args.threads),\n            rows: args.rows,\n            cols: args.cols,\n            depth: args.depth,\n",
        ),
        ("todo!(\"the number of rows\")", "self.rows"),
        ("todo!(\"the number of columns\")", "self.cols"),
        ("todo!(\"the search depth from the command line\")", "self.depth"),
    ] {
        assert!(text.contains(from), "the starter's game.rs has {from}");
        text = text.replacen(from, to, 1);
    }
    fs::write(&game, text).unwrap();
}

/// The fixtures of the solutions written for this class.
fn similarity_fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/similarity")
}

/// An independent solution: its folder's name in the class, its language, and how to write
/// it into a folder.
pub struct Solution {
    pub name: &'static str,
    pub language: Language,
    pub write: fn(&Path),
}

/// The independent solutions of the class.
pub fn solutions() -> Vec<Solution> {
    fn rust_reference(dir: &Path) {
        fs::create_dir_all(dir).unwrap();
        fs::copy(repository().join("Cargo.toml"), dir.join("Cargo.toml")).unwrap();
        copy_dir(&repository().join("src"), &dir.join("src"));
    }
    fn rust_gus(dir: &Path) {
        starter(dir);
        copy_dir(
            &similarity_fixtures().join("rust/gus/src"),
            &dir.join("src"),
        );
    }
    fn java_fixture(dir: &Path) {
        copy_dir(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/java"),
            dir,
        );
    }
    fn java_eli(dir: &Path) {
        copy_dir(&similarity_fixtures().join("java/eli"), dir);
    }
    fn java_fay(dir: &Path) {
        copy_dir(&similarity_fixtures().join("java/fay"), dir);
    }
    fn python_fixture(dir: &Path) {
        fs::create_dir_all(dir).unwrap();
        let file = "connect_four.py";
        fs::copy(fixtures().join(file), dir.join(file)).unwrap();
    }
    fn python_cho(dir: &Path) {
        copy_dir(&similarity_fixtures().join("python/cho"), dir);
    }
    fn python_dev(dir: &Path) {
        copy_dir(&similarity_fixtures().join("python/dev"), dir);
    }
    vec![
        Solution {
            name: "rust_reference",
            language: Language::Rust,
            write: rust_reference,
        },
        Solution {
            name: "rust_starter_completed",
            language: Language::Rust,
            write: completed_starter,
        },
        Solution {
            name: "rust_gus",
            language: Language::Rust,
            write: rust_gus,
        },
        Solution {
            name: "java_fixture",
            language: Language::Java,
            write: java_fixture,
        },
        Solution {
            name: "java_eli",
            language: Language::Java,
            write: java_eli,
        },
        Solution {
            name: "java_fay",
            language: Language::Java,
            write: java_fay,
        },
        Solution {
            name: "python_fixture",
            language: Language::Python,
            write: python_fixture,
        },
        Solution {
            name: "python_cho",
            language: Language::Python,
            write: python_cho,
        },
        Solution {
            name: "python_dev",
            language: Language::Python,
            write: python_dev,
        },
    ]
}

/// The solution of each language whose copies are disguised: the completed starter (so that
/// the starter's own code is in every copy), the Java fixture and Python's `cho` (several
/// files each, so that files can be merged as well as split).
pub const DISGUISED: [&str; 3] = ["rust_starter_completed", "java_fixture", "python_cho"];

/// The starter as handed out, without its build output.
fn starter(dir: &Path) {
    copy_dir(&repository().join("starter"), dir);
}

/// The folder of a student's sources that a disguise rewrites: a starter project's `src/`
/// (its `supplied/` is the course's, which a student does not hand in changed), or the whole
/// submission.
fn disguised_part(dir: &Path, language: Language) -> PathBuf {
    match language {
        Language::Rust if dir.join("supplied").is_dir() => dir.join("src"),
        _ => dir.to_path_buf(),
    }
}

/// Writes the whole test class into `dir` (one folder per student) and says who is who.
pub fn write_class(dir: &Path) -> Class {
    let mut students = Vec::new();
    let mut copies = BTreeSet::new();
    let mut indirect = BTreeSet::new();
    for solution in solutions() {
        (solution.write)(&dir.join(solution.name));
        students.push(Student {
            name: solution.name.to_string(),
            language: solution.language,
            origin: Origin::Independent,
        });
    }
    for name in ["rust_starter_little_1", "rust_starter_little_2"] {
        little_changed_starter(&dir.join(name));
        students.push(Student {
            name: name.to_string(),
            language: Language::Rust,
            origin: Origin::Starter,
        });
    }
    for (index, original) in DISGUISED.iter().enumerate() {
        let language = students
            .iter()
            .find(|s| s.name == *original)
            .expect("a disguised solution is one of the solutions")
            .language;
        let mut family = vec![original.to_string()];
        for (kind_index, how) in Disguise::EVERY.into_iter().enumerate() {
            let name = format!("{original}_{}", how.name());
            copy_dir(&dir.join(original), &dir.join(&name));
            let seed = 2700 + 10 * index as u64 + kind_index as u64;
            disguise_folder(&disguised_part(&dir.join(&name), language), how, seed);
            students.push(Student {
                name: name.clone(),
                language,
                origin: Origin::Disguised {
                    of: original.to_string(),
                    how,
                },
            });
            family.push(name);
        }
        let partial = &PARTIAL[index];
        let name = format!("{}_partial", partial.into);
        copy_dir(&dir.join(partial.into), &dir.join(&name));
        partial_copy(&dir.join(original), &dir.join(&name), language, partial);
        students.push(Student {
            name: name.clone(),
            language,
            origin: Origin::Partial {
                of: original.to_string(),
                into: partial.into.to_string(),
            },
        });
        for (i, a) in family.iter().enumerate() {
            for b in &family[i + 1..] {
                copies.insert(ordered(a, b));
            }
        }
        copies.insert(ordered(partial.into, &name));
        copies.insert(ordered(original, &name));
        indirect.extend(family[1..].iter().map(|copy| ordered(copy, &name)));
    }
    Class {
        students,
        copies,
        indirect,
        base: repository().join("starter"),
    }
}

/// The test class written into a new temporary folder, removed when the folder is dropped.
pub fn classroom() -> (tempfile::TempDir, Class) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let class = write_class(dir.path());
    (dir, class)
}

#[test]
fn the_class_has_three_solutions_a_language_the_starter_changed_little_twice_and_every_disguise() {
    let (dir, class) = classroom();
    let mut folders: Vec<String> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    folders.sort();
    let mut names: Vec<String> = class.students.iter().map(|s| s.name.clone()).collect();
    names.sort();
    assert_eq!(folders, names);
    for language in [Language::Rust, Language::Java, Language::Python] {
        let independent = class
            .of(language)
            .filter(|s| s.origin == Origin::Independent)
            .count();
        assert!(
            independent >= 3,
            "{language:?}: {independent} independent solutions"
        );
        let disguised: BTreeSet<Disguise> = class
            .of(language)
            .filter_map(|s| match &s.origin {
                Origin::Disguised { how, .. } => Some(*how),
                _ => None,
            })
            .collect();
        assert_eq!(disguised, Disguise::EVERY.into_iter().collect());
    }
    let starters: Vec<&Student> = class
        .students
        .iter()
        .filter(|s| s.origin == Origin::Starter)
        .collect();
    assert_eq!(starters.len(), 2);
    // Every copied pair is two of an original and its eight copies (36 pairs a language), or
    // the partial copy with the original or with the solution it was put in.
    assert_eq!(class.copies.len(), 3 * (36 + 2));
    assert_eq!(class.indirect.len(), 3 * 8);
    assert!(class.copied("java_fixture_all", "java_fixture"));
    assert!(class.copied("python_cho_rename", "python_cho_move"));
    assert!(class.copied("java_eli_partial", "java_fixture"));
    assert!(!class.copied("java_eli_partial", "java_fixture_dead"));
    assert!(class.copied("java_eli_partial", "java_eli"));
    assert!(!class.copied("java_fixture", "java_eli"));
    assert!(!class.copied("rust_starter_little_1", "rust_starter_little_2"));
    // Each disguised copy differs from its original, and a Rust copy keeps the starter's
    // supplied crate as it was.
    for student in &class.students {
        let (Origin::Disguised { of, .. } | Origin::Partial { of, .. }) = &student.origin else {
            continue;
        };
        let original = crate::disguise::read_sources(&dir.path().join(of));
        let copy = crate::disguise::read_sources(&dir.path().join(&student.name));
        assert_ne!(original, copy, "{} is its original unchanged", student.name);
        if student.language == Language::Rust {
            let supplied = |s: &crate::disguise::Sources| {
                s.iter()
                    .filter(|(p, _)| p.starts_with("supplied"))
                    .map(|(p, t)| (p.clone(), t.clone()))
                    .collect::<Vec<_>>()
            };
            assert_eq!(supplied(&original), supplied(&copy));
        }
    }
    assert!(class.base.join("supplied").is_dir());
}
