#!/bin/sh
# Makes a Python virtual environment holding one package from PyPI for the interop tests (see
# docs/interop.md) and prints the path of its python. Installs Debian's python3 and python3-venv
# first if they are missing (as root). Idempotent: an environment that imports the package at
# that version is kept.
set -eu
VENV="${1:?usage: install-python-package.sh <venv folder> <module> <package> <version>}"
MODULE="${2:?module}"
PACKAGE="${3:?package}"
VERSION="${4:?version}"
if [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c "import $MODULE, sys; sys.exit($MODULE.__version__ != '$VERSION')" 2>/dev/null; then
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
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "$PACKAGE==$VERSION" >&2
echo "$VENV/bin/python"
