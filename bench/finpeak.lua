-- bench/finpeak.lua [N] — N (default 200000) short-lived tables with a
-- __gc metamethod, made one after another (issue 12: the arena's peak
-- against lua5.4's).  Plain Lua 5.4: it runs on rtlua, on lua5.4 and on
-- stock Lua on the board (../shared/luaref/run).  Prints one JSON line
--   {"runner": "finpeak", "kind": "finpeak", "units": ..., "n": N,
--    "peak_kib": PEAK_KIB, "finalized": FINALIZED}
-- PEAK_KIB being the largest collectgarbage("count") seen (sampled after
-- every table), FINALIZED how many __gc calls ran before the end.  On a
-- board, `rtlua -T` and luaref's heap_peak give the exact peak as well.
local N = math.tointeger(tonumber(arg and arg[1] or N)) or 200000
local count = collectgarbage
local finalized = 0
local mt = {__gc = function () finalized = finalized + 1 end}
local peak = count("count")
for i = 1, N do
  local _ = setmetatable({i}, mt)
  local c = count("count")
  if c > peak then peak = c end
end
print(string.format('{"runner": "finpeak", "kind": "finpeak", "units": ' ..
                    '{"peak_kib": "KiB"}, "n": %d, "peak_kib": %.1f, ' ..
                    '"finalized": %d}', N, peak, finalized))
