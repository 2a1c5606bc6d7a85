//! The grading kit's integration tests, one test binary (laid out as ripgrep's): each module
//! drives the real `grade` binary (and the reference's `connect_four`) for one concern, and
//! `support` holds what they share. One binary links once, and its tests run in one pool.
//!
//! What they need besides Rust: `python3` (the fixture students), `sh` and `bash`, a JDK
//! (`javac` and `java`, for the Java submission; without one that test is skipped with a note,
//! but fails when `CI` is set), cargo's `clippy` and `rustfmt` (the starter is checked as a
//! student's project), the starter's locked crates (fetched by cargo, or already in its
//! registry), the reference's binary, which `cargo test --workspace` builds, and for the window
//! tests Xvfb, xdotool, ImageMagick and the system's python3 with tkinter (`scripts/setup.sh
//! xvfb`), for the Swing window a JDK with AWT (`scripts/setup.sh jdk`), and for the gallery's
//! tests Chromium (`scripts/setup.sh chromium`); without them those tests are skipped with a
//! note, but fail when `CI` is set. The
//! timed tests ([`timed`]) are `#[ignore]`d: `scripts/test` runs them alone, after the rest.

mod build_step;
mod classroom;
mod connect_m;
mod designs;
mod disguise;
mod feedback;
mod gallery;
mod grade_again;
mod grade_kit;
mod gradebook_exports;
mod gradescope;
mod gradescope_download;
mod handing_out;
mod handout;
mod hostile;
mod inert;
mod journal;
mod last_mile;
mod matchup;
mod naming;
mod outside;
mod packing;
mod progress;
mod reconciliation;
mod repeatability;
mod robustness;
mod scaling;
mod similarity;
mod snapshots;
mod student_journey;
mod style;
mod supplied_check;
mod support;
mod threading;
mod timed;
mod tree;
mod window;
