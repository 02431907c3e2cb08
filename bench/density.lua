-- Bytes per object, as the arena (or malloc) really spends them: for each
-- kind, full collections until the heap figure stops moving, N objects
-- made and kept, the same collections again; the difference over N.
-- "count" is collectgarbage("count") (rtlua: the arena's bytes in use,
-- block headers included; stock Lua: the bytes it asked for).  Where the
-- harness defines luaref_mallinfo (bench/luarun.c and the stock-Lua
-- harness of ../shared/luaref, both with ext=1) the same difference of
-- what the allocator spends is printed too: for stock Lua newlib's
-- malloc with its chunk headers, for rtlua the arena again.
-- arg[1] = N (default 10000).
local N = tonumber(arg and arg[1]) or N or 10000
local spent = rawget(_G, "luaref_mallinfo")

local function settled()
  local last = -1
  for _ = 1, 50 do
    collectgarbage()
    local now = collectgarbage("count")
    if now == last then return now end
    last = now
  end
  return last
end

local kinds = {
  {"list_node", function(n) -- {next = h, v = i}
    local h
    for i = 1, n do h = {next = h, v = i} end
    return h
  end},
  {"array_elem", function(n) -- a[i] = {i}, the array slot included
    local a = {}
    for i = 1, n do a[i] = {i} end
    return a
  end},
  {"string_key", function(n) -- t["k"..i] = i: the string and its entry
    local t = {}
    for i = 1, n do t["k" .. i] = i end
    return t
  end},
  {"closure_1upv", function(n) -- closures chained by their one upvalue
    local f
    for _ = 1, n do
      local prev = f
      f = function() return prev end
    end
    return f
  end},
}

for _, k in ipairs(kinds) do
  local before = settled()
  local s0 = spent and spent()
  local keep = k[2](N)
  local after = settled()
  local s1 = spent and spent()
  local line = string.format("density %s N=%d per_object=%.2f", k[1], N,
                             (after - before) * 1024 / N)
  if spent then
    line = line .. string.format(" spent_per_object=%.2f", (s1 - s0) / N)
  end
  print(line)
  if keep == nil then error("nothing kept") end
end
