#!/usr/bin/env bash
# Builds the Gradescope autograder zip: the committed tree of the repository, with this
# directory (setup.sh, run_autograder and the configuration: build, command, options) as it is
# in the working tree, so that an edited configuration is uploaded even before it is committed,
# and with setup.sh and run_autograder also at the zip's root, as Gradescope expects.
# Usage: grading/gradescope/make_zip.sh [OUT.zip]
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$(realpath -m "${1:-autograder.zip}")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

git -C "$root" archive --format=tar HEAD | tar -x -C "$work"
cp "$here"/* "$work/grading/gradescope/"
cp "$here/setup.sh" "$here/run_autograder" "$work/"
rm -f "$out"
(cd "$work" && zip -qr "$out" .)
echo "make_zip: wrote $out"
for name in build command options; do
  echo "make_zip: $name: $(grep -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$here/$name" | head -n 1)"
done
