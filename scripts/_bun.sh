# Sourced by the other scripts: puts a pinned Bun on PATH and installs dependencies.
# A fresh machine has Node.js and npm but no Bun, so Bun comes from the npm registry
# into .tools/ (never into node_modules, which belongs to `bun install`).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUN_VERSION="$(tr -d '[:space:]' < "$ROOT/.bun-version")"

bun_ok() { command -v bun >/dev/null 2>&1 && [ "$(bun --version 2>/dev/null)" = "$BUN_VERSION" ]; }

if ! bun_ok; then
  TOOLS="$ROOT/.tools/bun-$BUN_VERSION"
  if [ ! -x "$TOOLS/node_modules/.bin/bun" ] || [ "$("$TOOLS/node_modules/.bin/bun" --version 2>/dev/null)" != "$BUN_VERSION" ]; then
    if ! command -v npm >/dev/null 2>&1; then
      echo "replyd: neither bun $BUN_VERSION nor npm is on PATH; install Node.js (npm) or Bun $BUN_VERSION" >&2
      exit 1
    fi
    echo "replyd: installing bun@$BUN_VERSION into .tools/ (one time)" >&2
    mkdir -p "$TOOLS"
    npm install --no-save --no-audit --no-fund --loglevel=error --prefix "$TOOLS" "bun@$BUN_VERSION" >&2
    # npm may skip bun's postinstall; the platform package carries the real binary either way.
    if ! "$TOOLS/node_modules/.bin/bun" --version >/dev/null 2>&1; then
      real="$(ls "$TOOLS"/node_modules/@oven/bun-*/bin/bun 2>/dev/null | head -n 1 || true)"
      [ -n "$real" ] || { echo "replyd: bun@$BUN_VERSION installed but no runnable binary found" >&2; exit 1; }
      ln -sf "$real" "$TOOLS/node_modules/.bin/bun"
    fi
  fi
  export PATH="$TOOLS/node_modules/.bin:$PATH"
fi

# ensure CMD PACKAGE: a Debian package some scripts and tests drive (httpie, wrk); installed with
# apt-get when missing and we are root, else left for the caller to report.
ensure() {
  command -v "$1" >/dev/null 2>&1 && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "replyd: installing $2" >&2
    apt-get install -y -qq "$2" >/dev/null 2>&1 || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq "$2" >/dev/null 2>&1; } || true
  fi
  command -v "$1" >/dev/null 2>&1
}

# ensure_pkg PACKAGE: a Debian package that puts no command on PATH (a cross C library), likewise.
ensure_pkg() {
  dpkg -s "$1" >/dev/null 2>&1 && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "replyd: installing $1" >&2
    apt-get install -y -qq "$1" >/dev/null 2>&1 || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq "$1" >/dev/null 2>&1; } || true
  fi
  dpkg -s "$1" >/dev/null 2>&1
}

# Install dependencies when the lockfile changed since the last install.
stamp="$ROOT/node_modules/.replyd-lock"
if [ ! -f "$stamp" ] || ! cmp -s "$ROOT/bun.lock" "$stamp"; then
  (cd "$ROOT" && bun install --frozen-lockfile >&2)
  cp "$ROOT/bun.lock" "$stamp"
fi
