//! `grade match`: a match of several games between two players, each the reference engine in
//! process (at some depth, plain or pruned) or any program that speaks the grading protocol,
//! run through [`Program`] under its time and resource limits, as graded students are.
//!
//! The runner keeps the authoritative board (a reference [`Board`]) and judges wins and ties
//! itself: a program only chooses its moves (`genmove`) and hears its opponent's (`play COL`).
//! A program that fails in any way (a move that cannot be played, a crash, a timeout, garbage)
//! loses that game, with the reason, and the match goes on. A is red and B black; the first
//! player alternates, A first in odd-numbered games. One generator seeded with the match's seed
//! breaks the engines' ties, so a match between engines always ends the same way.
//!
//! A's score is (wins + ties / 2) / games, given with a 95% Wilson score interval in which a tie
//! counts as half a win.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use connect_four::{error_chain, Algorithm, Board, Engine};
use connect_four_supplied::limits::parse_depth;
use connect_four_supplied::{MoveError, Player, Score};
use rand::rngs::StdRng;
use rand::SeedableRng;

use crate::process::{Failure, Limits, Program};

/// How a player is written on the command line.
pub const SYNTAX: &str = "reference:DEPTH, reference:DEPTH:prune or cmd:DEPTH:COMMAND";
/// The players' names, A then B.
pub const NAMES: [&str; 2] = ["A", "B"];
/// The players' colours: A is red, B black.
const COLOURS: [Player; 2] = [Player::Red, Player::Black];
/// The normal quantile of a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// A player, as the command line gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Spec {
    /// `reference:DEPTH` or `reference:DEPTH:prune`: the reference engine, in this process.
    Reference {
        /// Plies it looks ahead beyond its own move.
        depth: u32,
        /// Exact alpha-beta: the same moves as plain minimax, found faster.
        prune: bool,
    },
    /// `cmd:DEPTH:COMMAND`: a program that speaks the grading protocol, started for each game
    /// as `COMMAND ROWS COLS DEPTH THREADS --protocol` (as `grade student` starts it).
    Program {
        /// The DEPTH it is started with.
        depth: u32,
        /// The shell command that starts it.
        command: String,
    },
}

/// Why a player cannot be read from the command line ([`Spec`]), each followed by the syntax.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// Neither `reference` nor `cmd`.
    #[error("unknown kind of player {0:?} (a player is {SYNTAX})")]
    Kind(String),
    /// No depth after the kind.
    #[error("no depth after {0:?} (a player is {SYNTAX})")]
    NoDepth(String),
    /// The depth, and why it is not one (the supplied crate's words).
    #[error("depth {0:?} {1} (a player is {SYNTAX})")]
    Depth(String, String),
    /// Something other than `prune` after the reference's depth.
    #[error(
        "{0:?} after the depth: the reference takes only `prune` there (a player is {SYNTAX})"
    )]
    AfterDepth(String),
    /// A program with no command.
    #[error("no command after the depth (a player is {SYNTAX})")]
    NoCommand,
}

impl FromStr for Spec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<Spec, SpecError> {
        let mut parts = text.splitn(3, ':');
        let kind = parts.next().unwrap_or_default();
        if !matches!(kind, "reference" | "cmd") {
            return Err(SpecError::Kind(kind.into()));
        }
        let depth = parts
            .next()
            .ok_or_else(|| SpecError::NoDepth(kind.into()))?;
        let depth = parse_depth(depth).map_err(|why| SpecError::Depth(depth.into(), why))?;
        match (kind, parts.next()) {
            ("reference", None) => Ok(Spec::Reference {
                depth,
                prune: false,
            }),
            ("reference", Some("prune")) => Ok(Spec::Reference { depth, prune: true }),
            ("reference", Some(other)) => Err(SpecError::AfterDepth(other.into())),
            (_, Some(command)) if !command.trim().is_empty() => Ok(Spec::Program {
                depth,
                command: command.trim().to_string(),
            }),
            _ => Err(SpecError::NoCommand),
        }
    }
}

impl fmt::Display for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Spec::Reference { depth, prune } => {
                write!(f, "reference:{depth}{}", if *prune { ":prune" } else { "" })
            }
            Spec::Program { depth, command } => write!(f, "cmd:{depth}:{command}"),
        }
    }
}

