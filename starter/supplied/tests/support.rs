//! What the supplied crate's tests play with: the tiny game (a `Playable` that is not the
//! reference), its hooked searches and the X display of the window tests. `tiny_game.rs` and
//! `hooked.rs` are the unit tests' too (`src/lib.rs`), and `display.rs` the reference's window
//! tests' (`tests/support/mod.rs` at the top of the repository), each included by path.

#[cfg(feature = "gui")]
pub mod display;
#[cfg(feature = "gui")]
pub mod hooked;
pub mod tiny_game;
