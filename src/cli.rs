//! The command line, `connect_four ROWS COLS DEPTH THREADS [OPTIONS]`: clap definitions and
//! range checks. A bad value is reported with the argument's name and its allowed range, and
//! clap exits with code 2.

use clap::{Parser, ValueEnum};

use crate::checker::Checker;
use crate::game::GameConfig;
use crate::geometry::{MAX_SIZE, MIN_SIZE};

/// The deepest search the command line accepts.
pub const MAX_DEPTH: u32 = 64;
/// The most worker threads the command line accepts.
pub const MAX_THREADS: usize = 256;

/// Connect Four with a minimax computer player searching on a pool of worker threads.
#[derive(Parser, Debug, Clone, PartialEq, Eq)]
#[command(
    name = "connect_four",
    version,
    allow_negative_numbers = true,
    after_help = "Examples:\n  connect_four 6 7 5 2              play in a window\n  connect_four 6 7 5 2 --text       play in the terminal\n  connect_four 6 7 5 2 --protocol   answer grading-protocol commands on stdin"
)]
pub struct Cli {
    /// Rows on the board, 1 to 32
    #[arg(value_parser = board_size)]
    pub rows: usize,
    /// Columns on the board, 1 to 32
    #[arg(value_parser = board_size)]
    pub cols: usize,
    /// Plies the computer looks ahead beyond its own move, 0 to 64
    #[arg(value_parser = parse_depth)]
    pub depth: u32,
    /// Worker threads for the computer's search, 1 to 256
    #[arg(value_parser = threads)]
    pub threads: usize,
    /// Answer grading-protocol commands on standard input instead of opening a window
    #[arg(long, conflicts_with = "text")]
    pub protocol: bool,
    /// Play in the terminal instead of a window
    #[arg(long)]
    pub text: bool,
    /// Who moves first (random if not given)
    #[arg(long, value_enum, value_name = "PLAYER")]
    pub first: Option<Player>,
    /// Play against a human or the computer without asking (the computer plays black)
    #[arg(long, value_enum, value_name = "WHO", conflicts_with = "protocol")]
    pub opponent: Option<Opponent>,
    /// Seed for the first player and the computer's tie-breaks, for reproducible games
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Use exact alpha-beta pruning: the same values as plain minimax, found faster
    #[arg(long)]
    pub prune: bool,
}

/// A player's colour on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Player {
    /// The red player
    Red,
    /// The black player
    Black,
}

impl From<Player> for Checker {
    fn from(player: Player) -> Checker {
        match player {
            Player::Red => Checker::Red,
            Player::Black => Checker::Black,
        }
    }
}

/// Who plays against the person at the keyboard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Opponent {
    /// Two people take turns
    Human,
    /// The computer plays black
    Computer,
}

impl Opponent {
    /// Whether the computer makes `player`'s moves: against the computer it always plays black.
    pub fn computer_plays(self, player: Checker) -> bool {
        self == Opponent::Computer && player == Checker::Black
    }
}

/// Which front end to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrontEnd {
    /// The FLTK window (the default).
    Window,
    /// The terminal.
    Text,
    /// The grading protocol on standard input and output.
    Protocol,
}

impl Cli {
    /// The game these arguments describe.
    pub fn game_config(&self) -> GameConfig {
        GameConfig {
            rows: self.rows,
            cols: self.cols,
            depth: self.depth,
            threads: self.threads,
            prune: self.prune,
            seed: self.seed,
        }
    }

    /// The player asked to move first, if any.
    pub fn first_player(&self) -> Option<Checker> {
        self.first.map(Checker::from)
    }

    /// The front end asked for.
    pub fn front_end(&self) -> FrontEnd {
        if self.protocol {
            FrontEnd::Protocol
        } else if self.text {
            FrontEnd::Text
        } else {
            FrontEnd::Window
        }
    }
}

/// Parses a whole number from `low` to `high`, with a message that gives the range.
fn whole_number<T: TryFrom<i128>>(text: &str, low: i128, high: i128) -> Result<T, String> {
    let bad = || format!("must be a whole number from {low} to {high}");
    let value: i128 = text.trim().parse().map_err(|_| bad())?;
    if !(low..=high).contains(&value) {
        return Err(bad());
    }
    T::try_from(value).map_err(|_| bad())
}

fn board_size(text: &str) -> Result<usize, String> {
    whole_number(text, MIN_SIZE as i128, MAX_SIZE as i128)
}

/// Parses a search depth, 0 to [`MAX_DEPTH`]: on the command line and in the protocol.
pub fn parse_depth(text: &str) -> Result<u32, String> {
    whole_number(text, 0, i128::from(MAX_DEPTH))
}

fn threads(text: &str) -> Result<usize, String> {
    whole_number(text, 1, MAX_THREADS as i128)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
        Cli::try_parse_from(std::iter::once("connect_four").chain(args.iter().copied()))
    }

    #[test]
    fn the_four_positionals_make_a_game() {
        let cli = parse(&["6", "7", "5", "2"]).unwrap();
        assert_eq!(cli.game_config(), GameConfig::default());
        assert_eq!(cli.front_end(), FrontEnd::Window);
        assert_eq!(cli.first_player(), None);
    }

    #[test]
    fn options_reach_the_config() {
        let cli = parse(&[
            "4",
            "5",
            "0",
            "1",
            "--protocol",
            "--first",
            "black",
            "--seed",
            "9",
            "--prune",
        ])
        .unwrap();
        assert_eq!(cli.front_end(), FrontEnd::Protocol);
        assert_eq!(cli.first_player(), Some(Checker::Black));
        let config = cli.game_config();
        assert_eq!(
            (config.rows, config.cols, config.depth, config.threads),
            (4, 5, 0, 1)
        );
        assert_eq!((config.seed, config.prune), (Some(9), true));
    }

    #[test]
    fn the_computer_plays_black_and_only_against_a_person() {
        assert!(Opponent::Computer.computer_plays(Checker::Black));
        assert!(!Opponent::Computer.computer_plays(Checker::Red));
        assert!(!Opponent::Human.computer_plays(Checker::Black));
    }

    #[test]
    fn every_bad_value_names_its_argument_and_range() {
        for (args, name, range) in [
            (["0", "7", "5", "2"], "<ROWS>", "1 to 32"),
            (["6", "33", "5", "2"], "<COLS>", "1 to 32"),
            (["6", "7", "-1", "2"], "<DEPTH>", "0 to 64"),
            (["6", "7", "x", "2"], "<DEPTH>", "0 to 64"),
            (["6", "7", "5", "0"], "<THREADS>", "1 to 256"),
        ] {
            let err = parse(&args).unwrap_err();
            let text = err.to_string();
            assert!(
                text.contains(name) && text.contains(range),
                "{args:?}: {text}"
            );
            assert_eq!(err.exit_code(), 2);
        }
        assert_eq!(parse(&["6", "7", "5"]).unwrap_err().exit_code(), 2);
    }
}
