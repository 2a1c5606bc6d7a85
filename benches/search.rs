//! Search speed on the standard empty 6 x 7 board: plain minimax at depths 8 and 9 on one and
//! two threads, and the pruned search at depth 12. `cargo bench` runs it; the README quotes it.

use std::time::Duration;

use connect_four::{Board, Checker, Engine};
use criterion::{criterion_group, criterion_main, Criterion};

fn scores(c: &mut Criterion, name: &str, depth: u32, threads: usize, prune: bool) {
    let board = Board::new(6, 7).expect("6 x 7 is a legal size");
    let mut engine = Engine::new(threads, prune);
    c.bench_function(name, |b| {
        b.iter(|| {
            engine
                .scores(&board, Checker::Red, depth)
                .expect("no worker panics")
        })
    });
}

fn search(c: &mut Criterion) {
    scores(c, "plain depth 8, 1 thread", 8, 1, false);
    scores(c, "plain depth 8, 2 threads", 8, 2, false);
    scores(c, "plain depth 9, 1 thread", 9, 1, false);
    scores(c, "plain depth 9, 2 threads", 9, 2, false);
    scores(c, "pruned depth 12, 1 thread", 12, 1, true);
    scores(c, "pruned depth 12, 2 threads", 12, 2, true);
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).warm_up_time(Duration::from_secs(1));
    targets = search
}
criterion_main!(benches);
