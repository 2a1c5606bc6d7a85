//! The computer player: the minimax value of every column, computed on the thread pool, and the
//! choice of a best column.
//!
//! Columns that settle at once (a win, depth 0, a full board) are valued on the calling thread.
//! The rest become tasks for the pool. With plain minimax a task is one root column and one
//! reply, so that a 7-column board gives about 49 tasks of similar size and two or more threads
//! stay busy to the end; the root value is then minus the best reply, exactly as the recursion
//! computes it. With `prune`, a task is a whole root column searched by alpha-beta with a full
//! window, which keeps its cut-offs. Either way every value is exact, so the results are the same
//! for every thread count; with more threads than tasks, the extra threads wait.
//!
//! The engine's stop signal, once raised, makes a running search give up within microseconds
//! (a front end raises it to take a move back while the computer thinks).

use std::fmt;
use std::sync::Arc;

use connect_four_supplied::{Player, Score, StopSignal};
use rand::{Rng, RngExt};

use crate::board::{Board, Grid, Position};
use crate::geometry::Geometry;
use crate::heuristic::WIN;
use crate::pool::{Pool, PoolError};
use crate::pruned::Pruned;
use crate::search::{minimax, settled};
use crate::table::Table;

/// The computer player: a thread pool and the choice of search.
#[derive(Debug)]
pub struct Engine {
    pool: Pool,
    /// The pruned search's transposition table, kept from one search to the next (what it
    /// holds stays true); `None` for plain minimax.
    table: Option<Arc<Table>>,
    stop: StopSignal,
}

/// Why the computer player gave no values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchError {
    /// A worker thread failed.
    Pool(PoolError),
    /// The stop signal was raised during the search.
    Stopped,
}

impl fmt::Display for SearchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchError::Pool(error) => error.fmt(f),
            SearchError::Stopped => f.write_str("the search was stopped"),
        }
    }
}

impl std::error::Error for SearchError {}

/// One piece of work for a worker: a root column and, for plain minimax, one reply to it.
#[derive(Clone, Copy, Debug)]
struct Task {
    col: usize,
    reply: Option<usize>,
}

impl Engine {
    /// An engine searching on `threads` worker threads; `prune` selects exact alpha-beta.
    /// Fails if the threads cannot be started.
    pub fn new(threads: usize, prune: bool) -> Result<Engine, PoolError> {
        Ok(Engine {
            pool: Pool::new(threads)?,
            table: prune.then(|| Arc::new(Table::new())),
            stop: StopSignal::new(),
        })
    }

    /// The signal that stops this engine's searches. Whoever raises it clears it again before
    /// the next search.
    pub fn stop_signal(&self) -> &StopSignal {
        &self.stop
    }

    /// The minimax value at `depth` of `player` dropping in each column, `None` for a full column.
    pub fn scores(
        &mut self,
        board: &Board,
        player: Player,
        depth: u32,
    ) -> Result<Vec<Option<Score>>, SearchError> {
        let (side, table, stop) = (player.index(), self.table.as_ref(), &self.stop);
        let values = root_values(&mut self.pool, board.grid(), side, depth, table, stop)
            .map_err(SearchError::Pool)?;
        if self.stop.is_raised() {
            return Err(SearchError::Stopped);
        }
        Ok(values.into_iter().map(|v| v.map(Score)).collect())
    }

    /// A column of highest value for `player` at `depth`, ties broken by `rng`; `None` if every
    /// column is full.
    pub fn choose(
        &mut self,
        board: &Board,
        player: Player,
        depth: u32,
        rng: &mut impl Rng,
    ) -> Result<Option<usize>, SearchError> {
        let best = best_columns(&self.scores(board, player, depth)?);
        Ok((!best.is_empty()).then(|| best[rng.random_range(0..best.len())]))
    }
}

/// The columns whose value is the highest, in column order.
pub fn best_columns(scores: &[Option<Score>]) -> Vec<usize> {
    let top = scores.iter().flatten().max();
    (0..scores.len())
        .filter(|&c| scores[c].is_some() && scores[c].as_ref() == top)
        .collect()
}

