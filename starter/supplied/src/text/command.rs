//! What a line typed at the move prompt means: a column number or one of the commands (undo,
//! redo, hint, quit), or an explanation of why it is neither.

/// One thing the player typed at the move prompt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Input {
    /// Drop a checker in this column (not yet checked against the board).
    Column(usize),
    /// Take back the last move (against the computer, its reply too).
    Undo,
    /// Play the moves taken back again.
    Redo,
    /// Show each column's minimax value.
    Hint,
    /// Stop playing.
    Quit,
}

/// The commands the move prompt accepts besides a column number.
const COMMANDS: &str = "u (undo), r (redo), hint or quit";

/// Reads what was typed at the move prompt; anything that is not a column number or a
/// command is explained.
pub(super) fn parse_input(line: &str) -> Result<Input, String> {
    let word = line.trim();
    match word.to_ascii_lowercase().as_str() {
        "" => Err(format!("Type a column number, {COMMANDS}.")),
        "q" | "quit" | "exit" => Ok(Input::Quit),
        "u" | "undo" => Ok(Input::Undo),
        "r" | "redo" => Ok(Input::Redo),
        "hint" => Ok(Input::Hint),
        _ => word.parse().map(Input::Column).map_err(|_| {
            format!("'{word}' is not a column number: type a column number, {COMMANDS}.")
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_is_a_column_or_a_command() {
        assert_eq!(parse_input(" 3\n"), Ok(Input::Column(3)));
        assert_eq!(parse_input("QUIT"), Ok(Input::Quit));
        assert_eq!(parse_input("u"), Ok(Input::Undo));
        assert_eq!(parse_input("Redo\n"), Ok(Input::Redo));
        assert_eq!(parse_input("hint"), Ok(Input::Hint));
        assert_eq!(
            parse_input("x"),
            Err(
                "'x' is not a column number: type a column number, u (undo), r (redo), hint or quit."
                    .to_string()
            )
        );
        assert!(parse_input("-1").is_err());
        assert!(parse_input("\n").is_err());
    }
}
