//! The reference's command line: the assignment's `connect_four ROWS COLS DEPTH THREADS` with
//! its options (the supplied [`Arguments`]), plus the reference's own `--seed` and `--prune`.

use clap::Parser;
use connect_four_supplied::Arguments;

use crate::engine::Algorithm;
use crate::game::GameConfig;

/// Connect Four with a minimax computer player searching on a pool of worker threads.
#[derive(Parser, Debug, Clone, PartialEq, Eq)]
#[command(
    name = "connect_four",
    version,
    allow_negative_numbers = true,
    after_help = "Examples:\n  connect_four 6 7 5 2              play in a window\n  connect_four 6 7 5 2 --text       play in the terminal\n  connect_four 6 7 5 2 --protocol   answer grading-protocol commands on stdin\n  connect_four 9 9 4 2 --connect 5  Connect 5 (five in a row) on a 9 x 9 board"
)]
pub struct Cli {
    /// The assignment's arguments and options.
    #[command(flatten)]
    pub game: Arguments,
    /// Seed for the first player and the computer's tie-breaks, for reproducible games
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Use exact alpha-beta pruning: the same values as plain minimax, found faster
    #[arg(long)]
    pub prune: bool,
}

impl Cli {
    /// The game these arguments describe.
    pub fn game_config(&self) -> GameConfig {
        GameConfig {
            rows: self.game.rows,
            cols: self.game.cols,
            depth: self.game.depth,
            threads: self.game.threads,
            algorithm: Algorithm::pruned_if(self.prune),
            seed: self.seed,
            connect: self.game.connect,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use connect_four_supplied::cli::FrontEnd;
    use connect_four_supplied::Player;

    fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
        Cli::try_parse_from(std::iter::once("connect_four").chain(args.iter().copied()))
    }

    #[test]
    fn the_four_positionals_make_a_game() {
        let cli = parse(&["6", "7", "5", "2"]).unwrap();
        assert_eq!(cli.game_config(), GameConfig::default());
        assert_eq!(cli.game.front_end(), FrontEnd::Window);
    }

    #[test]
    fn the_reference_options_reach_the_config() {
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
        assert_eq!(cli.game.front_end(), FrontEnd::Protocol);
        assert_eq!(cli.game.first, Some(Player::Black));
        let config = cli.game_config();
        assert_eq!(
            (config.rows, config.cols, config.depth, config.threads),
            (4, 5, 0, 1)
        );
        assert_eq!(
            (config.seed, config.algorithm),
            (Some(9), Algorithm::Pruned)
        );
    }

    #[test]
    fn bad_values_still_name_their_argument_and_range() {
        let err = parse(&["6", "33", "5", "2"]).unwrap_err();
        assert!(err.to_string().contains("<COLS>"), "{err}");
        assert_eq!(err.exit_code(), 2);
    }
}
