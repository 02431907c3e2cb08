-- The table library: insert and remove at the end and in front, sort
-- with and without a comparator, concat, unpack and move.
-- arg[1] = elements (default 2000).
local n = tonumber(arg and arg[1]) or N or 2000
local acc, seed = 0, 7
local function rnd() seed = (seed * 75 + 74) % 65537; return seed end
for round = 1, 4 do
  local t = {}
  for i = 1, n do table.insert(t, rnd() % 1000) end
  for i = 1, n // 8 do table.insert(t, 1, i) end
  for _ = 1, n // 8 do acc = acc + table.remove(t, 1) end
  for _ = 1, n // 2 do acc = acc + table.remove(t) end
  table.sort(t)
  acc = acc + t[1] + t[#t]
  local u = {}
  for i = 1, n // 2 do u[i] = rnd() end
  table.sort(u, function(a, b) return a > b end)
  acc = acc + u[1] - u[#u]
  local parts = {}
  for i = 1, n // 4 do parts[i] = tostring(u[i] % 100) end
  acc = acc + #table.concat(parts, ",") + #table.concat(parts)
  local m = table.move(u, 1, 100, 1, {})
  acc = acc + select("#", table.unpack(m)) + round
end
print("checksum", acc)
