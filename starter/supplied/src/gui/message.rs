//! What can happen in the window: every click, key, timer and finished worker becomes a
//! [`Message`] on fltk's channel, handled in order on the GUI thread, so the window's state
//! changes in one place only.

use std::time::Duration;

use fltk::app::{self, Sender};

/// Where a key moves the keyboard's column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aim {
    /// One column to the left (stays at the left edge).
    Left,
    /// One column to the right (stays at the right edge).
    Right,
    /// The leftmost column.
    First,
    /// The rightmost column.
    Last,
}

impl Aim {
    /// The column aimed at from column `selected` on a board `cols` wide; with none selected
    /// yet, the middle column, whatever the aim.
    pub fn from(self, selected: Option<usize>, cols: usize) -> usize {
        let last = cols.saturating_sub(1);
        match (selected, self) {
            (None, _) => last / 2,
            (Some(col), Aim::Left) => col.saturating_sub(1),
            (Some(col), Aim::Right) => (col + 1).min(last),
            (Some(_), Aim::First) => 0,
            (Some(_), Aim::Last) => last,
        }
    }
}

/// What happens in the window, in the order it happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Message {
    /// A click on a cell of this column.
    Drop(usize),
    /// A digit key: choose this column and drop in it.
    Choose(usize),
    /// An arrow key (or Home, End): move the keyboard's column.
    Select(Aim),
    /// Enter, space or the down arrow: drop in the keyboard's column.
    DropSelected,
    /// A click on New game.
    NewGame,
    /// A click on Undo (or Ctrl+Z).
    Undo,
    /// A click on Redo (or Ctrl+Y).
    Redo,
    /// A click on Hint (or the H key).
    Hint,
    /// A click on Stop or Go on, in a game of the computer against itself.
    StopOrGoOn,
    /// The Animate box was ticked or cleared.
    Animation,
    /// The Adaptive box was ticked or cleared.
    Adaptive,
    /// The worker with this number has finished: it holds the game and its answer.
    Done(u64),
    /// A tick of the clock of the worker with this number.
    Tick(u64),
    /// Time for the next picture of the falling checker with this number.
    Frame(u64),
    /// The pause before the computer's next move in a game against itself is over; the
    /// number tells stale pauses apart.
    Resume(u64),
}

/// Posts `message` on `sender` after `delay`, from an fltk timer on the GUI thread.
pub fn post_after(delay: Duration, sender: Sender<Message>, message: Message) {
    app::add_timeout3(delay.as_secs_f64(), move |_| sender.send(message));
}

/// What the person asked for while a worker had the game: done once it hands the game back,
/// its answer then thrown away.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Drop in this column (asked during the hint's search).
    Drop(usize),
    /// Take back the last move (or turn).
    Undo,
    /// Play again what Undo took back.
    Redo,
    /// Start a new game.
    NewGame,
    /// Stop the computers' game.
    Stop,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aims_stay_on_the_board_and_start_in_the_middle() {
        assert_eq!(Aim::Right.from(None, 7), 3);
        assert_eq!(Aim::Left.from(Some(0), 7), 0);
        assert_eq!(Aim::Right.from(Some(6), 7), 6);
        assert_eq!(Aim::Right.from(Some(2), 7), 3);
        assert_eq!(Aim::Last.from(Some(2), 32), 31);
        assert_eq!(Aim::First.from(Some(2), 32), 0);
    }
}
