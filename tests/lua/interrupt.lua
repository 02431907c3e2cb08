-- (microbit's 64-bit test model, with 4 KiB of C stack, found less
-- than the call reserve left at a metamethod called from table.concat or
-- table.remove, or at a nested rt.timeout, under rt.timeout: "C stack
-- overflow"; it has 4.5 KiB now.  tests/lua/deadline_small.lua: the
-- deadlines that need no call from C.)
-- Loops in C whose length the caller controls can be interrupted (issue
-- 17): they run the count hook every few thousand iterations, so a count
-- hook, rt.timeout's deadline (and the REPL's Ctrl-C, tests/repl/run)
-- stop them; where the answer is known at once it comes at once.
assert(string.rep("", math.maxinteger) == "")
assert(string.rep("", math.maxinteger, "") == "")

-- A count hook sees a C loop's iterations as instructions.
local calls = 0
debug.sethook(function()
  calls = calls + 1
  if calls == 10 then error("stopped by the hook") end
end, "", 1000)
local ok, e = pcall(table.move, {}, 1, math.maxinteger - 1, 1, {})
debug.sethook()
assert(not ok and e:find("stopped by the hook", 1, true) and calls == 10, e)

-- A pattern's scan over positions where its first item cannot match
-- (skipped without an attempt at each) counts them as steps too.
calls = 0
local digitless = ("a"):rep(200) -- (small: microbit's 64-bit arena)
debug.sethook(function() calls = calls + 1 end, "", 1000)
for _ = 1, 1000 do
  assert(digitless:find("%d") == nil and digitless:match("(%d)") == nil)
  assert(digitless:gsub("%d", "") == digitless)
end
debug.sethook()
assert(calls >= 60, calls) -- 600,000 positions, a hook each 4,096

-- rt.timeout: a deadline stops a C loop, a pattern's backtracking and a
-- Lua loop alike; a quick function returns its results.
local function stopped(...)
  local ok2, e2 = pcall(rt.timeout, 20, ...)
  return not ok2 and e2:find("deadline exceeded", 1, true) ~= nil
end
assert(stopped(table.move, {}, 1, math.maxinteger - 1, 1, {}))
-- (Eight levels of backtracking over 100 characters: some 10^11 steps,
-- in little C stack, which microbit's 64-bit test model has.)
assert(stopped(string.find, ("a"):rep(100), ("a*"):rep(8) .. "b"))
assert(stopped(function() while true do end end))
local huge = setmetatable({}, {__len = function() return math.maxinteger end,
                                __index = function() return "" end,
                                __newindex = function() end})
assert(stopped(table.concat, huge, ""))
assert(stopped(table.remove, huge, 1))
local a, b = rt.timeout(1000, function(x, y) return x + y, "done" end, 1, 2)
assert(a == 3 and b == "done")
-- Errors pass through; the thread's own hook comes back afterwards.
local function h() end
debug.sethook(h, "", 5000)
ok, e = pcall(rt.timeout, 1000, error, "own error", 0)
assert(not ok and e == "own error")
local hook, mask, count = debug.gethook()
assert(hook == h and mask == "" and count == 5000)
debug.sethook()
-- A nested timeout keeps the sooner deadline.
assert(stopped(rt.timeout, 100000, function() while true do end end))
ok, e = pcall(rt.timeout, -1, print)
assert(not ok and e:find("timeout out of range", 1, true), e)
print("interrupt ok")
