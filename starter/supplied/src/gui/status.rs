//! The words under the board: what is going on (whose turn, the computer thinking, the hint
//! being worked out, the result) and why a click changed nothing. Plain functions of the
//! game's state, so they are tested without a display.

use std::time::Duration;

use super::message::Action;
use crate::checker::Player;
use crate::opponent::{sentence, Opponent};
use crate::playable::Outcome;

/// Searches shorter than this show no clock, so quick replies do not flicker a number.
pub const SHOW_CLOCK_AFTER: Duration = Duration::from_secs(1);

/// What the game is doing, as far as the label is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// `player` is to move and the window waits for a click (or, for the computer, a search).
    ToMove(Player),
    /// The computer has searched for `player`'s move for `elapsed` so far.
    Thinking(Player, Duration),
    /// The hint's values have been worked out for `elapsed` so far.
    Hinting(Duration),
    /// A search is being stopped (or waited for) to do what the person asked.
    Waiting(Action),
    /// The computer plays both sides, and the person has stopped it; `player` is to move.
    Paused(Player),
    /// The game has ended.
    Over(Outcome),
    /// The computer player failed and cannot move.
    Stuck,
}

/// Why a click on the board changed nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The column clicked has no room.
    ColumnFull,
    /// The computer is searching; clicks wait for it.
    Thinking,
    /// The game has ended.
    GameOver,
    /// It is the computer's move, not the person's.
    ComputersTurn,
    /// Undo with no move to take back.
    NothingToUndo,
    /// Redo with no move taken back.
    NothingToRedo,
    /// A move failed with this error message (from [`MoveError`](crate::MoveError)).
    Error(String),
}

/// The label for `phase` when playing against `opponent`.
pub fn describe(phase: Phase, opponent: Opponent) -> String {
    let clock = |elapsed: Duration| {
        if elapsed >= SHOW_CLOCK_AFTER {
            format!(" {} s", elapsed.as_secs())
        } else {
            String::new()
        }
    };
    match phase {
        Phase::ToMove(player) if opponent.computer_plays(player) => {
            format!("The computer ({}) is about to move.", player.name())
        }
        Phase::ToMove(_) if opponent == Opponent::Computer => {
            "Your move (red): click a column.".to_string()
        }
        Phase::ToMove(player) => format!("{}'s move: click a column.", sentence(player.name())),
        Phase::Thinking(player, elapsed) => format!(
            "The computer ({}) is thinking...{}",
            player.name(),
            clock(elapsed)
        ),
        Phase::Hinting(elapsed) => {
            format!("Working out each column's value...{}", clock(elapsed))
        }
        Phase::Waiting(action) => match action {
            Action::Drop(_) => "Stopping the hint to drop the checker...",
            Action::Undo => "Taking the move back...",
            Action::Redo => "Playing the move again...",
            Action::NewGame => "Starting a new game...",
            Action::Stop => "Stopping the computers...",
        }
        .to_string(),
        Phase::Paused(player) => format!(
            "Stopped, {} to move: press Go on to watch the rest.",
            player.name()
        ),
        Phase::Over(outcome) => format!(
            "{} Press New game to play again.",
            opponent.announce(outcome)
        ),
        Phase::Stuck => {
            "The computer cannot move: press New game, or close the window.".to_string()
        }
    }
}

