#!/bin/sh
# Install Tilehost to run it into a new virtual environment, from the pinned versions in
# requirements/: `tools/install.sh VENV` (add `local` for local mode's SimCord preview too).
# The container image installs with this script (Dockerfile), and `make image-check` runs it in a
# fresh venv, so what the image gets is checked where no container engine runs.
set -eu
venv=$1
extras=${2:-}
python=${PYTHON:-python3}
cd "$(dirname "$0")/.."
"$python" -m venv "$venv"
install="$venv/bin/python -m pip install --quiet --require-hashes --no-deps"
$install -r requirements/build.txt -r requirements/run.txt
if [ "$extras" = local ]; then
    $install -r requirements/local.txt
fi
"$venv/bin/python" -m pip install --quiet --no-deps --no-build-isolation .
