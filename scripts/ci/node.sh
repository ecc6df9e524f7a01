#!/usr/bin/env bash
# Debian's nodejs for the JavaScript example bot (examples/bots/minstd.js), which
# tests/test_external_bots.py plays. Installs it when `node` is missing, then prints the
# path of the node binary. Idempotent.
set -euo pipefail
if ! command -v node >/dev/null 2>&1; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  echo "node.sh: installing nodejs" >&2
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq >&2
  $SUDO apt-get install -y -qq --no-install-recommends nodejs >&2
fi
command -v node
