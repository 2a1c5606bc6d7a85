//! The private X server of the window tests: the supplied crate's helper, shared by path.

#[path = "../../starter/supplied/tests/support/display.rs"]
mod display;
pub use display::*;
