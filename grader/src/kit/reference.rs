//! The reference's answers to a case: its script played on the reference library, every
//! accepted answer kept. Only the course's `grade` has it (not the one built with the
//! `students-kit` feature): the kit students get holds the answers to the published cases and
//! nothing that could answer others.

use std::path::PathBuf;

use super::case::Case;
use super::solution::{Answer, Solution};
use connect_four::{best_columns, error_chain, Algorithm, Game, GameConfig, GameError};
use connect_four_supplied::protocol::{execute, Command, Response};
use connect_four_supplied::{Analyze, History, MoveError, Playable};

/// A response as the solution stores it: framed, without the final empty line.
fn response_text(response: &Response) -> String {
    response.to_string().trim_end_matches('\n').to_string()
}

/// Why the reference cannot answer a case: the case file and line, and why.
#[derive(Debug, thiserror::Error)]
#[error("{}:{line}: {why}", .path.display())]
pub struct ReferenceError {
    /// The case file.
    pub path: PathBuf,
    /// Its line (0 for the case as a whole).
    pub line: usize,
    /// Why.
    pub why: Unanswerable,
}

/// Why the reference cannot answer a case at a line.
#[derive(Debug, thiserror::Error)]
pub enum Unanswerable {
    /// The case's game cannot be set up (its whole chain of causes, as one line).
    #[error("{}", error_chain(.0))]
    Setup(GameError),
    /// A command's answer would depend on an earlier random choice.
    #[error("`{command}` depends on the random choice at {since}: put `new red` or `new black` before it")]
    Random {
        /// The command, as written.
        command: String,
        /// Where the random choice was made.
        since: String,
    },
    /// The reference refused to search or to play.
    #[error("{0}")]
    Move(MoveError),
    /// A timing case's set-up leaves a random choice in play.
    #[error("a timing case's set-up must end in a known position")]
    TimingUnknown,
}

/// Computes `case`'s answers with the reference. Fails, naming the line, when a command's answer
/// would depend on a random choice made earlier (a bare `new`, or a `genmove` with tied columns),
/// since no single answer could then be stored.
pub fn solve(case: &Case) -> Result<Solution, ReferenceError> {
    // Exact alpha-beta gives plain minimax's values, faster; the seed only fixes the state
    // after a random choice, which no later answer may depend on.
    let config = GameConfig {
        rows: case.rows,
        cols: case.cols,
        depth: case.depth,
        threads: 2,
        algorithm: Algorithm::Pruned,
        seed: Some(0),
        connect: case.connect,
    };
    let fail = |line: usize, why: Unanswerable| ReferenceError {
        path: case.path.clone(),
        line,
        why,
    };
    let mut game = Game::new(&config, None).map_err(|e| fail(0, Unanswerable::Setup(e)))?;
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
                    Unanswerable::Random {
                        command: step.text.clone(),
                        since: random_since.unwrap_or_default(),
                    },
                ))
            }
            Ok(Command::Genmove) if !game.is_over() => {
                let scores = game
                    .scores(game.depth())
                    .map_err(|e| fail(step.line, Unanswerable::Move(e)))?;
                let best = best_columns(&scores);
                if let [only] = best[..] {
                    history
                        .play(&mut game, only)
                        .map_err(|e| fail(step.line, Unanswerable::Move(e)))?;
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
        return Err(fail(0, Unanswerable::TimingUnknown));
    }
    Ok(Solution { answer })
}
