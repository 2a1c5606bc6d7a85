//! Property tests: the fast engine (line words, table-driven heuristic, make/unmake, pruning
//! with a transposition table, the thread pool) against the deliberately simple engine in
//! `simple`, on thousands of random positions of many board sizes: cell contents, wins,
//! heuristic values and minimax values; and the pruned search against plain minimax deeper.

use connect_four::{Algorithm, Board, Engine, Game, GameConfig};
use connect_four_supplied::{Checker, Outcome, Playable, Player, Score};
use proptest::prelude::*;

use crate::simple::Grid;

/// A board size and a sequence of column choices (taken modulo the columns, skipping full ones).
pub(crate) fn position(
    max_rows: usize,
    max_cols: usize,
    max_moves: usize,
) -> impl Strategy<Value = (usize, usize, Vec<usize>)> {
    (1..=max_rows, 1..=max_cols).prop_flat_map(move |(rows, cols)| {
        (
            Just(rows),
            Just(cols),
            prop::collection::vec(0..cols, 0..=max_moves.min(rows * cols)),
        )
    })
}

/// Plays the moves on both engines, alternating from `first`, until the game ends; returns the
/// fast game, the simple grid and whether the simple engine saw a win (and by whom).
fn replay(
    rows: usize,
    cols: usize,
    moves: &[usize],
    first: Player,
) -> (Game, Grid, Option<Outcome>) {
    replay_connect(rows, cols, 4, moves, first)
}

/// [`replay`] for Connect `connect`.
pub(crate) fn replay_connect(
    rows: usize,
    cols: usize,
    connect: usize,
    moves: &[usize],
    first: Player,
) -> (Game, Grid, Option<Outcome>) {
    let config = GameConfig {
        rows,
        cols,
        depth: 0,
        threads: 1,
        connect,
        ..GameConfig::default()
    };
    let mut game = Game::new(&config, Some(first)).unwrap();
    let mut grid = Grid::with_connect(rows, cols, connect);
    let mut player = first;
    let mut outcome = None;
    for &col in moves {
        if outcome.is_some() {
            break;
        }
        let Some(row) = grid.landing(col) else {
            assert_eq!(
                game.play(col).unwrap_err().to_string(),
                format!("column {col} is full")
            );
            continue;
        };
        assert_eq!(game.play(col), Ok(row));
        grid.cells[row][col] = player.checker();
        if grid.wins_at(row, col) {
            outcome = Some(Outcome::Win(player));
        } else if grid.is_full() {
            outcome = Some(Outcome::Tie);
        }
        player = player.opponent();
    }
    (game, grid, outcome)
}

/// The board of a game, as the simple engine sees it.
pub(crate) fn same_cells(game: &Game, grid: &Grid) -> bool {
    (0..grid.rows()).all(|r| (0..grid.cols()).all(|c| game.checker(r, c) == grid.cells[r][c]))
}

/// The heuristic of every legal drop in `game`, for both players, is the simple engine's.
pub(crate) fn heuristics_agree(game: &Game, grid: &Grid) -> Result<(), TestCaseError> {
    for player in [Player::Red, Player::Black] {
        for col in 0..grid.cols() {
            let expected = grid.landing(col).map(|row| {
                let mut after = grid.clone();
                after.cells[row][col] = player.checker();
                Score(after.heuristic(row, col))
            });
            prop_assert_eq!(
                game.board().move_value(col, player).ok(),
                expected,
                "col {}",
                col
            );
        }
    }
    Ok(())
}

/// Plain and pruned minimax on `threads` threads give the simple engine's values at `depth`
/// for the player to move in `game` (an ended game is no case).
pub(crate) fn minimax_values_agree(
    game: &Game,
    grid: &Grid,
    outcome: Option<Outcome>,
    depth: u32,
    threads: usize,
) -> Result<(), TestCaseError> {
    prop_assume!(outcome.is_none());
    let player = game.turn().player().unwrap();
    let expected = grid.scores(player, depth);
    for algorithm in [Algorithm::Plain, Algorithm::Pruned] {
        let mut engine = Engine::new(threads, algorithm).unwrap();
        prop_assert_eq!(
            engine.scores(game.board(), player, depth).unwrap(),
            expected.clone(),
            "{:?}",
            algorithm
        );
    }
    Ok(())
}

/// On a large board: the cells, the outcome and a one-ply search are the simple engine's.
pub(crate) fn large_board_agrees(
    game: &Game,
    grid: &Grid,
    outcome: Option<Outcome>,
) -> Result<(), TestCaseError> {
    prop_assert!(same_cells(game, grid));
    prop_assert_eq!(game.outcome(), outcome);
    if outcome.is_none() {
        let player = game.turn().player().unwrap();
        let mut engine = Engine::new(2, Algorithm::Plain).unwrap();
        prop_assert_eq!(
            engine.scores(game.board(), player, 1).unwrap(),
            grid.scores(player, 1)
        );
    }
    Ok(())
}

