//! One line for an error and the errors under it: each error here keeps its kind as data and
//! hands the error it wraps on through `source()`, so a front end that shows a message joins
//! the chain itself.

use std::error::Error;

/// `error`'s message followed by each of its sources' in turn, joined by `: `, as in
/// `cannot start the computer player: the operating system refused to start worker thread 3 of
/// 256: Resource temporarily unavailable (os error 11)`.
pub fn error_chain(error: &dyn Error) -> String {
    let mut line = error.to_string();
    let mut next = error.source();
    while let Some(source) = next {
        line.push_str(": ");
        line.push_str(&source.to_string());
        next = source.source();
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{GameError, PoolError};

    #[test]
    fn every_source_follows_its_error() {
        let error = GameError::Threads(PoolError::Spawn {
            worker: 3,
            threads: 256,
            source: std::io::Error::other("no room"),
        });
        assert_eq!(
            error_chain(&error),
            "cannot start the computer player: the operating system refused to start worker \
             thread 3 of 256: no room"
        );
    }

    #[test]
    fn an_error_without_a_source_is_its_message() {
        assert_eq!(error_chain(&PoolError::Lost), "a worker thread died");
    }
}
