-- Signed GET /api/cli (health), from a file of pre-signed query strings (one per line, each with its
-- own nonce): wrk cannot compute md5, so scripts/bench signs them ahead. Env: BENCH_SIGNED (file).
local lines = {}
for line in io.lines(os.getenv("BENCH_SIGNED")) do lines[#lines + 1] = line end
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
  thread:set("nthreads", 0)
end
local i = 0
function init(args)
  i = tid
end
function request()
  local q = lines[i]
  i = i + 2
  if i > #lines then i = tid end
  return wrk.format("GET", "/api/cli?" .. q)
end
