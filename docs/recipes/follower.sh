#!/bin/sh
# A follower's text message sent to the callback as the platform sends it in plain mode, with
# nothing but sh, od, sort, sha1sum and curl: the follower's side tried on a laptop, before any
# account is connected (docs/wechat.md, "Trying it without the platform").
#
#   replyd serve --host 127.0.0.1 --wx-token mytoken   # plain mode: no --wx-aeskey
#   export REPLYD_URL=http://127.0.0.1:8080 WX_TOKEN=mytoken
#   sh docs/recipes/follower.sh "还能退款吗？"            # prints the reply as the platform gets it (XML)
#   sh docs/recipes/follower.sh "那运费呢" o_ann          # as another follower (the default is o_try)
#
# A server of several accounts answers each at /wechat/NAME, with that account's token:
#   WX_PATH=/wechat/shop WX_TOKEN=shoptoken WX_ID=gh_shop sh docs/recipes/follower.sh "hours?"
# (WX_ID: the account's wx-id, when it has one; messages to another are refused.)
#
# The message is logged like any follower's: replyd inbox lists it, replyd teach takes its SEQ.
# The signature is the platform's: sha1 of the token, the timestamp and the nonce, sorted and joined.
# A refusal is said by curl with its status, and the script exits non-zero. A text holding "]]>"
# cannot go in the CDATA section this writes. WX_TOKEN falls back to REPLYD_WX_TOKEN. Needs curl 7.76
# or later (--fail-with-body).
set -eu
text=${1:?usage: follower.sh TEXT [FOLLOWER_ID]}
from=${2:-o_try}
: "${REPLYD_URL:?set REPLYD_URL}"
token=${WX_TOKEN:-${REPLYD_WX_TOKEN:?set WX_TOKEN (the server's or the account's wx-token)}}
path=${WX_PATH:-/wechat}
to=${WX_ID:-gh_try}

ts=$(date +%s)
nonce=$(od -An -N4 -tu4 /dev/urandom | tr -d ' \n')
msgid=$(od -An -N6 -tu2 /dev/urandom | tr -d ' \n' | cut -c1-18)
signature=$(printf '%s\n%s\n%s\n' "$token" "$ts" "$nonce" | LC_ALL=C sort | tr -d '\n' | sha1sum | cut -c1-40)

body="<xml><ToUserName><![CDATA[$to]]></ToUserName><FromUserName><![CDATA[$from]]></FromUserName><CreateTime>$ts</CreateTime><MsgType><![CDATA[text]]></MsgType><Content><![CDATA[$text]]></Content><MsgId>$msgid</MsgId></xml>"
curl -sS --fail-with-body -X POST -H 'content-type: text/xml' --data-binary "$body" "$REPLYD_URL$path?signature=$signature&timestamp=$ts&nonce=$nonce&openid=$from"
echo
