#!/bin/sh
# Signed replyd admin requests with nothing but sh, od, md5sum and curl (docs/protocol.md, "Signing").
#
#   export REPLYD_URL=http://127.0.0.1:8080 REPLYD_APPKEY=… REPLYD_SECRET=…
#   sh docs/recipes/curl.sh health
#   sh docs/recipes/curl.sh import articles.json        # POST multipart, file part "json"
#   sh docs/recipes/curl.sh backup all                  # server-side backup
#
# Every parameter used here is already made of unreserved characters (A-Z a-z 0-9 - . _ ~), so its
# RFC 3986 encoding is itself, except the ":" of "md5:", which is written %3A. The pairs are listed
# in sorted key order by hand. ts needs GNU date (%N); on macOS use gdate from coreutils.
set -eu
: "${REPLYD_URL:?set REPLYD_URL}" "${REPLYD_APPKEY:?set REPLYD_APPKEY}" "${REPLYD_SECRET:?set REPLYD_SECRET}"

ts=$(date +%s.%3N)
nonce=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')

# sign METHOD PATH SORTED_ENCODED_PAIRS → lowercase hex md5 of "METHOD\nPATH\nPAIRS" + SECRET
sign() { printf '%s\n%s\n%s%s' "$1" "$2" "$3" "$REPLYD_SECRET" | md5sum | cut -c1-32; }

case "${1:-health}" in
  health)
    pairs="appkey=$REPLYD_APPKEY&nonce=$nonce&ts=$ts"
    curl -sS "$REPLYD_URL/api/cli?$pairs&sign=$(sign GET /api/cli "$pairs")"
    ;;
  import)
    file=${2:?usage: curl.sh import FILE}
    md5=$(md5sum < "$file" | cut -c1-32)
    pairs="appkey=$REPLYD_APPKEY&json=md5%3A$md5&mode=merge&nonce=$nonce&ts=$ts"
    curl -sS -F "appkey=$REPLYD_APPKEY" -F "mode=merge" -F "nonce=$nonce" -F "ts=$ts" \
      -F "sign=$(sign POST /api/cli "$pairs")" -F "json=@$file;type=application/json" "$REPLYD_URL/api/cli"
    ;;
  backup)
    matter=${2:-all}
    pairs="appkey=$REPLYD_APPKEY&nonce=$nonce&ts=$ts"
    curl -sS -X POST --data "$pairs&sign=$(sign POST "/api/cli/revert/$matter" "$pairs")" "$REPLYD_URL/api/cli/revert/$matter"
    ;;
  *) echo "usage: curl.sh health | import FILE | backup [MATTER]" >&2; exit 2 ;;
esac
echo