/// Everything about a match but its players.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conditions {
    /// The board's rows.
    pub rows: usize,
    /// The board's columns.
    pub cols: usize,
    /// How many games.
    pub games: u32,
    /// The reference engines' worker threads, and the THREADS programs are started with.
    pub threads: usize,
    /// Seeds the engines' tie-breaks.
    pub seed: u64,
    /// The longest a program may take to answer one command.
    pub time_limit: Duration,
    /// The resource limits of every program run.
    pub limits: Limits,
}

/// One game's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The game's number, from 1.
    pub number: u32,
    /// Who moved first: 0 for A, 1 for B.
    pub first: usize,
    /// Who won: 0 for A, 1 for B; `None` for a tie.
    pub winner: Option<usize>,
    /// The checkers dropped.
    pub moves: usize,
    /// Why the loser lost, when it failed rather than lost four in a row.
    pub forfeit: Option<Forfeit>,
}

/// Why a player lost a game without losing on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Forfeit {
    /// The program did not start.
    NotStarted(Failure),
    /// The program gave no usable answer to a command.
    Failed(String, Failure),
    /// The program answered a command with an error: the command and the answer's first line.
    Refused(String, String),
    /// The program answered a command otherwise than the runner's board says: the command, its
    /// answer's payload and the payload wanted.
    Disagreed(String, String, String),
    /// The program answered `genmove` with something that is not a column.
    NotAColumn(String),
    /// The player chose a column that cannot be played.
    Illegal(usize, MoveError),
    /// The reference engine failed (its error) or found no move (`None`).
    Engine(Option<String>),
}

/// Why a match could not be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatchError {
    /// The board size is not allowed: why.
    Board(String),
    /// A player (0 for A, 1 for B) could not start, and why.
    CannotStart(usize, Forfeit),
}

/// Games with one first player, or all of them, from A's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games played.
    pub games: u32,
    /// Games won by A and by B.
    pub wins: [u32; 2],
    /// Games tied.
    pub ties: u32,
    /// Games A and B lost by failing rather than on the board.
    pub failures: [u32; 2],
}

impl Tally {
    /// Counts `record` in.
    fn add(&mut self, record: &GameRecord) {
        self.games += 1;
        match record.winner {
            Some(winner) => self.wins[winner] += 1,
            None => self.ties += 1,
        }
        if let (Some(winner), Some(_)) = (record.winner, &record.forfeit) {
            self.failures[1 - winner] += 1;
        }
    }

    /// Both tallies together.
    fn plus(self, other: Tally) -> Tally {
        let both = |a: [u32; 2], b: [u32; 2]| [a[0] + b[0], a[1] + b[1]];
        Tally {
            games: self.games + other.games,
            wins: both(self.wins, other.wins),
            ties: self.ties + other.ties,
            failures: both(self.failures, other.failures),
        }
    }

    /// A's score: (wins + ties / 2) / games; 0 with no games.
    pub fn score(&self) -> f64 {
        if self.games == 0 {
            return 0.0;
        }
        (f64::from(self.wins[0]) + f64::from(self.ties) / 2.0) / f64::from(self.games)
    }
}

/// A whole match's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scoreboard {
    /// The games A moved first in, and those B moved first in.
    pub by_first: [Tally; 2],
}

impl Scoreboard {
    /// Every game.
    pub fn total(&self) -> Tally {
        self.by_first[0].plus(self.by_first[1])
    }
}

/// The 95% Wilson score interval of a score `p` over `n` games, ties counted as half a win:
/// lower and upper bound. With no games, everything from 0 to 1.
pub fn wilson(p: f64, n: u32) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n = f64::from(n);
    let z2 = Z95 * Z95;
    let scale = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / scale;
    let half = Z95 / scale * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// One player during a match.
enum Contestant {
    /// The reference engine, and the depth it searches to.
    Engine { engine: Engine, depth: u32 },
    /// A program: how to start it, and the program itself during a game.
    Program {
        command: String,
        depth: u32,
        running: Option<Program>,
    },
}

impl Contestant {
    /// The player `spec` describes, checked: an engine with its threads, or a program that
    /// starts and answers `new red`.
    fn new(spec: &Spec, settings: &Conditions) -> Result<Contestant, Forfeit> {
        let mut contestant = match spec {
            Spec::Reference { depth, prune } => {
                let engine = Engine::new(settings.threads, Algorithm::pruned_if(*prune))
                    .map_err(|e| Forfeit::Engine(Some(error_chain(&e))))?;
                return Ok(Contestant::Engine {
                    engine,
                    depth: *depth,
                });
            }
            Spec::Program { depth, command } => Contestant::Program {
                command: command.clone(),
                depth: *depth,
                running: None,
            },
        };
        contestant.begin(Player::Red, settings)?;
        contestant.end();
        Ok(contestant)
    }

