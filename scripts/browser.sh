#!/usr/bin/env bash
# Installs what the browser tests need: Debian's Chromium and ChromeDriver (the viewer is tested in a real
# browser, tests/envs/test_viewer_browser.py). Needs root on Debian/Ubuntu; elsewhere install a Chromium and
# its chromedriver on PATH by hand (without them the browser tests skip locally and fail under CI=true).
set -euo pipefail
if command -v chromium >/dev/null && command -v chromedriver >/dev/null; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "installing chromium and chromium-driver (Debian packages) for the browser tests..."
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
else
  echo "note: chromium/chromedriver not installed (needs root and apt-get); the browser tests will skip" >&2
fi
