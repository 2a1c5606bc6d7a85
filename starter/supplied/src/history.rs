//! The moves of one game, so that a front end can take them back and play them again (undo and
//! redo) on any [`Playable`], without asking anything more of the game than the graded contract.
//!
//! A game cannot take a checker back, so undo starts the game again with the same first player
//! ([`Playable::new_game`]) and replays every move but the last ([`Playable::play`]); redo plays
//! the next move taken back. A front end plays every move through [`History::play`] and starts
//! every game through [`History::new_game`], so that the history always matches the board.

use crate::checker::Player;
use crate::error::MoveError;
use crate::opponent::Opponent;
use crate::playable::Playable;

/// The columns played since the game began, who moved first, and the moves taken back that
/// can be played again. It describes a game from its start: make it with [`new`](Self::new)
/// while the game's board is empty.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct History {
    /// Who moved first; known once a move was played.
    first: Option<Player>,
    /// The columns played, in order.
    played: Vec<usize>,
    /// The columns taken back, the next one to play again last.
    undone: Vec<usize>,
}

impl History {
    /// The history of a game nobody has moved in yet.
    pub fn new() -> History {
        History::default()
    }

    /// Starts a new game on `game` (`first` moves first, random if `None`) and forgets every
    /// move.
    pub fn new_game(&mut self, game: &mut impl Playable, first: Option<Player>) {
        game.new_game(first);
        *self = History::new();
    }

    /// Plays `col` for the player to move and records it, returning the row it landed in. A
    /// new move forgets the moves taken back. A refused move changes nothing.
    pub fn play(&mut self, game: &mut impl Playable, col: usize) -> Result<usize, MoveError> {
        let mover = game.turn().player().ok_or(MoveError::GameOver)?;
        let row = game.play(col)?;
        if self.played.is_empty() {
            self.first = Some(mover);
        }
        self.played.push(col);
        self.undone.clear();
        Ok(row)
    }

    /// The columns played, in order.
    pub fn moves(&self) -> &[usize] {
        &self.played
    }

    /// Whether there is a move to take back.
    pub fn can_undo(&self) -> bool {
        !self.played.is_empty()
    }

    /// Whether there is a move taken back to play again.
    pub fn can_redo(&self) -> bool {
        !self.undone.is_empty()
    }

    /// Takes back the last move and returns its column, or `None` (and changes nothing) if no
    /// move was played. An error means the game did not replay the moves it had accepted: its
    /// board is then unknown, and only a new game helps.
    pub fn undo(&mut self, game: &mut impl Playable) -> Result<Option<usize>, MoveError> {
        match self.played.len() {
            0 => Ok(None),
            len => Ok(self.take_back(game, len - 1)?.first().copied()),
        }
    }

    /// Plays the next move taken back again and returns its column, or `None` (and changes
    /// nothing) if there is none.
    pub fn redo(&mut self, game: &mut impl Playable) -> Result<Option<usize>, MoveError> {
        let Some(col) = self.undone.pop() else {
            return Ok(None);
        };
        if let Err(error) = game.play(col) {
            self.undone.push(col);
            return Err(error);
        }
        self.played.push(col);
        Ok(Some(col))
    }

    /// Undo against `opponent` as the classic programs do it: takes back moves until a person
    /// is to move again and at least one person's move was taken back, so that against the
    /// computer the computer's reply and the person's move go together. Returns the columns
    /// taken back, latest first; none (and no change) if no person has moved yet.
    pub fn undo_turn(
        &mut self,
        game: &mut impl Playable,
        opponent: Opponent,
    ) -> Result<Vec<usize>, MoveError> {
        let last_by_person =
            (0..self.played.len()).rfind(|&i| !opponent.computer_plays(self.mover(i)));
        match last_by_person {
            Some(keep) => self.take_back(game, keep),
            None => Ok(Vec::new()),
        }
    }

    /// Redo that matches [`undo_turn`](Self::undo_turn): plays moves taken back again, the next
    /// one and then every following one of the computer's, so that a person is to move again.
    /// Returns the columns played, in order; none if no move was taken back.
    pub fn redo_turn(
        &mut self,
        game: &mut impl Playable,
        opponent: Opponent,
    ) -> Result<Vec<usize>, MoveError> {
        let mut redone = Vec::new();
        while let Some(col) = self.redo(game)? {
            redone.push(col);
            if !opponent.computer_plays(self.mover(self.played.len())) {
                break;
            }
        }
        Ok(redone)
    }

    /// Who makes move number `index` (0 for the first move): the players take turns. Asked
    /// only once a move was played, when the first player is known.
    fn mover(&self, index: usize) -> Player {
        let first = self.first.unwrap_or(Player::Red);
        if index % 2 == 0 {
            first
        } else {
            first.opponent()
        }
    }

