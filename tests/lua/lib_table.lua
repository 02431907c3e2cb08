--! medium
-- table: insert remove concat unpack pack sort move, metamethods respected.
local function err(f, ...)
  local ok, m = pcall(f, ...)
  assert(not ok, "expected an error")
  return m
end
local function has(m, s) assert(string.find(m, s, 1, true), m) end
local function same(t, u)
  assert(#t == #u, "length " .. #t .. " vs " .. #u)
  for i = 1, #t do assert(t[i] == u[i], "at " .. i) end
end

local t = {}
table.insert(t, "a"); table.insert(t, "c"); table.insert(t, 2, "b")
same(t, {"a", "b", "c"})
table.insert(t, 4, "d")
same(t, {"a", "b", "c", "d"})
has(err(table.insert, t, 6, "x"), "position out of bounds")
has(err(table.insert, t, 0, "x"), "position out of bounds")
has(err(table.insert, t, 1, 2, 3), "wrong number of arguments to 'insert'")
has(err(table.insert, nil, 1), "table expected, got nil")
assert(table.remove(t) == "d" and table.remove(t, 1) == "a")
same(t, {"b", "c"})
assert(table.remove({}) == nil and table.remove({}, 0) == nil)
has(err(table.remove, {1, 2}, 5), "position out of bounds")
local r = {1, 2, 3}
assert(table.remove(r, 4) == nil and #r == 3)

assert(table.concat({1, 2, 3}) == "123" and table.concat({1, 2, 3}, ", ") == "1, 2, 3")
assert(table.concat({"a", "b", "c"}, "-", 2) == "b-c")
assert(table.concat({"a", "b", "c"}, "-", 2, 2) == "b")
assert(table.concat({}, "x") == "" and table.concat({1, 2}, "", 3) == "")
assert(table.concat({1.5, "x"}) == "1.5x")
has(err(table.concat, {1, {}, 3}), "invalid value (table)")
has(err(table.concat, {1, {}, 3}), "at index 2 in table for 'concat'")

local p = table.pack(1, nil, 3)
assert(p.n == 3 and p[1] == 1 and p[2] == nil and p[3] == 3)
assert(table.pack().n == 0)
local a, b, c = table.unpack({1, 2, 3})
assert(a == 1 and b == 2 and c == 3)
assert(select("#", table.unpack({1, 2, 3}, 2)) == 2)
assert(select("#", table.unpack({}, 1, 3)) == 3)
assert(select("#", table.unpack({1}, 3, 2)) == 0)
has(err(table.unpack, {}, 1, 1e7), "too many results to unpack")

local m = table.move({1, 2, 3}, 1, 3, 2)
same(m, {1, 1, 2, 3})
m = table.move({1, 2, 3, 4}, 2, 4, 1)
same(m, {2, 3, 4, 4})
local dst = table.move({1, 2}, 1, 2, 3, {9})
same(dst, {9, nil, 1, 2})
has(err(table.move, {}, 1, math.maxinteger, 2), "destination wrap around")

local s = {5, 2, 8, 1, 9, 3, 7, 4, 6, 0}
table.sort(s)
same(s, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
table.sort(s, function(x, y) return x > y end)
same(s, {9, 8, 7, 6, 5, 4, 3, 2, 1, 0})
local words = {"pear", "apple", "fig", "banana"}
table.sort(words)
same(words, {"apple", "banana", "fig", "pear"})
local big = {}
for i = 1, 200 do big[i] = (i * 37) % 101 end
table.sort(big)
for i = 2, 200 do assert(big[i - 1] <= big[i]) end
local bad = {}
for i = 1, 100 do bad[i] = i % 5 end
has(err(table.sort, bad, function() return true end), "invalid order function for sorting")
has(err(table.sort, {1, "x", 2}), "attempt to compare")
table.sort({}); table.sort({1})

-- metamethods: __index/__newindex/__len proxies
local store = {10, 20, 30}
local proxy = setmetatable({}, {
  __index = function(_, k) return store[k] end,
  __newindex = function(_, k, v) store[k] = v end,
  __len = function() return #store end})
table.insert(proxy, 40)
assert(store[4] == 40 and #proxy == 4)
assert(table.concat(proxy, ",") == "10,20,30,40")
assert(table.remove(proxy, 1) == 10 and store[1] == 20)
table.sort(proxy, function(x, y) return x > y end)
assert(store[1] == 40 and store[3] == 20)
assert(select("#", table.unpack(proxy)) == 3)
print("lib_table ok")
