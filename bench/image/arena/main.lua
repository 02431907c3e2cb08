-- bench/image/arena/main.lua [MODULE]: the arena bytes a require of
-- MODULE (default module1000, bench/image/) costs, after full
-- collections: run from source (compiled on the board) and from a flash
-- image by bench/run-image.  Prints "@arena MODULE BYTES", then the
-- collector's work in one full collection of the heap that holds the
-- module: "@gc MODULE CYCLES HZ PROTOS" (rt.cycles and its rate: under
-- qemu -icount shift=0 CYCLES * 1e9 / HZ is instructions; the
-- prototypes the collection traversed).
package.path = "bench/image/?.lua;" .. package.path
local name = arg and arg[1] or "module1000"
local function inuse()
  collectgarbage()
  collectgarbage()
  return collectgarbage("count") * 1024
end
local before = inuse()
local M = require(name)
local after = inuse()
assert(type(M) == "table")
print(string.format("@arena %s %d", name, math.tointeger(after - before)))
local st = rt.stats
local p0, c0 = st("protos_traversed"), rt.cycles()
collectgarbage()
local c1, p1 = rt.cycles(), st("protos_traversed")
print(string.format("@gc %s %d %d %d", name, c1 - c0, rt.hz(), p1 - p0))
