-- bench/finpeak_tight.lua [N] — bench/finpeak.lua's N (default 200000)
-- short-lived tables with a __gc metamethod, in a loop that does nothing
-- else: no collectgarbage("count") after each table, whose call halves the
-- rate at which the loop makes garbage (a program's own loop is this one).
-- Only the exact peaks measure it: `rtlua -T` and luaref's heap peak (on a
-- board, at shift=0 and at shift=5 in bench/report).  Plain Lua 5.4.
-- Prints one JSON line
--   {"runner": "finpeak", "kind": "finpeak_tight", "n": N,
--    "finalized": FINALIZED}
-- FINALIZED being how many __gc calls ran before the end.
local N = math.tointeger(tonumber(arg and arg[1] or N)) or 200000
local finalized = 0
local mt = {__gc = function () finalized = finalized + 1 end}
for i = 1, N do
  local _ = setmetatable({i}, mt)
end
print(string.format('{"runner": "finpeak", "kind": "finpeak_tight", ' ..
                    '"n": %d, "finalized": %d}', N, finalized))
