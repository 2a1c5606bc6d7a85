//! The computer's turn at the terminal: its search, which a line typed can interrupt when the
//! game offers a [`StopSignal`](crate::StopSignal), and the move it then plays.

use std::io::{self, Write};

use super::typed::Typed;
use crate::checker::Player;
use crate::history::History;
use crate::playable::Analyze;

/// The computer chooses a move for `player` and plays it. `true` if a line `typed` stopped the
/// search first (only a game with a stop signal can be stopped): nothing was played.
pub(super) fn computer_turn(
    typed: &Typed,
    game: &mut impl Analyze,
    history: &mut History,
    player: Player,
    output: &mut impl Write,
) -> io::Result<bool> {
    writeln!(output, "The computer ({player}) is thinking...")?;
    let (choice, stopped) = typed.interruptible(game.stop_signal(), || game.computer_move());
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

#[cfg(test)]
mod tests {
    use std::io::{self, Read};
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    use std::thread;
    use std::time::{Duration, Instant};

    use super::super::testing::{game, session, session_with};
    use crate::checker::{Checker, Player};
    use crate::hooked::Hooked;
    use crate::opponent::Opponent;
    use crate::playable::Playable;
    use crate::protocol::board_rows;
    use crate::stop::StopSignal;
    use crate::tiny_game::TinyGame;

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

    impl Read for Held {
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
        let start = Instant::now();
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
