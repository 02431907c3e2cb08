-- bench/image/arena/main.lua [MODULE]: the arena bytes a require of
-- MODULE (default module1000, bench/image/) costs, after full
-- collections: run from source (compiled on the board) and from a flash
-- image by bench/run-image.  Prints "@arena MODULE BYTES".
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
