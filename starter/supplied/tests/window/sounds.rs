//! The window's sounds, heard by a recorder instead of a sound device: each event of a scripted
//! game against the computer in order (moves, the win, a refused click, a new game, the loss),
//! and the Mute box silencing them all.

use std::cell::RefCell;
use std::rc::Rc;

use connect_four_supplied::gui::{Control, GameWindow, Sound, Speaker};
use connect_four_supplied::{Analyze, Opponent, Player};

use super::drive::{click, close, game, open, press, pump_until};
use crate::Test;

/// This module's scenarios, in the order they run.
pub fn tests() -> Vec<Test> {
    tests![
        a_game_against_the_computer_sounds_each_event_in_order,
        the_mute_box_silences_every_sound,
    ]
}

/// A speaker that writes down what it is told to play.
#[derive(Clone, Default)]
struct Recorder(Rc<RefCell<Vec<Sound>>>);

impl Speaker for Recorder {
    fn play(&mut self, sound: Sound) {
        self.0.borrow_mut().push(sound);
    }
}

impl Recorder {
    /// What was played since the last call.
    fn take(&self) -> Vec<Sound> {
        self.0.take()
    }
}

/// Drops in `col` as a person, and waits for the computer's reply, if any.
pub(super) fn drop_in<G: Analyze + Send + 'static>(gui: &mut GameWindow<G>, col: usize) {
    click(gui, 0, col);
    pump_until(gui, "the computer's move", |gui| !gui.is_thinking());
}

fn a_game_against_the_computer_sounds_each_event_in_order() {
    // The tiny computer plays the leftmost open column: red wins in column 3 on its fourth move.
    let mut gui = open(
        game(6, 7, Player::Red),
        Opponent::Computer,
        Some(Player::Red),
    );
    let recorder = Recorder::default();
    gui.set_speaker(Box::new(recorder.clone()));
    for col in [3, 3, 3, 3] {
        drop_in(&mut gui, col);
    }
    use Sound::{Loss, Move, NewGame, Refused, Win};
    let moves = |count| vec![Move; count];
    assert_eq!(recorder.take(), [moves(7), vec![Win]].concat());
    click(&mut gui, 0, 5);
    press(&mut gui, Control::NewGame);
    assert_eq!(recorder.take(), [Refused, NewGame]);
    // Black's fourth checker in column 0 comes before red's in column 1.
    for col in [1, 1, 1, 2] {
        drop_in(&mut gui, col);
    }
    assert_eq!(
        gui.status(),
        "The computer wins. Press New game to play again."
    );
    assert_eq!(recorder.take(), [moves(8), vec![Loss]].concat());
    close(gui);
}

fn the_mute_box_silences_every_sound() {
    let mut gui = open(game(2, 4, Player::Red), Opponent::Human, Some(Player::Red));
    let recorder = Recorder::default();
    gui.set_speaker(Box::new(recorder.clone()));
    press(&mut gui, Control::Mute);
    for col in [0, 0, 0] {
        click(&mut gui, 0, col);
    }
    press(&mut gui, Control::NewGame);
    assert!(gui.status().starts_with("Red's move"), "{}", gui.status());
    assert_eq!(recorder.take(), []);
    press(&mut gui, Control::Mute);
    click(&mut gui, 0, 0);
    assert_eq!(recorder.take(), [Sound::Move]);
    close(gui);
}
