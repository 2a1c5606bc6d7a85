//! Reading one line of typed or piped input with a bound on its length, for the front ends that
//! read standard input (the grading protocol and the terminal game): a line of any size, or
//! bytes that are not UTF-8, get an answer instead of exhausting memory or failing.

use std::io::{self, BufRead};

/// The longest line accepted; a longer one is read as `Line::TooLong`.
pub const MAX_LINE: usize = 4096;

/// One line of input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Line {
    /// A line of at most [`MAX_LINE`] bytes (its ending included), bytes that are not UTF-8
    /// replaced.
    Text(String),
    /// A longer line; its bytes were skipped, not kept.
    TooLong,
}

/// Reads one line; `None` at the end of input.
pub(crate) fn read_line<R: BufRead>(input: &mut R) -> io::Result<Option<Line>> {
    let mut bytes = Vec::new();
    let read = io::Read::take(&mut *input, MAX_LINE as u64 + 1).read_until(b'\n', &mut bytes)?;
    if read == 0 {
        return Ok(None);
    }
    if bytes.len() > MAX_LINE && bytes.last() != Some(&b'\n') {
        skip_rest_of_line(input)?;
        return Ok(Some(Line::TooLong));
    }
    Ok(Some(Line::Text(
        String::from_utf8_lossy(&bytes).into_owned(),
    )))
}

/// Consumes input up to and including the next newline (or the end), keeping none of it.
fn skip_rest_of_line<R: BufRead>(input: &mut R) -> io::Result<()> {
    loop {
        let buffer = input.fill_buf()?;
        if buffer.is_empty() {
            return Ok(());
        }
        match buffer.iter().position(|&b| b == b'\n') {
            Some(end) => {
                input.consume(end + 1);
                return Ok(());
            }
            None => {
                let all = buffer.len();
                input.consume(all);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_long_lines_odd_bytes_and_the_end() {
        let long = "x".repeat(MAX_LINE + 10);
        let text = format!("play 3\n{long}\n\u{1}\u{fffd}\nlast");
        let mut input = io::Cursor::new(text.into_bytes());
        assert_eq!(
            read_line(&mut input).unwrap(),
            Some(Line::Text("play 3\n".into()))
        );
        assert_eq!(read_line(&mut input).unwrap(), Some(Line::TooLong));
        assert_eq!(
            read_line(&mut input).unwrap(),
            Some(Line::Text("\u{1}\u{fffd}\n".into()))
        );
        assert_eq!(
            read_line(&mut input).unwrap(),
            Some(Line::Text("last".into()))
        );
        assert_eq!(read_line(&mut input).unwrap(), None);
    }

    #[test]
    fn a_line_of_exactly_the_limit_is_accepted() {
        let exact = format!("{}\n", "y".repeat(MAX_LINE - 1));
        let mut input = io::Cursor::new(exact.clone().into_bytes());
        assert_eq!(read_line(&mut input).unwrap(), Some(Line::Text(exact)));
    }
}
