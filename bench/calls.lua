-- Calls that are not recursion: small functions with several arguments
-- and results, varargs, select, and calls through a table of functions.
-- arg[1] = iterations (default 50000).
local n = tonumber(arg and arg[1]) or N or 50000
local function add3(a, b, c) return a + b + c end
local function swap(a, b) return b, a end
local function first(...) return (...) end
local function count(...) return select("#", ...) end
local function apply(f, a, b) return f(a, b) end
local ops = {function(a, b) return a + b end, function(a, b) return a - b end,
             function(a, b) return a * b end, function(a, b) return a // (b | 1) end}
local acc = 0
for i = 1, n do
  local x, y = swap(i, i + 1)
  acc = acc + add3(x, y, 1) + first(i, 2, 3) + count(i, nil, 3)
  acc = acc + apply(ops[i % 4 + 1], i % 100, 7)
  acc = acc % 1000000007
end
print("checksum", acc)
