#!/usr/bin/env bash
# Installs the system packages the test suite drives (Debian's chromium for the browser e2e,
# redis-server for the Redis scale-out suites) when they are missing, so that `make && make test`
# pass on a fresh machine. Without apt-get or root it names what to install and fails.
set -euo pipefail

missing=()
command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || missing+=(chromium)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
  echo "system-deps: the tests need ${missing[*]}; install them with your package manager" >&2
  exit 1
fi
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "system-deps: the tests need ${missing[*]}: run 'apt-get install -y ${missing[*]}' as root" >&2; exit 1; }
  sudo=(sudo)
fi
echo "system-deps: installing ${missing[*]} (apt-get)"
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
