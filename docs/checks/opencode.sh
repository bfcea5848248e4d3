#!/usr/bin/env bash
# OpenCode lists Tariff's prices through OPENCODE_MODELS_URL (issue 38 §3 Must-show, T351).
#
#   docs/checks/opencode.sh <DATA_DIR>
#
# Needs `npm run build` done and a DATA_DIR holding a replayed store (docs/checks/README.md says how
# to get one). It serves a copy of that store on a free loopback port with live ingestion off,
# installs opencode-ai into a temporary prefix (or reuses OPENCODE_PREFIX), and runs
# `opencode models --verbose` with a throwaway HOME against the latest export and the path form of a
# past day. Any mismatch exits non-zero.
set -euo pipefail

SRC=${1:?usage: docs/checks/opencode.sh <DATA_DIR with a replayed tariff.db>}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PAST=2026-03-01
WORK=$(mktemp -d)
OPENCODE_PREFIX=${OPENCODE_PREFIX:-$WORK/opencode}
SERVER=""
cleanup() {
  if [ -n "$SERVER" ]; then kill "$SERVER" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

# A copy of the store, so the check never writes to the reader's own.
mkdir -p "$WORK/data"
cp "$SRC"/tariff.db* "$WORK/data/"
rm -f "$WORK/data/"*.lock
PORT=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
BASE=http://127.0.0.1:$PORT
DATA_DIR=$WORK/data INGEST_EVERY=off HOST=127.0.0.1 PORT=$PORT node "$ROOT/build/cli/main.js" serve >"$WORK/serve.log" 2>&1 &
SERVER=$!
for _ in $(seq 1 120); do curl -sf -o /dev/null "$BASE/api/v1/sources" && break; sleep 1; done
curl -sf -o /dev/null "$BASE/api/v1/sources" || { cat "$WORK/serve.log"; exit 1; }
echo "tariff serve on $BASE ($(curl -sfI "$BASE/api/v1/sources" | grep -i '^x-dataset-version' | tr -d '\r'))"

if [ ! -x "$OPENCODE_PREFIX/node_modules/.bin/opencode" ]; then
  npm i --prefix "$OPENCODE_PREFIX" --no-audit --no-fund --loglevel=error opencode-ai >/dev/null
fi
OPENCODE=$OPENCODE_PREFIX/node_modules/.bin/opencode
echo "opencode $("$OPENCODE" --version)"

# `opencode models` in a clean environment: a throwaway HOME and XDG folders (no user config), only
# the models URL and placeholder keys (OpenCode lists only providers it has a key for).
opencode_in() { # <home> <models url> <args…>
  local home=$1 url=$2
  shift 2
  mkdir -p "$home"
  (cd "$home" && env -i PATH="$PATH" HOME="$home" XDG_CONFIG_HOME="$home/config" XDG_DATA_HOME="$home/data" \
    XDG_CACHE_HOME="$home/cache" XDG_STATE_HOME="$home/state" OPENCODE_MODELS_URL="$url" \
    ANTHROPIC_API_KEY=placeholder OPENAI_API_KEY=placeholder "$OPENCODE" models --pure "$@")
}

status=0
check() { # <label> <models url> <at date or empty>
  local label=$1 url=$2 at=$3 home=$WORK/home-$1
  # OpenCode falls back to a models.dev snapshot bundled in its binary when it has fetched nothing
  # (and ignores a failed refresh): --refresh fetches <url>/api.json into its cache, and the cache
  # must be byte for byte what Tariff serves there.
  # Fetched once first: OpenCode gives up on a fetch after 10 s, and a cold past-day export on a
  # loaded machine can take longer.
  secs=$(curl -sf -o "$WORK/$label-served.json" -w '%{time_total}' "$url/api.json")
  echo "     $label: Tariff's first answer took ${secs} s"
  opencode_in "$home" "$url" --refresh >/dev/null 2>&1
  if cmp -s "$home"/cache/opencode/models-*.json "$WORK/$label-served.json"; then
    echo "ok   $label: OpenCode's cache is Tariff's $url/api.json ($(wc -c <"$WORK/$label-served.json") bytes)"
  else
    echo "FAIL $label: OpenCode's cache is not what Tariff serves at $url/api.json"
    ls -l "$home/cache/opencode"
    status=1
  fi
  # models.dev's own cache file (what a fetch of https://models.dev would write) must not appear.
  if [ -e "$home/cache/opencode/models.json" ]; then
    echo "FAIL $label: OpenCode fetched models.dev as well"
    status=1
  fi
  opencode_in "$home" "$url" --verbose >"$WORK/$label-models.txt"
  for id in anthropic/claude-sonnet-4-5 openai/gpt-5; do
    curl -sf "$BASE/api/v1/models/$id?channel=direct${at:+&at=$at}" -o "$WORK/$label-$(basename "$id").json"
  done
  node "$ROOT/docs/checks/opencode-compare.mjs" "$label" "$WORK/$label-models.txt" "$WORK/$label-"{claude-sonnet-4-5,gpt-5}.json ||
    status=1
}

check latest "$BASE/api/v1/exports/models-dev" ""
check "at-$PAST" "$BASE/api/v1/at/$PAST/exports/models-dev" "$PAST"

# The day reached OpenCode: GPT-5.4 (first priced after $PAST) is listed now and not as of then.
if grep -qx 'openai/gpt-5.4' "$WORK/latest-models.txt" && ! grep -qx 'openai/gpt-5.4' "$WORK/at-$PAST-models.txt"; then
  echo "ok   openai/gpt-5.4 is listed from the latest export and not from the $PAST one"
else
  echo "FAIL openai/gpt-5.4 should be listed from the latest export only"
  status=1
fi
exit $status
