# Shared by bin/serve and bin/test: make .venv with the pinned requirements, once per change.
# Usage: . bin/_venv.sh REQUIREMENTS_FILE
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PYTHON="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
    echo "==> creating .venv with $($PYTHON --version)"
    "$PYTHON" -m venv .venv
fi
req_file="$1"
stamp=".venv/.installed-$(basename "$req_file")"
if [ ! -f "$stamp" ] || [ "$req_file" -nt "$stamp" ] || [ requirements.txt -nt "$stamp" ]; then
    echo "==> installing $req_file"
    .venv/bin/python -m pip install --quiet -r "$req_file"
    touch "$stamp"
fi
export PATH="$ROOT/.venv/bin:$PATH"
