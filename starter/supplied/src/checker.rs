//! What a cell holds, and who plays: the assignment's `Checker` enum (black, red, empty) and the
//! two-valued `Player` for whose turn it is, who won and whose move is searched.
//!
//! Keeping `Player` apart from `Checker` means "nobody" can only appear where a cell may be
//! empty; a turn, a winner or a searching side is always a real player.

use std::fmt;
use std::str::FromStr;

/// A cell's contents: a player's checker, or none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Checker {
    /// The black player's checker. Against the computer, the computer plays black.
    Black,
    /// The red player's checker.
    Red,
    /// No checker.
    Empty,
}

/// One of the two players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, clap::ValueEnum)]
pub enum Player {
    /// The black player (the computer, against a person)
    Black,
    /// The red player
    Red,
}

impl Checker {
    /// The lower-case name used by the protocol and in messages: `black`, `red`, `empty`.
    pub fn name(self) -> &'static str {
        match self {
            Checker::Black => "black",
            Checker::Red => "red",
            Checker::Empty => "empty",
        }
    }

    /// The one-letter form used by the protocol's `board`: `B`, `R` or `.`.
    pub fn letter(self) -> char {
        match self {
            Checker::Black => 'B',
            Checker::Red => 'R',
            Checker::Empty => '.',
        }
    }

    /// The player whose checker this is, or `None` for an empty cell.
    pub fn player(self) -> Option<Player> {
        match self {
            Checker::Black => Some(Player::Black),
            Checker::Red => Some(Player::Red),
            Checker::Empty => None,
        }
    }
}

impl Player {
    /// Both players, black first (the order of [`index`](Self::index)).
    pub const BOTH: [Player; 2] = [Player::Black, Player::Red];

    /// The other player.
    pub fn opponent(self) -> Player {
        match self {
            Player::Black => Player::Red,
            Player::Red => Player::Black,
        }
    }

    /// The player's checker.
    pub fn checker(self) -> Checker {
        match self {
            Player::Black => Checker::Black,
            Player::Red => Checker::Red,
        }
    }

    /// The lower-case name: `black` or `red`.
    pub fn name(self) -> &'static str {
        self.checker().name()
    }

    /// 0 for black, 1 for red: for arrays indexed by player.
    pub fn index(self) -> usize {
        match self {
            Player::Black => 0,
            Player::Red => 1,
        }
    }
}

impl From<Player> for Checker {
    fn from(player: Player) -> Checker {
        player.checker()
    }
}

impl fmt::Display for Checker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error of parsing a player's colour that is neither `red` nor `black`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsePlayerError(pub String);

impl fmt::Display for ParsePlayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not a player: expected red or black", self.0)
    }
}

impl std::error::Error for ParsePlayerError {}

impl FromStr for Player {
    type Err = ParsePlayerError;

    /// Parses a player's colour, `red` or `black` (any case).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "red" => Ok(Player::Red),
            "black" => Ok(Player::Black),
            _ => Err(ParsePlayerError(s.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opponent_swaps_players() {
        assert_eq!(Player::Black.opponent(), Player::Red);
        assert_eq!(Player::Red.opponent(), Player::Black);
    }

    #[test]
    fn parses_players_in_any_case_and_refuses_the_rest() {
        assert_eq!("RED".parse::<Player>(), Ok(Player::Red));
        assert_eq!("black".parse::<Player>(), Ok(Player::Black));
        assert!("empty".parse::<Player>().is_err());
        assert_eq!(
            "blue".parse::<Player>().unwrap_err().to_string(),
            "'blue' is not a player: expected red or black"
        );
    }

    #[test]
    fn players_and_checkers_round_trip() {
        for (index, player) in Player::BOTH.into_iter().enumerate() {
            assert_eq!(player.checker().player(), Some(player));
            assert_eq!(player.index(), index);
            assert_eq!(player.to_string(), Checker::from(player).to_string());
        }
        assert_eq!(Checker::Empty.player(), None);
        assert_eq!(Checker::Black.letter(), 'B');
        assert_eq!(Checker::Empty.letter(), '.');
    }
}
