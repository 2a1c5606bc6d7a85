//! The scaling view as a small SVG plot for the graders' gallery: the program's speed-up
//! against the threads, the ceiling the grader's own work reached as a second line and the
//! ideal (as fast again as threads) faint. Built with maud, as every page is;
//! rows whose figures are not finite are left out.

use maud::{html, Markup};

use crate::judge::result::speedup::Scale;

/// The plot's size and its margins around the axes, in pixels.
const WIDTH: f64 = 380.0;
const HEIGHT: f64 = 250.0;
const LEFT: f64 = 48.0;
const RIGHT: f64 = 14.0;
const TOP: f64 = 14.0;
const BOTTOM: f64 = 40.0;

/// The program's line, the ceiling's and the ideal's: (colour, dashes, words in the legend).
const SPEEDUP: (&str, &str, &str) = ("#1f5fa8", "none", "the program");
const CEILING: (&str, &str, &str) = ("#c0661a", "6 3", "the ceiling (the grader's own work)");
const IDEAL: (&str, &str, &str) = ("#b0b0b0", "2 3", "ideal (as many times as threads)");

/// The plot of `rows`, when the view has more than the two rows a 2-CPU machine gives (there
/// the table's line says it all).
pub fn scaling_svg(rows: &[Scale]) -> Option<Markup> {
    let rows: Vec<&Scale> = rows
        .iter()
        .filter(|r| r.speedup.is_finite() && r.ceiling.is_finite() && r.threads > 0)
        .collect();
    if rows.len() <= 2 {
        return None;
    }
    let most_threads = rows.iter().map(|r| r.threads).max()? as f64;
    let highest = rows
        .iter()
        .map(|r| r.speedup.max(r.ceiling))
        .fold(most_threads, f64::max)
        .clamp(1.0, 1024.0)
        .ceil();
    let step = (highest / 8.0).ceil().max(1.0);
    let top = (highest / step).ceil() * step;
    let x = |threads: f64| LEFT + (threads - 1.0) / (most_threads - 1.0).max(1.0) * plot_width();
    let y = |times: f64| TOP + (1.0 - times.clamp(0.0, top) / top) * plot_height();
    let grid = (0..)
        .map(|i| i as f64 * step)
        .take_while(|&times| times <= top);
    let (right, bottom) = (LEFT + plot_width(), TOP + plot_height());
    let line = |value: fn(&Scale) -> f64| -> String {
        let points = rows.iter().map(|r| at(x(r.threads as f64), y(value(r))));
        points.collect::<Vec<_>>().join(" ")
    };
    let ideal = format!(
        "{} {}",
        at(x(1.0), y(1.0)),
        at(x(most_threads), y(most_threads))
    );
    let lines = [
        (IDEAL, ideal, 1.5),
        (CEILING, line(|r| r.ceiling), 2.0),
        (SPEEDUP, line(|r| r.speedup), 2.5),
    ];
    let axes = [at(LEFT, TOP), at(LEFT, bottom), at(right, bottom)].join(" ");
    let legend = [SPEEDUP, CEILING, IDEAL].into_iter().enumerate();
    Some(html! {
        svg xmlns="http://www.w3.org/2000/svg" class="scaling-plot" width=(WIDTH) height=(HEIGHT)
            viewBox={ "0 0 " (WIDTH) " " (HEIGHT) } role="img"
            aria-label="Speed-up against threads, with the ceiling and the ideal"
            font-family="system-ui, sans-serif" font-size="11" {
            title { "Scaling (not scored): speed-up against threads" }
            // The grid and the axes' numbers: a line per speed-up step, a tick per thread count.
            @for times in grid {
                @let level = one(y(times));
                line x1=(LEFT) y1=(level) x2=(one(right)) y2=(level) stroke="#e4e4e4" {}
                text x=(one(LEFT - 5.0)) y=(one(y(times) + 4.0)) text-anchor="end" { (times) "x" }
            }
            @for row in &rows {
                @let across = one(x(row.threads as f64));
                line x1=(across) y1=(one(bottom)) x2=(across) y2=(one(bottom + 4.0))
                    stroke="#555" {}
                text x=(across) y=(one(bottom + 16.0)) text-anchor="middle" { (row.threads) }
            }
            polyline points=(axes) fill="none" stroke="#555" {}
            text x=(one(LEFT + plot_width() / 2.0)) y=(one(HEIGHT - 6.0)) text-anchor="middle" {
                "threads"
            }
            text transform={ "translate(12 " (one(TOP + plot_height() / 2.0)) ") rotate(-90)" }
                text-anchor="middle" { "speed-up" }
            // The lines, the ideal under the others.
            @for ((colour, dashes, _), points, width) in lines {
                polyline points=(points) fill="none" stroke=(colour) stroke-width=(width)
                    stroke-dasharray=(dashes) {}
            }
            @for row in &rows {
                circle cx=(one(x(row.threads as f64))) cy=(one(y(row.speedup))) r="3"
                    fill=(SPEEDUP.0) {}
            }
            // The legend, in the top left corner, where the lines start low.
            @for (index, (colour, dashes, words)) in legend {
                @let down = TOP + 10.0 + 15.0 * index as f64;
                line x1=(one(LEFT + 8.0)) y1=(one(down)) x2=(one(LEFT + 30.0)) y2=(one(down))
                    stroke=(colour) stroke-width="2" stroke-dasharray=(dashes) {}
                text x=(one(LEFT + 35.0)) y=(one(down + 4.0)) { (words) }
            }
        }
    })
}

/// `value` to one decimal, as the plot's coordinates are written.
fn one(value: f64) -> String {
    format!("{value:.1}")
}

/// The point (`x`, `y`) as a polyline lists it.
fn at(x: f64, y: f64) -> String {
    format!("{x:.1},{y:.1}")
}

/// The width between the axes.
fn plot_width() -> f64 {
    WIDTH - LEFT - RIGHT
}

/// The height between the axes.
fn plot_height() -> f64 {
    HEIGHT - TOP - BOTTOM
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The view of the 16-CPU machine: 1, 2, 4 and 7 threads.
    fn sixteen() -> Vec<Scale> {
        [
            (1, 1.0, 1.0),
            (2, 1.92, 1.95),
            (4, 3.6, 3.85),
            (7, 5.4, 6.5),
        ]
        .into_iter()
        .map(|(threads, speedup, ceiling)| Scale {
            threads,
            speedup,
            ceiling,
        })
        .collect()
    }

    #[test]
    fn the_view_beyond_two_threads_is_plotted() {
        insta::assert_snapshot!(
            "scaling_plot",
            scaling_svg(&sixteen()).unwrap().into_string()
        );
    }

    #[test]
    fn two_rows_or_figures_that_are_not_numbers_are_not_plotted() {
        let rows = sixteen();
        assert!(scaling_svg(&rows[..2]).is_none());
        let mut broken = rows.clone();
        broken[2].speedup = f64::NAN;
        broken[3].ceiling = f64::INFINITY;
        assert!(scaling_svg(&broken).is_none());
        // Absurd figures stay inside the plot.
        let mut wild = rows;
        wild[3].speedup = 1e300;
        let svg = scaling_svg(&wild).unwrap().into_string();
        assert!(!svg.contains("NaN") && !svg.contains("inf"), "{svg}");
        assert!(svg.contains(">1024x<"), "{svg}");
    }
}
