//! Undo, Redo and New game on a game's [`History`], as the window does them: against the
//! computer a turn at a time (its reply goes with the person's move), between two people and
//! when the computer plays itself one move at a time.

use super::message::Action;
use crate::checker::Player;
use crate::error::MoveError;
use crate::history::History;
use crate::opponent::Opponent;
use crate::playable::Playable;

/// Does `action` (Undo, Redo or New game, with `first` to move first) on `game` against
/// `opponent`; false if there was nothing to take back or play again. An error leaves the
/// board unknown (see [`History::undo`]).
pub fn apply(
    action: Action,
    (history, game): (&mut History, &mut impl Playable),
    opponent: Opponent,
    first: Option<Player>,
) -> Result<bool, MoveError> {
    let one_by_one = opponent == Opponent::ComputerVsComputer;
    match action {
        Action::NewGame => {
            history.new_game(game, first);
            Ok(true)
        }
        Action::Undo if one_by_one => Ok(history.undo(game)?.is_some()),
        Action::Undo => Ok(!history.undo_turn(game, opponent)?.is_empty()),
        Action::Redo if one_by_one => Ok(history.redo(game)?.is_some()),
        Action::Redo => Ok(!history.redo_turn(game, opponent)?.is_empty()),
        Action::Drop(_) | Action::Stop => Ok(false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checker::Checker;
    use crate::tiny_game::TinyGame;

    /// A 4 x 4 game that red began, after `cols`.
    fn played(cols: &[usize]) -> (History, TinyGame) {
        let mut game = TinyGame::new(4, 4, Player::Red);
        let mut history = History::new();
        for &col in cols {
            history.play(&mut game, col).unwrap();
        }
        (history, game)
    }

    #[test]
    fn the_computer_playing_itself_is_taken_back_one_move_at_a_time() {
        let (mut history, mut game) = played(&[0, 1, 2]);
        let both = Opponent::ComputerVsComputer;
        let undo = apply(Action::Undo, (&mut history, &mut game), both, None);
        assert_eq!(undo, Ok(true));
        assert_eq!(history.moves(), [0, 1]);
        let redo = apply(Action::Redo, (&mut history, &mut game), both, None);
        assert_eq!(redo, Ok(true));
        assert_eq!(history.moves(), [0, 1, 2]);
    }

    #[test]
    fn against_the_computer_a_turn_is_taken_back_and_nothing_left_says_so() {
        let (mut history, mut game) = played(&[0, 1]);
        let computer = Opponent::Computer;
        let mut undo = || apply(Action::Undo, (&mut history, &mut game), computer, None);
        assert_eq!(undo(), Ok(true));
        assert_eq!(undo(), Ok(false));
        assert_eq!(game.turn(), Checker::Red);
    }
}
