//! The assignment's command line, `connect_four ROWS COLS DEPTH THREADS [OPTIONS]`, as clap
//! definitions. A bad value is reported with the argument's name and its allowed range on
//! standard error, and the program exits with code 2. The reference adds its own options to
//! these by flattening [`Arguments`] into its command line.

use std::time::Duration;

use clap::Parser;

use crate::checker::Player;
use crate::limits::{parse_depth, parse_pause, parse_size, parse_threads};
use crate::opponent::Opponent;

/// Connect Four with a minimax computer player searching on a pool of worker threads.
#[derive(Parser, Debug, Clone, PartialEq, Eq)]
#[command(
    name = "connect_four",
    version,
    allow_negative_numbers = true,
    after_help = "Examples:\n  connect_four 6 7 5 2              play in a window\n  connect_four 6 7 5 2 --text       play in the terminal\n  connect_four 6 7 5 2 --protocol   answer grading-protocol commands on stdin"
)]
pub struct Arguments {
    /// Rows on the board, 1 to 32
    #[arg(value_parser = parse_size)]
    pub rows: usize,
    /// Columns on the board, 1 to 32
    #[arg(value_parser = parse_size)]
    pub cols: usize,
    /// Plies the computer looks ahead beyond its own move, 0 to 64
    #[arg(value_parser = parse_depth)]
    pub depth: u32,
    /// Worker threads for the computer's search, 1 to 256
    #[arg(value_parser = parse_threads)]
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
    /// Play against a human or the computer (it plays black), or watch the computer play
    /// itself, without asking
    #[arg(long, value_enum, value_name = "WHO", conflicts_with = "protocol")]
    pub opponent: Option<Opponent>,
    /// Seconds between moves when the computer plays both sides, 0 to 60
    #[arg(long, value_name = "SECONDS", value_parser = parse_pause, default_value = "1")]
    pub pause: Duration,
    /// Against the computer, it looks one ply deeper after each game you win (up to depth 8;
    /// a loss or a tie leaves it): the rising level
    #[arg(long, conflicts_with = "protocol")]
    pub adaptive: bool,
    /// Start the window with its sounds off (the Mute box); the terminal plays none
    #[arg(long, conflicts_with = "protocol")]
    pub mute: bool,
}

/// Which front end to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrontEnd {
    /// The window (the default).
    Window,
    /// The terminal.
    Text,
    /// The grading protocol on standard input and output.
    Protocol,
}

impl Arguments {
    /// The arguments this program was started with; on a bad one, explains it on standard error
    /// and exits with code 2 (or prints `--help` and exits with 0).
    pub fn from_command_line() -> Arguments {
        Arguments::parse()
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

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Arguments, clap::Error> {
        Arguments::try_parse_from(std::iter::once("connect_four").chain(args.iter().copied()))
    }

    #[test]
    fn the_four_numbers_and_the_options() {
        let plain = parse(&["6", "7", "5", "2"]).unwrap();
        assert_eq!(
            (plain.rows, plain.cols, plain.depth, plain.threads),
            (6, 7, 5, 2)
        );
        assert_eq!((plain.front_end(), plain.first), (FrontEnd::Window, None));
        let all = parse(&["4", "5", "0", "1", "--protocol", "--first", "black"]).unwrap();
        assert_eq!(all.front_end(), FrontEnd::Protocol);
        assert_eq!(all.first, Some(Player::Black));
        let text = parse(&["4", "5", "0", "1", "--text", "--opponent", "computer"]).unwrap();
        assert_eq!(text.front_end(), FrontEnd::Text);
        assert_eq!(text.opponent, Some(Opponent::Computer));
        assert_eq!(text.pause, Duration::from_secs(1));
        let watch = parse(&[
            "4",
            "5",
            "0",
            "1",
            "--text",
            "--opponent",
            "computer-vs-computer",
            "--pause",
            "0.5",
        ])
        .unwrap();
        assert_eq!(watch.opponent, Some(Opponent::ComputerVsComputer));
        assert_eq!(watch.pause, Duration::from_millis(500));
        assert!(!watch.adaptive && !watch.mute);
        let rising = parse(&["6", "7", "5", "2", "--adaptive", "--mute"]).unwrap();
        assert!(rising.adaptive && rising.mute);
        assert!(parse(&["6", "7", "5", "2", "--protocol", "--adaptive"]).is_err());
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
        let pause = parse(&["6", "7", "5", "2", "--pause", "-1"]).unwrap_err();
        assert!(
            pause
                .to_string()
                .contains("'--pause <SECONDS>': must be a number of seconds from 0 to 60"),
            "{pause}"
        );
        assert_eq!(parse(&["6", "7", "5"]).unwrap_err().exit_code(), 2);
        assert!(parse(&["6", "7", "5", "2", "--protocol", "--text"]).is_err());
    }
}
