#!/usr/bin/env bash
# Installs what building and testing need, on Debian or Ubuntu, and says what it does. Sourced
# by scripts/play and scripts/test; safe to run again (fast when everything is present). Nothing
# outside the repository changes but the packages named, unless `sandbox` is asked for.
#   source scripts/setup.sh [gui] [xvfb] [jdk] [chromium] [nextest] [sandbox]
#     gui       the X11 headers and a CMake >= 3.28 that FLTK's bundled build needs, and ALSA's
#               headers for the window's sounds (rodio, the `sound` feature)
#     xvfb      a virtual X server for the window tests (Xvfb, xauth, xdotool, ImageMagick, tkinter)
#     jdk       javac and java with AWT, for the tests of the benchmark's Java baseline
#               (benches/java), the grader's Java students and its Swing window fixture
#     chromium  Debian's Chromium, which the graders' gallery's test drives headless
#     nextest   cargo-nextest, the test runner scripts/test uses, compiled from crates.io into
#               cargo's bin folder if it is missing (once; minutes on 2 CPUs)
#     sandbox   for grading as root (scripts/test asks for it): opens root's home to others for
#               passing through (chmod o+x), so that the sandbox's users reach the Rust toolchain;
#               it says so, and how to undo it (chmod o-x)
# Elsewhere: install the same packages by hand (see README, "Other systems").

say() { echo "setup: $*" >&2; }

connect_four_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
packages=()
for want in "$@"; do
  case "$want" in
    gui) packages+=(libx11-dev libxext-dev libxft-dev libxinerama-dev libxcursor-dev
                    libxrender-dev libxfixes-dev libfontconfig1-dev libgl-dev libglu1-mesa-dev
                    python3-venv g++ make libasound2-dev pkg-config) ;;
    # python3-tk: the window tests' tkinter fixtures, run by the system's python3 in the sandbox.
    xvfb) packages+=(xvfb xauth xdotool imagemagick x11-utils python3-tk) ;;
    # Any JDK already on PATH will do if it has AWT's X11 library, libawt_xawt.so, in its
    # java.home: the Swing window fixture opens its window with it. A headless JDK
    # (default-jdk-headless) has none, so default-jdk, the same JDK with AWT, is installed then
    # (it adds the library to the packaged JDK; a JDK of another origin first on PATH stays
    # without it, and the Swing tests say so).
    jdk) java_home=$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.home = //p')
         command -v javac >/dev/null && [ -n "$java_home" ] && [ -e "$java_home/lib/libawt_xawt.so" ] \
           || packages+=(default-jdk) ;;
    # The gallery's test finds it on PATH as chromium.
    chromium) packages+=(chromium) ;;
  esac
done

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if ! command -v apt-get >/dev/null; then
    say "this is not a Debian-like system: install the equivalents of: ${missing[*]}"
    return 1 2>/dev/null || exit 1
  fi
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  say "installing ${missing[*]}"
  $sudo apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >&2 \
    || { say "could not install ${missing[*]}"; return 1 2>/dev/null || exit 1; }
fi

# FLTK 1.4's CMake build needs CMake 3.28 or newer; Debian 12 ships 3.25. Use the system one if
# it is new enough, otherwise a private copy from PyPI under target/tools (or under
# $CONNECT_FOUR_TOOLS when set: Gradescope's setup puts it where the sandboxed builds can reach).
cmake_ok() {
  local v
  v=$("$1" --version 2>/dev/null | head -1 | grep -oE '[0-9]+\.[0-9]+' | head -1) || return 1
  [ -n "$v" ] && [ "$(printf '%s\n3.28\n' "$v" | sort -V | head -1)" = "3.28" ]
}
if [[ " $* " == *" gui "* ]]; then
  venv="${CONNECT_FOUR_TOOLS:-$connect_four_root/target/tools}/cmake"
  if command -v cmake >/dev/null && cmake_ok cmake; then
    :
  elif cmake_ok "$venv/bin/cmake"; then
    export PATH="$venv/bin:$PATH"
  else
    say "installing CMake >= 3.28 into $venv (from PyPI)"
    python3 -m venv "$venv" >&2 && "$venv/bin/pip" install -q 'cmake>=3.28,<4' >&2 \
      || { say "could not install CMake"; return 1 2>/dev/null || exit 1; }
    export PATH="$venv/bin:$PATH"
  fi
fi

if [[ " $* " == *" nextest "* ]] && ! cargo nextest --version >/dev/null 2>&1; then
  say "installing cargo-nextest (cargo install --locked cargo-nextest: compiled, once)"
  cargo install --locked --quiet cargo-nextest >&2 \
    || { say "could not install cargo-nextest"; return 1 2>/dev/null || exit 1; }
fi

# The grading kit's sandbox runs students' builds and programs as unprivileged users of their
# own when it runs as root (as CI does, and Gradescope): they must reach the Rust toolchain that
# rustup keeps in root's home. Let others pass through that folder, never list it. Only what
# grades asks for this (`sandbox`): playing needs no other user.
toolchain="${RUSTUP_HOME:-$HOME/.rustup}"
if [[ " $* " == *" sandbox "* ]] && [ "$(id -u)" -eq 0 ] && [ -d "$toolchain" ] \
  && [ "${toolchain#"$HOME"/}" != "$toolchain" ] && [ $(( 8#$(stat -c %a "$HOME") & 1 )) -eq 0 ]; then
  say "letting the grader's sandbox users pass through $HOME to the Rust toolchain: chmod o+x $HOME (undo: chmod o-x $HOME)"
  chmod o+x "$HOME"
fi
