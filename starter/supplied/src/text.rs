//! The terminal front end (`--text`): the same game as the window, for a machine without a
//! display. The board is drawn with its column numbers over it, moves are typed as column
//! numbers, and the computer (if chosen) plays black.

use std::io::{self, BufRead, Write};

use crate::checker::{Checker, Player};
use crate::input::{read_line, Line};
use crate::opponent::{sentence, Opponent};
use crate::playable::Playable;
use crate::protocol::board_rows;

/// One thing the player typed at the move prompt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Input {
    /// Drop a checker in this column (not yet checked against the board).
    Column(usize),
    /// Stop playing.
    Quit,
}

/// Plays games on `input` and `output` until the player quits, declines a new game or input
/// ends. `opponent` is asked for first if it is `None`; `first` moves first in each new game
/// (random if `None`). Fails only if reading or writing fails, or if the computer cannot move.
pub fn run(
    game: &mut impl Playable,
    opponent: Option<Opponent>,
    first: Option<Player>,
    mut input: impl BufRead,
    mut output: impl Write,
) -> io::Result<()> {
    writeln!(
        output,
        "Connect Four on a {} x {} board. Red plays {}, black plays {}.",
        game.rows(),
        game.cols(),
        Checker::Red.letter(),
        Checker::Black.letter()
    )?;
    let opponent = match opponent {
        Some(opponent) => Some(opponent),
        None => ask_opponent(&mut input, &mut output)?,
    };
    if let Some(opponent) = opponent {
        while play_game(game, opponent, &mut input, &mut output)?
            && ask_again(&mut input, &mut output)?
        {
            game.new_game(first);
        }
    }
    writeln!(output, "Goodbye.")
}

/// Plays one game to its end; `false` if the player quit or input ended first.
fn play_game(
    game: &mut impl Playable,
    opponent: Opponent,
    input: &mut impl BufRead,
    output: &mut impl Write,
) -> io::Result<bool> {
    loop {
        write!(output, "\n{}", draw_board(game))?;
        if let Some(outcome) = game.outcome() {
            writeln!(output, "{}", opponent.announce(outcome))?;
            return Ok(true);
        }
        let Some(player) = game.turn().player() else {
            return Err(io::Error::other(
                "the game has no player to move but has not ended",
            ));
        };
        if opponent.computer_plays(player) {
            writeln!(output, "The computer (black) is thinking...")?;
            let col = game
                .computer_move()
                .and_then(|col| game.play(col).map(|_| col))
                .map_err(|error| io::Error::other(error.to_string()))?;
            writeln!(
                output,
                "The computer (black) drops a checker in column {col}."
            )?;
            continue;
        }
        let prompt = match opponent {
            Opponent::Computer => {
                format!("Your move (red), column 0 to {} or quit: ", game.cols() - 1)
            }
            Opponent::Human | Opponent::ComputerVsComputer => format!(
                "{} to move, column 0 to {} or quit: ",
                sentence(player.name()),
                game.cols() - 1
            ),
        };
        loop {
            let Some(line) = ask(input, output, &prompt)? else {
                return Ok(false);
            };
            match parse_input(&line) {
                Ok(Input::Quit) => return Ok(false),
                Ok(Input::Column(col)) => match game.play(col) {
                    Ok(_) => break,
                    Err(error) => writeln!(
                        output,
                        "{}: choose another column.",
                        sentence(&error.to_string())
                    )?,
                },
                Err(why) => writeln!(output, "{why}")?,
            }
        }
    }
}

/// The board, one line per row under a line of column numbers, three characters a cell.
pub fn draw_board(game: &impl Playable) -> String {
    let mut text: String = (0..game.cols()).map(|col| format!("{col:>3}")).collect();
    text.push('\n');
    for row in board_rows(game) {
        text.extend(row.chars().map(|letter| format!("{letter:>3}")));
        text.push('\n');
    }
    text
}

/// Reads a move: a column number or `quit`; anything else is explained.
fn parse_input(line: &str) -> Result<Input, String> {
    let word = line.trim();
    match word.to_ascii_lowercase().as_str() {
        "" => Err("Type a column number, or quit.".to_string()),
        "q" | "quit" | "exit" => Ok(Input::Quit),
        _ => word.parse().map(Input::Column).map_err(|_| {
            format!("'{word}' is not a column number: type a column number, or quit.")
        }),
    }
}

/// Asks whether to play a human or the computer until the answer makes sense; `None` to quit.
fn ask_opponent(input: &mut impl BufRead, output: &mut impl Write) -> io::Result<Option<Opponent>> {
    loop {
        let Some(line) = ask(input, output, "Play against a (h)uman or the (c)omputer? ")? else {
            return Ok(None);
        };
        match line.trim().to_ascii_lowercase().as_str() {
            "h" | "human" => return Ok(Some(Opponent::Human)),
            "c" | "computer" => {
                writeln!(output, "You play red; the computer plays black.")?;
                return Ok(Some(Opponent::Computer));
            }
            "q" | "quit" | "exit" => return Ok(None),
            _ => writeln!(
                output,
                "Please type h for a human or c for the computer (or quit)."
            )?,
        }
    }
}

