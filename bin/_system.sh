# Shared by bin/serve and bin/test: the Debian packages and the sandbox users Catleague needs.
# Usage: . bin/_system.sh serve|test
#
# As root it installs what is missing (apt-get) and creates the bots' users; it says nothing
# when everything is already there. As a normal user it installs nothing: for each missing
# piece it prints the exact command to run once, and carries on (the arena then uses the
# strongest sandbox that works without root, and tests that need what is missing skip, saying
# why). Sets CATLEAGUE_SYSTEM_MISSING to a short list of what is still missing.

_catleague_system() {
    local purpose="$1" root
    root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
    # bubblewrap jails each bot; libseccomp2 builds its syscall filter; /usr/bin/python3 runs
    # it (the python on PATH may be unreadable once a bot drops to its own uid); python3-venv
    # makes the project's .venv on a Debian whose python3 lacks ensurepip.
    local wanted=(bubblewrap libseccomp2 python3 python3-venv)
    if [ "$purpose" = test ]; then
        wanted+=(chromium chromium-driver)  # the browser tests drive Debian's own Chromium
    fi
    # pg_dump and pg_restore back a PostgreSQL database up and restore it (manage.py backup /
    # restore): for bin/test, which runs on PostgreSQL, and when DATABASE_URL names one. Any
    # version's package that provides them will do (Debian's postgresql-client-15 does).
    if [ "$purpose" = test ] || [[ "${DATABASE_URL:-}" =~ ^(postgres|postgresql|pgsql): ]]; then
        if ! command -v pg_dump >/dev/null || ! command -v pg_restore >/dev/null; then
            wanted+=(postgresql-client)
        fi
    fi
    local missing=() pkg
    for pkg in "${wanted[@]}"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" \
            || missing+=("$pkg")
    done
    CATLEAGUE_SYSTEM_MISSING=""
    if [ "$(id -u)" = 0 ]; then
        if [ ${#missing[@]} -gt 0 ]; then
            echo "==> installing system packages: ${missing[*]}"
            export DEBIAN_FRONTEND=noninteractive
            apt-get update -qq
            apt-get install -y -qq "${missing[@]}" >/dev/null
        fi
        "$root/scripts/setup-sandbox.sh" --quiet
        return 0
    fi
    if [ ${#missing[@]} -gt 0 ]; then
        CATLEAGUE_SYSTEM_MISSING="${missing[*]}"
        echo "==> missing system packages: ${missing[*]}; run once:"
        echo "      sudo apt-get install -y ${missing[*]}"
    fi
    if [ "$purpose" = serve ] || [ "$purpose" = test ]; then
        if ! getent passwd "${CATLEAGUE_BOT_USER_PREFIX:-catleague-bot}0" >/dev/null; then
            echo "==> not root: bots run in rootless bubblewrap (your own uid in a user namespace)."
            echo "    For a dedicated uid per bot (what a public arena should use), run once:"
            echo "      sudo $root/scripts/setup-sandbox.sh   and start the worker as root"
        fi
    fi
}
_catleague_system "${1:?usage: . bin/_system.sh serve|test}"
export CATLEAGUE_SYSTEM_MISSING