    /// Starts a game that `first` moves first in: a program is started and sent `new`.
    fn begin(&mut self, first: Player, settings: &Conditions) -> Result<(), Forfeit> {
        if let Contestant::Program {
            command,
            depth,
            running,
        } = self
        {
            let arguments = format!(
                "{} {} {depth} {} --protocol",
                settings.rows, settings.cols, settings.threads
            );
            let mut program = Program::start(command, &arguments, None, &settings.limits, None)
                .map_err(Forfeit::NotStarted)?;
            let new = format!("new {}", first.name());
            expect(&mut program, &new, first.name(), settings.time_limit)?;
            *running = Some(program);
        }
        Ok(())
    }

    /// The column this player chooses for `player` on `board`; a program plays it on its own
    /// board as well.
    fn choose(
        &mut self,
        board: &Board,
        player: Player,
        settings: &Conditions,
        rng: &mut StdRng,
    ) -> Result<usize, Forfeit> {
        match self {
            Contestant::Engine { engine, depth } => engine
                .choose(board, player, *depth, rng)
                .map_err(|e| Forfeit::Engine(Some(e.to_string())))?
                .ok_or(Forfeit::Engine(None)),
            Contestant::Program { running, .. } => {
                let not_running = || Forfeit::NotStarted(Failure::Io("not running".into()));
                let program = running.as_mut().ok_or_else(not_running)?;
                let column = answer(program, "genmove", settings.time_limit)?;
                column.parse().map_err(|_| Forfeit::NotAColumn(column))
            }
        }
    }

    /// Tells a program that its opponent dropped in `col`, which the runner's board says lands
    /// in `row`; a program must agree.
    fn hear(&mut self, col: usize, row: usize, settings: &Conditions) -> Result<(), Forfeit> {
        match self {
            Contestant::Program {
                running: Some(program),
                ..
            } => expect(
                program,
                &format!("play {col}"),
                &row.to_string(),
                settings.time_limit,
            ),
            _ => Ok(()),
        }
    }

    /// Ends a game: a program is stopped, with everything it started.
    fn end(&mut self) {
        if let Contestant::Program { running, .. } = self {
            *running = None;
        }
    }
}

/// Sends `line` and returns the payload of its `=` answer, or why there is none.
fn answer(program: &mut Program, line: &str, limit: Duration) -> Result<String, Forfeit> {
    let (lines, _) = program
        .ask(line, limit)
        .map_err(|failure| Forfeit::Failed(line.to_string(), failure))?;
    let first = lines.first().map_or("", String::as_str);
    match first.strip_prefix('=') {
        Some(payload) => Ok(payload.trim().to_string()),
        None => Err(Forfeit::Refused(line.to_string(), first.to_string())),
    }
}

/// Sends `line`, whose answer must be `= WANTED`.
fn expect(program: &mut Program, line: &str, wanted: &str, limit: Duration) -> Result<(), Forfeit> {
    let got = answer(program, line, limit)?;
    if got == wanted {
        Ok(())
    } else {
        Err(Forfeit::Disagreed(
            line.to_string(),
            got,
            wanted.to_string(),
        ))
    }
}

/// Plays game `number` between `contestants` on a copy of `empty`: A moves first in odd-numbered
/// games, B in even ones. Whoever fails loses; a program that does not start the game loses it
/// before the other is started.
fn play_game(
    contestants: &mut [Contestant; 2],
    empty: &Board,
    number: u32,
    settings: &Conditions,
    rng: &mut StdRng,
) -> GameRecord {
    let first = usize::from(number % 2 == 0);
    let record = |winner: Option<usize>, moves: usize, forfeit: Option<Forfeit>| GameRecord {
        number,
        first,
        winner,
        moves,
        forfeit,
    };
    let lost = |side: usize, moves: usize, why: Forfeit| record(Some(1 - side), moves, Some(why));
    for side in [first, 1 - first] {
        if let Err(why) = contestants[side].begin(COLOURS[first], settings) {
            return lost(side, 0, why);
        }
    }
    let mut board = empty.clone();
    let mut side = first;
    let mut moves = 0;
    loop {
        let player = COLOURS[side];
        let col = match contestants[side].choose(&board, player, settings, rng) {
            Ok(col) => col,
            Err(why) => return lost(side, moves, why),
        };
        let dropped = board.move_value(col, player).and_then(|value| {
            let row = board.drop_checker(col, player)?;
            Ok((value, row))
        });
        let (value, row) = match dropped {
            Ok(dropped) => dropped,
            Err(error) => return lost(side, moves, Forfeit::Illegal(col, error)),
        };
        moves += 1;
        if value == Score::WIN {
            return record(Some(side), moves, None);
        }
        if board.is_full() {
            return record(None, moves, None);
        }
        if let Err(why) = contestants[1 - side].hear(col, row, settings) {
            return lost(1 - side, moves, why);
        }
        side = 1 - side;
    }
}