/// The whole label: why the last click changed nothing (`refusal`), that the hint's values,
/// worked out `hinted` plies deep, are shown, the phase against `opponent`, and last the
/// rising level's words (`level`, from [`Level::words`](crate::level::Level::words)).
pub fn label(
    phase: Phase,
    opponent: Opponent,
    hinted: Option<u32>,
    refusal: Option<&Refusal>,
    level: Option<String>,
) -> String {
    let hint = hinted.map(|depth| format!("Each open column shows its value at depth {depth}."));
    let sentences = [
        refusal.map(explain),
        hint,
        Some(describe(phase, opponent)),
        level,
    ];
    sentences
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The sentence that explains `refusal`, put before the description of the phase.
pub fn explain(refusal: &Refusal) -> String {
    match refusal {
        Refusal::ColumnFull => "That column is full: choose another.".to_string(),
        Refusal::Thinking => "Please wait for the computer's move.".to_string(),
        Refusal::GameOver => "The game is over.".to_string(),
        Refusal::ComputersTurn => "It is the computer's move.".to_string(),
        Refusal::NothingToUndo => "There is no move to take back.".to_string(),
        Refusal::NothingToRedo => "There is no move to play again.".to_string(),
        Refusal::Error(why) => format!("{}.", sentence(why)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whose_turn_depends_on_the_opponent() {
        assert_eq!(
            describe(Phase::ToMove(Player::Black), Opponent::Human),
            "Black's move: click a column."
        );
        assert_eq!(
            describe(Phase::ToMove(Player::Red), Opponent::Computer),
            "Your move (red): click a column."
        );
    }

    #[test]
    fn the_clock_shows_only_on_long_searches() {
        let short = describe(
            Phase::Thinking(Player::Black, Duration::from_millis(400)),
            Opponent::Computer,
        );
        assert_eq!(short, "The computer (black) is thinking...");
        let long = describe(
            Phase::Thinking(Player::Black, Duration::from_millis(3700)),
            Opponent::Computer,
        );
        assert_eq!(long, "The computer (black) is thinking... 3 s");
        let hint = describe(Phase::Hinting(Duration::from_secs(2)), Opponent::Human);
        assert_eq!(hint, "Working out each column's value... 2 s");
    }

    #[test]
    fn the_computer_against_itself_names_the_side_it_plays() {
        let both = Opponent::ComputerVsComputer;
        assert_eq!(
            describe(Phase::ToMove(Player::Red), both),
            "The computer (red) is about to move."
        );
        assert_eq!(
            describe(Phase::Thinking(Player::Red, Duration::ZERO), both),
            "The computer (red) is thinking..."
        );
        assert_eq!(
            describe(Phase::Paused(Player::Black), both),
            "Stopped, black to move: press Go on to watch the rest."
        );
        assert_eq!(
            describe(Phase::Waiting(Action::Stop), both),
            "Stopping the computers..."
        );
    }

    #[test]
    fn results_name_the_winner_or_the_tie() {
        let won = describe(Phase::Over(Outcome::Win(Player::Black)), Opponent::Human);
        assert_eq!(won, "Black wins! Press New game to play again.");
        let lost = describe(Phase::Over(Outcome::Win(Player::Black)), Opponent::Computer);
        assert!(lost.starts_with("The computer wins."), "{lost}");
        let tie = describe(Phase::Over(Outcome::Tie), Opponent::Computer);
        assert!(tie.starts_with("It's a tie"), "{tie}");
    }

    #[test]
    fn the_label_says_why_then_the_hint_then_the_phase() {
        let phase = Phase::ToMove(Player::Red);
        assert_eq!(
            label(phase, Opponent::Human, None, None, None),
            "Red's move: click a column."
        );
        assert_eq!(
            label(
                phase,
                Opponent::Human,
                Some(3),
                Some(&Refusal::GameOver),
                None
            ),
            "The game is over. Each open column shows its value at depth 3. \
             Red's move: click a column."
        );
        let level = Some("Level 2 (depth 6).".to_string());
        assert_eq!(
            label(phase, Opponent::Computer, None, None, level),
            "Your move (red): click a column. Level 2 (depth 6)."
        );
    }

    #[test]
    fn refusals_say_why() {
        assert_eq!(
            explain(&Refusal::ColumnFull),
            "That column is full: choose another."
        );
        assert_eq!(
            explain(&Refusal::Error("the computer player failed: boom".into())),
            "The computer player failed: boom."
        );
    }
}
