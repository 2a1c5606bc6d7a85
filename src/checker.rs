//! The contents of one cell, and the colour of each player: the assignment's `Checker` enum.
//!
//! `Checker` has exactly the three values the assignment names. Players are `Black` and `Red`;
//! `Empty` marks a free cell, and "nobody" where the API needs it (for example whose turn it is
//! once the game is over).

use std::fmt;
use std::str::FromStr;

/// A cell's contents, or a player's colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Checker {
    /// The black player's checker. Against the computer, the computer plays black.
    Black,
    /// The red player's checker.
    Red,
    /// No checker.
    Empty,
}

impl Checker {
    /// The other player: `Black` for `Red` and the reverse; `Empty` stays `Empty`.
    pub fn opponent(self) -> Checker {
        match self {
            Checker::Black => Checker::Red,
            Checker::Red => Checker::Black,
            Checker::Empty => Checker::Empty,
        }
    }

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

    /// The engine's index of a player (black 0, red 1). Callers pass a player, never `Empty`.
    pub(crate) fn side(self) -> usize {
        debug_assert!(self != Checker::Empty, "Empty is not a player");
        usize::from(self == Checker::Red)
    }

    /// The player with engine index `side` (0 black, 1 red).
    pub(crate) fn from_side(side: usize) -> Checker {
        if side == 0 {
            Checker::Black
        } else {
            Checker::Red
        }
    }
}

impl fmt::Display for Checker {
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

impl FromStr for Checker {
    type Err = ParsePlayerError;

    /// Parses a player's colour, `red` or `black` (any case). `Empty` is not a player.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "red" => Ok(Checker::Red),
            "black" => Ok(Checker::Black),
            _ => Err(ParsePlayerError(s.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opponent_swaps_players_and_keeps_empty() {
        assert_eq!(Checker::Black.opponent(), Checker::Red);
        assert_eq!(Checker::Red.opponent(), Checker::Black);
        assert_eq!(Checker::Empty.opponent(), Checker::Empty);
    }

    #[test]
    fn parses_players_in_any_case_and_refuses_the_rest() {
        assert_eq!("RED".parse::<Checker>(), Ok(Checker::Red));
        assert_eq!("black".parse::<Checker>(), Ok(Checker::Black));
        assert!("empty".parse::<Checker>().is_err());
        assert_eq!(
            "blue".parse::<Checker>().unwrap_err().to_string(),
            "'blue' is not a player: expected red or black"
        );
    }

    #[test]
    fn sides_round_trip() {
        for p in [Checker::Black, Checker::Red] {
            assert_eq!(Checker::from_side(p.side()), p);
        }
        assert_eq!(Checker::Black.letter(), 'B');
        assert_eq!(Checker::Empty.letter(), '.');
    }
}
