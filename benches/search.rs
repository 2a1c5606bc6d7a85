//! Search speed on the standard empty 6 x 7 board: plain minimax at depths 8 and 9 and the
//! pruned search at depth 14, each on one and two threads. `cargo bench --no-default-features
//! --bench search` runs it (`scripts/bench` compares the program with the Java baseline). It
//! first prints how many moves plain minimax values at depths 8 and 9, so that medians convert
//! to moves per second. Each pruned search starts from a new engine, whose transposition table
//! is empty: a table kept from the previous iteration would make every search after the first
//! a lookup.

use std::time::Duration;

use connect_four::{Algorithm, Board, Engine};
use connect_four_supplied::{Player, Score};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion};

/// How many moves the assignment's recursion values (calls of `value(m, d)`) for `player` at
/// `depth`, counted by a walk over the public board API that stops where the recursion stops.
fn moves_valued(board: &mut Board, player: Player, depth: u32) -> u64 {
    let mut count = 0;
    for col in 0..board.cols() {
        let Ok(value) = board.move_value(col, player) else {
            continue;
        };
        count += 1;
        if value == Score::WIN || depth == 0 {
            continue;
        }
        board.drop_checker(col, player).expect("the column is open");
        if !board.is_full() {
            count += moves_valued(board, player.opponent(), depth - 1);
        }
        board.undo(col);
    }
    count
}

fn scores(c: &mut Criterion, name: &str, depth: u32, threads: usize, algorithm: Algorithm) {
    let board = Board::new(6, 7).expect("6 x 7 is a legal size");
    let engine = || Engine::new(threads, algorithm).expect("the threads start");
    c.bench_function(name, |b| {
        b.iter_batched_ref(
            engine,
            |engine| {
                engine
                    .scores(&board, Player::Red, depth)
                    .expect("no worker panics")
            },
            BatchSize::PerIteration,
        )
    });
}

fn search(c: &mut Criterion) {
    for depth in [8, 9] {
        let mut board = Board::new(6, 7).expect("6 x 7 is a legal size");
        let count = moves_valued(&mut board, Player::Red, depth);
        println!("plain minimax at depth {depth} values {count} moves");
    }
    scores(c, "plain depth 8, 1 thread", 8, 1, Algorithm::Plain);
    scores(c, "plain depth 8, 2 threads", 8, 2, Algorithm::Plain);
    scores(c, "plain depth 9, 1 thread", 9, 1, Algorithm::Plain);
    scores(c, "plain depth 9, 2 threads", 9, 2, Algorithm::Plain);
    scores(c, "pruned depth 14, 1 thread", 14, 1, Algorithm::Pruned);
    scores(c, "pruned depth 14, 2 threads", 14, 2, Algorithm::Pruned);
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).warm_up_time(Duration::from_secs(1));
    targets = search
}
criterion_main!(benches);
