#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder image: it installs a Rust
# toolchain and the usual student toolchains (Python, Java, C/C++), then builds the reference
# program and the grader, without the GUI, from the kit unpacked in /autograder/source.
set -euo pipefail

apt-get update
apt-get install -y --no-install-recommends \
  build-essential ca-certificates curl python3 default-jdk-headless
curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal
# shellcheck disable=SC1091
source "$HOME/.cargo/env"

cd /autograder/source
cargo build --release --no-default-features
# Fail the image build now, not at the first submission, if the kit is inconsistent.
./target/release/grade --check --kit grading
