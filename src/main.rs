//! `connect_four ROWS COLS DEPTH THREADS`: parses the command line and starts a front end.
fn main() {}
