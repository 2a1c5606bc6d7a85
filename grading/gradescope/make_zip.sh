#!/usr/bin/env bash
# Builds the Gradescope autograder zip: the committed tree of the repository, with this
# directory (setup.sh, run_autograder, settings.sh and the configuration: build, command,
# options, not-counted, window-build, window) as it is in the working tree, so that an edited
# configuration is uploaded even before it is committed, and with setup.sh and run_autograder
# also at the zip's root, as Gradescope expects.
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
# The instructor's seed of the held-out cases is git-ignored, so not in the archive: the
# autograder (which students never see) gets it here.
if [ -f "$root/grading/secret.toml" ]; then
  cp "$root/grading/secret.toml" "$work/grading/"
  echo "make_zip: held-out cases: the secret seed is in the zip"
else
  echo "make_zip: no grading/secret.toml: no held-out cases will be graded (see grading/README.md)" >&2
fi
rm -f "$out"
(cd "$work" && zip -qr "$out" .)
echo "make_zip: wrote $out"
# The settings as run_autograder reads them.
config="$here"
# shellcheck source=settings.sh
source "$here/settings.sh"
for name in build command options not-counted window-build window; do
  value="$(setting "$name")"
  echo "make_zip: $name: ${value:-none}"
done
