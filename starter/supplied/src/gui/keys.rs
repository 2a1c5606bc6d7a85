//! Playing with the keyboard: the keys that act on the board, turned into the same messages
//! as clicks. The buttons' own keys (Ctrl+Z, Ctrl+Y, H, A, S, N) are their fltk shortcuts,
//! set where the buttons are made.
//!
//! The digit keys 1 to 9 drop in the first to ninth column and 0 in the tenth; the arrows move
//! a marked column across boards of any width, and Enter, space or the down arrow drop there.

use fltk::app::{self, Sender};
use fltk::enums::{Event, Key, Shortcut};
use fltk::prelude::*;
use fltk::window::DoubleWindow;

use super::message::{Aim, Message};

/// Makes `window` post the message of each board key it gets on `sender`. Other keys are left
/// to fltk: the buttons' shortcuts, and Escape, which closes the window.
pub fn listen(window: &mut DoubleWindow, sender: Sender<Message>) {
    window.handle(move |_, event| {
        // With no widget taking the focus, keys arrive as shortcuts; handled, they go no further.
        if !matches!(event, Event::KeyDown | Event::Shortcut) {
            return false;
        }
        match message(app::event_key(), app::event_state()) {
            Some(message) => {
                sender.send(message);
                true
            }
            None => false,
        }
    });
}

/// The message for `key` pressed with the modifiers in `state`, if it is a board key. Keys
/// held with Ctrl, Alt or Meta are never board keys (Ctrl+Z is Undo's).
pub fn message(key: Key, state: Shortcut) -> Option<Message> {
    if state.intersects(Shortcut::Ctrl | Shortcut::Alt | Shortcut::Meta) {
        return None;
    }
    let message = match key {
        Key::Left => Message::Select(Aim::Left),
        Key::Right => Message::Select(Aim::Right),
        Key::Home => Message::Select(Aim::First),
        Key::End => Message::Select(Aim::Last),
        Key::Enter | Key::KPEnter | Key::Down => Message::DropSelected,
        _ => {
            // The keypad's digits are the main ones shifted by `Key::KP`.
            let bits = key.bits();
            let main = if bits > Key::KP.bits() {
                bits - Key::KP.bits()
            } else {
                bits
            };
            match char::from_u32(main as u32)? {
                ' ' => Message::DropSelected,
                '0' => Message::Choose(9),
                digit @ '1'..='9' => Message::Choose(digit as usize - '1' as usize),
                _ => return None,
            }
        }
    };
    Some(message)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(key: Key) -> Option<Message> {
        message(key, Shortcut::None)
    }

    #[test]
    fn digits_count_columns_from_one_and_zero_is_the_tenth() {
        assert_eq!(plain(Key::from_char('1')), Some(Message::Choose(0)));
        assert_eq!(plain(Key::from_char('9')), Some(Message::Choose(8)));
        assert_eq!(plain(Key::from_char('0')), Some(Message::Choose(9)));
        let keypad_3 = Key::from_i32(Key::KP.bits() + '3' as i32);
        assert_eq!(plain(keypad_3), Some(Message::Choose(2)));
    }

    #[test]
    fn arrows_move_and_enter_space_or_down_drop() {
        assert_eq!(plain(Key::Left), Some(Message::Select(Aim::Left)));
        assert_eq!(plain(Key::End), Some(Message::Select(Aim::Last)));
        for key in [Key::Enter, Key::KPEnter, Key::Down, Key::from_char(' ')] {
            assert_eq!(plain(key), Some(Message::DropSelected), "{key:?}");
        }
    }

    #[test]
    fn other_keys_and_modified_keys_are_not_board_keys() {
        assert_eq!(plain(Key::from_char('z')), None);
        assert_eq!(plain(Key::Escape), None);
        assert_eq!(plain(Key::F1), None);
        assert_eq!(message(Key::from_char('1'), Shortcut::Ctrl), None);
    }
}
