//! The rising level (`--adaptive`), as in the classic applet: each time the person beats the
//! computer, it looks one ply deeper in the next game, up to [`CAP`]; a loss or a tie leaves it
//! where it is. The window and the terminal each keep one [`Level`], change the game's depth
//! through [`Analyze::set_depth`] only as a new game starts, and say the level in the words here.

use crate::opponent::Opponent;
use crate::playable::{Analyze, Outcome};

/// The deepest the level takes the computer: 8 plies, about half a second a move on the
/// standard 6 x 7 board with two threads (a release build). A DEPTH given at or above it stays
/// as given.
pub const CAP: u32 = 8;

/// The level of the computer across the games of one session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// The depth the session started with (DEPTH): level 1.
    start: u32,
    /// The depth of the current game.
    depth: u32,
    /// Whether the level rises (the Adaptive box, `--adaptive`).
    on: bool,
}

/// What [`Level::next_game`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The depth is as before.
    Stayed,
    /// The depth changed (up after a win, or back to the start once the rising was turned off).
    Changed,
    /// The game cannot change its depth ([`Analyze::set_depth`] said no): the rising is off.
    Refused,
}

impl Level {
    /// Level 1 at `game`'s depth; rising if `on`.
    pub fn new(game: &impl Analyze, on: bool) -> Level {
        let depth = game.depth();
        Level {
            start: depth,
            depth,
            on,
        }
    }

    /// Whether the level rises after a win.
    pub fn is_on(&self) -> bool {
        self.on
    }

    /// Turns the rising on or off; off, the next game is back at level 1.
    pub fn set_on(&mut self, on: bool) {
        self.on = on;
    }

    /// The level's number, 1 at the starting depth.
    pub fn number(&self) -> u32 {
        self.depth.saturating_sub(self.start) + 1
    }

    /// The depth of the current game.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// Whether a game that ended with `outcome` against `opponent` takes the level up: the
    /// person beat the computer, and the cap is not reached.
    pub fn rises_after(&self, outcome: Option<Outcome>, opponent: Opponent) -> bool {
        let won = matches!(outcome, Some(Outcome::Win(player))
            if opponent == Opponent::Computer && !opponent.computer_plays(player));
        self.on && won && self.depth < CAP
    }

    /// Sets `game`'s depth for the game about to start, after one that ended with `ended`
    /// against `opponent` (`None` if it was left unfinished): one ply deeper after the
    /// person's win, back to the start if the rising was turned off, otherwise the same.
    pub fn next_game(
        &mut self,
        ended: Option<Outcome>,
        opponent: Opponent,
        game: &mut impl Analyze,
    ) -> Step {
        let depth = if !self.on {
            self.start
        } else if self.rises_after(ended, opponent) {
            self.depth + 1
        } else {
            self.depth
        };
        if depth == self.depth {
            return Step::Stayed;
        }
        if !game.set_depth(depth) {
            self.on = false;
            return Step::Refused;
        }
        self.depth = depth;
        Step::Changed
    }

    /// The level in a sentence, `Level 2 (depth 6).`, when it is on against the computer;
    /// after the person's win (`outcome`) it adds what the next game brings.
    pub fn words(&self, opponent: Opponent, outcome: Option<Outcome>) -> Option<String> {
        if !self.on || opponent != Opponent::Computer {
            return None;
        }
        let now = format!("Level {} (depth {}).", self.number(), self.depth);
        Some(if self.rises_after(outcome, opponent) {
            format!("{now} Next game: level {}.", self.number() + 1)
        } else {
            now
        })
    }
}

