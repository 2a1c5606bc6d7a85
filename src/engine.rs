//! The computer player: the minimax value of every column, computed on the thread pool, and the
//! choice of a best column.
//!
//! The calling thread expands the first plies: moves that settle at once (a win, depth 0, a full
//! board) are valued there, the rest become tasks for the pool. With plain minimax a task is a
//! root column and one reply, so that a 7-column board gives about 49 tasks of similar size
//! and two or more threads stay busy to the end; each value above them is minus the best reply,
//! exactly as the recursion computes it. With [`Algorithm::Pruned`], a task is a whole root column
//! searched by alpha-beta with a full window, which keeps its cut-offs. Either way every value is exact, so
//! the results are the same for every thread count; with more threads than tasks, the extra
//! threads wait.
//!
//! The engine's stop signal, once raised, makes a running search give up within microseconds
//! (a front end raises it to take a move back while the computer thinks).

use std::fmt;
use std::sync::Arc;

use connect_four_supplied::{Player, Score, StopSignal};
use rand::{Rng, RngExt};

use crate::board::{Board, Grid, Position};
use crate::geometry::Geometry;
use crate::pool::{Pool, PoolError};
use crate::pruned::Pruned;
use crate::search::{minimax, settled};
use crate::table::Table;

/// How the computer player searches. Both give exactly the assignment's minimax values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// The assignment's minimax, every node visited.
    Plain,
    /// Alpha-beta with a transposition table (`--prune`): the same values, found faster.
    Pruned,
}

impl Algorithm {
    /// [`Algorithm::Pruned`] when `prune` is set (a `--prune` flag), else [`Algorithm::Plain`].
    pub fn pruned_if(prune: bool) -> Algorithm {
        if prune {
            Algorithm::Pruned
        } else {
            Algorithm::Plain
        }
    }
}

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
#[derive(Debug)]
pub enum SearchError {
    /// The thread pool failed (its error is the source).
    Pool(PoolError),
    /// The stop signal was raised during the search.
    Stopped,
}

impl fmt::Display for SearchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchError::Pool(_) => f.write_str("the search failed"),
            SearchError::Stopped => f.write_str("the search was stopped"),
        }
    }
}

impl std::error::Error for SearchError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SearchError::Pool(error) => Some(error),
            SearchError::Stopped => None,
        }
    }
}

