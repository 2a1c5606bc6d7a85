//! The assignment's limits on the four numbers a game is started with (and on the pause when
//! the computer plays itself, and on M in the Connect-M extension), and the parsing that names
//! the range in its error. The command line and the protocol's `scores DEPTH` use them.

use std::time::Duration;

/// The smallest number of rows or columns.
pub const MIN_SIZE: usize = 1;
/// The largest number of rows or columns.
pub const MAX_SIZE: usize = 32;
/// The deepest search asked for on the command line or in the protocol.
pub const MAX_DEPTH: u32 = 64;
/// The most worker threads the command line accepts.
pub const MAX_THREADS: usize = 256;
/// The longest pause, in seconds, between moves when the computer plays itself.
pub const MAX_PAUSE: f64 = 60.0;

/// How many in a row win in the assignment's game, and when `--connect` is not given.
pub const CONNECT: usize = 4;
/// The fewest in a row the Connect-M extension plays for.
pub const MIN_CONNECT: usize = 2;

/// The largest M a `rows` x `cols` board plays Connect M with: its longer side, since no line
/// of the board is longer. The assignment's four is always allowed: on a board too small for
/// it nobody can win, and every game is a tie.
pub fn max_connect(rows: usize, cols: usize) -> usize {
    rows.max(cols).max(CONNECT)
}

/// Parses a whole number from `low` to `high`; the error says the range.
fn whole_number<T: TryFrom<i128>>(text: &str, low: i128, high: i128) -> Result<T, String> {
    let bad = || format!("must be a whole number from {low} to {high}");
    let value: i128 = text.trim().parse().map_err(|_| bad())?;
    if !(low..=high).contains(&value) {
        return Err(bad());
    }
    T::try_from(value).map_err(|_| bad())
}

/// Parses a number of rows or columns, [`MIN_SIZE`] to [`MAX_SIZE`].
pub fn parse_size(text: &str) -> Result<usize, String> {
    whole_number(text, MIN_SIZE as i128, MAX_SIZE as i128)
}

/// Parses a search depth, 0 to [`MAX_DEPTH`].
pub fn parse_depth(text: &str) -> Result<u32, String> {
    whole_number(text, 0, i128::from(MAX_DEPTH))
}

/// Parses a number of threads, 1 to [`MAX_THREADS`].
pub fn parse_threads(text: &str) -> Result<usize, String> {
    whole_number(text, 1, MAX_THREADS as i128)
}

/// Parses the M of `--connect M`, [`MIN_CONNECT`] to [`MAX_SIZE`]; whether the board is large
/// enough for it is [`max_connect`]'s to say, once the board's size is known.
pub fn parse_connect(text: &str) -> Result<usize, String> {
    whole_number(text, MIN_CONNECT as i128, MAX_SIZE as i128)
}

/// Parses a pause in seconds (fractions allowed), 0 to [`MAX_PAUSE`].
pub fn parse_pause(text: &str) -> Result<Duration, String> {
    let bad = || format!("must be a number of seconds from 0 to {MAX_PAUSE}");
    let seconds: f64 = text.trim().parse().map_err(|_| bad())?;
    if !(0.0..=MAX_PAUSE).contains(&seconds) {
        return Err(bad());
    }
    Ok(Duration::from_secs_f64(seconds))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_range_is_inclusive_and_named() {
        assert_eq!(parse_size("1"), Ok(1));
        assert_eq!(parse_size(" 32 "), Ok(32));
        assert_eq!(
            parse_size("33"),
            Err("must be a whole number from 1 to 32".to_string())
        );
        assert_eq!(parse_depth("64"), Ok(64));
        assert!(parse_depth("-1").is_err() && parse_depth("1.5").is_err());
        assert_eq!(parse_threads("256"), Ok(256));
        assert_eq!(
            parse_threads("0"),
            Err("must be a whole number from 1 to 256".to_string())
        );
    }

    #[test]
    fn connect_m_runs_from_two_to_the_longer_side() {
        assert_eq!(parse_connect("2"), Ok(2));
        assert_eq!(
            parse_connect("1"),
            Err("must be a whole number from 2 to 32".to_string())
        );
        assert_eq!(max_connect(9, 5), 9);
        assert_eq!(max_connect(5, 9), 9);
        // Four stays allowed on a board too small for it, as in the assignment.
        assert_eq!(max_connect(3, 3), 4);
    }

    #[test]
    fn a_pause_is_seconds_with_fractions_up_to_a_minute() {
        assert_eq!(parse_pause("0"), Ok(Duration::ZERO));
        assert_eq!(parse_pause(" 0.25 "), Ok(Duration::from_millis(250)));
        assert_eq!(parse_pause("60"), Ok(Duration::from_secs(60)));
        for bad in ["-1", "61", "NaN", "inf", "soon"] {
            assert_eq!(
                parse_pause(bad),
                Err("must be a number of seconds from 0 to 60".to_string()),
                "{bad}"
            );
        }
    }
}