/// Said once when the game cannot change its depth, and the rising level is turned off.
pub const REFUSED: &str =
    "This game cannot change its depth (Analyze::set_depth), so the level stays as it is.";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checker::Player;
    use crate::playable::Playable;
    use crate::tiny_game::TinyGame;

    const WIN: Option<Outcome> = Some(Outcome::Win(Player::Red));
    const LOSS: Option<Outcome> = Some(Outcome::Win(Player::Black));

    #[test]
    fn a_win_takes_the_level_up_to_the_cap_and_a_loss_or_a_tie_leaves_it() {
        let mut game = TinyGame::new(4, 4, Player::Red);
        game.set_depth(CAP - 2);
        let mut level = Level::new(&game, true);
        let computer = Opponent::Computer;
        assert_eq!(level.words(computer, None).unwrap(), "Level 1 (depth 6).");
        assert_eq!(level.next_game(LOSS, computer, &mut game), Step::Stayed);
        assert_eq!(
            level.next_game(Some(Outcome::Tie), computer, &mut game),
            Step::Stayed
        );
        assert_eq!(
            level.words(computer, WIN).unwrap(),
            "Level 1 (depth 6). Next game: level 2."
        );
        assert_eq!(level.next_game(WIN, computer, &mut game), Step::Changed);
        assert_eq!((level.number(), game.depth()), (2, CAP - 1));
        level.next_game(WIN, computer, &mut game);
        assert_eq!(level.words(computer, WIN).unwrap(), "Level 3 (depth 8).");
        assert_eq!(level.next_game(WIN, computer, &mut game), Step::Stayed);
        assert_eq!(game.depth(), CAP);
        level.set_on(false);
        assert_eq!(level.words(computer, None), None);
        assert_eq!(level.next_game(WIN, computer, &mut game), Step::Changed);
        assert_eq!((level.number(), game.depth()), (1, CAP - 2));
    }

    #[test]
    fn only_a_person_s_win_against_the_computer_counts() {
        let game = TinyGame::new(4, 4, Player::Red);
        let level = Level::new(&game, true);
        assert!(level.rises_after(WIN, Opponent::Computer));
        assert!(!level.rises_after(WIN, Opponent::Human));
        assert!(!level.rises_after(WIN, Opponent::ComputerVsComputer));
        assert!(!level.rises_after(None, Opponent::Computer));
        assert!(!Level::new(&game, false).rises_after(WIN, Opponent::Computer));
        assert_eq!(level.words(Opponent::Human, WIN), None);
    }

    /// A game that keeps its depth.
    struct Fixed(TinyGame);

    impl Playable for Fixed {
        fn rows(&self) -> usize {
            self.0.rows()
        }
        fn cols(&self) -> usize {
            self.0.cols()
        }
        fn checker(&self, row: usize, col: usize) -> crate::Checker {
            self.0.checker(row, col)
        }
        fn turn(&self) -> crate::Checker {
            self.0.turn()
        }
        fn play(&mut self, col: usize) -> Result<usize, crate::MoveError> {
            self.0.play(col)
        }
        fn outcome(&self) -> Option<Outcome> {
            self.0.outcome()
        }
        fn computer_move(&mut self) -> Result<usize, crate::MoveError> {
            self.0.computer_move()
        }
        fn new_game(&mut self, first: Option<Player>) {
            self.0.new_game(first)
        }
    }

    impl Analyze for Fixed {
        fn heuristic(&self, col: usize) -> Result<crate::Score, crate::MoveError> {
            self.0.heuristic(col)
        }
        fn scores(&mut self, depth: u32) -> Result<Vec<Option<crate::Score>>, crate::MoveError> {
            self.0.scores(depth)
        }
        fn depth(&self) -> u32 {
            self.0.depth()
        }
    }

    #[test]
    fn a_game_that_cannot_change_its_depth_turns_the_rising_off() {
        let mut game = Fixed(TinyGame::new(4, 4, Player::Red));
        let mut level = Level::new(&game, true);
        assert_eq!(
            level.next_game(WIN, Opponent::Computer, &mut game),
            Step::Refused
        );
        assert!(!level.is_on());
        assert_eq!((level.number(), game.depth()), (1, 1));
    }
}