/// Offers a new game; `false` for no, quit or the end of input.
fn ask_again(input: &mut impl BufRead, output: &mut impl Write) -> io::Result<bool> {
    loop {
        let Some(line) = ask(input, output, "Play again? (y/n) ")? else {
            return Ok(false);
        };
        match line.trim().to_ascii_lowercase().as_str() {
            "y" | "yes" => return Ok(true),
            "n" | "no" | "q" | "quit" | "exit" => return Ok(false),
            _ => writeln!(output, "Please answer y or n.")?,
        }
    }
}

/// Writes `prompt` and reads one line; `None` at the end of input. Bytes that are not UTF-8
/// are replaced rather than refused, and an over-long line is refused and asked again, so any
/// input gets an answer.
fn ask(
    input: &mut impl BufRead,
    output: &mut impl Write,
    prompt: &str,
) -> io::Result<Option<String>> {
    loop {
        write!(output, "{prompt}")?;
        output.flush()?;
        match read_line(input)? {
            None => {
                writeln!(output)?;
                return Ok(None);
            }
            Some(Line::Text(line)) => return Ok(Some(line)),
            Some(Line::TooLong) => writeln!(output, "That line is too long.")?,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::tiny_game::TinyGame;

    fn game(rows: usize, cols: usize) -> TinyGame {
        TinyGame::new(rows, cols, Player::Red)
    }

    /// Runs a session with `typed` as the input and returns everything written.
    fn session(game: &mut TinyGame, opponent: Option<Opponent>, typed: &str) -> String {
        let mut output = Vec::new();
        run(
            game,
            opponent,
            Some(Player::Red),
            typed.as_bytes(),
            &mut output,
        )
        .unwrap();
        String::from_utf8(output).unwrap()
    }

    #[test]
    fn the_board_has_column_numbers_over_its_cells() {
        let mut game = game(2, 3);
        game.play(1).unwrap();
        game.play(1).unwrap();
        assert_eq!(draw_board(&game), "  0  1  2\n  .  B  .\n  .  R  .\n");
    }

    #[test]
    fn wide_boards_keep_columns_aligned() {
        let board = draw_board(&game(1, 12));
        let lines: Vec<&str> = board.lines().collect();
        assert!(lines[0].ends_with(" 10 11"), "{board}");
        assert_eq!(lines[0].len(), lines[1].len());
    }

    #[test]
    fn input_is_a_column_or_quit() {
        assert_eq!(parse_input(" 3\n"), Ok(Input::Column(3)));
        assert_eq!(parse_input("QUIT"), Ok(Input::Quit));
        assert_eq!(
            parse_input("x"),
            Err("'x' is not a column number: type a column number, or quit.".to_string())
        );
        assert!(parse_input("-1").is_err());
        assert!(parse_input("\n").is_err());
    }

    #[test]
    fn a_whole_game_between_two_people() {
        let mut game = game(6, 7);
        let out = session(&mut game, Some(Opponent::Human), "0\n1\n0\n1\n0\n1\n0\nn\n");
        assert!(out.contains("Red wins!"), "{out}");
        assert!(out.contains("Play again? (y/n)"), "{out}");
        assert!(out.ends_with("Goodbye.\n"), "{out}");
    }

    #[test]
    fn bad_moves_are_explained_and_the_turn_stays() {
        let mut game = game(1, 2);
        let out = session(&mut game, Some(Opponent::Human), "x\n5\n0\n0\nquit\n");
        assert!(out.contains("'x' is not a column number"), "{out}");
        assert!(
            out.contains("There is no column 5: columns are 0 to 1: choose another column."),
            "{out}"
        );
        assert!(
            out.contains("Column 0 is full: choose another column."),
            "{out}"
        );
        assert_eq!(game.checker(0, 0), Checker::Red);
        assert_eq!(game.turn(), Checker::Black);
    }

    #[test]
    fn the_opponent_is_asked_for_until_the_answer_makes_sense() {
        let mut game = game(4, 4);
        let out = session(&mut game, None, "maybe\nc\n");
        assert!(
            out.contains("Please type h for a human or c for the computer"),
            "{out}"
        );
        assert!(
            out.contains("You play red; the computer plays black."),
            "{out}"
        );
        assert!(out.ends_with("Goodbye.\n"), "{out}");
    }

    #[test]
    fn the_computer_answers_each_move() {
        let mut game = game(4, 4);
        let out = session(&mut game, Some(Opponent::Computer), "0\n");
        assert!(
            out.contains("The computer (black) drops a checker in column"),
            "{out}"
        );
        assert_eq!(game.turn(), Checker::Red);
    }

    #[test]
    fn new_games_start_with_the_player_asked_for() {
        for first in [Player::Red, Player::Black] {
            let mut game = game(1, 2);
            let mut output = Vec::new();
            let typed = "0\n1\ny\nquit\n".as_bytes();
            run(
                &mut game,
                Some(Opponent::Human),
                Some(first),
                typed,
                &mut output,
            )
            .unwrap();
            assert_eq!(game.turn(), first.checker());
        }
    }

    #[test]
    fn a_new_game_starts_on_an_empty_board() {
        let mut game = game(1, 4);
        let out = session(&mut game, Some(Opponent::Human), "0\n1\n2\n3\ny\nquit\n");
        assert!(out.contains("It's a tie: the board is full."), "{out}");
        assert!((0..4).all(|col| game.checker(0, col) == Checker::Empty));
    }
}
