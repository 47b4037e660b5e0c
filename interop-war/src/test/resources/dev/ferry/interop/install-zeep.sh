#!/bin/sh
# Makes a Python virtual environment holding zeep from PyPI for the WAR's interop tests and
# prints the path of its python. Installs Debian's python3 and python3-venv first if they are
# missing (as root). Idempotent: an environment that imports this zeep is kept.
set -eu
VENV="${1:?usage: install-zeep.sh <venv folder>}"
VERSION=4.3.3
if [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c "import zeep, sys; sys.exit(zeep.__version__ != '$VERSION')" 2>/dev/null; then
  echo "$VENV/bin/python"; exit 0
fi
if ! command -v python3 >/dev/null 2>&1 || ! python3 -c "import venv, ensurepip" >/dev/null 2>&1; then
  if [ "$(id -u)" != 0 ]; then echo "python3 with venv is missing and we are not root" >&2; exit 2; fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >&2
  apt-get install -y -q --no-install-recommends python3 python3-venv >&2
fi
rm -rf "$VENV"
python3 -m venv "$VENV" >&2
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "zeep==$VERSION" >&2
echo "$VENV/bin/python"
