//! The value of a move, as the heuristic and minimax give it, with infinity for a win.
//!
//! Values are whole numbers; a win is +infinity (`i32::MAX`) and a certain loss -infinity
//! (`-i32::MAX`, so that negation never overflows). They print as integers, `inf` or `-inf`,
//! which is also how the grading protocol writes them.

use std::fmt;
use std::str::FromStr;

/// A move's value for the player who made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Score(pub i32);

impl Score {
    /// +infinity: the move wins.
    pub const WIN: Score = Score(i32::MAX);
    /// -infinity: the move loses against best play.
    pub const LOSS: Score = Score(-i32::MAX);
}

/// A value for the other player: `-Score::WIN` is `Score::LOSS`, `-Score(4)` is `Score(-4)`.
impl std::ops::Neg for Score {
    type Output = Score;

    fn neg(self) -> Score {
        Score(self.0.saturating_neg())
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Score::WIN => f.write_str("inf"),
            Score::LOSS => f.write_str("-inf"),
            Score(v) => write!(f, "{v}"),
        }
    }
}

/// The error of parsing a value that is neither an integer nor `inf`/`-inf`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseScoreError(pub String);

impl fmt::Display for ParseScoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a value: expected an integer, inf or -inf",
            self.0
        )
    }
}

impl std::error::Error for ParseScoreError {}

impl FromStr for Score {
    type Err = ParseScoreError;

    /// Parses what `Display` writes: an integer, `inf` or `-inf` (also `+inf`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "inf" | "+inf" => Ok(Score::WIN),
            "-inf" => Ok(Score::LOSS),
            _ => s
                .parse::<i32>()
                .ok()
                .filter(|v| (-i32::MAX..i32::MAX).contains(v))
                .map(Score)
                .ok_or_else(|| ParseScoreError(s.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_and_parses_infinities_and_integers() {
        for (score, text) in [
            (Score::WIN, "inf"),
            (Score::LOSS, "-inf"),
            (Score(-19), "-19"),
        ] {
            assert_eq!(score.to_string(), text);
            assert_eq!(text.parse::<Score>(), Ok(score));
        }
        assert!("1e3".parse::<Score>().is_err());
        assert!(i32::MIN.to_string().parse::<Score>().is_err());
    }

    #[test]
    fn a_win_outranks_everything_and_a_loss_nothing() {
        assert!(Score::WIN > Score(1_000_000) && Score::LOSS < Score(-1_000_000));
    }

    #[test]
    fn negation_turns_a_value_into_the_other_player_s() {
        assert_eq!(-Score::WIN, Score::LOSS);
        assert_eq!(-Score::LOSS, Score::WIN);
        assert_eq!(-Score(4), Score(-4));
        assert_eq!(-Score(0), Score(0));
        assert_eq!(-Score(i32::MIN), Score::WIN, "no overflow");
    }
}
