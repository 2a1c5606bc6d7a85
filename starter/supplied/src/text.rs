//! The terminal front end (`--text`): the same game as the window, for a machine without a
//! display. The board is drawn with its column numbers over it, moves are typed as column
//! numbers, and the computer (if chosen) plays black, or both sides while people watch. At the
//! prompt `u` takes moves back, `r` plays them again and `hint` shows each column's minimax
//! value; `u` also works once a game has ended, as the window's Undo does (optional extras for
//! students: not graded).
//!
//! Lines are read on a thread of their own ([`Typed`]), so that a line typed while the
//! computer plays itself is seen at once: it stops the watching, and interrupts a search of a
//! game that offers a [`StopSignal`].

use std::io::{self, BufRead, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::Duration;

use crate::checker::{Checker, Player};
use crate::error::MoveError;
use crate::history::History;
use crate::input::{read_line, Line};
use crate::opponent::{sentence, Opponent};
use crate::playable::{Analyze, Playable};
use crate::protocol::{board_rows, value_text};
use crate::stop::StopSignal;

/// One thing the player typed at the move prompt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Input {
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

/// What the game loop does after a line typed was handled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Next {
    /// The board changed: draw it and go on.
    Board,
    /// Nothing changed: ask again.
    Ask,
    /// Stop playing.
    Quit,
}

/// Plays games on `input` and `output` until the player quits, declines a new game or input
/// ends; a game taken back after its end goes on. `opponent` is asked for first if it is
/// `None`; `first` moves first in each new game (random if `None`); `pause` is the wait between
/// moves when the computer plays itself. Fails only if reading or writing fails, or if the
/// computer cannot move.
pub fn run(
    game: &mut impl Analyze,
    opponent: Option<Opponent>,
    first: Option<Player>,
    pause: Duration,
    input: impl BufRead + Send + 'static,
    mut output: impl Write,
) -> io::Result<()> {
    let typed = Typed::spawn(input);
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
        None => ask_opponent(&typed, &mut output)?,
    };
    if let Some(opponent) = opponent {
        let mut history = History::new();
        let table = Table {
            opponent,
            pause,
            typed: &typed,
        };
        while table.play_game(game, &mut history, &mut output)? {
            match table.ask_again(game, &mut history, &mut output)? {
                Again::NewGame => history.new_game(game, first),
                Again::GoOn => {}
                Again::Stop => break,
            }
        }
    }
    writeln!(output, "Goodbye.")
}

/// What the player chose at the end of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Again {
    /// Play a new game.
    NewGame,
    /// Moves were taken back: the same game goes on.
    GoOn,
    /// Stop playing.
    Stop,
}

/// What one session plays with: who plays whom, how fast the computer plays itself, and the
/// lines typed.
struct Table<'a> {
    opponent: Opponent,
    pause: Duration,
    typed: &'a Typed,
}

