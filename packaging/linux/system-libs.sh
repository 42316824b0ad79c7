#!/usr/bin/env bash
# Makes sure the Debian/Ubuntu libraries Qt needs are installed.
#   system-libs.sh test   offscreen Qt and poppler-utils (what `make test` needs)
#   system-libs.sh run    a real window on X11 (what `make run` needs)
# As root it installs what is missing with apt-get; otherwise it prints the exact command
# and exits 1. On other systems it says what to look for and carries on.
set -euo pipefail

mode=${1:-test}
# Measured on Debian 12 (shared/PITFALLS.md): offscreen Qt needs these …
pkgs=(libegl1 libgl1 libfontconfig1 libfreetype6 libglib2.0-0 libxkbcommon0 libdbus-1-3
      fonts-dejavu-core)
# The tests read the printed summaries back with pdftotext/pdfinfo (poppler-utils).
if [ "$mode" = test ]; then
  pkgs+=(poppler-utils)
fi
# … and a real X11 window (or Xvfb) also needs these.
if [ "$mode" = run ]; then
  pkgs+=(libxkbcommon-x11-0 libx11-xcb1 libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1
         libxcb-image0 libxcb-randr0 libxcb-render-util0 libxcb-shape0 libxcb-xfixes0
         libxcb-xkb1 libxcb-sync1 libxcb-shm0)
fi

if ! command -v dpkg-query >/dev/null 2>&1; then
  echo "system-libs: not a Debian/Ubuntu system; make sure Qt 6's runtime libraries" \
       "(EGL, OpenGL, fontconfig, freetype, glib, xkbcommon, dbus) are installed." >&2
  exit 0
fi

missing=()
for p in "${pkgs[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == *"install ok installed"* ]] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
  echo "system-libs: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null
else
  echo "Qt needs system libraries that are not installed. Run:" >&2
  echo "  sudo apt-get install -y ${missing[*]}" >&2
  echo "then run make again." >&2
  exit 1
fi
