//! The similarity check's speed on a class of 200 submissions of this assignment's size: each
//! the completed starter's sources (the reference student's game, board, search and pool, about
//! 700 lines of Rust) with a seeded share of its lines dropped, repeated and swapped, so that
//! every pair shares much and none is a whole copy: the heaviest class there is (a class of
//! independent solutions shares far less, and a pair that shares nothing costs nothing).
//! `cargo bench -p connect_four_grader --bench similarity` runs it; the README quotes it.
//! Reading the files from disk is not counted (`grade similar` on a class of 200 takes that on
//! top: well under a second of its own).

use std::path::Path;

use connect_four_grader::kit::style::Language;
use connect_four_grader::similarity::{compare, Base, File, Origin, Settings, Submission};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use rand::rngs::StdRng as SmallRng;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};

/// The class's size.
const STUDENTS: usize = 200;

/// The completed starter's sources, by path in a submission.
fn sources() -> Vec<(String, String)> {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/starter_solution");
    ["game.rs", "pool.rs", "game/board.rs", "game/search.rs"]
        .iter()
        .map(|path| {
            let text = std::fs::read_to_string(fixtures.join(path)).expect("the fixture is there");
            (format!("src/{path}"), text)
        })
        .collect()
}

/// Student `seed`'s variation of `text`: about a tenth of its lines dropped, a tenth repeated,
/// and a few neighbouring lines swapped.
fn varied(text: &str, rng: &mut SmallRng) -> String {
    let mut lines: Vec<&str> = Vec::new();
    for line in text.lines() {
        match rng.random_range(0..10) {
            0 => {}
            1 => lines.extend([line, line]),
            _ => lines.push(line),
        }
    }
    for _ in 0..lines.len() / 20 {
        let at = rng.random_range(0..lines.len().saturating_sub(1).max(1));
        let end = (at + 2).min(lines.len());
        lines[at..end].shuffle(rng);
    }
    lines.join("\n")
}

/// The class: [`STUDENTS`] variations of the sources.
fn class() -> Vec<Submission> {
    let sources = sources();
    (0..STUDENTS)
        .map(|student| {
            let mut rng = SmallRng::seed_from_u64(student as u64);
            Submission {
                name: format!("student{student:03}"),
                origin: Origin::Class,
                files: sources
                    .iter()
                    .map(|(path, text)| File {
                        path: path.clone(),
                        language: Language::Rust,
                        text: varied(text, &mut rng),
                    })
                    .collect(),
                unread: Vec::new(),
            }
        })
        .collect()
}

fn similarity(c: &mut Criterion) {
    let class = class();
    let tokens: usize = class[0].files.iter().map(|f| f.text.len()).sum();
    eprintln!("similarity: {STUDENTS} submissions of about {tokens} bytes of Rust each");
    let mut group = c.benchmark_group("similarity");
    group.sample_size(10);
    group.bench_function("compare a class of 200", |b| {
        b.iter_batched(
            || class.clone(),
            |class| compare(class, Vec::new(), &Base::default(), Settings::default()),
            BatchSize::LargeInput,
        )
    });
    group.finish();
}

criterion_group!(benches, similarity);
criterion_main!(benches);
