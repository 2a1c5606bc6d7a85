//! The window's sounds, as the classic applet had them: a checker landing, a refused click, a
//! new game, a win and a loss. The window says which [`Sound`] to play to a [`Speaker`]; the
//! one on the sound device ([`speaker`], feature `sound`, with rodio) plays the WAV files that
//! `scripts/make-sounds` made and this module embeds, a silent one plays nothing, and a test's
//! records what it was told.

use crate::opponent::Opponent;
use crate::playable::Outcome;

/// What the window has to say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sound {
    /// A checker was dropped (by a person or the computer).
    Move,
    /// A click or key changed nothing (a full column, the computer's turn, nothing to undo...).
    Refused,
    /// A new game started.
    NewGame,
    /// The game was won: by the person against the computer, or by either side otherwise.
    Win,
    /// The computer beat the person.
    Loss,
}

impl Sound {
    /// Every sound, in the order of the enum.
    pub const ALL: [Sound; 5] = [
        Sound::Move,
        Sound::Refused,
        Sound::NewGame,
        Sound::Win,
        Sound::Loss,
    ];

    /// The sound for a game that just ended with `outcome` against `opponent`; none for a tie.
    pub fn ending(outcome: Outcome, opponent: Opponent) -> Option<Sound> {
        match outcome {
            Outcome::Tie => None,
            Outcome::Win(player) if opponent == Opponent::Computer => {
                Some(if opponent.computer_plays(player) {
                    Sound::Loss
                } else {
                    Sound::Win
                })
            }
            Outcome::Win(_) => Some(Sound::Win),
        }
    }

    /// The sound's WAV file (8-bit mono), embedded from `sounds/`.
    pub fn wav(self) -> &'static [u8] {
        match self {
            Sound::Move => include_bytes!("../../sounds/move.wav"),
            Sound::Refused => include_bytes!("../../sounds/refused.wav"),
            Sound::NewGame => include_bytes!("../../sounds/new-game.wav"),
            Sound::Win => include_bytes!("../../sounds/win.wav"),
            Sound::Loss => include_bytes!("../../sounds/loss.wav"),
        }
    }
}

/// Whatever plays the window's sounds. It is told each sound as it happens and must return at
/// once (the sound goes on playing by itself).
pub trait Speaker {
    /// Plays `sound`.
    fn play(&mut self, sound: Sound);
}

/// Plays nothing: the window's speaker until [`GameWindow::set_speaker`] gives another, and
/// the one [`speaker`] returns when there is no sound device.
///
/// [`GameWindow::set_speaker`]: super::GameWindow::set_speaker
pub struct Silent;

impl Speaker for Silent {
    fn play(&mut self, _sound: Sound) {}
}

/// The sound device, through rodio: each sound is decoded and mixed into its output stream.
#[cfg(feature = "sound")]
struct Device {
    stream: rodio::OutputStream,
}

#[cfg(feature = "sound")]
impl Speaker for Device {
    fn play(&mut self, sound: Sound) {
        // The files are ours and decoded in the tests: a failure here can only be a broken
        // build, and silence is the right answer to it.
        if let Ok(decoder) = rodio::Decoder::new(std::io::Cursor::new(sound.wav())) {
            self.stream.mixer().add(decoder);
        }
    }
}

/// The machine's sound device, or, if there is none (or this build has no sound), a silent
/// speaker and the reason, for the window to say once.
pub fn speaker() -> (Box<dyn Speaker>, Option<String>) {
    #[cfg(feature = "sound")]
    {
        match quietly(rodio::OutputStreamBuilder::open_default_stream) {
            Ok(mut stream) => {
                // rodio would otherwise say on standard error that the stream closed.
                stream.log_on_drop(false);
                (Box::new(Device { stream }), None)
            }
            Err(error) => (
                Box::new(Silent),
                Some(format!(
                    "no sound: no sound device could be opened ({error})"
                )),
            ),
        }
    }
    #[cfg(not(feature = "sound"))]
    {
        let why = "no sound: this build has none (it was built without the `sound` feature)";
        (Box::new(Silent), Some(why.to_string()))
    }
}

/// Runs `open` with ALSA's messages on this thread silenced: without a sound card, opening the
/// device makes ALSA print some thirty lines of its configuration's errors on standard error,
/// where the window says why in one line instead.
#[cfg(all(feature = "sound", target_os = "linux"))]
fn quietly<T>(open: impl FnOnce() -> T) -> T {
    use alsa_sys::{__va_list_tag, snd_lib_error_set_local};
    use std::os::raw::{c_char, c_int};

    unsafe extern "C" fn ignore(
        _file: *const c_char,
        _line: c_int,
        _function: *const c_char,
        _error: c_int,
        _format: *const c_char,
        _arguments: *mut __va_list_tag,
    ) {
    }
    // SAFETY: `snd_lib_error_set_local` only swaps this thread's handler, and `ignore` has the
    // handler's signature and reads none of its arguments; the old handler is put back.
    let previous = unsafe { snd_lib_error_set_local(Some(ignore)) };
    let opened = open();
    // SAFETY: as above, with ALSA's own handler.
    unsafe { snd_lib_error_set_local(previous) };
    opened
}

/// Elsewhere the sound library says nothing of its own.
#[cfg(all(feature = "sound", not(target_os = "linux")))]
fn quietly<T>(open: impl FnOnce() -> T) -> T {
    open()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checker::Player;

    #[test]
    fn a_win_is_the_person_s_and_a_loss_the_computer_s() {
        let computer = Opponent::Computer;
        let (red, black) = (Outcome::Win(Player::Red), Outcome::Win(Player::Black));
        assert_eq!(Sound::ending(red, computer), Some(Sound::Win));
        assert_eq!(Sound::ending(black, computer), Some(Sound::Loss));
        assert_eq!(Sound::ending(black, Opponent::Human), Some(Sound::Win));
        assert_eq!(
            Sound::ending(red, Opponent::ComputerVsComputer),
            Some(Sound::Win)
        );
        assert_eq!(Sound::ending(Outcome::Tie, computer), None);
    }

    /// Every file decodes with rodio's own decoder, the one that plays it: one channel, a
    /// short sound, and each a few KB.
    #[cfg(feature = "sound")]
    #[test]
    fn every_sound_decodes_and_is_short() {
        use rodio::Source;
        for sound in Sound::ALL {
            let wav = sound.wav();
            assert!(wav.len() < 8 * 1024, "{sound:?} is {} bytes", wav.len());
            let decoder = rodio::Decoder::new(std::io::Cursor::new(wav))
                .unwrap_or_else(|error| panic!("{sound:?}: {error}"));
            assert_eq!(decoder.channels(), 1, "{sound:?}");
            let rate = decoder.sample_rate();
            let samples: Vec<f32> = decoder.collect();
            let seconds = samples.len() as f32 / rate as f32;
            assert!(seconds > 0.03 && seconds < 1.0, "{sound:?}: {seconds} s");
            assert!(
                samples.iter().any(|sample| sample.abs() > 0.1),
                "{sound:?} is silent"
            );
        }
    }
}
