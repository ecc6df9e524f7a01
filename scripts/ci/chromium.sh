#!/usr/bin/env bash
# Debian's chromium for the browser tests (tests/browser). Installs it when missing, then
# prints the path of the real browser binary the package installs (not the /usr/bin/chromium
# wrapper script): Playwright launches that with executable_path. Idempotent; never
# downloads a browser build of its own (no `playwright install`).
set -euo pipefail
BIN=/usr/lib/chromium/chromium
# The card faces use DejaVu's suit symbols; chromium alone may not pull in a font that has them.
PACKAGES=(chromium fonts-dejavu-core)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ] || [ ! -x "$BIN" ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  echo "chromium.sh: installing ${missing[*]:-chromium}" >&2
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq >&2
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]:-chromium}" >&2
fi
if [ ! -x "$BIN" ]; then
  echo "chromium.sh: the chromium package is installed but $BIN is missing" >&2
  exit 1
fi
echo "$BIN"
