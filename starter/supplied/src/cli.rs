//! The assignment's command line, `connect_four ROWS COLS DEPTH THREADS [OPTIONS]`, as clap
//! definitions. A bad value is reported with the argument's name and its allowed range on
//! standard error, and the program exits with code 2. The reference adds its own options to
//! these by flattening [`Arguments`] into its command line.

use std::time::Duration;

use clap::error::ErrorKind;
use clap::{CommandFactory, Parser};

use crate::checker::Player;
use crate::limits::{
    max_connect, parse_connect, parse_depth, parse_pause, parse_size, parse_threads, CONNECT,
};
use crate::opponent::Opponent;

/// Connect Four with a minimax computer player searching on a pool of worker threads.
#[derive(Parser, Debug, Clone, PartialEq, Eq)]
#[command(
    name = "connect_four",
    version,
    allow_negative_numbers = true,
    after_help = "Examples:\n  connect_four 6 7 5 2              play in a window\n  connect_four 6 7 5 2 --text       play in the terminal\n  connect_four 6 7 5 2 --protocol   answer grading-protocol commands on stdin\n  connect_four 9 9 4 2 --connect 5  Connect 5 (five in a row) on a 9 x 9 board"
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
    /// The Connect-M extension: M in a row wins (and the heuristic scores windows of M), 2 to
    /// the board's longer side
    #[arg(long, value_name = "M", value_parser = parse_connect, default_value_t = CONNECT)]
    pub connect: usize,
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
        let args = Arguments::parse();
        args.exit_on_bad_connect::<Arguments>();
        args
    }

    /// Why `--connect M` does not fit the board, as clap words a bad value: no line of a
    /// `ROWS` x `COLS` board holds more than its longer side (see [`max_connect`]).
    pub fn check_connect(&self) -> Result<(), String> {
        let most = max_connect(self.rows, self.cols);
        if self.connect <= most {
            return Ok(());
        }
        Err(format!(
            "invalid value '{}' for '--connect <M>': must be a whole number from 2 to {most}, \
             the longer side of the {} x {} board",
            self.connect, self.rows, self.cols
        ))
    }

    /// Explains a `--connect M` that does not fit the board on standard error, as the command
    /// line `C` (these arguments, or a program's that flattens them) reports a bad value, and
    /// exits with code 2.
    pub fn exit_on_bad_connect<C: CommandFactory>(&self) {
        if let Err(message) = self.check_connect() {
            C::command()
                .error(ErrorKind::ValueValidation, message)
                .exit();
        }
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
        assert_eq!(plain.connect, 4);
    }

    #[test]
    fn connect_m_must_fit_a_line_of_the_board() {
        let five = parse(&["9", "5", "2", "1", "--connect", "9"]).unwrap();
        assert_eq!((five.connect, five.check_connect()), (9, Ok(())));
        let too_long = parse(&["6", "7", "2", "1", "--connect", "8"]).unwrap();
        assert_eq!(
            too_long.check_connect(),
            Err(
                "invalid value '8' for '--connect <M>': must be a whole number from 2 to 7, \
                 the longer side of the 6 x 7 board"
                    .to_string()
            )
        );
        // The assignment's four, named or not, fits every board.
        let small = parse(&["3", "3", "2", "1", "--connect", "4"]).unwrap();
        assert_eq!(small.check_connect(), Ok(()));
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
        let connect = parse(&["6", "7", "5", "2", "--connect", "1"]).unwrap_err();
        assert!(
            connect
                .to_string()
                .contains("'--connect <M>': must be a whole number from 2 to 32"),
            "{connect}"
        );
        assert!(parse(&["6", "7", "5", "2", "--protocol", "--text"]).is_err());
    }
}
