-- Heap in use right after start, for bench/run-footprint.  Runs under
-- rtlua (host or board) and lua5.4.  The first reading comes before
-- anything else this script does: the state, every library, the
-- arguments and this chunk's own function are in it.  Prints one line:
--   in_use_at_start=B in_use_after_gc=B [rt_in_use=B]
-- in bytes; after_gc follows a full collection (startup garbage gone);
-- rt_in_use (rtlua only) is rt.stats().in_use, the arena's own count,
-- read after the other two.
local start = collectgarbage("count")
collectgarbage()
local after = collectgarbage("count")
local function bytes(kib) return string.format("%.0f", kib * 1024) end
local line = "in_use_at_start=" .. bytes(start) .. " in_use_after_gc=" .. bytes(after)
if rt then line = line .. " rt_in_use=" .. string.format("%.0f", rt.stats().in_use) end
print(line)
