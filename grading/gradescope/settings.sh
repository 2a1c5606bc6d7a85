# shellcheck shell=bash disable=SC2154 # $config is the caller's
# Sourced by setup.sh and run_autograder: how they read the kit's configuration files in
# $config (build, command, options, window-build, window, not-counted).

# setting NAME: the first line of the configuration file NAME that is neither blank nor a
# comment, without surrounding spaces; empty if there is none, it is `none`, or the file is
# missing and optional (window-build and window: a kit from before them observes no window;
# not-counted: grade's default, pending).
setting() {
  local line
  if [ ! -f "$config/$1" ]; then
    case "$1" in
      window | window-build | not-counted) return 0 ;;
    esac
  fi
  line="$(sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' -- "$config/$1" \
    | grep -v -e '^#' -e '^$' | head -n 1 || true)"
  [ "$line" = none ] || printf '%s' "$line"
}

# expand TEMPLATE DIR TARGET: TEMPLATE with {dir} replaced by DIR and {target} by TARGET.
expand() {
  local text="$1"
  text="${text//\{dir\}/"$2"}"
  printf '%s' "${text//\{target\}/"$3"}"
}

# not_counted: the not-counted setting, checked: pending (also when none is set), full or zero;
# anything else is said on standard error, with status 1.
not_counted() {
  local value
  value="$(setting not-counted)"
  case "${value:-pending}" in
    pending | full | zero) printf '%s' "${value:-pending}" ;;
    *)
      echo "$config/not-counted says '$value': pending, full or zero" >&2
      return 1
      ;;
  esac
}
