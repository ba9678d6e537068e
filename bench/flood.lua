-- The costliest follower messages found (docs/performance.md, "Flood"), each with its own MsgId and
-- signature: short words whose index entries rarely meet, common long words, a catastrophic regex
-- input. Env: BENCH_TOKEN, WX_SIGN_LUA.
dofile(os.getenv("WX_SIGN_LUA"))
local token = os.getenv("BENCH_TOKEN")
local headers = { ["Content-Type"] = "text/xml" }
local costly = {
  "nu mb er 99 98 97 96 95",
  "ar rt ti ic cl le nu um",
  "article number about topic",
  "s 12 34 56 78",
  string.rep("a", 60) .. "!",
}
-- FLOOD_FILE: one message per line instead (bench/flood.ts --bodies writes the costliest questions
-- for the passage index there).
local file = os.getenv("FLOOD_FILE")
if file then
  costly = {}
  for line in io.lines(file) do if #line > 0 then costly[#costly + 1] = line end end
end
-- FLOOD_ONLY=n sends only the n-th (1-based) of them, to measure one kind alone.
local only = tonumber(os.getenv("FLOOD_ONLY") or "")
if only then costly = { costly[only] } end
-- FLOOD_FOLLOWERS=n: the messages come from n followers in turn (default 500; 1: one follower sends them all).
local followers = tonumber(os.getenv("FLOOD_FOLLOWERS") or "500")
local counter = 0
function request()
  counter = counter + 1
  local signed, ts = wx_signed("/wechat", token, tid, counter)
  local body = string.format(
    "<xml><ToUserName><![CDATA[gh_flood]]></ToUserName><FromUserName><![CDATA[o_flood_%d]]></FromUserName><CreateTime>%s</CreateTime><MsgType><![CDATA[text]]></MsgType><Content><![CDATA[%s]]></Content><MsgId>7%d%012d</MsgId></xml>",
    counter % followers, ts, costly[(counter % #costly) + 1], tid, counter)
  return wrk.format("POST", signed, headers, body)
end
