//! The held-out cases themselves: each a random board size and a random position reached by
//! legal moves, then `play`, `winner`, `heuristic` or `scores` (small depths) as the rubric's
//! `[held_out]` table asks per category, answered by the reference as any case is. They carry
//! the table's share of each such category's automatic points, the published cases the rest,
//! and they are hidden until after the due date.

use std::fmt::Write;
use std::path::Path;

use connect_four::Board;
use connect_four_supplied::{Player, Score};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use crate::kit::case::{self, Case, CaseError};
use crate::kit::reference;
use crate::kit::reference::ReferenceError;
use crate::kit::rubric::{Question, Rubric};
use crate::kit::solution::Solution;

/// Why the held-out cases cannot be made.
#[derive(Debug, thiserror::Error)]
pub enum HeldOutError {
    /// A generated case file is not a valid case.
    #[error(transparent)]
    Case(#[from] CaseError),
    /// The reference cannot answer a generated case.
    #[error(transparent)]
    Reference(#[from] ReferenceError),
}

/// The smallest and largest side of a held-out board.
const SIDES: (usize, usize) = (4, 9);
/// The folder name held-out cases are reported under.
const FOLDER: &str = "held_out";
/// The deepest `scores` a held-out case asks for.
const MAX_DEPTH: u32 = 3;
/// The time limit of each command of a held-out case, in seconds.
const TIME_LIMIT: f64 = 10.0;

/// Adds the held-out cases of `rubric`'s `[held_out]` table, generated from `seed` with their
/// answers, to the kit's `cases`, whose points in each listed category are scaled down to leave
/// the held-out cases their share.
/// `dir` is the kit's directory (the cases' notional home).
pub fn add(
    rubric: &Rubric,
    cases: &mut Vec<(Case, Solution)>,
    seed: u64,
    dir: &Path,
) -> Result<(), HeldOutError> {
    let Some(table) = &rubric.held_out else {
        return Ok(());
    };
    let mut rng = StdRng::seed_from_u64(seed);
    for (category, questions) in &table.categories {
        let total = rubric
            .categories
            .iter()
            .find(|c| &c.name == category)
            .map_or(0.0, |c| c.automatic_points());
        for (case, _) in cases.iter_mut().filter(|(c, _)| &c.category == category) {
            case.points *= 1.0 - table.share;
        }
        let points = total * table.share / table.cases as f64;
        for number in 0..table.cases {
            let question = questions[number % questions.len()];
            let name = format!("{FOLDER}/{}_{}", slug(category), number + 1);
            let text = case_file(&mut rng, category, points, question);
            let path = dir.join("cases").join(format!("{name}.toml"));
            let case = case::parse(&text, &path, name)?;
            let answers = reference::solve(&case)?;
            cases.push((case, answers));
        }
    }
    Ok(())
}

/// A category's name as part of a case name: `basic_gameplay`.
fn slug(category: &str) -> String {
    category
        .to_lowercase()
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { '_' })
        .collect()
}

/// The text of one held-out case file asking `question` about a random position.
fn case_file(rng: &mut StdRng, category: &str, points: f64, question: Question) -> String {
    let rows = rng.random_range(SIDES.0..=SIDES.1);
    let cols = rng.random_range(SIDES.0..=SIDES.1);
    let first = if rng.random_range(0..2) == 0 {
        Player::Red
    } else {
        Player::Black
    };
    let depth = rng.random_range(1..=MAX_DEPTH);
    let mut board = Board::new(rows, cols).expect("the sides are allowed");
    let mut script = format!("new {}\n", first.name());
    let mut player = first;
    // A position part of the way into a game, no move of which ends it.
    let moves = rng.random_range(0..=rows * cols / 2);
    for _ in 0..moves {
        let Some(col) = quiet_move(rng, &board, player) else {
            break;
        };
        board.drop_checker(col, player).expect("a legal move");
        let _ = writeln!(script, "play {col}");
        player = player.opponent();
    }
    let ask = match question {
        Question::Play => {
            for _ in 0..3 {
                let _ = writeln!(script, "play {}", rng.random_range(0..cols));
            }
            "board\nturn".to_string()
        }
        Question::Winner => {
            // On to the end: a win or a full board.
            while let Some(col) = any_move(rng, &board) {
                let value = board.move_value(col, player).expect("a legal move");
                board.drop_checker(col, player).expect("a legal move");
                let _ = writeln!(script, "play {col}");
                player = player.opponent();
                if value == Score::WIN {
                    break;
                }
            }
            "winner\nboard".to_string()
        }
        Question::Heuristic => (0..cols)
            .map(|col| format!("heuristic {col}"))
            .collect::<Vec<_>>()
            .join("\n"),
        Question::Scores => format!("scores {depth}"),
    };
    let checked: &[&str] = match question {
        Question::Play => &["play", "board", "turn"],
        Question::Winner => &["winner", "board"],
        Question::Heuristic => &["heuristic"],
        Question::Scores => &["scores"],
    };
    format!(
        "description = \"A held-out case ({question:?}, {rows} x {cols}): not published.\"\n\
         category = {category:?}\npoints = {points}\nrows = {rows}\ncols = {cols}\n\
         depth = {depth}\nthreads = 1\ntime_limit = {TIME_LIMIT}\nhidden = true\n\
         check = {checked:?}\nscript = \"\"\"\n{script}{ask}\n\"\"\"\n"
    )
}

/// A random column `player` may drop in without ending the game, if there is one.
fn quiet_move(rng: &mut StdRng, board: &Board, player: Player) -> Option<usize> {
    let quiet: Vec<usize> = (0..board.cols())
        .filter(|&col| {
            board.move_value(col, player).is_ok_and(|v| v != Score::WIN) && {
                let mut after = board.clone();
                after.drop_checker(col, player).is_ok() && !after.is_full()
            }
        })
        .collect();
    (!quiet.is_empty()).then(|| quiet[rng.random_range(0..quiet.len())])
}

/// A random column that is not full, if there is one.
fn any_move(rng: &mut StdRng, board: &Board) -> Option<usize> {
    let open: Vec<usize> = (0..board.cols())
        .filter(|&col| board.move_value(col, Player::Red).is_ok())
        .collect();
    (!open.is_empty()).then(|| open[rng.random_range(0..open.len())])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::rubric::HeldOut;
    use crate::kit::Kit;

    fn table() -> HeldOut {
        toml::from_str(
            "share = 0.4\ncases = 4\n[categories]\n\"Basic gameplay\" = [\"play\", \"winner\"]\n\
             AI = [\"heuristic\", \"scores\"]\n",
        )
        .unwrap()
    }

    /// The published kit, its rubric asking for [`table`]'s held-out cases.
    fn kit() -> Kit {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../grading");
        let mut kit = Kit::load_published(&dir).unwrap();
        kit.rubric.held_out = Some(table());
        kit
    }

    /// The cases of `kit` with the held-out cases of `seed` added.
    fn added(mut kit: Kit, seed: u64) -> Vec<(Case, Solution)> {
        add(&kit.rubric, &mut kit.cases, seed, Path::new("/kit")).unwrap();
        kit.cases
    }

    #[test]
    fn the_same_seed_gives_the_same_cases_and_the_points_add_up() {
        let published = kit().cases.len();
        let first = added(kit(), 7);
        assert_eq!(first, added(kit(), 7));
        assert_ne!(first, added(kit(), 8), "another seed, other cases");
        for category in ["Basic gameplay", "AI"] {
            let sum = |held: bool| -> f64 {
                first
                    .iter()
                    .filter(|(c, _)| c.category == category && c.name.starts_with(FOLDER) == held)
                    .map(|(c, _)| c.points)
                    .sum()
            };
            assert!((sum(false) + sum(true) - 30.0).abs() < 1e-9);
            assert!((sum(true) - 12.0).abs() < 1e-9, "{}", sum(true));
        }
        let held: Vec<&Case> = first[published..].iter().map(|(c, _)| c).collect();
        assert_eq!(held.len(), 8);
        assert!(held.iter().all(|c| c.hidden));
    }

    #[test]
    fn many_seeds_give_cases_the_reference_can_answer() {
        for seed in 0..40 {
            added(kit(), seed);
        }
    }

    #[test]
    fn a_bad_table_is_refused() {
        let rubric: Rubric = kit().rubric;
        let mut bad = table();
        bad.share = 1.0;
        assert!(bad.validate(&rubric).is_err());
        let mut bad = table();
        bad.categories.insert("GUI".into(), vec![Question::Play]);
        assert!(bad.validate(&rubric).is_err());
        assert!(table().validate(&rubric).is_ok());
    }

    #[test]
    fn a_rubric_without_a_table_gets_no_held_out_case() {
        let mut plain = kit();
        plain.rubric.held_out = None;
        let cases: Vec<(Case, Solution)> = plain.cases.clone();
        assert_eq!(added(plain, 7), cases);
    }
}
