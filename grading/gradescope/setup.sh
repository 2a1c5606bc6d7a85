#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder image from the kit unpacked
# in /autograder/source. It installs the toolchains a submission may need (C/C++, curl,
# Python 3, a JDK, and Rust with rustup), builds the reference and the grader without the GUI,
# checks the kit's stored answers, lets the sandbox's users reach the Rust toolchain (not the
# kit), and warms the cargo cache: it builds a copy of the starter
# project once with the configured build (grading/gradescope/build) into the cargo target
# directory that run_autograder builds every submission in, so that the starter's locked
# dependencies are downloaded and compiled here, not for every submission. When the kit observes
# windows (grading/gradescope/window), it also installs Xvfb and the observer's tools, and for a
# cargo window build what FLTK's build needs, and warms that build's cache the same way.
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
echo "setup: letting the sandbox's users pass through /root to the Rust toolchain: chmod o+x /root (undo: chmod o-x /root)"
chmod o+x /root
# The kit, its answers, the secret seed and the reference: root's alone, a second wall behind
# the sandbox's rules.
chmod 700 "$kit"

echo "setup: building the reference and the grader"
cd "$kit"
cargo build --release --no-default-features --locked
# Fail the image build now, not at the first submission, if the kit is inconsistent.
./target/release/grade check --kit grading

config="$kit/grading/gradescope"
# shellcheck source=settings.sh
source "$config/settings.sh"
# Fail the image build now, not at every submission, if the not-counted setting is not one.
not_counted >/dev/null

# warm NAME TEMPLATE: runs the cargo build TEMPLATE (the configured NAME) once on a copy of the
# starter, into the shared target directory, so that what it compiles is reused by every
# submission; anything else warms nothing.
warm() {
  case "$2" in
    cargo\ *)
      echo "setup: warming the cargo cache in $target: $1: $2, on a copy of the starter"
      # A copy outside the kit, as a submission is, so that it builds exactly as a submission
      # will and what is compiled here is reused.
      local copy
      copy="$(mktemp -d)/connect_four"
      cp -r starter "$copy"
      (cd "$copy" && CARGO_TARGET_DIR="$target" sh -c "$(expand "$2" "$copy" "$target")")
      rm -rf "$(dirname "$copy")"
      ;;
    *)
      echo "setup: the configured $1 is not cargo's ('$2'): no cargo cache to warm"
      ;;
  esac
}

warm build "$(setting build)"
# The starter's own program would otherwise stand in for a submission whose build makes none.
rm -f "$target/release/connect_four"

window="$(setting window)"
if [ -n "$window" ]; then
  window_build="$(setting window-build)"
  wants=(xvfb)
  case "$window_build" in
    cargo\ *) wants+=(gui) ;;
  esac
  case "$window" in
    # A Swing or AWT window needs a JDK with AWT; the headless one above has none.
    java\ *) wants+=(jdk) ;;
  esac
  echo "setup: the window is observed ('$window'): installing what that needs (${wants[*]})"
  # The project's own installer: Xvfb, xauth, xdotool, ImageMagick, tkinter, for a cargo
  # window build FLTK's X11 headers and a CMake >= 3.28, put where the sandboxed builds reach
  # it, and for a Java window a JDK with AWT.
  # shellcheck source=../../scripts/setup.sh
  CONNECT_FOUR_TOOLS=/opt/connect_four-tools source "$kit/scripts/setup.sh" "${wants[@]}"
  # On every user's PATH, unless it is there already (a link to itself would lose it).
  cmake="$(command -v cmake || true)"
  if [ -n "$cmake" ] && [ "$cmake" != /usr/local/bin/cmake ]; then
    ln -sf "$cmake" /usr/local/bin/cmake
  fi
  warm window-build "$window_build"
  # Likewise the starter's own window: the configured window's program, if the build left it in
  # the shared target directory.
  program="$(expand "${window%% *}" /nonexistent "$target")"
  case "$program" in
    "$target"/*) rm -f "$program" ;;
  esac
fi
echo "setup: done"
