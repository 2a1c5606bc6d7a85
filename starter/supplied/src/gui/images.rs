//! The checker pictures, embedded in the binary so the window runs from any directory. They
//! are the PNG files in `images/`, made by `scripts/make-images`: 75 x 75 each, a disc on a
//! board-blue square, and a gold-ringed form of each player's disc for a winning line.

use fltk::image::PngImage;
use fltk::prelude::ImageExt;

use crate::checker::Checker;

/// The side of a cell, in pixels: every picture is this wide and high.
pub const CELL: i32 = 75;

/// What one cell shows: its checker, and whether it is one of the winning line's checkers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Look {
    /// The checker in the cell (`Empty` for a hole).
    pub checker: Checker,
    /// Whether the cell is part of the winning line, drawn with a gold ring.
    pub won: bool,
}

/// The decoded pictures, one per [`Look`].
pub struct Images {
    empty: PngImage,
    red: PngImage,
    black: PngImage,
    red_won: PngImage,
    black_won: PngImage,
}

impl Images {
    /// Decodes the embedded pictures; fails only if a file in `images/` was replaced by a bad one.
    pub fn load() -> Result<Images, String> {
        let decode = |name: &str, bytes: &[u8]| {
            let image = PngImage::from_data(bytes)
                .map_err(|e| format!("the embedded picture {name} is not a PNG: {e}"))?;
            if (image.data_w(), image.data_h()) == (CELL, CELL) {
                Ok(image)
            } else {
                Err(format!(
                    "the embedded picture {name} is not {CELL} x {CELL} pixels"
                ))
            }
        };
        Ok(Images {
            empty: decode("empty.png", include_bytes!("../../images/empty.png"))?,
            red: decode("red.png", include_bytes!("../../images/red.png"))?,
            black: decode("black.png", include_bytes!("../../images/black.png"))?,
            red_won: decode("red-won.png", include_bytes!("../../images/red-won.png"))?,
            black_won: decode(
                "black-won.png",
                include_bytes!("../../images/black-won.png"),
            )?,
        })
    }

    /// The picture for a cell that looks like `look` (an empty cell is never ringed).
    pub fn get(&self, look: Look) -> PngImage {
        let image = match (look.checker, look.won) {
            (Checker::Empty, _) => &self.empty,
            (Checker::Red, false) => &self.red,
            (Checker::Black, false) => &self.black,
            (Checker::Red, true) => &self.red_won,
            (Checker::Black, true) => &self.black_won,
        };
        image.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_picture_decodes_at_the_cell_size() {
        let images = Images::load().unwrap();
        for checker in [Checker::Empty, Checker::Red, Checker::Black] {
            for won in [false, true] {
                let image = images.get(Look { checker, won });
                assert_eq!((image.data_w(), image.data_h()), (CELL, CELL));
            }
        }
    }
}
