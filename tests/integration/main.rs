//! The reference's integration tests, one test binary for the crate (as ripgrep has it): the
//! real `connect_four` program driven through its command line, terminal, grading protocol and
//! window; the engine against a deliberately simple one; the benchmark script and its Java
//! baseline. The helper modules are shared by whichever tests need them.

// Helpers.
mod binary;
#[cfg(feature = "gui")]
#[path = "../../starter/supplied/tests/support/display.rs"]
mod display;
mod jdk;
#[path = "../common/process.rs"]
mod process;
mod simple;

// Tests.
mod bench_script;
mod cli;
mod connect_m;
#[cfg(feature = "gui")]
mod gui_binary;
mod java_baseline;
mod properties;
mod protocol;
mod text;