/// Plays the match between `specs` (A, then B), passing each game's record to `each` as it
/// ends. Fails, before any game, when the board size is not allowed or a player cannot start.
pub fn play(
    specs: &[Spec; 2],
    settings: &Conditions,
    mut each: impl FnMut(&GameRecord),
) -> Result<Scoreboard, MatchError> {
    let empty =
        Board::new(settings.rows, settings.cols).map_err(|e| MatchError::Board(e.to_string()))?;
    let start = |side: usize| {
        Contestant::new(&specs[side], settings).map_err(|why| MatchError::CannotStart(side, why))
    };
    let mut contestants = [start(0)?, start(1)?];
    let mut rng = StdRng::seed_from_u64(settings.seed);
    let mut standings = Scoreboard {
        by_first: [Tally::default(); 2],
    };
    for number in 1..=settings.games {
        let record = play_game(&mut contestants, &empty, number, settings, &mut rng);
        for contestant in &mut contestants {
            contestant.end();
        }
        standings.by_first[record.first].add(&record);
        each(&record);
    }
    Ok(standings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_are_read_and_written_back() {
        for text in [
            "reference:5",
            "reference:0:prune",
            "cmd:6:java -cp a:b X --seed 1",
        ] {
            let spec: Spec = text.parse().unwrap();
            assert_eq!(spec.to_string(), text);
        }
        assert_eq!(
            "cmd:3: python3 x.py ".parse(),
            Ok(Spec::Program {
                depth: 3,
                command: "python3 x.py".into()
            })
        );
        assert_eq!(
            "reference:8:prune".parse(),
            Ok(Spec::Reference {
                depth: 8,
                prune: true
            })
        );
    }

    #[test]
    fn a_bad_player_says_what_is_wrong_and_the_syntax() {
        for (text, why) in [
            ("referee:5", "unknown kind of player \"referee\""),
            ("reference", "no depth after \"reference\""),
            (
                "reference:65",
                "depth \"65\" must be a whole number from 0 to 64",
            ),
            ("reference:5:fast", "\"fast\" after the depth"),
            ("cmd:5", "no command after the depth"),
            ("cmd:5:  ", "no command after the depth"),
            ("cmd:x:prog", "depth \"x\" must be"),
        ] {
            let error = text.parse::<Spec>().unwrap_err().to_string();
            assert!(
                error.contains(why) && error.ends_with(&format!("(a player is {SYNTAX})")),
                "{text}: {error}"
            );
        }
    }

    #[test]
    fn the_wilson_interval_matches_known_values() {
        let close = |(low, high): (f64, f64), (l, h): (f64, f64)| {
            assert!(
                (low - l).abs() < 5e-4 && (high - h).abs() < 5e-4,
                "{low} {high}"
            );
        };
        close(wilson(0.5, 10), (0.2366, 0.7634));
        close(wilson(0.0, 10), (0.0, 0.2775));
        close(wilson(1.0, 40), (0.9124, 1.0));
        close(wilson(0.75, 40), (0.5980, 0.8581));
        assert_eq!(wilson(0.3, 0), (0.0, 1.0));
    }

    #[test]
    fn ties_count_half_and_failures_are_counted_for_the_loser() {
        let record = |winner, forfeit: Option<&str>| GameRecord {
            number: 1,
            first: 0,
            winner,
            moves: 9,
            forfeit: forfeit.map(|f| Forfeit::NotAColumn(f.into())),
        };
        let mut tally = Tally::default();
        tally.add(&record(Some(0), None));
        tally.add(&record(None, None));
        tally.add(&record(Some(0), Some("crashed")));
        tally.add(&record(Some(1), None));
        assert_eq!(tally.wins, [2, 1]);
        assert_eq!((tally.games, tally.ties, tally.failures), (4, 1, [0, 1]));
        assert_eq!(tally.score(), 0.625);
        assert_eq!(Tally::default().score(), 0.0);
    }
}