    /// Keeps the first `keep` moves, taking the rest back, and replays them on a new game.
    /// Returns the columns taken back, latest first.
    fn take_back(
        &mut self,
        game: &mut impl Playable,
        keep: usize,
    ) -> Result<Vec<usize>, MoveError> {
        let taken: Vec<usize> = self.played.drain(keep..).rev().collect();
        self.undone.extend(&taken);
        game.new_game(self.first);
        for &col in &self.played {
            game.play(col)?;
        }
        Ok(taken)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::checker::Checker;
    use crate::protocol::board_rows;
    use crate::tiny_game::TinyGame;

    /// A 4 x 4 game with `first` to move, and its history after playing `cols`.
    fn played(first: Player, cols: &[usize]) -> (TinyGame, History) {
        let mut game = TinyGame::new(4, 4, first);
        let mut history = History::new();
        for &col in cols {
            history.play(&mut game, col).unwrap();
        }
        (game, history)
    }

    fn board(game: &TinyGame) -> Vec<String> {
        board_rows(game).collect()
    }

    #[test]
    fn undo_takes_back_the_last_move_and_redo_plays_it_again() {
        let (mut game, mut history) = played(Player::Black, &[0, 1, 2]);
        let (before, _) = played(Player::Black, &[0, 1]);
        assert_eq!(history.undo(&mut game), Ok(Some(2)));
        assert_eq!(board(&game), board(&before));
        assert_eq!(game.turn(), Checker::Black);
        assert_eq!(history.moves(), [0, 1]);
        assert!(history.can_redo());
        assert_eq!(history.redo(&mut game), Ok(Some(2)));
        assert_eq!(history.moves(), [0, 1, 2]);
        assert_eq!(game.checker(3, 2), Checker::Black);
        assert_eq!(history.redo(&mut game), Ok(None));
    }

    #[test]
    fn undo_back_to_the_start_keeps_the_first_player() {
        let (mut game, mut history) = played(Player::Black, &[3, 3]);
        assert_eq!(history.undo(&mut game), Ok(Some(3)));
        assert_eq!(history.undo(&mut game), Ok(Some(3)));
        assert!(!history.can_undo());
        assert_eq!(game.turn(), Checker::Black);
        assert!(board(&game).iter().all(|row| row == "...."));
        assert_eq!(history.redo(&mut game), Ok(Some(3)));
        assert_eq!(game.checker(3, 3), Checker::Black);
    }

    #[test]
    fn nothing_to_undo_or_redo_changes_nothing() {
        let (mut game, mut history) = played(Player::Red, &[]);
        assert_eq!(history.undo(&mut game), Ok(None));
        assert_eq!(history.redo(&mut game), Ok(None));
        assert_eq!(history, History::new());
        assert_eq!(game.turn(), Checker::Red);
    }

    #[test]
    fn a_new_move_forgets_the_moves_taken_back_but_a_refused_one_does_not() {
        let (mut game, mut history) = played(Player::Red, &[0, 1]);
        history.undo(&mut game).unwrap();
        assert_eq!(
            history.play(&mut game, 9),
            Err(MoveError::NoSuchColumn { col: 9, cols: 4 })
        );
        assert!(history.can_redo());
        history.play(&mut game, 2).unwrap();
        assert!(!history.can_redo());
        assert_eq!(history.moves(), [0, 2]);
    }

    #[test]
    fn undo_reopens_a_finished_game() {
        let (mut game, mut history) = played(Player::Red, &[0, 1, 0, 1, 0, 1, 0]);
        assert!(game.is_over());
        assert_eq!(history.undo(&mut game), Ok(Some(0)));
        assert_eq!(game.outcome(), None);
        assert_eq!(game.turn(), Checker::Red);
    }

    #[test]
    fn a_new_game_forgets_every_move() {
        let (mut game, mut history) = played(Player::Red, &[0, 1]);
        history.undo(&mut game).unwrap();
        history.new_game(&mut game, Some(Player::Black));
        assert_eq!(history, History::new());
        assert_eq!(game.turn(), Checker::Black);
        assert!(board(&game).iter().all(|row| row == "...."));
    }

    #[test]
    fn against_the_computer_the_reply_and_the_person_s_move_go_together() {
        let computer = Opponent::Computer;
        let (mut game, mut history) = played(Player::Red, &[0, 1, 2, 3]);
        assert_eq!(history.undo_turn(&mut game, computer), Ok(vec![3, 2]));
        assert_eq!(history.moves(), [0, 1]);
        assert_eq!(game.turn(), Checker::Red);
        assert_eq!(history.redo_turn(&mut game, computer), Ok(vec![2, 3]));
        assert_eq!(history.moves(), [0, 1, 2, 3]);
        assert_eq!(game.turn(), Checker::Red);
    }

    #[test]
    fn against_the_computer_a_move_without_a_reply_goes_alone() {
        let (mut game, mut history) = played(Player::Black, &[0, 1, 2]);
        assert_eq!(
            history.undo_turn(&mut game, Opponent::Computer),
            Ok(vec![2, 1])
        );
        assert_eq!(history.moves(), [0]);
        assert_eq!(game.turn(), Checker::Red);
        let (mut won, mut history) = played(Player::Red, &[0, 1, 0, 1, 0, 1, 0]);
        assert_eq!(history.undo_turn(&mut won, Opponent::Computer), Ok(vec![0]));
        assert_eq!(won.turn(), Checker::Red);
    }

    #[test]
    fn the_computer_s_opening_alone_is_not_taken_back() {
        let (mut game, mut history) = played(Player::Black, &[3]);
        assert_eq!(history.undo_turn(&mut game, Opponent::Computer), Ok(vec![]));
        assert_eq!(history.moves(), [3]);
        assert_eq!(game.checker(3, 3), Checker::Black);
        let both = Opponent::ComputerVsComputer;
        assert_eq!(history.undo_turn(&mut game, both), Ok(vec![]));
    }

    #[test]
    fn between_two_people_undo_turn_takes_back_one_move() {
        let human = Opponent::Human;
        let (mut game, mut history) = played(Player::Red, &[0, 1, 2]);
        assert_eq!(history.undo_turn(&mut game, human), Ok(vec![2]));
        assert_eq!(history.undo_turn(&mut game, human), Ok(vec![1]));
        assert_eq!(history.redo_turn(&mut game, human), Ok(vec![1]));
        assert_eq!(game.turn(), Checker::Red);
    }
}
