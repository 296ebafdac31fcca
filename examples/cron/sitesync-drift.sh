#!/usr/bin/env bash
# sitesync drift check for cron: runs `sitesync plan --detailed-exitcode` under a lock and logs the outcome.
#
#   sitesync-drift.sh [sitesync plan flags...]       e.g.  sitesync-drift.sh -c /etc/sitesync/sitesync.yaml
#
# Prints nothing when the account matches the config, so cron sends no mail; prints the plan on drift and
# the error on failure, so cron mails exactly those. Exit codes are sitesync's (0 no drift, 2 drift,
# 1 error, 4 refused by a safety rail), except a run skipped because another one holds the lock: 0, and any
# other failure to run (no sitesync found, no node for it, killed): 1.
#
# Environment (all optional):
#   SITESYNC_ENV_FILE  file of VAR=value lines to load first (SITESYNC_API_KEY, passwords); keep it chmod 600,
#                      so no secret sits in the crontab
#   SITESYNC_BIN       the sitesync command, also read from SITESYNC_ENV_FILE: an absolute path, or a command
#                      and its arguments split at spaces, e.g.
#                      "/opt/node24/bin/node /opt/app/node_modules/sitesync/bin/sitesync.js"
#                      (default: sitesync on PATH; when this script is the copy inside an installed package,
#                      that install's bin folder comes first, so `npm install -g sitesync` needs no setting)
#   SITESYNC_LOG       log file (default: ~/.local/state/sitesync/drift.log)
#   SITESYNC_LOCK      lock file (default: ${XDG_RUNTIME_DIR:-/tmp}/sitesync-drift.lock)
set -uo pipefail

log_file=${SITESYNC_LOG:-${HOME:-/tmp}/.local/state/sitesync/drift.log}
lock_file=${SITESYNC_LOCK:-${XDG_RUNTIME_DIR:-/tmp}/sitesync-drift.lock}

# Every line gets a timestamp, so a log that grows for months stays searchable.
log() {
  local stamp line
  stamp=$(date '+%Y-%m-%dT%H:%M:%S%z')
  for line in "$@"; do printf '%s %s\n' "$stamp" "$line"; done >>"$log_file"
}
log_output() {
  local stamp line
  stamp=$(date '+%Y-%m-%dT%H:%M:%S%z')
  while IFS= read -r line; do printf '%s   | %s\n' "$stamp" "$line"; done <"$1" >>"$log_file"
}

mkdir -p "$(dirname "$log_file")" || exit 1
if ! command -v flock >/dev/null 2>&1; then
  echo "sitesync-drift: flock not found (it is part of util-linux)" >&2
  exit 1
fi

# One run at a time: a check that outlives its interval (a slow API) must not pile up behind itself.
exec 9>>"$lock_file" || exit 1
if ! flock -n 9; then
  log "skipped: another drift check holds $lock_file"
  exit 0
fi

# Errors of the wrapper itself: to the log, and to stderr so that cron mails them.
fail() {
  log "ERROR (exit 1): $1"
  echo "$1" >&2
  exit 1
}

if [[ -n ${SITESYNC_ENV_FILE:-} ]]; then
  # Checked first, so that cron mails what to fix rather than bash's own "No such file or directory".
  if [[ ! -f $SITESYNC_ENV_FILE || ! -r $SITESYNC_ENV_FILE ]]; then
    fail "sitesync-drift: SITESYNC_ENV_FILE is $SITESYNC_ENV_FILE, which is not a readable file: create it (VAR=value lines such as SITESYNC_API_KEY=..., chmod 600), or fix the path in the crontab"
  fi
  set -a
  # shellcheck disable=SC1090
  env_errors=$(mktemp) || exit 1
  . "$SITESYNC_ENV_FILE" 2>"$env_errors" || {
    errors=$(head -c 500 "$env_errors")
    rm -f "$env_errors"
    fail "sitesync-drift: SITESYNC_ENV_FILE $SITESYNC_ENV_FILE is not a file of VAR=value lines: $errors"
  }
  rm -f "$env_errors"
  set +a
fi

# The command to run. cron's PATH is short (/usr/bin:/bin), so when this is the copy inside an installed
# package, put that install's bin folder first: <prefix>/bin beside <prefix>/lib/node_modules (npm install -g,
# which usually holds the node that installed it too) or <project>/node_modules/.bin (a local install).
if [[ -n ${SITESYNC_BIN:-} ]]; then
  read -r -a sitesync <<<"$SITESYNC_BIN"
else
  modules=$(dirname "$(dirname "$(dirname "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")")")")
  if [[ $(basename "$modules") == node_modules ]]; then
    PATH="$modules/.bin:$PATH"
    if [[ $(basename "$(dirname "$modules")") == lib ]]; then PATH="$(dirname "$(dirname "$modules")")/bin:$PATH"; fi
    export PATH
  fi
  sitesync=(sitesync)
fi

if [[ ${#sitesync[@]} -eq 0 ]] || ! command -v "${sitesync[0]}" >/dev/null 2>&1; then
  message="sitesync-drift: cannot run \`${sitesync[0]:-}\` (PATH is $PATH): install it with \`npm install -g sitesync\`,"
  message+=" or set SITESYNC_BIN to its absolute path, e.g."
  message+=" SITESYNC_BIN=\"/path/to/node /path/to/node_modules/sitesync/bin/sitesync.js\""
  fail "$message"
fi

output=$(mktemp) || exit 1
trap 'rm -f "$output"' EXIT

# --quiet: nothing on stdout when there is no drift. NO_COLOR: plain text for the log and the mail.
NO_COLOR=1 "${sitesync[@]}" plan --detailed-exitcode --quiet "$@" >"$output" 2>&1
code=$?

case $code in
  0)
    log "no drift"
    ;;
  2)
    log "DRIFT: the account differs from the config; \`sitesync apply\` would make these changes:"
    log_output "$output"
    cat "$output"
    ;;
  4)
    log "REFUSED (exit 4): a safety rail refused the plan:"
    log_output "$output"
    cat "$output" >&2
    ;;
  3)
    # plan never applies, so never exits 3; say so rather than guess.
    log "error: unexpected exit 3 (apply failures) from a plan:"
    log_output "$output"
    cat "$output" >&2
    ;;
  *)
    # The Node that runs sitesync is too old (cron's PATH often finds the system's), or there is none.
    if grep -q "sitesync needs Node" "$output" || ((code == 126 || code == 127)); then
      hint="sitesync-drift: the Node found on PATH ($PATH) cannot run sitesync; set SITESYNC_BIN in SITESYNC_ENV_FILE to a"
      hint+=" Node 22.12 or later and sitesync's bin, e.g. SITESYNC_BIN=\"/opt/node24/bin/node /usr/local/lib/node_modules/sitesync/bin/sitesync.js\""
      echo "$hint" >>"$output"
    fi
    log "ERROR (exit $code): the drift check did not run to the end:"
    log_output "$output"
    cat "$output" >&2
    ;;
esac
# 126/127 (found but not runnable: e.g. no `node` on cron's PATH), signals: an error like any other.
if ((code > 4)); then code=1; fi
exit "$code"
