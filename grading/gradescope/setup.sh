#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder image from the kit unpacked
# in /autograder/source. It installs the toolchains a submission may need (C/C++, curl,
# Python 3, a JDK, and Rust with rustup), builds the reference and the grader without the GUI,
# checks the kit's stored answers, lets the sandbox's users reach the Rust toolchain (not the
# kit), and warms the cargo cache: it builds a copy of the starter
# project once with the configured build (grading/gradescope/build) into the cargo target
# directory that run_autograder builds every submission in, so that the starter's locked
# dependencies are downloaded and compiled here, not for every submission.
set -euo pipefail

kit=/autograder/source
# Must be run_autograder's default CARGO_TARGET_DIR.
target=/autograder/cargo-target

echo "setup: installing build-essential, curl, python3 and a JDK"
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends \
  build-essential ca-certificates curl python3 default-jdk-headless

echo "setup: installing Rust (rustup, stable, minimal profile)"
curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal
# shellcheck disable=SC1091
source "$HOME/.cargo/env"

# The sandbox runs each student's build and program as an unprivileged uid of its own, which
# must reach the Rust toolchain that rustup put under /root: let others pass through /root (not
# list it); everything else there stays out of reach, and Landlock confines them anyway.
chmod o+x /root
# The kit, its answers, the secret seed and the reference: root's alone, a second wall behind
# the sandbox's rules.
chmod 700 "$kit"

echo "setup: building the reference and the grader"
cd "$kit"
cargo build --release --no-default-features --locked
# Fail the image build now, not at the first submission, if the kit is inconsistent.
./target/release/grade check --kit grading

# The configured build: the first line of the file that is neither blank nor a comment.
build="$(sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' grading/gradescope/build \
  | grep -v -e '^#' -e '^$' | head -n 1 || true)"
case "$build" in
  cargo\ *)
    echo "setup: warming the cargo cache in $target: $build, on a copy of the starter"
    # A copy outside the kit, as a submission is, so that it builds exactly as a submission will
    # and what is compiled here is reused.
    warm="$(mktemp -d)"
    cp -r starter "$warm/connect_four"
    build="${build//\{dir\}/"$warm/connect_four"}"
    (cd "$warm/connect_four" && CARGO_TARGET_DIR="$target" sh -c "${build//\{target\}/"$target"}")
    rm -rf "$warm"
    # The starter's own program would otherwise stand in for a submission whose build makes none.
    rm -f "$target/release/connect_four"
    ;;
  *)
    echo "setup: the configured build is not cargo's ('$build'): no cargo cache to warm"
    ;;
esac
echo "setup: done"