impl Table<'_> {
    /// Plays one game to its end (or until watching is stopped); `false` if the player quit or
    /// input ended first.
    fn play_game(
        &self,
        game: &mut impl Analyze,
        history: &mut History,
        output: &mut impl Write,
    ) -> io::Result<bool> {
        let watching = self.opponent == Opponent::ComputerVsComputer;
        if watching {
            writeln!(
                output,
                "The computer plays both sides, {} s between moves: press Enter to stop watching.",
                self.pause.as_secs_f64()
            )?;
        }
        loop {
            write!(output, "\n{}", draw_board(game))?;
            if let Some(outcome) = game.outcome() {
                writeln!(output, "{}", self.opponent.announce(outcome))?;
                return Ok(true);
            }
            let Some(player) = game.turn().player() else {
                return Err(io::Error::other(
                    "the game has no player to move but has not ended",
                ));
            };
            if watching {
                let stopped = if self.typed.typed_within(self.pause)? {
                    true
                } else if self.computer_turn(game, history, player, output)? {
                    self.typed.next_line()?;
                    true
                } else {
                    false
                };
                if stopped {
                    writeln!(output, "Stopped watching.")?;
                    return Ok(true);
                }
            } else if self.opponent.computer_plays(player) {
                if self.computer_turn(game, history, player, output)? {
                    // A line typed stopped the search: it is handled as at the prompt.
                    match self.typed.next_line()? {
                        None => return Ok(false),
                        Some(Line::TooLong) => writeln!(output, "That line is too long.")?,
                        Some(Line::Text(line)) => {
                            if self.handle(game, history, &line, true, output)? == Next::Quit {
                                return Ok(false);
                            }
                        }
                    }
                }
            } else if !self.person_turn(game, history, player, output)? {
                return Ok(false);
            }
        }
    }

    /// The computer chooses a move for `player` and plays it. `true` if a line typed stopped the
    /// search first (only a game with a [`StopSignal`] can be stopped): nothing was played.
    fn computer_turn(
        &self,
        game: &mut impl Analyze,
        history: &mut History,
        player: Player,
        output: &mut impl Write,
    ) -> io::Result<bool> {
        writeln!(output, "The computer ({player}) is thinking...")?;
        let (choice, stopped) = self
            .typed
            .interruptible(game.stop_signal(), || game.computer_move());
        if stopped {
            return Ok(true);
        }
        let col = choice
            .and_then(|col| history.play(game, col).map(|_| col))
            .map_err(|error| io::Error::other(error.to_string()))?;
        writeln!(
            output,
            "The computer ({player}) drops a checker in column {col}."
        )?;
        Ok(false)
    }

    /// Asks `player` (a person) for a move until the board changes; `false` to stop playing.
    fn person_turn(
        &self,
        game: &mut impl Analyze,
        history: &mut History,
        player: Player,
        output: &mut impl Write,
    ) -> io::Result<bool> {
        let who = match self.opponent {
            Opponent::Computer => format!("Your move ({player})"),
            Opponent::Human | Opponent::ComputerVsComputer => {
                format!("{} to move", sentence(player.name()))
            }
        };
        let prompt = format!(
            "{who}, column 0 to {} (u: undo, r: redo, hint, quit): ",
            game.cols() - 1
        );
        loop {
            let Some(line) = ask(self.typed, output, &prompt)? else {
                return Ok(false);
            };
            match self.handle(game, history, &line, false, output)? {
                Next::Board => return Ok(true),
                Next::Ask => {}
                Next::Quit => return Ok(false),
            }
        }
    }

    /// Does what `line` asks; `computers_turn` if the computer is to move (a column is then
    /// refused).
    fn handle(
        &self,
        game: &mut impl Analyze,
        history: &mut History,
        line: &str,
        computers_turn: bool,
        output: &mut impl Write,
    ) -> io::Result<Next> {
        match parse_input(line) {
            Err(why) => writeln!(output, "{why}")?,
            Ok(Input::Quit) => return Ok(Next::Quit),
            Ok(Input::Column(_)) if computers_turn => {
                writeln!(output, "It is the computer's move: wait for it.")?;
                return Ok(Next::Board);
            }
            Ok(Input::Column(col)) => match history.play(game, col) {
                Ok(_) => return Ok(Next::Board),
                Err(error) => writeln!(
                    output,
                    "{}: choose another column.",
                    sentence(&error.to_string())
                )?,
            },
            Ok(Input::Undo) => {
                if self.undo(game, history, output)? {
                    return Ok(Next::Board);
                }
            }
            Ok(Input::Redo) => {
                let redone = history
                    .redo_turn(game, self.opponent)
                    .map_err(|error| failed("playing the move again", error))?;
                if !redone.is_empty() {
                    writeln!(output, "Played {} again.", moves_in(&redone))?;
                    return Ok(Next::Board);
                }
                writeln!(output, "Nothing to redo.")?;
            }
            Ok(Input::Hint) => writeln!(output, "{}", hint(game))?,
        }
        Ok(if computers_turn {
            Next::Board
        } else {
            Next::Ask
        })
    }

    /// Takes back the last turn ([`History::undo_turn`]: against the computer, its reply and
    /// the person's move together) and says what was taken back, or why nothing was; `true` if
    /// the board changed.
    fn undo(
        &self,
        game: &mut impl Playable,
        history: &mut History,
        output: &mut impl Write,
    ) -> io::Result<bool> {
        let taken = history
            .undo_turn(game, self.opponent)
            .map_err(|error| failed("taking the move back", error))?;
        if taken.is_empty() {
            writeln!(output, "{}", nothing_to_undo(history))?;
            return Ok(false);
        }
        writeln!(output, "Took back {}.", moves_in(&taken))?;
        Ok(true)
    }

    /// Offers a new game at the end of one and, when a person plays, undo too: the game then
    /// goes on from the moves kept, as after the window's Undo. [`Again::Stop`] for no, quit or
    /// the end of input.
    fn ask_again(
        &self,
        game: &mut impl Playable,
        history: &mut History,
        output: &mut impl Write,
    ) -> io::Result<Again> {
        let undo = self.opponent != Opponent::ComputerVsComputer;
        let (prompt, answers) = if undo {
            (
                "Play again? (y/n, u: undo) ",
                "y or n, or u to take back the last move",
            )
        } else {
            ("Play again? (y/n) ", "y or n")
        };
        loop {
            let Some(line) = ask(self.typed, output, prompt)? else {
                return Ok(Again::Stop);
            };
            match line.trim().to_ascii_lowercase().as_str() {
                "y" | "yes" => return Ok(Again::NewGame),
                "n" | "no" | "q" | "quit" | "exit" => return Ok(Again::Stop),
                "u" | "undo" if undo => {
                    if self.undo(game, history, output)? {
                        return Ok(Again::GoOn);
                    }
                }
                _ => writeln!(output, "Please answer {answers}.")?,
            }
        }
    }
}

