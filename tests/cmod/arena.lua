-- tests/cmod/arena.lua: what the example module (examples/cmodule)
-- costs in the arena.  Prints "boot N", the bytes in use as the script
-- starts (libraries, arguments, this chunk: its constants are ROM
-- strings in every build, so that builds with and without user modules
-- compare), "arena N" (the arena's size, where rt is there: two
-- firmwares compare in the same arena), then "require N", what require
-- "ringbuf" added with the
-- collector stopped, or "require none" where the module is absent.
-- "boot" is counted after a full collection: the live set alone, since
-- the garbage left at that point depends on how many paced steps ran
-- during start-up, and on the host the tick is a timer signal (under
-- load, one run in six had a cycle's garbage less: 4,272 bytes
-- against 5,536).
collectgarbage()
local boot = collectgarbage("count") * 1024
collectgarbage("stop")
local before = collectgarbage("count") * 1024
local ok, m = pcall(require, "ring" .. "buf")
local cost = collectgarbage("count") * 1024 - before
collectgarbage("restart")
print(("boot %d"):format(boot))
if rt then print(("arena %d"):format(rt.stats().arena)) end
if ok then
  assert(type(m) == "table")
  print(("require %d"):format(cost))
else
  print("require none")
end
