//! How the terminal names columns in its sentences (what was taken back, played again, or is
//! best), one home for the plurals.

/// `the move in column 3`, or `the moves in columns 5 and 2`.
pub(super) fn moves_in(cols: &[usize]) -> String {
    let plural = if cols.len() == 1 { "" } else { "s" };
    format!("the move{plural} in {}", columns(cols))
}

/// `column 3`, `columns 5 and 2`, or `columns 0, 1 and 2`.
pub(super) fn columns(cols: &[usize]) -> String {
    match cols {
        [] => "no column".to_string(),
        [col] => format!("column {col}"),
        [rest @ .., last] => {
            let rest: Vec<String> = rest.iter().map(usize::to_string).collect();
            format!("columns {} and {last}", rest.join(", "))
        }
    }
}
