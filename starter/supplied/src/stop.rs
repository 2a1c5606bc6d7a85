//! A flag that a front end raises to ask a running computer search to stop, for undo or a new
//! game while the computer is thinking. It is optional for a game: see
//! [`Playable::stop_signal`](crate::Playable::stop_signal).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A flag shared between a front end (which raises it) and a game's search (which watches it).
/// Clones share one flag.
#[derive(Clone, Default, Debug)]
pub struct StopSignal(Arc<AtomicBool>);

impl StopSignal {
    /// A lowered flag.
    pub fn new() -> StopSignal {
        StopSignal::default()
    }

    /// Asks the search to stop.
    pub fn raise(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    /// Whether the search was asked to stop.
    pub fn is_raised(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }

    /// Lowers the flag again, before the next search.
    pub fn clear(&self) {
        self.0.store(false, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_one_flag() {
        let signal = StopSignal::new();
        let watcher = signal.clone();
        assert!(!watcher.is_raised());
        signal.raise();
        assert!(watcher.is_raised());
        watcher.clear();
        assert!(!signal.is_raised());
    }
}
