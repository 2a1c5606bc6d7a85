#!/usr/bin/env bash
# Builds the Gradescope autograder zip from the committed tree: the repository with setup.sh and
# run_autograder at its root, as Gradescope expects. Usage: grading/gradescope/make_zip.sh [OUT.zip]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="$(realpath -m "${1:-autograder.zip}")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

git -C "$root" archive --format=tar HEAD | tar -x -C "$work"
cp "$root/grading/gradescope/setup.sh" "$root/grading/gradescope/run_autograder" "$work/"
rm -f "$out"
(cd "$work" && zip -qr "$out" .)
echo "make_zip: wrote $out"
