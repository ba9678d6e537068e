-- What other followers and a monitor see during the flood: one connection, one request at a time.
-- PROBE=code: a follower text that is an article code (fresh MsgId and signature each time);
-- PROBE=healthz: GET /healthz. Env: BENCH_TOKEN, PROBE_ARTICLES (codes are c0 … c<n-1>), WX_SIGN_LUA.
dofile(os.getenv("WX_SIGN_LUA"))
local token = os.getenv("BENCH_TOKEN")
local kind = os.getenv("PROBE") or "code"
local headers = { ["Content-Type"] = "text/xml" }
local articles = tonumber(os.getenv("PROBE_ARTICLES") or "1000")
local counter = 0
function request()
  counter = counter + 1
  if kind == "healthz" then return wrk.format("GET", "/healthz") end
  local signed, ts = wx_signed("/wechat", token, 9, counter)
  local body = string.format(
    "<xml><ToUserName><![CDATA[gh_probe]]></ToUserName><FromUserName><![CDATA[o_probe]]></FromUserName><CreateTime>%s</CreateTime><MsgType><![CDATA[text]]></MsgType><Content><![CDATA[c%d]]></Content><MsgId>9%012d</MsgId></xml>",
    ts, (counter * 7919) % articles, counter)
  return wrk.format("POST", signed, headers, body)
end