/// The error that ends the session when taking moves back or playing them again (`what`)
/// fails: the game did not replay the moves it had accepted, so its board is unknown.
fn failed(what: &str, error: MoveError) -> io::Error {
    io::Error::other(format!("{what} failed: {error}"))
}

/// Why undo took nothing back: no move yet, or (against the computer) only its opening move.
fn nothing_to_undo(history: &History) -> &'static str {
    if history.can_undo() {
        "Nothing to undo: you have not moved yet."
    } else {
        "Nothing to undo: no move has been played."
    }
}

/// `the move in column 3`, or `the moves in columns 5 and 2`.
fn moves_in(cols: &[usize]) -> String {
    let plural = if cols.len() == 1 { "" } else { "s" };
    format!("the move{plural} in {}", columns(cols))
}

/// `column 3`, `columns 5 and 2`, or `columns 0, 1 and 2`.
fn columns(cols: &[usize]) -> String {
    match cols {
        [] => "no column".to_string(),
        [col] => format!("column {col}"),
        [rest @ .., last] => {
            let rest: Vec<String> = rest.iter().map(usize::to_string).collect();
            format!("columns {} and {last}", rest.join(", "))
        }
    }
}

/// Each column's minimax value for the player to move at the game's depth, in a line under the
/// column numbers (as wide as the widest value needs), and the best columns; or why not.
fn hint(game: &mut impl Analyze) -> String {
    let Some(player) = game.turn().player() else {
        return "The game is over: there is nothing to hint.".to_string();
    };
    let depth = game.depth();
    let scores = match game.scores(depth) {
        Ok(scores) => scores,
        Err(error) => return format!("No hint: {error}."),
    };
    let shown: Vec<String> = scores.iter().map(|&score| value_text(score)).collect();
    let width = shown.iter().map(String::len).max().unwrap_or(0).max(2) + 1;
    let numbers: String = (0..shown.len())
        .map(|col| format!("{col:>width$}"))
        .collect();
    let values: String = shown
        .iter()
        .map(|value| format!("{value:>width$}"))
        .collect();
    let best = scores.iter().flatten().max();
    let best_cols: Vec<usize> = (0..scores.len())
        .filter(|&col| best.is_some() && scores[col].as_ref() == best)
        .collect();
    format!(
        "Each column's minimax value for {player} at depth {depth} (higher is better, - is full):\n\
         {numbers}\n{values}\nBest: {}.",
        columns(&best_cols)
    )
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

/// Reads what was typed at the move prompt; anything that is not a column number or a
/// command is explained.
fn parse_input(line: &str) -> Result<Input, String> {
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

/// The commands the move prompt accepts besides a column number.
const COMMANDS: &str = "u (undo), r (redo), hint or quit";

/// Asks who plays until the answer makes sense; `None` to quit.
fn ask_opponent(typed: &Typed, output: &mut impl Write) -> io::Result<Option<Opponent>> {
    loop {
        let Some(line) = ask(
            typed,
            output,
            "Play against a (h)uman or the (c)omputer, or (w)atch the computer play itself? ",
        )?
        else {
            return Ok(None);
        };
        match line.trim().to_ascii_lowercase().as_str() {
            "h" | "human" => return Ok(Some(Opponent::Human)),
            "c" | "computer" => {
                writeln!(output, "You play red; the computer plays black.")?;
                return Ok(Some(Opponent::Computer));
            }
            "w" | "watch" => return Ok(Some(Opponent::ComputerVsComputer)),
            "q" | "quit" | "exit" => return Ok(None),
            _ => writeln!(
                output,
                "Please type h for a human, c for the computer or w to watch (or quit)."
            )?,
        }
    }
}

/// Writes `prompt` and reads one line; `None` at the end of input. An over-long line is
/// refused and asked again, so any input gets an answer.
fn ask(typed: &Typed, output: &mut impl Write, prompt: &str) -> io::Result<Option<String>> {
    loop {
        write!(output, "{prompt}")?;
        output.flush()?;
        match typed.next_line()? {
            None => {
                writeln!(output)?;
                return Ok(None);
            }
            Some(Line::Text(line)) => return Ok(Some(line)),
            Some(Line::TooLong) => writeln!(output, "That line is too long.")?,
        }
    }
}

/// The lines typed, read ahead on a thread of their own (bytes that are not UTF-8 replaced,
/// over-long lines marked, as [`read_line`] does), so that the game can wait for a line with a
/// time limit, and a line typed during a search can stop it.
struct Typed {
    /// The lines read, in order; closed at the end of input (or after a failed read).
    lines: Receiver<io::Result<Line>>,
    /// The stop signal of the search under way, if it can be stopped: the reading thread
    /// raises it (once) when the next line comes.
    search: Arc<Mutex<Option<StopSignal>>>,
}

impl Typed {
    /// Starts reading `input` on a thread of its own. The thread ends at the end of input, or
    /// with the program if it is still waiting for a line then.
    fn spawn(mut input: impl BufRead + Send + 'static) -> Typed {
        let (sender, lines) = mpsc::channel();
        let search = Arc::new(Mutex::new(None::<StopSignal>));
        let to_stop = Arc::clone(&search);
        thread::spawn(move || {
            while let Some(line) = read_line(&mut input).transpose() {
                let failed = line.is_err();
                if let Some(signal) = to_stop
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .take()
                {
                    signal.raise();
                }
                if sender.send(line).is_err() || failed {
                    break;
                }
            }
        });
        Typed { lines, search }
    }

    /// The next line, waiting for it; `None` at the end of input.
    fn next_line(&self) -> io::Result<Option<Line>> {
        self.lines.recv().ok().transpose()
    }

    /// Waits `pause` for a line: `true` (and the line is used up) if one came. After the end
    /// of input, nobody can type: it just waits.
    fn typed_within(&self, pause: Duration) -> io::Result<bool> {
        match self.lines.recv_timeout(pause) {
            Ok(line) => line.map(|_| true),
            Err(RecvTimeoutError::Timeout) => Ok(false),
            Err(RecvTimeoutError::Disconnected) => {
                thread::sleep(pause);
                Ok(false)
            }
        }
    }

    /// Runs `search`, which watches `signal` (cleared first), so that the next line typed
    /// raises it. Returns what `search` returned and whether the signal was raised: the line
    /// that raised it is still to be read.
    fn interruptible<T>(
        &self,
        signal: Option<StopSignal>,
        search: impl FnOnce() -> T,
    ) -> (T, bool) {
        let slot = || self.search.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(signal) = &signal {
            signal.clear();
        }
        *slot() = signal.clone();
        let result = search();
        *slot() = None;
        (result, signal.is_some_and(|signal| signal.is_raised()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use std::sync::atomic::{AtomicUsize, Ordering};

    use crate::tiny_game::{Hooked, TinyGame};

    fn game(rows: usize, cols: usize) -> TinyGame {
        TinyGame::new(rows, cols, Player::Red)
    }

    /// Runs a session with `typed` as the input, red first and no pause, and returns
    /// everything written.
    fn session(game: &mut TinyGame, opponent: Option<Opponent>, typed: &str) -> String {
        let typed = io::Cursor::new(typed.as_bytes().to_vec());
        session_with(game, opponent, Player::Red, Duration::ZERO, typed)
    }

    /// Runs a session with `first` to move first in each game and `pause` between the moves
    /// of a computer playing itself, and returns everything written.
    fn session_with<G: Analyze>(
        game: &mut G,
        opponent: Option<Opponent>,
        first: Player,
        pause: Duration,
        typed: impl BufRead + Send + 'static,
    ) -> String {
        let mut output = Vec::new();
        run(game, opponent, Some(first), pause, typed, &mut output).unwrap();
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

    #[test]
    fn a_whole_game_between_two_people() {
        let mut game = game(6, 7);
        let out = session(&mut game, Some(Opponent::Human), "0\n1\n0\n1\n0\n1\n0\nn\n");
        assert!(out.contains("Red wins!"), "{out}");
        assert!(out.contains("Play again? (y/n, u: undo) "), "{out}");
        assert!(out.ends_with("Goodbye.\n"), "{out}");
    }

    #[test]
    fn undo_after_a_win_takes_the_winning_move_back_and_the_game_goes_on() {
        let mut game = game(6, 7);
        let out = session(
            &mut game,
            Some(Opponent::Human),
            "0\n1\n0\n1\n0\n1\n0\nmaybe\nu\n2\nquit\n",
        );
        assert!(
            out.contains(
                "Red wins!\nPlay again? (y/n, u: undo) \
                 Please answer y or n, or u to take back the last move.\n\
                 Play again? (y/n, u: undo) Took back the move in column 0.\n"
            ),
            "{out}"
        );
        // The board is drawn again with red's winning checker gone, and play goes on.
        let after = out.split("Took back").nth(1).unwrap();
        let board = format!(
            "  .  .  .  .  .  .  .\n{}Red to move",
            "  R  B  .  .  .  .  .\n".repeat(3)
        );
        assert!(after.contains(&board), "{after}");
        assert!(after.contains("Black to move"), "{after}");
        assert_eq!(game.outcome(), None);
        assert_eq!(game.checker(2, 0), Checker::Empty);
        assert_eq!(game.checker(5, 2), Checker::Red);
        assert_eq!(game.turn(), Checker::Black);
    }

    #[test]
    fn undo_after_the_computer_wins_takes_back_its_move_and_yours() {
        // The tiny computer drops in the leftmost open column: black fills column 0 and wins.
        let mut game = game(4, 4);
        let out = session(&mut game, Some(Opponent::Computer), "3\n3\n3\n2\nu\nquit\n");
        assert!(
            out.contains(
                "The computer wins.\nPlay again? (y/n, u: undo) \
                 Took back the moves in columns 0 and 2.\n"
            ),
            "{out}"
        );
        assert!(
            out.ends_with(
                "Your move (red), column 0 to 3 (u: undo, r: redo, hint, quit): Goodbye.\n"
            ),
            "{out}"
        );
        assert_eq!(game.outcome(), None);
        assert_eq!(
            board_rows(&game).collect::<Vec<_>>(),
            ["....", "B..R", "B..R", "B..R"]
        );
        assert_eq!(game.turn(), Checker::Red);
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
            out.contains("Please type h for a human, c for the computer or w to watch"),
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
                Duration::ZERO,
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

    #[test]
    fn undo_and_redo_between_two_people_go_one_move_at_a_time() {
        let mut game = game(4, 4);
        let out = session(
            &mut game,
            Some(Opponent::Human),
            "0\n1\nu\nr\nu\nundo\nu\nquit\n",
        );
        for said in [
            "Took back the move in column 1.\n",
            "Played the move in column 1 again.\n",
            "Took back the move in column 0.\n",
            "Nothing to undo: no move has been played.\n",
        ] {
            assert!(out.contains(said), "{said}\n{out}");
        }
        assert!(board_rows(&game).all(|row| row == "...."));
        assert_eq!(game.turn(), Checker::Red);
    }

    #[test]
    fn against_the_computer_undo_takes_back_its_reply_too() {
        let mut game = game(4, 4);
        let out = session(&mut game, Some(Opponent::Computer), "1\nu\nr\nu\nquit\n");
        assert!(
            out.contains("Took back the moves in columns 0 and 1.\n"),
            "{out}"
        );
        assert!(
            out.contains("Played the moves in columns 1 and 0 again.\n"),
            "{out}"
        );
        assert!(board_rows(&game).all(|row| row == "...."));
        assert_eq!(game.turn(), Checker::Red);
    }

    #[test]
    fn the_computer_s_opening_move_is_not_taken_back_alone() {
        let mut game = TinyGame::new(4, 4, Player::Black);
        let typed = io::Cursor::new(b"u\nr\nquit\n".to_vec());
        let out = session_with(
            &mut game,
            Some(Opponent::Computer),
            Player::Black,
            Duration::ZERO,
            typed,
        );
        assert!(
            out.contains("Nothing to undo: you have not moved yet.\nYour move (red)"),
            "{out}"
        );
        assert!(out.contains("Nothing to redo.\n"), "{out}");
        assert_eq!(game.checker(3, 0), Checker::Black);
    }

    #[test]
    fn a_hint_writes_each_column_s_value_under_its_number() {
        let mut game = game(2, 3);
        let out = session(&mut game, Some(Opponent::Human), "0\n0\nhint\nquit\n");
        let expected = "Each column's minimax value for red at depth 1 \
                        (higher is better, - is full):\n  0  1  2\n  -  1  1\nBest: columns 1 and 2.\n";
        assert!(out.contains(expected), "{out}");
        assert_eq!(game.turn(), Checker::Red);
    }

    #[test]
    fn the_prompt_shows_the_commands() {
        let mut game = game(2, 3);
        let out = session(&mut game, Some(Opponent::Human), "quit\n");
        assert!(
            out.contains("Red to move, column 0 to 2 (u: undo, r: redo, hint, quit): "),
            "{out}"
        );
    }

    #[test]
    fn the_computer_plays_itself_to_the_end() {
        let mut game = game(1, 4);
        let out = session(&mut game, Some(Opponent::ComputerVsComputer), "");
        assert!(out.contains("press Enter to stop watching"), "{out}");
        assert!(
            out.contains("The computer (red) drops a checker in column 2."),
            "{out}"
        );
        assert!(
            out.contains("The computer (black) drops a checker in column 3."),
            "{out}"
        );
        assert!(out.contains("It's a tie"), "{out}");
        assert!(!out.contains("to move, column"), "{out}");
    }

    #[test]
    fn watching_stops_when_a_line_is_typed_during_the_pause() {
        let mut game = game(1, 4);
        let typed = io::Cursor::new(b"\nn\n".to_vec());
        let long = Duration::from_secs(60);
        let out = session_with(
            &mut game,
            Some(Opponent::ComputerVsComputer),
            Player::Red,
            long,
            typed,
        );
        assert!(
            out.contains("Stopped watching.\nPlay again? (y/n) "),
            "{out}"
        );
        assert!(!out.contains("drops a checker"), "{out}");
        assert!(out.ends_with("Goodbye.\n"), "{out}");
    }

    /// A 4 x 4 game, red first, whose computer thinks until it is stopped (10 s at most),
    /// counting its searches in `searches`.
    fn stubborn(searches: &Arc<AtomicUsize>) -> Hooked {
        let searches = Arc::clone(searches);
        let think = move |stop: Option<&StopSignal>| {
            searches.fetch_add(1, Ordering::SeqCst);
            wait_for(|| stop.is_some_and(StopSignal::is_raised));
            Ok(())
        };
        Hooked::new(
            TinyGame::new(4, 4, Player::Red),
            Some(StopSignal::new()),
            think,
        )
    }

    /// Typed input in chunks, as a person typing during the searches: chunk `k` comes once `k`
    /// searches have started (or 10 s have passed).
    struct Held {
        chunks: Vec<&'static str>,
        given: usize,
        current: &'static [u8],
        searches: Arc<AtomicUsize>,
    }

    impl io::Read for Held {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            while self.current.is_empty() && self.given < self.chunks.len() {
                wait_for(|| self.searches.load(Ordering::SeqCst) >= self.given);
                self.current = self.chunks[self.given].as_bytes();
                self.given += 1;
            }
            self.current.read(buf)
        }
    }

    /// Waits until `done` says so, 10 s at most.
    fn wait_for(done: impl Fn() -> bool) {
        let start = std::time::Instant::now();
        while !done() && start.elapsed() < Duration::from_secs(10) {
            thread::sleep(Duration::from_millis(1));
        }
    }

    /// A [`stubborn`] game against `opponent`, typed `chunks` (see [`Held`]): what was written,
    /// and the game.
    fn stopped_search(opponent: Opponent, chunks: &[&'static str]) -> (String, Hooked) {
        let searches = Arc::new(AtomicUsize::new(0));
        let mut game = stubborn(&searches);
        let typed = io::BufReader::new(Held {
            chunks: chunks.to_vec(),
            given: 0,
            current: &[],
            searches,
        });
        let out = session_with(
            &mut game,
            Some(opponent),
            Player::Red,
            Duration::ZERO,
            typed,
        );
        (out, game)
    }

    #[test]
    fn a_line_typed_during_the_search_stops_the_watching_at_once() {
        let (out, _) = stopped_search(Opponent::ComputerVsComputer, &["", "\nn\n"]);
        assert!(
            out.contains("The computer (red) is thinking...\nStopped watching.\n"),
            "{out}"
        );
        assert!(out.ends_with("Play again? (y/n) Goodbye.\n"), "{out}");
        assert!(!out.contains("drops a checker"), "{out}");
    }

    #[test]
    fn undo_typed_during_the_computer_s_search_stops_it_and_takes_back_the_move() {
        let (out, game) = stopped_search(Opponent::Computer, &["1\n", "u\nquit\n"]);
        assert!(
            out.contains("is thinking...\nTook back the move in column 1.\n"),
            "{out}"
        );
        assert!(!out.contains("drops a checker"), "{out}");
        assert!(board_rows(&game).all(|row| row == "...."));
        assert_eq!(game.turn(), Checker::Red);
    }

    #[test]
    fn a_column_typed_during_the_search_is_refused_and_the_search_starts_again() {
        let (out, _) = stopped_search(Opponent::Computer, &["1\n", "2\n", "u\nquit\n"]);
        assert!(
            out.contains("It is the computer's move: wait for it.\n"),
            "{out}"
        );
        assert!(out.contains("Took back the move in column 1.\n"), "{out}");
        assert_eq!(
            out.matches("The computer (black) is thinking...").count(),
            2,
            "{out}"
        );
    }
}
