-- Follower text messages for the soak: each thread numbers its own MsgIds; every 10th request repeats
-- the previous MsgId, as the platform does when it retries. Set by scripts/soak.ts through env:
-- SOAK_PATH (signed callback path + query), SOAK_TS (CreateTime), SOAK_CODES (comma-separated).
local threads = {}
local codes = {}
for c in string.gmatch(os.getenv("SOAK_CODES") or "x", "[^,]+") do codes[#codes + 1] = c end

function setup(thread)
  thread:set("tid", #threads + 1)
  table.insert(threads, thread)
end

local counter = 0
local path = os.getenv("SOAK_PATH")
local ts = os.getenv("SOAK_TS")
local headers = { ["Content-Type"] = "text/xml" }

function request()
  counter = counter + 1
  local id = counter
  if counter % 10 == 0 then id = counter - 1 end
  local content = codes[(counter % #codes) + 1]
  local body = string.format(
    "<xml><ToUserName><![CDATA[gh_soak]]></ToUserName><FromUserName><![CDATA[o_%d_%d]]></FromUserName><CreateTime>%s</CreateTime><MsgType><![CDATA[text]]></MsgType><Content><![CDATA[%s]]></Content><MsgId>%d%09d</MsgId></xml>",
    tid, id % 97, ts, content, tid, id)
  return wrk.format("POST", path, headers, body)
end
