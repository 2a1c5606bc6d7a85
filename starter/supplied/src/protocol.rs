//! The grading protocol: one command per line in, one framed response out, so that a grader
//! can drive any implementation in any language.
//!
//! A response is `= ` (success) or `? ` (failure) and a payload, possibly more lines, and always
//! an empty line to end it. Blank lines and lines starting with `#` get no response. The
//! commands: `new [red|black]`, `turn`, `play COL`, `heuristic COL`, `scores [DEPTH]`,
//! `genmove`, `board`, `winner`, `quit`, and two that are never graded, `undo` and `redo` (the
//! server answers them for any game, through a [`History`]). Parsing (`Command`), running
//! (`execute`) and framing (`Response`) are separate so that the grader can reuse them; they
//! are left out of the students' documentation, where [`serve`] is all a game needs.

use std::fmt;
use std::io::{self, BufRead, Write};
use std::str::FromStr;

use crate::checker::{Checker, Player};
use crate::error::MoveError;
use crate::history::History;
use crate::input::{read_line, Line};
use crate::limits::parse_depth;
use crate::playable::{Analyze, Playable};
use crate::score::Score;

/// The longest command line accepted; longer lines are answered `? line too long`.
pub use crate::input::MAX_LINE;

/// Every graded command word of the protocol, in the order the documentation lists them.
// Hidden from the students' documentation: the grader uses it (its cases and its handout test).
#[doc(hidden)]
pub const COMMAND_WORDS: [&str; 9] = [
    "new",
    "turn",
    "play",
    "heuristic",
    "scores",
    "genmove",
    "board",
    "winner",
    "quit",
];

/// The command words the protocol also answers but grading never sends: optional extras.
// Hidden from the students' documentation: the grader uses it (its cases and its handout test).
#[doc(hidden)]
pub const OPTIONAL_WORDS: [&str; 2] = ["undo", "redo"];

/// One protocol command.
// Hidden from the students' documentation: the grader uses it (its cases and its stored answers).
#[doc(hidden)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `new [red|black]`: a new game with that first player, random if omitted.
    New(Option<Player>),
    /// `turn`: whose turn it is.
    Turn,
    /// `play COL`: the player to move drops in COL.
    Play(usize),
    /// `heuristic COL`: the heuristic value of the player to move dropping in COL.
    Heuristic(usize),
    /// `scores [DEPTH]`: the minimax value of every column, at DEPTH or the game's depth.
    Scores(Option<u32>),
    /// `genmove`: the computer chooses and plays a move for the player to move.
    Genmove,
    /// `board`: the board, one line per row, top first.
    Board,
    /// `winner`: how the game ended, or `none`.
    Winner,
    /// `quit`: answer and stop.
    Quit,
    /// `undo` (not graded): takes back the last move.
    Undo,
    /// `redo` (not graded): plays the last move taken back again.
    Redo,
}

/// Why a line is not a command. Its `Display` is the failure payload.
// Hidden from the students' documentation: the grader uses it (its cases).
#[doc(hidden)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// Not a command word, or a command with arguments it does not take.
    UnknownCommand,
    /// `play` or `heuristic` without a column number.
    IllegalColumn,
    /// `scores` with something other than a depth from 0 to 64.
    IllegalDepth,
    /// `new` with something other than `red` or `black`.
    IllegalPlayer,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ParseError::UnknownCommand => "unknown command",
            ParseError::IllegalColumn => "illegal column",
            ParseError::IllegalDepth => "illegal depth",
            ParseError::IllegalPlayer => "illegal player",
        })
    }
}

impl std::error::Error for ParseError {}

impl FromStr for Command {
    type Err = ParseError;

