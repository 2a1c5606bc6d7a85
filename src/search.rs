//! Minimax exactly as the assignment gives it (the exact alpha-beta search that finds the same
//! values with less work is in `pruned`).
//!
//! `minimax(move, depth)` is the value of a move for the player who made it:
//! 1. the move wins: +infinity;
//! 2. depth 0: the move's heuristic value;
//! 3. the board is full (the opponent cannot reply): 0, a tie. The assignment's pseudocode would
//!    give +infinity here; a move that fills the board without winning is a draw, worth 0;
//! 4. otherwise the minimum, over the opponent's replies, of minus the reply's value at depth - 1.
//!
//! The search changes one [`Position`] in place (make/unmake) and allocates nothing. The last ply
//! is evaluated inline, as heuristic values of the replies, without a call per leaf.

use connect_four_supplied::StopSignal;

use crate::board::Position;
use crate::geometry::Geometry;
use crate::heuristic::WIN;

/// Nodes with at least this many plies left look at the stop signal first: the plies below
/// take a few microseconds on a 7-column board, so a raised signal is seen at once, at no
/// measurable cost.
pub(crate) const STOP_DEPTH: u32 = 4;

/// The value of the move `mover` just made into `cell`, if the recursion stops at it (rules 1-3).
#[inline(always)]
pub(crate) fn settled(
    g: &Geometry,
    p: &Position,
    mover: usize,
    cell: usize,
    depth: u32,
) -> Option<i32> {
    if depth == 0 {
        Some(p.value_of_drop(g, cell, mover))
    } else if p.wins(g, cell, mover) {
        Some(WIN)
    } else if p.is_full(g) {
        Some(0)
    } else {
        None
    }
}

/// The assignment's minimax: the value of the move `mover` just made into `cell` (already on the
/// board), searched `depth` more plies. Once `stop` is raised the value is meaningless.
pub(crate) fn minimax(
    g: &Geometry,
    p: &mut Position,
    mover: usize,
    cell: usize,
    depth: u32,
    stop: &StopSignal,
) -> i32 {
    match settled(g, p, mover, cell, depth) {
        Some(value) => value,
        None => -best_reply(g, p, 1 - mover, depth - 1, stop),
    }
}

/// The highest minimax value among `side`'s legal moves at `depth`; the board is not full.
pub(crate) fn best_reply(
    g: &Geometry,
    p: &mut Position,
    side: usize,
    depth: u32,
    stop: &StopSignal,
) -> i32 {
    if depth >= STOP_DEPTH && stop.is_raised() {
        return 0;
    }
    let mut best = -WIN;
    for col in 0..g.cols {
        if let Some(cell) = p.landing(g, col) {
            let value = if depth == 0 {
                p.value_of_drop(g, cell, side)
            } else {
                p.place(g, cell, side);
                let value = minimax(g, p, side, cell, depth, stop);
                p.lift(g, cell, side);
                value
            };
            best = best.max(value);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pruned::Pruned;
    use crate::table::Table;

    /// A `rows` x `cols` position after `moves`, alternating from black (side 0).
    fn position(rows: usize, cols: usize, moves: &[usize]) -> (Geometry, Position) {
        let g = Geometry::new(rows, cols);
        let mut p = Position::new(&g);
        for (i, &col) in moves.iter().enumerate() {
            let cell = p.landing(&g, col).expect("an open column");
            p.place(&g, cell, i % 2);
        }
        (g, p)
    }

    /// The value of `side` dropping in `col`, by the plain search and by alpha-beta.
    fn both(g: &Geometry, p: &mut Position, side: usize, col: usize, depth: u32) -> (i32, i32) {
        let cell = p.landing(g, col).expect("an open column");
        p.place(g, cell, side);
        let stop = StopSignal::new();
        let plain = minimax(g, p, side, cell, depth, &stop);
        let pruned = Pruned::new(g, &Table::new(), &stop).move_value(p, side, cell, depth);
        p.lift(g, cell, side);
        (plain, pruned)
    }

    #[test]
    fn filling_the_board_without_winning_is_a_tie_worth_zero() {
        let (g, mut p) = position(1, 1, &[]);
        assert_eq!(both(&g, &mut p, 0, 0, 3), (0, 0));
        // Depth 0 is the heuristic, which a 1 x 1 board cannot score either.
        assert_eq!(both(&g, &mut p, 0, 0, 0), (0, 0));
    }

    #[test]
    fn a_win_is_infinite_at_every_depth() {
        // Black has three in the bottom row; red has stacked on top.
        let (g, mut p) = position(6, 7, &[0, 0, 1, 1, 2, 2]);
        for depth in 0..4 {
            assert_eq!(both(&g, &mut p, 0, 3, depth), (WIN, WIN));
        }
    }

    #[test]
    fn a_move_that_lets_the_opponent_win_is_minus_infinity() {
        // Black threatens the bottom row at column 3; red to move must block it.
        let (g, mut p) = position(6, 7, &[0, 6, 1, 6, 2]);
        assert_eq!(both(&g, &mut p, 1, 5, 1), (-WIN, -WIN));
        let (block, _) = both(&g, &mut p, 1, 3, 1);
        assert!(block > -WIN, "blocking is not a certain loss: {block}");
    }

    #[test]
    fn depth_one_is_minus_the_best_reply_heuristic() {
        let (g, mut p) = position(6, 7, &[]);
        let cell = p.landing(&g, 3).unwrap();
        p.place(&g, cell, 0);
        let best = (0..7)
            .map(|c| p.value_of_drop(&g, p.landing(&g, c).unwrap(), 1))
            .max()
            .unwrap();
        assert_eq!(minimax(&g, &mut p, 0, cell, 1, &StopSignal::new()), -best);
    }
}