/// Every root column's value for `side`: settled ones here, the rest on the pool.
fn root_values(
    pool: &mut Pool,
    grid: &Grid,
    side: usize,
    depth: u32,
    table: Option<&Arc<Table>>,
    stop: &StopSignal,
) -> Result<Vec<Option<i32>>, PoolError> {
    let g = &*grid.geometry;
    let mut p = grid.position;
    let mut values = vec![None; g.cols];
    let mut tasks = Vec::new();
    // Centre first: for the pruned search, the likely best column leaves the most useful
    // positions in the table for the others.
    for &col in &g.centre_first {
        let root = &mut values[col];
        let Some(cell) = p.landing(g, col) else {
            continue;
        };
        p.place(g, cell, side);
        match settled(g, &p, side, cell, depth) {
            Some(value) => *root = Some(value),
            None if table.is_some() => tasks.push(Task { col, reply: None }),
            None => tasks.extend(
                (0..g.cols)
                    .filter(|&reply| p.landing(g, reply).is_some())
                    .map(|reply| Task {
                        col,
                        reply: Some(reply),
                    }),
            ),
        }
        p.lift(g, cell, side);
    }
    let geometry = Arc::clone(&grid.geometry);
    let start = grid.position;
    let table = table.map(Arc::clone);
    let stop = stop.clone();
    let results = pool.map(tasks.clone(), move |task| {
        evaluate(&geometry, table.as_deref(), &stop, start, side, depth, task)
    })?;
    // Plain tasks return the reply's value for the opponent: the root value is minus the best.
    let mut best_reply: Vec<Option<i32>> = vec![None; g.cols];
    for (task, value) in tasks.iter().zip(results) {
        match task.reply {
            None => values[task.col] = Some(value),
            Some(_) => {
                let best = best_reply[task.col].get_or_insert(-WIN);
                *best = (*best).max(value);
            }
        }
    }
    for (col, best) in best_reply.into_iter().enumerate() {
        if let Some(best) = best {
            values[col] = Some(-best);
        }
    }
    Ok(values)
}

/// Runs one task on the worker's own copy of the position (at once, with a meaningless value,
/// if the search has been stopped).
fn evaluate(
    g: &Geometry,
    table: Option<&Table>,
    stop: &StopSignal,
    mut p: Position,
    side: usize,
    depth: u32,
    task: Task,
) -> i32 {
    if stop.is_raised() {
        return 0;
    }
    let cell = p.landing(g, task.col).expect("tasks name open columns");
    p.place(g, cell, side);
    match (task.reply, table) {
        (None, Some(table)) => Pruned::new(g, table, stop).move_value(&mut p, side, cell, depth),
        (None, None) => unreachable!("plain minimax tasks name a reply"),
        (Some(reply), _) => {
            let reply_cell = p.landing(g, reply).expect("tasks name open replies");
            p.place(g, reply_cell, 1 - side);
            minimax(g, &mut p, 1 - side, reply_cell, depth - 1, stop)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn best_columns_lists_every_tie_and_skips_full_columns() {
        let s = |v| Some(Score(v));
        assert_eq!(best_columns(&[s(3), None, s(7), s(7), s(-1)]), vec![2, 3]);
        assert_eq!(best_columns(&[None, Some(Score::WIN)]), vec![1]);
        assert!(best_columns(&[None, None]).is_empty());
    }

    #[test]
    fn plain_and_pruned_agree_on_the_empty_board() {
        let board = Board::new(6, 7).unwrap();
        let plain = Engine::new(2, false)
            .unwrap()
            .scores(&board, Player::Red, 4)
            .unwrap();
        let pruned = Engine::new(2, true)
            .unwrap()
            .scores(&board, Player::Red, 4)
            .unwrap();
        assert_eq!(plain, pruned);
        assert!(plain.iter().all(Option::is_some));
    }

    #[test]
    fn a_full_column_has_no_value_and_a_win_is_infinite() {
        let mut board = Board::new(4, 4).unwrap();
        for _ in 0..2 {
            board.drop_checker(0, Player::Red).unwrap();
            board.drop_checker(0, Player::Black).unwrap();
        }
        // Red holds the bottom row's first three cells; column 3 completes it.
        for col in 1..3 {
            board.drop_checker(col, Player::Red).unwrap();
        }
        let scores = Engine::new(1, false)
            .unwrap()
            .scores(&board, Player::Red, 3)
            .unwrap();
        assert_eq!(scores[0], None);
        assert_eq!(scores[3], Some(Score::WIN));
        assert_ne!(scores[1], Some(Score::WIN));
    }
}
