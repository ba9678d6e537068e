#!/bin/sh
# The same signed requests sent with httpie, the client the original requirements use
# (`http -f POST …/api/cli json@file …`). Signing as in curl.sh: sh, od and md5sum.
#
#   sh docs/recipes/httpie.sh health
#   sh docs/recipes/httpie.sh import articles.json
set -eu
: "${REPLYD_URL:?set REPLYD_URL}" "${REPLYD_APPKEY:?set REPLYD_APPKEY}" "${REPLYD_SECRET:?set REPLYD_SECRET}"

ts=$(date +%s.%3N)
nonce=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
sign() { printf '%s\n%s\n%s%s' "$1" "$2" "$3" "$REPLYD_SECRET" | md5sum | cut -c1-32; }

case "${1:-health}" in
  health)
    pairs="appkey=$REPLYD_APPKEY&nonce=$nonce&ts=$ts"
    # name==value is a query parameter in httpie
    http --ignore-stdin --body GET "$REPLYD_URL/api/cli" \
      "appkey==$REPLYD_APPKEY" "nonce==$nonce" "ts==$ts" "sign==$(sign GET /api/cli "$pairs")"
    ;;
  import)
    file=${2:?usage: httpie.sh import FILE}
    md5=$(md5sum < "$file" | cut -c1-32)
    pairs="appkey=$REPLYD_APPKEY&json=md5%3A$md5&mode=merge&nonce=$nonce&ts=$ts"
    http --ignore-stdin --body -f POST "$REPLYD_URL/api/cli" \
      "appkey=$REPLYD_APPKEY" mode=merge "nonce=$nonce" "ts=$ts" "sign=$(sign POST /api/cli "$pairs")" "json@$file"
    ;;
  *) echo "usage: httpie.sh health | import FILE" >&2; exit 2 ;;
esac
