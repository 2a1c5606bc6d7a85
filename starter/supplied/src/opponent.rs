//! Who plays against the person at the keyboard (a person, the computer, or nobody: the
//! computer plays itself while people watch), and the sentences the window and the terminal
//! both say about it: one home for the words the front ends share.

use crate::checker::Player;
use crate::playable::Outcome;

/// Who plays against the person at the keyboard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Opponent {
    /// Two people take turns
    Human,
    /// The computer plays black
    Computer,
    /// The computer plays both sides while you watch
    ComputerVsComputer,
}

impl Opponent {
    /// The player the computer plays: black, as the assignment says.
    pub const COMPUTER: Player = Player::Black;

    /// Whether the computer makes `player`'s moves.
    pub fn computer_plays(self, player: Player) -> bool {
        match self {
            Opponent::Human => false,
            Opponent::Computer => player == Opponent::COMPUTER,
            Opponent::ComputerVsComputer => true,
        }
    }

    /// How the game ended, said to the person at the keyboard.
    pub fn announce(self, outcome: Outcome) -> String {
        match outcome {
            Outcome::Tie => "It's a tie: the board is full.".to_string(),
            Outcome::Win(player) if self == Opponent::Computer => {
                if self.computer_plays(player) {
                    "The computer wins.".to_string()
                } else {
                    "You win!".to_string()
                }
            }
            Outcome::Win(player) => format!("{} wins!", sentence(player.name())),
        }
    }
}

/// `text` with its first letter in capitals, to start a sentence.
pub(crate) fn sentence(text: &str) -> String {
    let mut letters = text.chars();
    letters.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(letters).collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_computer_plays_black_against_a_person_and_both_sides_alone() {
        assert!(Opponent::Computer.computer_plays(Player::Black));
        assert!(!Opponent::Computer.computer_plays(Player::Red));
        assert!(!Opponent::Human.computer_plays(Player::Black));
        for player in Player::BOTH {
            assert!(Opponent::ComputerVsComputer.computer_plays(player));
        }
    }

    #[test]
    fn results_are_said_from_the_person_s_side() {
        let computer = Opponent::Computer;
        assert_eq!(computer.announce(Outcome::Win(Player::Red)), "You win!");
        assert_eq!(
            computer.announce(Outcome::Win(Player::Black)),
            "The computer wins."
        );
        assert_eq!(
            Opponent::Human.announce(Outcome::Win(Player::Black)),
            "Black wins!"
        );
        assert_eq!(
            Opponent::ComputerVsComputer.announce(Outcome::Win(Player::Red)),
            "Red wins!"
        );
        assert_eq!(
            Opponent::Human.announce(Outcome::Tie),
            "It's a tie: the board is full."
        );
    }

    #[test]
    fn sentences_start_with_a_capital() {
        assert_eq!(sentence("column 3 is full"), "Column 3 is full");
        assert_eq!(sentence(""), "");
    }
}
