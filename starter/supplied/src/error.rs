//! Why a move (or a question about one) was refused: the error type of [`Playable`] and
//! [`Analyze`]. The protocol answers each kind differently, so a game must tell them apart.
//!
//! [`Playable`]: crate::Playable
//! [`Analyze`]: crate::Analyze

use std::fmt;

/// Why a move was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The column is not on the board.
    NoSuchColumn {
        /// The column asked for.
        col: usize,
        /// How many columns the board has.
        cols: usize,
    },
    /// The column has no empty cell left.
    ColumnFull {
        /// The column asked for.
        col: usize,
    },
    /// The game has ended: no move is accepted.
    GameOver,
    /// The computer player could not search (for example, a worker thread failed).
    EngineFailed(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::NoSuchColumn { col, cols } => {
                write!(f, "there is no column {col}: columns are 0 to {}", cols - 1)
            }
            MoveError::ColumnFull { col } => write!(f, "column {col} is full"),
            MoveError::GameOver => f.write_str("the game is over"),
            MoveError::EngineFailed(why) => write!(f, "the computer player failed: {why}"),
        }
    }
}

impl std::error::Error for MoveError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_column_and_the_range() {
        assert_eq!(
            MoveError::NoSuchColumn { col: 2, cols: 2 }.to_string(),
            "there is no column 2: columns are 0 to 1"
        );
        assert_eq!(
            MoveError::ColumnFull { col: 0 }.to_string(),
            "column 0 is full"
        );
    }
}
