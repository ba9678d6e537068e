-- A follower text that is an article code, a different MsgId on every request, a valid signature.
-- Env: BENCH_PATH (signed path + query), BENCH_TS, BENCH_CODES (comma-separated).
local codes = {}
for c in string.gmatch(os.getenv("BENCH_CODES") or "x", "[^,]+") do codes[#codes + 1] = c end
local path = os.getenv("BENCH_PATH")
local ts = os.getenv("BENCH_TS")
local headers = { ["Content-Type"] = "text/xml" }
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end
local counter = 0
function request()
  counter = counter + 1
  local body = string.format(
    "<xml><ToUserName><![CDATA[gh_bench]]></ToUserName><FromUserName><![CDATA[o_bench_%d]]></FromUserName><CreateTime>%s</CreateTime><MsgType><![CDATA[text]]></MsgType><Content><![CDATA[%s]]></Content><MsgId>%d%012d</MsgId></xml>",
    counter % 1000, ts, codes[(counter % #codes) + 1], tid, counter)
  return wrk.format("POST", path, headers, body)
end
