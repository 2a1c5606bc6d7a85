//! The scaling view as a small SVG plot for the graders' gallery: the program's speed-up
//! against the threads, the ceiling the grader's own work reached as a second line and the
//! ideal (as fast again as threads) faint. Only the view's numbers and fixed words go in, so
//! the plot needs no escaping; rows whose figures are not finite are left out.

use std::fmt::Write;

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
pub fn scaling_svg(rows: &[Scale]) -> Option<String> {
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
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"scaling-plot\" width=\"{WIDTH}\" \
         height=\"{HEIGHT}\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" role=\"img\" \
         aria-label=\"Speed-up against threads, with the ceiling and the ideal\" \
         font-family=\"system-ui, sans-serif\" font-size=\"11\">\n\
         <title>Scaling (not scored): speed-up against threads</title>\n"
    );
    // The grid and the axes' numbers: a line per speed-up step, a tick per thread count.
    let mut times = 0.0;
    while times <= top {
        let _ = writeln!(
            svg,
            "<line x1=\"{LEFT}\" y1=\"{0:.1}\" x2=\"{1:.1}\" y2=\"{0:.1}\" stroke=\"#e4e4e4\"/>\
             <text x=\"{2:.1}\" y=\"{3:.1}\" text-anchor=\"end\">{times}x</text>",
            y(times),
            LEFT + plot_width(),
            LEFT - 5.0,
            y(times) + 4.0
        );
        times += step;
    }
    for row in &rows {
        let at = x(row.threads as f64);
        let _ = writeln!(
            svg,
            "<line x1=\"{at:.1}\" y1=\"{0:.1}\" x2=\"{at:.1}\" y2=\"{1:.1}\" stroke=\"#555\"/>\
             <text x=\"{at:.1}\" y=\"{2:.1}\" text-anchor=\"middle\">{3}</text>",
            TOP + plot_height(),
            TOP + plot_height() + 4.0,
            TOP + plot_height() + 16.0,
            row.threads
        );
    }
    let _ = writeln!(
        svg,
        "<polyline points=\"{LEFT},{TOP} {LEFT},{0:.1} {1:.1},{0:.1}\" fill=\"none\" \
         stroke=\"#555\"/>\n\
         <text x=\"{2:.1}\" y=\"{3:.1}\" text-anchor=\"middle\">threads</text>\n\
         <text transform=\"translate(12 {4:.1}) rotate(-90)\" text-anchor=\"middle\">\
         speed-up</text>",
        TOP + plot_height(),
        LEFT + plot_width(),
        LEFT + plot_width() / 2.0,
        HEIGHT - 6.0,
        TOP + plot_height() / 2.0
    );
    // The lines, the ideal under the others.
    let ideal = format!(
        "{:.1},{:.1} {:.1},{:.1}",
        x(1.0),
        y(1.0),
        x(most_threads),
        y(most_threads)
    );
    let line = |value: fn(&Scale) -> f64| -> String {
        let points: Vec<String> = rows
            .iter()
            .map(|r| format!("{:.1},{:.1}", x(r.threads as f64), y(value(r))))
            .collect();
        points.join(" ")
    };
    for ((colour, dashes, _), points, width) in [
        (IDEAL, ideal, 1.5),
        (CEILING, line(|r| r.ceiling), 2.0),
        (SPEEDUP, line(|r| r.speedup), 2.5),
    ] {
        let _ = writeln!(
            svg,
            "<polyline points=\"{points}\" fill=\"none\" stroke=\"{colour}\" \
             stroke-width=\"{width}\" stroke-dasharray=\"{dashes}\"/>"
        );
    }
    for row in &rows {
        let _ = writeln!(
            svg,
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\" fill=\"{}\"/>",
            x(row.threads as f64),
            y(row.speedup),
            SPEEDUP.0
        );
    }
    // The legend, in the top left corner, where the lines start low.
    for (index, (colour, dashes, words)) in [SPEEDUP, CEILING, IDEAL].into_iter().enumerate() {
        let at = TOP + 10.0 + 15.0 * index as f64;
        let _ = writeln!(
            svg,
            "<line x1=\"{0:.1}\" y1=\"{at:.1}\" x2=\"{1:.1}\" y2=\"{at:.1}\" \
             stroke=\"{colour}\" stroke-width=\"2\" stroke-dasharray=\"{dashes}\"/>\
             <text x=\"{2:.1}\" y=\"{3:.1}\">{words}</text>",
            LEFT + 8.0,
            LEFT + 30.0,
            LEFT + 35.0,
            at + 4.0
        );
    }
    svg.push_str("</svg>");
    Some(svg)
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
        insta::assert_snapshot!("scaling_plot", scaling_svg(&sixteen()).unwrap());
    }

    #[test]
    fn two_rows_or_figures_that_are_not_numbers_are_not_plotted() {
        let rows = sixteen();
        assert_eq!(scaling_svg(&rows[..2]), None);
        let mut broken = rows.clone();
        broken[2].speedup = f64::NAN;
        broken[3].ceiling = f64::INFINITY;
        assert_eq!(scaling_svg(&broken), None);
        // Absurd figures stay inside the plot.
        let mut wild = rows;
        wild[3].speedup = 1e300;
        let svg = scaling_svg(&wild).unwrap();
        assert!(!svg.contains("NaN") && !svg.contains("inf"), "{svg}");
        assert!(svg.contains(">1024x<"), "{svg}");
    }
}
