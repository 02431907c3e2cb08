-- rt.timeout's deadline stops a library's C loop, a pattern's
-- backtracking and a Lua loop on the smallest C stack too (issue 17):
-- microbit's 64-bit model has 4 KiB, and some 2,240 bytes are left at
-- table.move below.  The count hook such loops poll (rtlua_poll) runs
-- with the poll kind's reserve of C stack (port/port.h, 1,312 bytes
-- there), and its message is made without formatting (no position).
-- With the call kind's reserve (2,264 bytes there) the hook waited, and
-- table.move ran on for ever.
local function stopped(...)
  local ok, e = pcall(rt.timeout, 20, ...)
  return not ok and e == "deadline exceeded", e
end
assert(stopped(table.move, {}, 1, math.maxinteger - 1, 1, {}))
assert(stopped(string.find, ("a"):rep(100), ("a*"):rep(8) .. "b"))
assert(stopped(function() while true do end end))
print("ok")
