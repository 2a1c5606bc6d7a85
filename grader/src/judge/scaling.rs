//! The scaling view (not scored): on a machine with more CPUs than the speed-up's threads, the
//! program's speed-up at 2, 4, 8... threads, up to the CPUs it may use and the board's
//! columns, each against the ceiling the grader's own work reaches on as many CPUs, chosen alike
//! on distinct cores. What a multicore course asks of a pool beyond two threads; on a 2-CPU
//! machine it is the speed-up case's own figures for 1 and 2 threads.

use super::result::speedup::{Measurement, Scale};

/// The thread counts of the view beyond `measured` (the speed-up case's): 2, 4, 8... below the
/// `cpus` the program may use and the board's `cols` (no more than one thread per root
/// column pays), and that limit itself.
pub fn counts(cpus: usize, cols: usize, measured: usize) -> Vec<usize> {
    let limit = cpus.min(cols);
    let mut counts: Vec<usize> = std::iter::successors(Some(2usize), |n| n.checked_mul(2))
        .take_while(|&n| n < limit)
        .collect();
    if limit >= 2 {
        counts.push(limit);
    }
    counts.retain(|&n| n > measured);
    counts
}

/// The view: one thread, the speed-up case's `measurement` on `threads`, then `more` counts.
pub fn view(threads: usize, measurement: &Measurement, more: &[Scale]) -> Vec<Scale> {
    let mut rows = vec![
        Scale {
            threads: 1,
            speedup: 1.0,
            ceiling: 1.0,
        },
        Scale {
            threads,
            speedup: measurement.speedup(),
            ceiling: measurement.ceiling().min(threads as f64),
        },
    ];
    rows.extend_from_slice(more);
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_counts_double_up_to_the_cpus_and_the_columns() {
        // This project's machine: nothing beyond the speed-up case's 2 threads.
        assert_eq!(counts(2, 7, 2), Vec::<usize>::new());
        assert_eq!(counts(1, 7, 2), Vec::<usize>::new());
        assert_eq!(counts(4, 7, 2), [4]);
        // 16 CPUs, 7 columns: 4, then one thread per column.
        assert_eq!(counts(16, 7, 2), [4, 7]);
        assert_eq!(counts(16, 12, 2), [4, 8, 12]);
        assert_eq!(counts(64, 64, 2), [4, 8, 16, 32, 64]);
        assert_eq!(counts(12, 10, 2), [4, 8, 10]);
    }
}