impl Engine {
    /// An engine searching with `algorithm` on `threads` worker threads. Fails if the threads
    /// cannot be started.
    pub fn new(threads: usize, algorithm: Algorithm) -> Result<Engine, PoolError> {
        Ok(Engine {
            pool: Pool::new(threads)?,
            table: match algorithm {
                Algorithm::Plain => None,
                Algorithm::Pruned => Some(Arc::new(Table::new())),
            },
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

/// How many plies deep plain minimax's tasks start: 49 tasks of similar size on an empty 6 x 7
/// board, enough for two threads to finish together. Measured in one run at depth 9, six
/// alternating runs each: two plies 3.16 s on one thread and 1.68 s on two; three plies (343
/// tasks) 3.26 s and 1.72 s; three plies for the last root column only, 3.14 s and 1.65 s.
const PLAIN_SPLIT: usize = 2;

/// The first plies of the search as the calling thread expands them: the value of one move,
/// known already (a win, depth 0, a full board), left to a pool task, or minus the best of the
/// values of the replies to it, exactly as the recursion defines it.
enum Split {
    Known(i32),
    Task(usize),
    Replies(Vec<Split>),
}

impl Split {
    /// The move's value, given every task's result.
    fn value(&self, results: &[i32]) -> i32 {
        match self {
            Split::Known(value) => *value,
            Split::Task(index) => results[*index],
            Split::Replies(replies) => -replies
                .iter()
                .map(|reply| reply.value(results))
                .max()
                .expect("a move that does not settle has replies"),
        }
    }
}

/// Expands the first plies of a search into [`Split`]s and the tasks they leave to the pool.
struct Splitter<'a> {
    g: &'a Geometry,
    /// How many plies deep tasks start.
    plies: usize,
    /// Each task: the columns played from the root position, the root side first.
    tasks: Vec<Vec<usize>>,
}

impl Splitter<'_> {
    /// The split of the move `mover` just made into `cell`, the last of `path`, with `depth`
    /// plies left to search.
    fn expand(
        &mut self,
        p: &mut Position,
        path: &mut Vec<usize>,
        mover: usize,
        cell: usize,
        depth: u32,
    ) -> Split {
        let g = self.g;
        if let Some(value) = settled(g, p, mover, cell, depth) {
            return Split::Known(value);
        }
        if path.len() == self.plies {
            self.tasks.push(path.clone());
            return Split::Task(self.tasks.len() - 1);
        }
        let mut replies = Vec::new();
        for col in 0..g.cols {
            if let Some(reply) = p.landing(g, col) {
                p.place(g, reply, 1 - mover);
                path.push(col);
                replies.push(self.expand(p, path, 1 - mover, reply, depth - 1));
                path.pop();
                p.lift(g, reply, 1 - mover);
            }
        }
        Split::Replies(replies)
    }
}

/// Every root column's value for `side`: the first plies here, the rest on the pool.
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
    let mut splitter = Splitter {
        g,
        plies: if table.is_some() { 1 } else { PLAIN_SPLIT },
        tasks: Vec::new(),
    };
    let mut splits: Vec<Option<Split>> = (0..g.cols).map(|_| None).collect();
    // Centre first: for the pruned search, the likely best column leaves the most useful
    // positions in the table for the others.
    for &col in &g.centre_first {
        if let Some(cell) = p.landing(g, col) {
            p.place(g, cell, side);
            splits[col] = Some(splitter.expand(&mut p, &mut vec![col], side, cell, depth));
            p.lift(g, cell, side);
        }
    }
    let geometry = Arc::clone(&grid.geometry);
    let start = grid.position;
    let table = table.map(Arc::clone);
    let stop = stop.clone();
    let results = pool.map(splitter.tasks, move |path| {
        evaluate(
            &geometry,
            table.as_deref(),
            &stop,
            start,
            side,
            depth,
            &path,
        )
    })?;
    Ok(splits
        .iter()
        .map(|split| split.as_ref().map(|split| split.value(&results)))
        .collect())
}

/// Runs one task on the worker's own copy of the position: plays `path` (the root side first)
/// and values its last move with the plies left. At once, with a meaningless value, if the
/// search has been stopped.
fn evaluate(
    g: &Geometry,
    table: Option<&Table>,
    stop: &StopSignal,
    mut p: Position,
    side: usize,
    depth: u32,
    path: &[usize],
) -> i32 {
    if stop.is_raised() {
        return 0;
    }
    let mut mover = 1 - side;
    let mut cell = 0;
    for &col in path {
        mover = 1 - mover;
        cell = p.landing(g, col).expect("tasks name open columns");
        p.place(g, cell, mover);
    }
    let depth = depth + 1 - path.len() as u32;
    match table {
        Some(table) => Pruned::new(g, table, stop).move_value(&mut p, mover, cell, depth),
        None => minimax(g, &mut p, mover, cell, depth, stop),
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
    fn a_pool_failure_is_the_source_of_the_search_error() {
        let error = SearchError::Pool(PoolError::Lost);
        assert!(matches!(
            std::error::Error::source(&error).and_then(|e| e.downcast_ref::<PoolError>()),
            Some(PoolError::Lost)
        ));
        assert_eq!(error.to_string(), "the search failed");
    }

    #[test]
    fn plain_and_pruned_agree_on_the_empty_board() {
        let board = Board::new(6, 7).unwrap();
        let plain = Engine::new(2, Algorithm::Plain)
            .unwrap()
            .scores(&board, Player::Red, 4)
            .unwrap();
        let pruned = Engine::new(2, Algorithm::Pruned)
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
        let scores = Engine::new(1, Algorithm::Plain)
            .unwrap()
            .scores(&board, Player::Red, 3)
            .unwrap();
        assert_eq!(scores[0], None);
        assert_eq!(scores[3], Some(Score::WIN));
        assert_ne!(scores[1], Some(Score::WIN));
    }
}
