//! Minimax exactly as the assignment gives it, and an exact alpha-beta variant that returns the
//! same value with less work.
//!
//! `minimax(move, depth)` is the value of a move for the player who made it:
//! 1. the move wins: +infinity;
//! 2. depth 0: the move's heuristic value;
//! 3. the board is full (the opponent cannot reply): 0, a tie. The assignment's pseudocode would
//!    give +infinity here; a move that fills the board without winning is a draw, worth 0;
//! 4. otherwise the minimum, over the opponent's replies, of minus the reply's value at depth - 1.
//!
//! Both searches change one [`Position`] in place (make/unmake) and allocate nothing. The last ply
//! is evaluated inline, as heuristic values of the replies, without a call per leaf.

use crate::bits::Bits;
use crate::board::Position;
use crate::geometry::Geometry;
use crate::heuristic::WIN;

/// The value of the move `mover` just made into `cell`, if the recursion stops at it (rules 1-3).
#[inline(always)]
pub(crate) fn settled<B: Bits>(
    g: &Geometry<B>,
    p: &Position<B>,
    mover: usize,
    cell: usize,
    depth: u32,
) -> Option<i32> {
    if depth == 0 {
        Some(g.move_value(p.stones[mover], p.stones[1 - mover], cell))
    } else if g.wins(p.stones[mover], cell) {
        Some(WIN)
    } else if p.is_full(g) {
        Some(0)
    } else {
        None
    }
}

/// The assignment's minimax: the value of the move `mover` just made into `cell` (already on the
/// board), searched `depth` more plies.
pub(crate) fn minimax<B: Bits>(
    g: &Geometry<B>,
    p: &mut Position<B>,
    mover: usize,
    cell: usize,
    depth: u32,
) -> i32 {
    match settled(g, p, mover, cell, depth) {
        Some(value) => value,
        None => -best_reply(g, p, 1 - mover, depth - 1),
    }
}

/// The highest minimax value among `side`'s legal moves at `depth`; the board is not full.
pub(crate) fn best_reply<B: Bits>(
    g: &Geometry<B>,
    p: &mut Position<B>,
    side: usize,
    depth: u32,
) -> i32 {
    let mut best = -WIN;
    for col in 0..g.cols {
        if let Some(cell) = p.landing(g, col) {
            let value = if depth == 0 {
                p.value_of_drop(g, cell, side)
            } else {
                p.place(col, cell, side);
                let value = minimax(g, p, side, cell, depth);
                p.lift(col, cell, side);
                value
            };
            best = best.max(value);
        }
    }
    best
}

/// Alpha-beta minimax: the same value as [`minimax`] whenever it lies strictly between `alpha`
/// and `beta`; otherwise a bound on the same side of the window (fail-soft). Called with the
/// window (`-WIN`, `WIN`) it is exact, since no value lies outside it.
pub(crate) fn alphabeta<B: Bits>(
    g: &Geometry<B>,
    p: &mut Position<B>,
    mover: usize,
    cell: usize,
    depth: u32,
    alpha: i32,
    beta: i32,
) -> i32 {
    match settled(g, p, mover, cell, depth) {
        Some(value) => value,
        None => -best_reply_pruned(g, p, 1 - mover, depth - 1, -beta, -alpha),
    }
}

/// [`best_reply`] with the window (`alpha`, `beta`), trying columns from the centre outwards.
fn best_reply_pruned<B: Bits>(
    g: &Geometry<B>,
    p: &mut Position<B>,
    side: usize,
    depth: u32,
    mut alpha: i32,
    beta: i32,
) -> i32 {
    let mut best = -WIN;
    for &col in &g.centre_first {
        if let Some(cell) = p.landing(g, col) {
            let value = if depth == 0 {
                p.value_of_drop(g, cell, side)
            } else {
                p.place(col, cell, side);
                let value = alphabeta(g, p, side, cell, depth, alpha, beta);
                p.lift(col, cell, side);
                value
            };
            if value > best {
                best = value;
                if best >= beta {
                    break;
                }
                alpha = alpha.max(best);
            }
        }
    }
    best
}
