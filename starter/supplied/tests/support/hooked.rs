//! The tiny game (`tiny_game.rs`) with a hook before each search, for the tests of long and
//! stopped searches: the terminal's unit tests and the window tests.

use connect_four_supplied::{
    Analyze, Checker, MoveError, Outcome, Playable, Player, Score, StopSignal,
};

use super::tiny_game::TinyGame;

/// A [`TinyGame`] whose searches (the computer's move, the minimax values) first call a hook
/// the test chose, with the game's stop signal if it offers one: the hook makes a search last
/// as long as the test needs (until a gate opens, or until the signal is raised), counts the
/// searches, or fails them with its error. Everything else is the tiny game's own.
pub struct Hooked {
    game: TinyGame,
    stop: Option<StopSignal>,
    before_search: Box<Hook>,
}

/// What a [`Hooked`] game calls before each search, with its stop signal.
type Hook = dyn FnMut(Option<&StopSignal>) -> Result<(), MoveError> + Send;

impl Hooked {
    /// `game`, offering `stop` as its stop signal, with `before_search` called before each
    /// search.
    pub fn new(
        game: TinyGame,
        stop: Option<StopSignal>,
        before_search: impl FnMut(Option<&StopSignal>) -> Result<(), MoveError> + Send + 'static,
    ) -> Hooked {
        Hooked {
            game,
            stop,
            before_search: Box::new(before_search),
        }
    }

    /// Calls the hook before a search; its error is the search's.
    fn hook(&mut self) -> Result<(), MoveError> {
        (self.before_search)(self.stop.as_ref())
    }
}

impl Playable for Hooked {
    fn rows(&self) -> usize {
        self.game.rows()
    }
    fn cols(&self) -> usize {
        self.game.cols()
    }
    fn checker(&self, row: usize, col: usize) -> Checker {
        self.game.checker(row, col)
    }
    fn turn(&self) -> Checker {
        self.game.turn()
    }
    fn play(&mut self, col: usize) -> Result<usize, MoveError> {
        self.game.play(col)
    }
    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }
    fn computer_move(&mut self) -> Result<usize, MoveError> {
        self.hook()?;
        self.game.computer_move()
    }
    fn new_game(&mut self, first: Option<Player>) {
        self.game.new_game(first)
    }
    fn stop_signal(&self) -> Option<StopSignal> {
        self.stop.clone()
    }
}

impl Analyze for Hooked {
    fn heuristic(&self, col: usize) -> Result<Score, MoveError> {
        self.game.heuristic(col)
    }
    fn scores(&mut self, depth: u32) -> Result<Vec<Option<Score>>, MoveError> {
        self.hook()?;
        self.game.scores(depth)
    }
    fn depth(&self) -> u32 {
        self.game.depth()
    }
    fn set_depth(&mut self, depth: u32) -> bool {
        self.game.set_depth(depth)
    }
}