    /// Parses one line (already known not to be blank or a comment). Command words are
    /// case-insensitive; arguments are separated by white space.
    fn from_str(line: &str) -> Result<Self, Self::Err> {
        let mut words = line.split_whitespace();
        let name = words.next().unwrap_or("").to_ascii_lowercase();
        let argument = words.next();
        if words.next().is_some() {
            return Err(ParseError::UnknownCommand);
        }
        let column = |arg: Option<&str>| {
            arg.and_then(|a| a.parse::<usize>().ok())
                .ok_or(ParseError::IllegalColumn)
        };
        let bare = |command: Command| match argument {
            None => Ok(command),
            Some(_) => Err(ParseError::UnknownCommand),
        };
        match name.as_str() {
            "new" => argument
                .map(|a| a.parse().map_err(|_| ParseError::IllegalPlayer))
                .transpose()
                .map(Command::New),
            "play" => column(argument).map(Command::Play),
            "heuristic" => column(argument).map(Command::Heuristic),
            "scores" => argument
                .map(|a| parse_depth(a).map_err(|_| ParseError::IllegalDepth))
                .transpose()
                .map(Command::Scores),
            "turn" => bare(Command::Turn),
            "genmove" => bare(Command::Genmove),
            "board" => bare(Command::Board),
            "winner" => bare(Command::Winner),
            "quit" => bare(Command::Quit),
            "undo" => bare(Command::Undo),
            "redo" => bare(Command::Redo),
            _ => Err(ParseError::UnknownCommand),
        }
    }
}

/// One framed response: `= payload` or `? payload`, more lines, then an empty line.
// Hidden from the students' documentation: the grader uses it (its stored answers).
#[doc(hidden)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    /// Whether the command succeeded.
    pub ok: bool,
    /// The text after `= ` or `? ` on the first line.
    pub payload: String,
    /// Lines after the first (the board's rows).
    pub lines: Vec<String>,
}

impl Response {
    /// A success with `payload`.
    pub fn success(payload: impl Into<String>) -> Response {
        Response {
            ok: true,
            payload: payload.into(),
            lines: Vec::new(),
        }
    }

    /// A failure with `payload`.
    pub fn failure(payload: impl fmt::Display) -> Response {
        Response {
            ok: false,
            payload: payload.to_string(),
            lines: Vec::new(),
        }
    }
}

impl fmt::Display for Response {
    /// The response as sent: first line, more lines, then the empty line that ends it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mark = if self.ok { '=' } else { '?' };
        if self.payload.is_empty() {
            writeln!(f, "{mark}")?;
        } else {
            writeln!(f, "{mark} {}", self.payload)?;
        }
        for line in &self.lines {
            writeln!(f, "{line}")?;
        }
        writeln!(f)
    }
}

/// The protocol's short name for a refused move.
fn refusal(error: &MoveError) -> String {
    match error {
        MoveError::NoSuchColumn { .. } => "illegal column".to_string(),
        MoveError::ColumnFull { .. } => "column full".to_string(),
        MoveError::GameOver => "game over".to_string(),
        MoveError::EngineFailed(why) => format!("engine failure: {why}"),
    }
}

/// Runs `command` on `game`, whose moves so far `history` holds (it records the moves played
/// here), and returns the response to send.
// Hidden from the students' documentation: the grader uses it (its stored answers).
#[doc(hidden)]
pub fn execute(game: &mut impl Analyze, history: &mut History, command: &Command) -> Response {
    let answer = |result: Result<String, MoveError>| match result {
        Ok(payload) => Response::success(payload),
        Err(error) => Response::failure(refusal(&error)),
    };
    match command {
        Command::New(first) => {
            history.new_game(game, *first);
            Response::success(game.turn().name())
        }
        Command::Turn => Response::success(match game.turn() {
            Checker::Empty => "none",
            player => player.name(),
        }),
        Command::Play(col) => answer(history.play(game, *col).map(|row| row.to_string())),
        Command::Heuristic(col) => answer(game.heuristic(*col).map(|v| v.to_string())),
        Command::Scores(depth) => {
            let depth = depth.unwrap_or_else(|| game.depth());
            answer(game.scores(depth).map(|scores| {
                scores
                    .iter()
                    .map(|&score| value_text(score))
                    .collect::<Vec<_>>()
                    .join(" ")
            }))
        }
        Command::Genmove => answer(game.computer_move().and_then(|col| {
            history.play(game, col)?;
            Ok(col.to_string())
        })),
        Command::Board => Response {
            lines: board_rows(game).collect(),
            ..Response::success("")
        },
        Command::Winner => {
            Response::success(game.outcome().map_or("none".to_string(), |o| o.to_string()))
        }
        Command::Quit => Response::success(""),
        Command::Undo => replayed(history.undo(game), "nothing to undo"),
        Command::Redo => replayed(history.redo(game), "nothing to redo"),
    }
}

