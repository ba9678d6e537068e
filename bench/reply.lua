-- A follower text that is an article code, a different MsgId and a fresh signature (its own nonce)
-- on every request, as the platform sends them.
-- Env: BENCH_WX_PATH (callback path), BENCH_TOKEN, BENCH_CODES (comma-separated), WX_SIGN_LUA.
dofile(os.getenv("WX_SIGN_LUA"))
local codes = {}
for c in string.gmatch(os.getenv("BENCH_CODES") or "x", "[^,]+") do codes[#codes + 1] = c end
local path = os.getenv("BENCH_WX_PATH") or "/wechat"
local token = os.getenv("BENCH_TOKEN")
local headers = { ["Content-Type"] = "text/xml" }
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end
local counter = 0
function request()
  counter = counter + 1
  local signed, ts = wx_signed(path, token, tid, counter)
  local body = string.format(
    "<xml><ToUserName><![CDATA[gh_bench]]></ToUserName><FromUserName><![CDATA[o_bench_%d]]></FromUserName><CreateTime>%s</CreateTime><MsgType><![CDATA[text]]></MsgType><Content><![CDATA[%s]]></Content><MsgId>%d%012d</MsgId></xml>",
    counter % 1000, ts, codes[(counter % #codes) + 1], tid, counter)
  return wrk.format("POST", signed, headers, body)
end
