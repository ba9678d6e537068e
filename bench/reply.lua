-- A follower text that is an article code, a different MsgId and a fresh signature (its own nonce)
-- on every request, as the platform sends them. Signing in Lua for every request costs wrk more than
-- the fastest servers spend, so the signed queries come from a pool written ahead of time
-- (bench/run.ts): thread t of n takes every n-th record. A pool too small shows up as 401s.
-- Env: BENCH_POOL (file of signed "/wechat?signature=…&timestamp=…&nonce=…"), BENCH_THREADS,
-- BENCH_TS (CreateTime), BENCH_CODES (comma-separated), WX_SIGN_LUA (for the thread numbering).
dofile(os.getenv("WX_SIGN_LUA"))
local codes = {}
for c in string.gmatch(os.getenv("BENCH_CODES") or "x", "[^,]+") do codes[#codes + 1] = c end
local ts = os.getenv("BENCH_TS")
local headers = { ["Content-Type"] = "text/xml" }
-- One string of fixed-width records, not a table of strings: a table of a million strings is a
-- live set LuaJIT's collector walks again and again, which cost wrk more than the signing it saved.
local pool, records, width = "", 0, 0
local threads_n = tonumber(os.getenv("BENCH_THREADS") or "1")
function init(args)
  local f = assert(io.open(os.getenv("BENCH_POOL"), "rb"))
  pool = f:read("*a")
  f:close()
  width = pool:find("\n", 1, true)
  records = math.floor(#pool / width)
end
local counter = 0
function request()
  counter = counter + 1
  -- Thread t of n takes records t-1, t-1+n, t-1+2n, …
  local at = (((counter - 1) * threads_n + tid - 1) % records) * width
  local body = string.format(
    "<xml><ToUserName><![CDATA[gh_bench]]></ToUserName><FromUserName><![CDATA[o_bench_%d]]></FromUserName><CreateTime>%s</CreateTime><MsgType><![CDATA[text]]></MsgType><Content><![CDATA[%s]]></Content><MsgId>%d%012d</MsgId></xml>",
    counter % 1000, ts, codes[(counter % #codes) + 1], tid, counter)
  return wrk.format("POST", pool:sub(at + 1, at + width - 1), headers, body)
end
