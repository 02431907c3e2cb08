-- Closures: creation, upvalue reads and writes, higher-order calls.
-- arg[1] = iterations (default 100000).
local n = tonumber(arg and arg[1]) or N or 100000
local function counter()
  local c = 0
  return function(d) c = c + d; return c end
end
local function map(t, f) local r = {} for i = 1, #t do r[i] = f(t[i]) end return r end
local total, data = 0, {1, 2, 3, 4, 5, 6, 7, 8}
for i = 1, n do
  local inc = counter()
  inc(i); inc(1)
  local k = i % 5
  local r = map(data, function(v) return v * k end)
  total = total + inc(0) + r[8]
end
print("checksum", total)