/// The answer to `undo` or `redo`: the column taken back or played again, `none_left` if there
/// was none, or why the game did not replay its moves.
fn replayed(result: Result<Option<usize>, MoveError>, none_left: &str) -> Response {
    match result {
        Ok(Some(col)) => Response::success(col.to_string()),
        Ok(None) => Response::failure(none_left),
        Err(error) => Response::failure(format!("replay failed: {}", refusal(&error))),
    }
}

/// A column's minimax value as `scores` prints it (and the terminal's hint): the number, `inf`,
/// `-inf`, or `-` for a full column.
pub(crate) fn value_text(score: Option<Score>) -> String {
    score.map_or("-".to_string(), |value| value.to_string())
}

/// The board's rows, top first, one letter a cell (`R`, `B` or `.`): the `board` answer, and
/// the cells of the terminal's picture.
pub(crate) fn board_rows(game: &impl Playable) -> impl Iterator<Item = String> + '_ {
    (0..game.rows()).map(|r| {
        (0..game.cols())
            .map(|c| game.checker(r, c).letter())
            .collect()
    })
}

/// Answers commands from `input` on `output` until `quit` or the end of input. Only I/O errors
/// end it early; every line, however malformed, gets an answer.
pub fn serve(
    game: &mut impl Analyze,
    mut input: impl BufRead,
    mut output: impl Write,
) -> io::Result<()> {
    let mut history = History::new();
    while let Some(line) = read_line(&mut input)? {
        let response = match line {
            Line::TooLong => Response::failure("line too long"),
            Line::Text(line) => {
                let line = line.trim();
                if line.is_empty() || line.starts_with('#') {
                    continue;
                }
                match line.parse::<Command>() {
                    Ok(Command::Quit) => {
                        write!(output, "{}", Response::success(""))?;
                        output.flush()?;
                        return Ok(());
                    }
                    Ok(command) => execute(game, &mut history, &command),
                    Err(error) => Response::failure(error),
                }
            }
        };
        write!(output, "{response}")?;
        output.flush()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_command_and_refuses_malformed_ones() {
        let ok = [
            ("new", Command::New(None)),
            ("NEW red", Command::New(Some(Player::Red))),
            ("play 3", Command::Play(3)),
            ("heuristic 0", Command::Heuristic(0)),
            ("scores", Command::Scores(None)),
            ("scores 6", Command::Scores(Some(6))),
            ("genmove", Command::Genmove),
            ("board", Command::Board),
            ("winner", Command::Winner),
            ("turn", Command::Turn),
            ("quit", Command::Quit),
            ("UNDO", Command::Undo),
            ("redo", Command::Redo),
        ];
        for (line, command) in ok {
            assert_eq!(line.parse::<Command>(), Ok(command), "{line}");
        }
        let bad = [
            ("dance", ParseError::UnknownCommand),
            ("board 3", ParseError::UnknownCommand),
            ("undo 2", ParseError::UnknownCommand),
            ("play 1 2", ParseError::UnknownCommand),
            ("play", ParseError::IllegalColumn),
            ("play -1", ParseError::IllegalColumn),
            ("heuristic x", ParseError::IllegalColumn),
            ("scores 65", ParseError::IllegalDepth),
            ("new blue", ParseError::IllegalPlayer),
        ];
        for (line, error) in bad {
            assert_eq!(line.parse::<Command>(), Err(error), "{line}");
        }
    }

    #[test]
    fn every_listed_command_word_is_a_command() {
        for word in COMMAND_WORDS.into_iter().chain(OPTIONAL_WORDS) {
            assert_ne!(
                word.parse::<Command>(),
                Err(ParseError::UnknownCommand),
                "{word}"
            );
        }
    }

    #[test]
    fn responses_are_framed_by_an_empty_line() {
        assert_eq!(Response::success("red").to_string(), "= red\n\n");
        assert_eq!(
            Response::failure("column full").to_string(),
            "? column full\n\n"
        );
        let board = Response {
            lines: vec!["..".into(), "RB".into()],
            ..Response::success("")
        };
        assert_eq!(board.to_string(), "=\n..\nRB\n\n");
    }
}
