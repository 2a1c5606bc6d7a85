//! Held-out cases: generated at grading time from a seed that only the instructor has
//! (`grading/secret.toml`, never in the kit students get), so that a program that memorised the
//! published cases' answers gains nothing on them. Each is a random board size and a random
//! position reached by legal moves, then `play`, `winner`, `heuristic` or `scores` (small
//! depths) as the rubric's `[held_out]` table asks per category; the answers are computed by the
//! reference as for any case. They carry the table's share of each such category's automatic
//! points, the published cases the rest, and they are hidden until after the due date.

use std::fmt::Write;
use std::path::Path;

use connect_four::Board;
use connect_four_supplied::{Player, Score};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use serde::Deserialize;

use super::case::{self, Case};
use super::rubric::{HeldOut, Question, Rubric};
use super::solution::{self, Solution};
use super::KitError;

/// The file beside the rubric that holds the instructor's seed.
pub const SECRET: &str = "secret.toml";
/// The folder name held-out cases are reported under.
const FOLDER: &str = "held_out";
/// The smallest and largest side of a held-out board.
const SIDES: (usize, usize) = (4, 9);
/// The deepest `scores` a held-out case asks for.
const MAX_DEPTH: u32 = 3;
/// The time limit of each command of a held-out case, in seconds.
const TIME_LIMIT: f64 = 10.0;

/// The secret file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Secret {
    seed: u64,
}

/// Whether `case` is a held-out case.
pub fn is_held_out(case: &Case) -> bool {
    case.name.starts_with(&format!("{FOLDER}/"))
}

/// The instructor's seed from `dir/secret.toml`; `None` when there is no such file (a
/// student's kit).
pub fn seed(dir: &Path) -> Result<Option<u64>, KitError> {
    let path = dir.join(SECRET);
    if !path.exists() {
        return Ok(None);
    }
    let (_, secret): (_, Secret) = super::read_toml(&path)?;
    Ok(Some(secret.seed))
}

/// Adds the held-out cases of `table`, generated from `seed` with their answers, to `cases`,
/// whose points in each listed category are scaled down to leave the held-out cases their share.
/// `dir` is the kit's directory (the cases' notional home).
pub fn add(
    table: &HeldOut,
    rubric: &Rubric,
    seed: u64,
    dir: &Path,
    cases: &mut Vec<(Case, Solution)>,
) -> Result<(), KitError> {
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
            let answers = solution::generate(&case)?;
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

    fn table() -> HeldOut {
        toml::from_str(
            "share = 0.4\ncases = 4\n[categories]\n\"Basic gameplay\" = [\"play\", \"winner\"]\n\
             AI = [\"heuristic\", \"scores\"]\n",
        )
        .unwrap()
    }

    fn kit() -> (Rubric, Vec<(Case, Solution)>) {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../grading");
        let kit = super::super::Kit::load_published(&dir).unwrap();
        (kit.rubric, kit.cases)
    }

    #[test]
    fn the_same_seed_gives_the_same_cases_and_the_points_add_up() {
        let (rubric, published) = kit();
        let dir = Path::new("/kit");
        let mut first = published.clone();
        add(&table(), &rubric, 7, dir, &mut first).unwrap();
        let mut again = published.clone();
        add(&table(), &rubric, 7, dir, &mut again).unwrap();
        assert_eq!(first, again);
        let mut other = published.clone();
        add(&table(), &rubric, 8, dir, &mut other).unwrap();
        assert_ne!(first, other, "another seed, other cases");
        for category in ["Basic gameplay", "AI"] {
            let sum = |cases: &[(Case, Solution)], held: bool| -> f64 {
                cases
                    .iter()
                    .filter(|(c, _)| c.category == category && c.name.starts_with(FOLDER) == held)
                    .map(|(c, _)| c.points)
                    .sum()
            };
            assert!((sum(&first, false) + sum(&first, true) - 30.0).abs() < 1e-9);
            assert!(
                (sum(&first, true) - 12.0).abs() < 1e-9,
                "{}",
                sum(&first, true)
            );
        }
        let held: Vec<&Case> = first[published.len()..].iter().map(|(c, _)| c).collect();
        assert_eq!(held.len(), 8);
        assert!(held.iter().all(|c| c.hidden));
    }

    #[test]
    fn many_seeds_give_cases_the_reference_can_answer() {
        let (rubric, published) = kit();
        for seed in 0..40 {
            let mut cases = published.clone();
            add(&table(), &rubric, seed, Path::new("/kit"), &mut cases).unwrap();
        }
    }

    #[test]
    fn a_bad_table_is_refused() {
        let (rubric, _) = kit();
        let mut bad = table();
        bad.share = 1.0;
        assert!(bad.validate(&rubric).is_err());
        let mut bad = table();
        bad.categories.insert("GUI".into(), vec![Question::Play]);
        assert!(bad.validate(&rubric).is_err());
        assert!(table().validate(&rubric).is_ok());
    }
}
