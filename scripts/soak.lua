-- Follower text messages for the soak: each thread numbers its own MsgIds and signs every request
-- with its own nonce; every 10th request repeats the previous message, as the platform does when it
-- retries. Set by scripts/soak.ts through env: SOAK_TOKEN, SOAK_CODES (comma-separated), WX_SIGN_LUA.
dofile(os.getenv("WX_SIGN_LUA"))
local codes = {}
for c in string.gmatch(os.getenv("SOAK_CODES") or "x", "[^,]+") do codes[#codes + 1] = c end

local counter = 0
local token = os.getenv("SOAK_TOKEN")
local headers = { ["Content-Type"] = "text/xml" }
local created = tostring(os.time())

function request()
  counter = counter + 1
  local id = counter
  if counter % 10 == 0 then id = counter - 1 end
  local signed = wx_signed("/wechat", token, tid, counter)
  local content = codes[(id % #codes) + 1]
  local body = string.format(
    "<xml><ToUserName><![CDATA[gh_soak]]></ToUserName><FromUserName><![CDATA[o_%d_%d]]></FromUserName><CreateTime>%s</CreateTime><MsgType><![CDATA[text]]></MsgType><Content><![CDATA[%s]]></Content><MsgId>%d%09d</MsgId></xml>",
    tid, id % 97, created, content, tid, id)
  return wrk.format("POST", signed, headers, body)
end
