//! Property tests of Connect M (`--connect M`): the fast engine against the simple one in
//! `simple`, which counts M in a row and weighs windows of M cells by the handout's extension
//! rule, on many board sizes and every M the board allows: rules and wins, heuristic values,
//! minimax values (plain and pruned, on one and two threads), and pruned against plain deeper
//! through whole games. Case counts and depths are modest to keep the suite quick.

use connect_four::{Algorithm, Engine, GameConfig};
use connect_four_supplied::{Checker, Playable, Player};
use proptest::prelude::*;

use crate::properties::{
    heuristics_agree, large_board_agrees, minimax_values_agree, position, pruned_agrees_through,
    replay_connect, same_cells,
};

/// A position (as [`position`]) with an M from 2 to the board's longer side.
fn connect_position(
    max_rows: usize,
    max_cols: usize,
    max_moves: usize,
) -> impl Strategy<Value = (usize, usize, usize, Vec<usize>)> {
    position(max_rows, max_cols, max_moves).prop_flat_map(|(rows, cols, moves)| {
        let longest = rows.max(cols).max(2);
        (Just(rows), Just(cols), 2..=longest, Just(moves))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    /// Gravity, wins of M in every direction and ties agree, with the winning line ringed.
    #[test]
    fn rules_agree((rows, cols, connect, moves) in connect_position(10, 10, 100), red_first: bool) {
        let first = if red_first { Player::Red } else { Player::Black };
        let (game, grid, outcome) = replay_connect(rows, cols, connect, &moves, first);
        prop_assert!(same_cells(&game, &grid));
        prop_assert_eq!(game.outcome(), outcome);
        prop_assert_eq!(game.turn() == Checker::Empty, outcome.is_some());
        if let Some(connect_four_supplied::Outcome::Win(winner)) = outcome {
            let line = game.winning_line().expect("a won game has a winning line");
            prop_assert_eq!(line.len(), connect);
            prop_assert!(line.iter().all(|&(r, c)| grid.cells[r][c] == winner.checker()));
        }
    }

    /// The heuristic of every legal drop, for both players, agrees.
    #[test]
    fn heuristic_agrees((rows, cols, connect, moves) in connect_position(9, 9, 50)) {
        let (game, grid, _) = replay_connect(rows, cols, connect, &moves, Player::Red);
        heuristics_agree(&game, &grid)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Plain and pruned minimax, on one and on two threads, give the simple engine's values.
    #[test]
    fn minimax_agrees((rows, cols, connect, moves) in connect_position(6, 6, 20), depth in 0u32..=3, threads in 1usize..=2) {
        let (game, grid, outcome) = replay_connect(rows, cols, connect, &moves, Player::Black);
        minimax_values_agree(&game, &grid, outcome, depth, threads)?;
    }

    /// Boards up to 32 x 32 with long lines: rules, heuristic and a one-ply search agree.
    #[test]
    fn large_boards_agree(rows in 8usize..=32, cols in 8usize..=32, connect in 5usize..=32, moves in prop::collection::vec(0usize..32, 0..150)) {
        let connect = connect.min(rows.max(cols));
        let moves: Vec<usize> = moves.into_iter().map(|m| m % cols).collect();
        let (game, grid, outcome) = replay_connect(rows, cols, connect, &moves, Player::Red);
        large_board_agrees(&game, &grid, outcome)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20))]

    /// Deeper than the simple engine goes: through a whole game, one pruned engine gives plain
    /// minimax's values at every turn, for M from 2 to 6.
    #[test]
    fn pruned_agrees_with_plain_through_a_game(rows in 4usize..=6, cols in 4usize..=7, connect in 2usize..=6, moves in prop::collection::vec(0usize..7, 0..30), depth in 3u32..=5) {
        let connect = connect.min(rows.max(cols));
        let config = GameConfig { rows, cols, depth, threads: 1, connect, ..GameConfig::default() };
        pruned_agrees_through(&config, &moves, Engine::new(2, Algorithm::Pruned).unwrap())?;
    }
}