/// Through a whole game of `config` played with `moves` (taken modulo the columns, a full
/// column skipped), one `pruned` engine gives `plain` minimax's values at every turn.
pub(crate) fn pruned_agrees_through(
    config: &GameConfig,
    moves: &[usize],
    mut pruned: Engine,
) -> Result<(), TestCaseError> {
    let mut plain = Engine::new(1, Algorithm::Plain).unwrap();
    let mut game = Game::new(config, Some(Player::Red)).unwrap();
    for &col in moves {
        let Some(player) = game.turn().player() else {
            break;
        };
        let expected = plain.scores(game.board(), player, config.depth).unwrap();
        prop_assert_eq!(
            pruned.scores(game.board(), player, config.depth).unwrap(),
            expected
        );
        // A full column is skipped; the game goes on with the next move.
        let _ = game.play(col % config.cols);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Gravity, refusals, wins in every direction and ties agree on boards up to 12 x 12
    /// (one and two machine words).
    #[test]
    fn rules_agree_on_small_and_medium_boards((rows, cols, moves) in position(12, 12, 144), red_first: bool) {
        let first = if red_first { Player::Red } else { Player::Black };
        let (game, grid, outcome) = replay(rows, cols, &moves, first);
        prop_assert!(same_cells(&game, &grid));
        prop_assert_eq!(game.outcome(), outcome);
        prop_assert_eq!(game.turn() == Checker::Empty, outcome.is_some());
    }

    /// The heuristic of every legal drop, for both players, agrees.
    #[test]
    fn heuristic_agrees((rows, cols, moves) in position(10, 10, 60)) {
        let (game, grid, _) = replay(rows, cols, &moves, Player::Red);
        heuristics_agree(&game, &grid)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// Plain and pruned minimax, on one and on three threads, give the simple engine's values.
    #[test]
    fn minimax_agrees((rows, cols, moves) in position(7, 7, 30), depth in 0u32..=3, threads in 1usize..=3) {
        let (game, grid, outcome) = replay(rows, cols, &moves, Player::Black);
        minimax_values_agree(&game, &grid, outcome, depth, threads)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    /// Boards up to the largest, 32 x 32: rules, heuristic and a shallow search still agree.
    #[test]
    fn large_boards_agree(rows in 12usize..=32, cols in 11usize..=32, moves in prop::collection::vec(0usize..32, 0..200)) {
        let moves: Vec<usize> = moves.into_iter().map(|m| m % cols).collect();
        let (game, grid, outcome) = replay(rows, cols, &moves, Player::Red);
        large_board_agrees(&game, &grid, outcome)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// Deeper than the simple engine can go: through a whole random game, one pruned engine
    /// (whose transposition table outlives each search) gives plain minimax's values at every
    /// turn, on boards of many shapes.
    #[test]
    fn pruned_agrees_with_plain_through_a_game(rows in 4usize..=7, cols in 4usize..=8, moves in prop::collection::vec(0usize..8, 0..40), depth in 4u32..=6, threads in 1usize..=2) {
        let config = GameConfig { rows, cols, depth, threads: 1, ..GameConfig::default() };
        pruned_agrees_through(&config, &moves, Engine::new(threads, Algorithm::Pruned).unwrap())?;
    }
}

/// The deeper searches are too slow for the simple engine on many positions, so plain and
/// pruned are compared with each other (and across thread counts) at depth 6.
#[test]
fn plain_and_pruned_agree_deeper_on_every_thread_count() {
    let mut board = Board::new(6, 7).unwrap();
    for (i, col) in [3, 3, 2, 4, 1, 5, 5].into_iter().enumerate() {
        board
            .drop_checker(
                col,
                if i % 2 == 0 {
                    Player::Red
                } else {
                    Player::Black
                },
            )
            .unwrap();
    }
    let reference = Engine::new(1, Algorithm::Plain)
        .unwrap()
        .scores(&board, Player::Black, 6)
        .unwrap();
    for threads in [2, 4, 8] {
        assert_eq!(
            Engine::new(threads, Algorithm::Plain)
                .unwrap()
                .scores(&board, Player::Black, 6)
                .unwrap(),
            reference
        );
        assert_eq!(
            Engine::new(threads, Algorithm::Pruned)
                .unwrap()
                .scores(&board, Player::Black, 6)
                .unwrap(),
            reference
        );
    }
}
