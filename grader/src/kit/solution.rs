//! The reference's answers: `grade generate` plays every case's script on the reference
//! library and writes the accepted answers to a `.solution` file beside the case, so that no
//! expected answer is typed by hand and a test can check that none has gone stale.

use std::fs;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::case::Case;
use super::KitError;
use connect_four::{best_columns, error_chain, Algorithm, Game, GameConfig};
use connect_four_supplied::protocol::{execute, Command, Response};
use connect_four_supplied::{Analyze, History, Playable};

/// The accepted answers to one command.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Answer {
    /// The command's line in the case file.
    pub line: usize,
    /// The command as written.
    pub command: String,
    /// Every accepted response, as sent but without the empty line that ends it. Several for a
    /// random first player or for `genmove` when columns tie.
    pub accept: Vec<String>,
}

/// The answers to a whole script, in order.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Solution {
    /// One per command.
    pub answer: Vec<Answer>,
}

/// A response as the solution stores it: framed, without the final empty line.
pub fn response_text(response: &Response) -> String {
    response.to_string().trim_end_matches('\n').to_string()
}

/// Where `case`'s solution lives.
pub fn path(case: &Case) -> PathBuf {
    case.path.with_extension("solution")
}

/// Computes `case`'s answers with the reference. Fails, naming the line, when a command's answer
/// would depend on a random choice made earlier (a bare `new`, or a `genmove` with tied columns),
/// since no single answer could then be stored.
pub fn generate(case: &Case) -> Result<Solution, KitError> {
    // Exact alpha-beta gives plain minimax's values, faster; the seed only fixes the state
    // after a random choice, which no later answer may depend on.
    let config = GameConfig {
        rows: case.rows,
        cols: case.cols,
        depth: case.depth,
        threads: 2,
        algorithm: Algorithm::Pruned,
        seed: Some(0),
    };
    let fail =
        |line: usize, why: String| KitError(format!("{}:{line}: {why}", case.path.display()));
    let mut game = Game::new(&config, None).map_err(|e| fail(0, error_chain(&e)))?;
    let mut history = History::new();
    let mut random_since: Option<String> = Some("the program's start".into());
    let mut answer = Vec::new();
    for step in &case.script {
        let accept = match &step.command {
            Err(error) => vec![response_text(&Response::failure(error))],
            Ok(Command::New(None)) => {
                execute(&mut game, &mut history, &Command::New(None));
                random_since = Some(format!("line {}", step.line));
                vec!["= red".to_string(), "= black".to_string()]
            }
            Ok(command @ (Command::New(Some(_)) | Command::Quit)) => {
                random_since = None;
                vec![response_text(&execute(&mut game, &mut history, command))]
            }
            _ if random_since.is_some() => {
                return Err(fail(
                    step.line,
                    format!(
                        "`{}` depends on the random choice at {}: put `new red` or `new black` before it",
                        step.text,
                        random_since.unwrap_or_default()
                    ),
                ))
            }
            Ok(Command::Genmove) if !game.is_over() => {
                let scores = game
                    .scores(game.depth())
                    .map_err(|e| fail(step.line, e.to_string()))?;
                let best = best_columns(&scores);
                if let [only] = best[..] {
                    history
                        .play(&mut game, only)
                        .map_err(|e| fail(step.line, e.to_string()))?;
                } else {
                    random_since = Some(format!("line {} (columns tie)", step.line));
                }
                best.iter().map(|c| format!("= {c}")).collect()
            }
            Ok(command) => vec![response_text(&execute(&mut game, &mut history, command))],
        };
        answer.push(Answer {
            line: step.line,
            command: step.text.clone(),
            accept,
        });
    }
    if case.is_timing() && random_since.is_some() {
        return Err(fail(
            0,
            "a timing case's set-up must end in a known position".into(),
        ));
    }
    Ok(Solution { answer })
}

/// The text of a solution file.
pub fn to_text(case: &Case, solution: &Solution) -> String {
    let body = toml::to_string_pretty(solution).expect("a solution is plain data");
    format!(
        "# The reference's answers to {}.toml, written by `grade generate`. Do not edit.\n\n{body}",
        case.name
    )
}

/// Writes `case`'s solution file.
pub fn write(case: &Case, solution: &Solution) -> Result<(), KitError> {
    let path = path(case);
    fs::write(&path, to_text(case, solution))
        .map_err(|e| KitError(format!("{}: cannot write: {e}", path.display())))
}

/// Reads `case`'s solution file and checks that it answers exactly the case's script.
pub fn read(case: &Case) -> Result<Solution, KitError> {
    let path = path(case);
    let shown = path.display();
    let text = fs::read_to_string(&path)
        .map_err(|e| KitError(format!("{shown}: cannot read ({e}); run `grade generate`")))?;
    let solution: Solution =
        toml::from_str(&text).map_err(|e| KitError(format!("{shown}: {e}")))?;
    let matches = solution.answer.len() == case.script.len()
        && solution
            .answer
            .iter()
            .zip(&case.script)
            .all(|(a, s)| a.line == s.line && a.command == s.text && !a.accept.is_empty());
    if !matches {
        return Err(KitError(format!(
            "{shown}: does not match its case's script; run `grade generate`"
        )));
    }
    Ok(solution)
}
