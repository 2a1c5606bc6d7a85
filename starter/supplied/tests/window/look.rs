//! What the window shows, read from the pixels it actually draws (the window drawn into an
//! image): the checker and ring in each cell, the hint's ink, the keyboard's frame.

use connect_four_supplied::gui::{GameWindow, CELL};
use connect_four_supplied::Analyze;
use fltk::image::RgbImage;
use fltk::prelude::*;
use fltk::surface::ImageSurface;

use super::drive::pause;

/// Whether the bottom cell of column `col` shows the keyboard's frame on its left edge.
pub(super) fn marked<G: Analyze + Send + 'static>(gui: &GameWindow<G>, col: usize) -> bool {
    let image = capture(gui);
    let (x, y) = gui.cell_center(gui.size().0 - 1, col);
    let at = (((y * image.data_w()) + x - CELL / 2 + 1) * 3) as usize;
    image.to_rgb_data()[at..at + 3] == [255, 255, 255]
}

/// The window drawn into an image, exactly as it is drawn on the screen.
pub(super) fn capture<G: Analyze + Send + 'static>(gui: &GameWindow<G>) -> RgbImage {
    let window = gui.window();
    pause(0.0);
    let surface = ImageSurface::new(window.w(), window.h(), false);
    ImageSurface::push_current(&surface);
    surface.draw(&window, 0, 0);
    let image = surface
        .image()
        .expect("the window can be drawn into an image");
    ImageSurface::pop_current();
    image
}

/// What the cell at (`row`, `col`) shows in `image`: `.` empty, `R` red, `B` black, with `*`
/// after a ringed (winning) checker. The cell must be in view.
pub(super) fn look<G: Analyze + Send + 'static>(
    gui: &GameWindow<G>,
    image: &RgbImage,
    row: usize,
    col: usize,
) -> String {
    let (width, pixels) = (image.data_w(), image.to_rgb_data());
    let nearest = |(x, y): (i32, i32), palette: &[((i32, i32, i32), &'static str)]| {
        let at = ((y * width + x) * 3) as usize;
        let seen = pixels[at..at + 3].iter().map(|&v| i32::from(v));
        let distance = |(r, g, b): (i32, i32, i32)| {
            seen.clone()
                .zip([r, g, b])
                .map(|(a, b)| (a - b).pow(2))
                .sum::<i32>()
        };
        palette
            .iter()
            .min_by_key(|(colour, _)| distance(*colour))
            .unwrap()
            .1
    };
    let discs = [
        ((242, 242, 242), "."),
        ((224, 32, 27), "R"),
        ((34, 34, 34), "B"),
    ];
    let rings = [((31, 79, 180), ""), ((255, 210, 31), "*")];
    let (x, y) = gui.cell_center(row, col);
    format!(
        "{}{}",
        nearest((x, y), &discs),
        nearest((x, y - 32), &rings)
    )
}

/// How many dark pixels (text) the middle of the cell at (`row`, `col`) shows in `image`: a
/// box in the light hole, clear of its rim, where the hint writes its numbers.
pub(super) fn ink<G: Analyze + Send + 'static>(
    gui: &GameWindow<G>,
    image: &RgbImage,
    row: usize,
    col: usize,
) -> usize {
    let (width, pixels) = (image.data_w(), image.to_rgb_data());
    let (x, y) = gui.cell_center(row, col);
    let dark = |(dx, dy): (i32, i32)| {
        let at = (((y + dy) * width + x + dx) * 3) as usize;
        pixels[at..at + 3].iter().all(|&v| v < 128)
    };
    (-15..=15)
        .flat_map(|dx| (-10..=10).map(move |dy| (dx, dy)))
        .filter(|&offset| dark(offset))
        .count()
}

/// What every cell shows, row by row, as [`look`] spells it. The whole board must be in view.
pub(super) fn screen<G: Analyze + Send + 'static>(gui: &GameWindow<G>) -> Vec<Vec<String>> {
    let image = capture(gui);
    let (rows, cols) = gui.size();
    (0..rows)
        .map(|row| (0..cols).map(|col| look(gui, &image, row, col)).collect())
        .collect()
}

pub(super) fn assert_board<G: Analyze + Send + 'static>(gui: &GameWindow<G>, expected: &[&str]) {
    let rows: Vec<String> = screen(gui).iter().map(|row| row.concat()).collect();
    assert_eq!(rows, expected, "the board on the screen");
}

/// Like [`assert_board`], for the `bottom` rows of the board; every row above is empty.
pub(super) fn assert_bottom<G: Analyze + Send + 'static>(gui: &GameWindow<G>, bottom: &[&str]) {
    let (rows, cols) = gui.size();
    let empty = ".".repeat(cols);
    let above = vec![empty.as_str(); rows - bottom.len()];
    assert_board(gui, &[&above[..], bottom].concat());
}

/// How many cells on the screen show exactly `look` (as [`screen`] spells it).
pub(super) fn count<G: Analyze + Send + 'static>(gui: &GameWindow<G>, look: &str) -> usize {
    screen(gui)
        .iter()
        .flatten()
        .filter(|cell| *cell == look)
        .count()
}
