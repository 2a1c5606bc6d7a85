//! The search behind `--prune`: alpha-beta that finds exactly the values of the assignment's
//! minimax (see `search`), with much less work.
//!
//! - **Exact by construction.** Each root column is searched with the full window, so its value
//!   is exact; inside, fail-soft alpha-beta only skips moves that cannot change a value.
//! - **Move ordering.** A move that wins at once ends the search of its node (nothing beats
//!   +infinity). The others are tried best-first: the column the transposition table remembers
//!   for this position, then by the move's own heuristic value (the leaves' values are
//!   heuristic values, so it predicts well), then from the centre outwards.
//! - **Principal variation search.** After the first move, each move is first only tested
//!   against the best so far with the narrowest window, and searched for its value only if it
//!   beats it.
//! - **Transposition table.** Positions reached by different move orders are searched once per
//!   depth; the table (see `table`) keeps exact values and bounds, shared by the workers and
//!   kept from one search to the next.
//!
//! Measured and dropped (callgrind instruction counts, depth 12, one thread, one run): iterative
//! deepening doubled the work (1.71 G instructions against 0.90 G without it), and ordering by
//! a history of cut-offs cost more than ordering by heuristic value (0.58 G against 0.53 G).

use connect_four_supplied::limits::MAX_SIZE;
use connect_four_supplied::StopSignal;

use crate::board::Position;
use crate::geometry::Geometry;
use crate::heuristic::WIN;
use crate::search::{settled, STOP_DEPTH};
use crate::table::{Bound, Entry, Table};

/// Nodes with less depth left than this are neither looked up nor stored: they are cheaper to
/// search again than the table traffic they would cause. Measured in one run (depth 14, one
/// thread, four alternating runs each): median 0.36 s of CPU with 2, 0.40 s with 1.
const TABLE_DEPTH: u32 = 2;

/// One worker's alpha-beta search over the shared table.
pub(crate) struct Pruned<'a> {
    g: &'a Geometry,
    table: &'a Table,
    /// Once raised, values are meaningless and nothing more is stored in the table.
    stop: &'a StopSignal,
}

impl<'a> Pruned<'a> {
    /// A search of positions of `g`'s size that shares `table` and gives up when `stop` is
    /// raised.
    pub fn new(g: &'a Geometry, table: &'a Table, stop: &'a StopSignal) -> Self {
        Pruned { g, table, stop }
    }

    /// The exact value of the move `mover` just made into `cell` (on the board), searched `depth`
    /// more plies: the assignment's minimax value.
    pub fn move_value(&self, p: &mut Position, mover: usize, cell: usize, depth: u32) -> i32 {
        match settled(self.g, p, mover, cell, depth) {
            Some(value) => value,
            None => -self.best_reply(p, 1 - mover, depth - 1, -WIN, WIN),
        }
    }

    /// The highest value among `side`'s moves at `depth` if it lies strictly between `alpha` and
    /// `beta`; otherwise a bound on the same side of the window. The board is not full.
    fn best_reply(
        &self,
        p: &mut Position,
        side: usize,
        depth: u32,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        let g = self.g;
        if depth == 0 {
            return leaf_reply(g, p, side, beta);
        }
        if depth >= STOP_DEPTH && self.stop.is_raised() {
            return 0;
        }
        // Legal columns, centre first, with their heuristic values (for the ordering); a move
        // that wins at once settles the node.
        let mut moves = [0u8; MAX_SIZE];
        let mut values = [0; MAX_SIZE];
        let mut count = 0;
        for &col in &g.centre_first {
            if let Some(cell) = p.landing(g, col) {
                let value = p.value_of_drop(g, cell, side);
                if value == WIN {
                    return WIN;
                }
                moves[count] = col as u8;
                values[count] = value;
                count += 1;
            }
        }
        let (moves, values) = (&mut moves[..count], &mut values[..count]);
        let key = Table::key(p.hash, side, depth);
        let mut first = None;
        if depth >= TABLE_DEPTH {
            if let Some(entry) = self.table.probe(key) {
                match entry.bound {
                    Bound::Exact => return entry.value,
                    Bound::Lower if entry.value >= beta => return entry.value,
                    Bound::Upper if entry.value <= alpha => return entry.value,
                    Bound::Lower => alpha = alpha.max(entry.value),
                    Bound::Upper => beta = beta.min(entry.value),
                }
                first = Some(entry.best as u8);
            }
        }
        order(moves, values, first);
        let window_low = alpha;
        let mut best = -WIN;
        let mut best_col = moves[0];
        for (tried, &col) in moves.iter().enumerate() {
            let col = usize::from(col);
            let cell = p.landing(g, col).expect("listed columns are open");
            p.place(g, cell, side);
            let value = if p.is_full(g) {
                0
            } else if tried == 0 {
                -self.best_reply(p, 1 - side, depth - 1, -beta, -alpha)
            } else {
                // Principal variation search: first only whether this move beats the best so
                // far, with the narrowest window; its value only if it does.
                let probe = -self.best_reply(p, 1 - side, depth - 1, -alpha - 1, -alpha);
                if probe > alpha && probe < beta {
                    -self.best_reply(p, 1 - side, depth - 1, -beta, -(probe - 1))
                } else {
                    probe
                }
            };
            p.lift(g, cell, side);
            if value > best {
                best = value;
                best_col = col as u8;
                if best > alpha {
                    alpha = best;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        // A value found after the stop may rest on meaningless ones: it is not kept.
        if depth >= TABLE_DEPTH && !self.stop.is_raised() {
            let bound = if best <= window_low {
                Bound::Upper
            } else if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            let entry = Entry {
                value: best,
                bound,
                best: usize::from(best_col),
            };
            self.table.store(key, entry);
        }
        best
    }
}

/// Sorts `moves` (centre first on entry) into the order to try them: `first`, then by their
/// heuristic `values` (sorted along), highest first; the sort is stable, so ties stay centre
/// first. No value is [`WIN`]: such a move ends the search before.
fn order(moves: &mut [u8], values: &mut [i32], first: Option<u8>) {
    if let Some(at) = moves.iter().position(|&col| Some(col) == first) {
        values[at] = WIN;
    }
    for i in 1..moves.len() {
        let (col, value) = (moves[i], values[i]);
        let mut j = i;
        while j > 0 && values[j - 1] < value {
            moves[j] = moves[j - 1];
            values[j] = values[j - 1];
            j -= 1;
        }
        moves[j] = col;
        values[j] = value;
    }
}

/// The highest heuristic value among `side`'s moves, or the first one found at or above `beta`.
fn leaf_reply(g: &Geometry, p: &Position, side: usize, beta: i32) -> i32 {
    let mut best = -WIN;
    for &col in &g.centre_first {
        if let Some(cell) = p.landing(g, col) {
            best = best.max(p.value_of_drop(g, cell, side));
            if best >= beta {
                break;
            }
        }
    }
    best
}
