-- C05: a value left in a register that is no longer live (an argument of
-- a finished call, a temporary) does not keep it from being collected
-- (Lua 5.4 marks a running function's stack only up to its live top and
-- clears the part above).  rtlua marked the whole frame, so the table
-- given to setmetatable below stayed in a dead argument register for as
-- long as the loop ran, and was never finalized.  Each loop allocates (a
-- table, a string, a closure) until the finalizer has run; a count hook
-- stops a loop that would never end.
debug.sethook(function () error("object never finalized") end, "", 1e8)
do
  local done = false
  setmetatable({}, {__gc = function () done = true end})
  repeat local a = {} until done
  print("table loop: finalized")
end
do
  local done = false
  setmetatable({}, {__gc = function () done = true end})
  local i = 0
  repeat i = i + 1 local s = "n" .. i until done
  print("concat loop: finalized")
end
do
  local done = false
  setmetatable({}, {__gc = function () done = true end})
  repeat local f = function () return done end until done
  print("closure loop: finalized")
end
do -- a temporary of an expression, not a call argument
  local done = false
  local x = #{setmetatable({}, {__gc = function () done = true end})}
  repeat local a = {x} until done
  print("temporary: finalized")
end
debug.sethook()
