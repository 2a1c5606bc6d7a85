//! The supplied crate's integration tests, one binary with shared helper modules: the grading
//! protocol served to a game that is not the reference (`protocol`), and the window driven as a
//! person would use it (`window`, feature `gui`); `support` holds the tiny game they play and
//! the X display the window needs.
//!
//! The harness is our own (`harness = false`, with `libtest-mimic`) because of FLTK: its state
//! (the display connection, the one message queue every window's channel shares) belongs to
//! the process and must be driven from the thread that started it, while Rust's built-in
//! harness runs each `#[test]` on a new thread, several at once. Here each window scenario is a
//! trial of its own, listed by name (`cargo test -p connect_four_supplied -- --list`) and run
//! alone by name (`cargo test -p connect_four_supplied window::keys`), and every trial runs on
//! the main thread, one after another, whatever `--test-threads` says. A `#[test]` attribute
//! does nothing here: a test is a function listed with [`tests!`] in its module.

/// The named tests of the module it is used in: `tests![f, g]` lists `f` and `g`, each named by
/// its module path and function name. A function left out is never called, and the compiler
/// says so.
macro_rules! tests {
    ($($test:ident),+ $(,)?) => {
        vec![$($crate::Test {
            path: concat!(module_path!(), "::", stringify!($test)),
            run: $test,
        }),+]
    };
}

mod protocol;
mod support;
#[cfg(feature = "gui")]
mod window;

use libtest_mimic::{Arguments, Trial};

/// One test: its function, and where it is (this crate's name first).
struct Test {
    path: &'static str,
    run: fn(),
}

impl Test {
    /// The test's name as listed and filtered: its path without this crate's name, such as
    /// `protocol::refusals_are_named_as_the_protocol_says`.
    fn name(&self) -> &'static str {
        self.path
            .split_once("::")
            .map_or(self.path, |(_, name)| name)
    }

    /// A trial that runs the test; it fails if the test panics.
    fn trial(self) -> Trial {
        Trial::test(self.name(), move || {
            (self.run)();
            Ok(())
        })
    }
}

fn main() {
    let mut arguments = Arguments::from_args();
    arguments.test_threads = Some(1);
    let trials: Vec<Vec<Trial>> = vec![
        protocol::tests().into_iter().map(Test::trial).collect(),
        #[cfg(feature = "gui")]
        window::trials(),
    ];
    let conclusion = libtest_mimic::run(&arguments, trials.into_iter().flatten().collect());
    #[cfg(feature = "gui")]
    window::stop_display();
    conclusion.exit();
}
