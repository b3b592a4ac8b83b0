#!/usr/bin/env bash
# Prepare this machine for sandboxed bots (see docs/sandbox.md). Idempotent; run as root by
# bin/test and CI. Creates one unprivileged system user per concurrent bot slot, because
# RLIMIT_NPROC counts every process of a real uid: with a uid per slot, one bot's fork bomb
# cannot starve another bot's start-up. Checks that bubblewrap, setpriv and prlimit exist.
set -euo pipefail

quiet=0
[ "${1:-}" = "--quiet" ] && quiet=1  # say nothing when there is nothing to do

prefix="${CATLEAGUE_BOT_USER_PREFIX:-catleague-bot}"
slots="${CATLEAGUE_BOT_SLOTS:-16}"

if [ "$(id -u)" -ne 0 ]; then
    echo "setup-sandbox: not root; skipping user creation (only the 'unsafe' development mode will work)" >&2
    exit 0
fi

for tool in setpriv prlimit; do
    command -v "$tool" >/dev/null || { echo "setup-sandbox: '$tool' (util-linux) is missing" >&2; exit 1; }
done
if ! command -v bwrap >/dev/null; then
    echo "setup-sandbox: bubblewrap is missing (apt-get install -y bubblewrap); bots will use the weaker rlimits-seccomp mode" >&2
fi
[ -x /usr/bin/python3 ] || { echo "setup-sandbox: /usr/bin/python3 is missing; jailed bots need it" >&2; exit 1; }

created=0
for i in $(seq 0 $((slots - 1))); do
    name="${prefix}${i}"
    if ! getent passwd "$name" >/dev/null; then
        useradd --system --user-group --no-create-home --home-dir /nonexistent \
            --shell /usr/sbin/nologin --comment "Catleague bot sandbox slot $i" "$name"
        created=$((created + 1))
    fi
done
if [ "$quiet" = 0 ] || [ "$created" -gt 0 ]; then
    echo "setup-sandbox: $slots bot slot users (${prefix}0..$((slots - 1))), $created new"
fi
