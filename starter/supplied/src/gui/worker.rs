//! Searches off the GUI thread: a worker thread takes the game, answers one question about it
//! (the computer's move, or the hint's values), posts [`Message::Done`] and hands the game
//! back with the answer; [`Holder`] says where the game is meanwhile. A panic in the game's code becomes an error answer. A game with a
//! stop signal can be asked to stop early; its answer is then thrown away.

use std::mem;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::thread::{self, JoinHandle};
use std::time::Instant;

use fltk::app::Sender;

use super::message::Message;
use crate::checker::Player;
use crate::error::MoveError;
use crate::playable::Analyze;
use crate::score::Score;
use crate::stop::StopSignal;

/// Where the game is.
pub enum Holder<G> {
    /// Here.
    Ready(G),
    /// With a worker thread, which is searching.
    Busy(Worker<G>),
    /// Lost with a worker thread that died; only closing the window helps.
    Lost,
}

impl<G: Analyze + Send + 'static> Holder<G> {
    /// Hands the game, if it is here and not over, to a worker numbered `number` for `job`;
    /// whether it did.
    pub fn start(&mut self, job: Job, number: u64, sender: Sender<Message>) -> bool {
        let game = match mem::replace(self, Holder::Lost) {
            Holder::Ready(game) => game,
            other => {
                *self = other;
                return false;
            }
        };
        match game.turn().player() {
            Some(player) => {
                *self = Holder::Busy(Worker::start(game, (job, player), number, sender))
            }
            None => *self = Holder::Ready(game),
        }
        self.is_busy()
    }

    /// Waits for the worker (which has posted `Done`) and takes back the game with its answer;
    /// `None` if the worker died with the game (or there was no worker).
    pub fn take_back(&mut self) -> Option<Answer> {
        let Holder::Busy(worker) = mem::replace(self, Holder::Lost) else {
            return None;
        };
        let (game, answer) = worker.thread.join().ok()?;
        *self = Holder::Ready(game);
        Some(answer)
    }

    /// Whether a worker has the game.
    pub fn is_busy(&self) -> bool {
        matches!(self, Holder::Busy(_))
    }
}

/// What a worker is asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Job {
    /// The computer's move for the player to move.
    Move,
    /// Each column's minimax value at the game's depth, for the hint.
    Hint,
}

impl Job {
    /// The answer of a worker whose search panicked.
    fn panicked(self) -> Answer {
        let error = MoveError::EngineFailed("the search stopped with a panic".into());
        match self {
            Job::Move => Answer::Move(Err(error)),
            Job::Hint => Answer::Hint(Err(error)),
        }
    }
}

/// What a worker answered.
pub enum Answer {
    /// The column the computer chose.
    Move(Result<usize, MoveError>),
    /// Each column's value, `None` for a full column.
    Hint(Result<Vec<Option<Score>>, MoveError>),
}

/// A worker thread busy with the game.
pub struct Worker<G> {
    thread: JoinHandle<(G, Answer)>,
    /// Tells this worker's messages from older ones.
    pub number: u64,
    /// What it was asked.
    pub job: Job,
    /// The player to move, whom the question is about.
    pub player: Player,
    /// When it started.
    pub started: Instant,
    /// The game's stop signal, if it has one.
    stop: Option<StopSignal>,
}

impl<G: Analyze + Send + 'static> Worker<G> {
    /// Hands `game`, with `player` to move, to a new thread to do `job`; it posts
    /// `Done(number)` when it has finished.
    fn start(
        mut game: G,
        (job, player): (Job, Player),
        number: u64,
        sender: Sender<Message>,
    ) -> Worker<G> {
        let stop = game.stop_signal();
        if let Some(stop) = &stop {
            stop.clear();
        }
        let thread = thread::spawn(move || {
            let answer = catch_unwind(AssertUnwindSafe(|| match job {
                Job::Move => Answer::Move(game.computer_move()),
                Job::Hint => Answer::Hint(game.scores(game.depth())),
            }))
            .unwrap_or_else(|_| job.panicked());
            sender.send(Message::Done(number));
            (game, answer)
        });
        Worker {
            thread,
            number,
            job,
            player,
            started: Instant::now(),
            stop,
        }
    }

    /// Asks the search to stop soon, if the game can be stopped; otherwise it runs to its end.
    pub fn stop(&self) {
        if let Some(stop) = &self.stop {
            stop.raise();
        }
    }
}
