-- The platform's callback signature in wrk's LuaJIT: sha1 of the sorted token, timestamp and nonce.
-- Every request gets its own nonce, as the platform signs: replyd lets one signature carry one
-- message. Loaded by the wrk scripts with dofile(os.getenv("WX_SIGN_LUA")); it also numbers wrk's
-- threads (the global `tid`, 1, 2, …). About 2 µs a signature in a tight loop, but called from C for
-- every request it is not compiled: the throughput runs (bench/reply.lua) sign ahead of time instead.
local bit = require("bit")
local band, bor, bxor, bnot, rol, tobit = bit.band, bit.bor, bit.bxor, bit.bnot, bit.rol, bit.tobit
local byte, char, format = string.byte, string.char, string.format

local function be32(s, i)
  local a, b, c, d = byte(s, i, i + 3)
  return tobit(a * 0x1000000 + b * 0x10000 + c * 0x100 + d)
end

local w = {}
local function sha1hex(msg)
  local len = #msg
  -- Padding: 0x80, zeros, then the length in bits as 64-bit big-endian (messages here are short).
  local padded = msg .. "\128" .. string.rep("\0", (55 - len) % 64)
  local bits = len * 8
  padded = padded .. char(0, 0, 0, 0, band(bit.rshift(bits, 24), 255), band(bit.rshift(bits, 16), 255), band(bit.rshift(bits, 8), 255), band(bits, 255))
  local h0, h1, h2, h3, h4 = tobit(0x67452301), tobit(0xEFCDAB89), tobit(0x98BADCFE), tobit(0x10325476), tobit(0xC3D2E1F0)
  for chunk = 1, #padded, 64 do
    for i = 0, 15 do w[i] = be32(padded, chunk + i * 4) end
    for i = 16, 79 do w[i] = rol(bxor(w[i - 3], w[i - 8], w[i - 14], w[i - 16]), 1) end
    local a, b, c, d, e = h0, h1, h2, h3, h4
    for i = 0, 79 do
      local f, k
      if i < 20 then f, k = bor(band(b, c), band(bnot(b), d)), 0x5A827999
      elseif i < 40 then f, k = bxor(b, c, d), 0x6ED9EBA1
      elseif i < 60 then f, k = bor(band(b, c), band(b, d), band(c, d)), 0x8F1BBCDC
      else f, k = bxor(b, c, d), 0xCA62C1D6 end
      local t = tobit(rol(a, 5) + f + e + k + w[i])
      e, d, c, b, a = d, c, rol(b, 30), a, t
    end
    h0, h1, h2, h3, h4 = tobit(h0 + a), tobit(h1 + b), tobit(h2 + c), tobit(h3 + d), tobit(h4 + e)
  end
  return bit.tohex(h0) .. bit.tohex(h1) .. bit.tohex(h2) .. bit.tohex(h3) .. bit.tohex(h4)
end

-- A signed callback query for `path`, with a nonce unique to this thread and request.
function wx_signed(path, token, tid, counter)
  local ts = tostring(os.time())
  local nonce = format("%d%09d", tid, counter)
  local parts = { token, ts, nonce }
  table.sort(parts)
  return format("%s?signature=%s&timestamp=%s&nonce=%s", path, sha1hex(table.concat(parts)), ts, nonce), ts
end

wx_sha1hex = sha1hex

local threads = 0
-- BENCH_ADDRS ("127.0.0.1:8081,127.0.0.1:8082"): thread t sends to address t of n, round robin —
-- several instances of one cluster loaded at once by one wrk, as a balancer would spread them.
local addrs = {}
for a in string.gmatch(os.getenv("BENCH_ADDRS") or "", "[^,]+") do
  local host, port = a:match("^([^:]+):(%d+)$")
  addrs[#addrs + 1] = wrk.lookup(host, port)[1]
end
function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
  if #addrs > 0 then thread.addr = addrs[((threads - 1) % #addrs) + 1] end
end
