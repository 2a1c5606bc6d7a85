#!/usr/bin/env bash
# Builds the Gradescope autograder zip from the repository's working tree, with setup.sh and
# run_autograder also at the zip's root, as Gradescope expects, and the instructor's
# grading/secret.toml (git-ignored) when there is one.
#
# The files are chosen as `grade pack` chooses them (grader/src/commands/source.rs), so that the
# zip and the students' kit come from the same source: in a git checkout, those that
# `git ls-files --cached --others --exclude-standard` lists (tracked, and untracked but not
# ignored: never target/ nor grading/secret.toml); outside one, every file but target/ folders
# (and the secret, copied on its own). Changes that are not committed (`git status`) are
# refused, so that the zip is what the repository holds, unless --allow-uncommitted is given:
# then they are packed with a warning that names them.
#
# Usage: grading/gradescope/make_zip.sh [--allow-uncommitted] [OUT.zip]
set -euo pipefail

usage="usage: make_zip.sh [--allow-uncommitted] [OUT.zip]"
allow=false
out=""
for argument in "$@"; do
  case "$argument" in
    --allow-uncommitted) allow=true ;;
    -h | --help)
      echo "$usage"
      exit 0
      ;;
    -*)
      echo "make_zip: unknown option $argument; $usage" >&2
      exit 2
      ;;
    *)
      if [ -n "$out" ]; then
        echo "make_zip: one zip at a time; $usage" >&2
        exit 2
      fi
      out="$argument"
      ;;
  esac
done

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="$(realpath -m "${out:-autograder.zip}")"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
work="$scratch/zip"
mkdir "$work"

if git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>"$scratch/git.err"; then
  changes="$(git -C "$root" status --porcelain --untracked-files=all)"
  if [ -n "$changes" ] && [ "$allow" = false ]; then
    {
      echo "make_zip: changes not committed in what it packs (git status --short):"
      sed 's/^/  /' <<<"$changes"
      echo "commit them, or pass --allow-uncommitted to pack the working tree as it is"
    } >&2
    exit 1
  fi
  if [ -n "$changes" ]; then
    {
      echo "make_zip: warning: packing changes not committed (git status --short):"
      sed 's/^/  /' <<<"$changes"
    } >&2
  fi
  # A tracked file deleted from the working tree is not packed (git status lists it).
  git -C "$root" ls-files -z --cached --others --exclude-standard |
    while IFS= read -r -d '' file; do
      if [ -e "$root/$file" ] || [ -L "$root/$file" ]; then
        printf '%s\0' "$file"
      fi
    done |
    tar -C "$root" --null --no-recursion -T - -cf - | tar -x -C "$work"
else
  echo "make_zip: no git checkout to check (git says: $(head -n 1 "$scratch/git.err")): packing \
the files of $root as they are; nothing could be checked for changes not committed" >&2
  tar -C "$root" --exclude=target --exclude=./grading/secret.toml -cf - . | tar -x -C "$work"
fi
cp "$here/setup.sh" "$here/run_autograder" "$work/"
# The instructor's seed of the held-out cases is git-ignored, so not among the files: the
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
