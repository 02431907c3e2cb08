-- C01: strings are values, not objects, for weak tables (manual 2.5.4):
-- an entry of a weak-key table whose key is a string is never removed, and
-- its value lives as long as the entry does, whatever the value is (a
-- string, a table, a closure).  rtlua freed such values while the entry
-- stayed in the table (a use-after-free: the value printed as garbage).
local e = setmetatable({}, {__mode = "k"})
local kv = setmetatable({}, {__mode = "kv"})
for i = 1, 20 do
  local k = string.rep("k", 3) .. i
  e[k] = string.rep("v", 3) .. i          -- string key, string value
  e[k .. "t"] = {n = i}                   -- string key, table value
  e[k .. "f"] = function () return i end  -- string key, closure value
  kv[k] = string.rep("s", 2) .. i         -- weak both ways, string value: kept
  kv[k .. "t"] = {}                       -- weak value, nothing else: removed
end
e[{}] = "dead key"                        -- a table key nobody holds: removed
collectgarbage()
collectgarbage()
-- reuse the memory the values would have had
local junk = {}
for i = 1, 2000 do junk[i] = string.rep("z", 3) .. i end
local n, bad = 0, 0
for k, v in pairs(e) do
  n = n + 1
  local i = tonumber(k:match("^kkk(%d+)"))
  if k:sub(-1) == "t" then bad = bad + (v.n == i and 0 or 1)
  elseif k:sub(-1) == "f" then bad = bad + (v() == i and 0 or 1)
  else bad = bad + (v == "vvv" .. i and 0 or 1) end
end
print("weak-key entries", n, "wrong values", bad)
local m = 0
for k, v in pairs(kv) do
  m = m + 1
  assert(v == "ss" .. k:match("%d+"), k)
end
print("weak-kv entries", m)
-- the repro: one entry, key and value held by nothing else
local a = setmetatable({}, {__mode = 'k'})
a[string.rep('x', 3)] = string.rep('y', 3)
collectgarbage()
local t = {} for i = 1, 100 do t[i] = string.rep('z', 3) .. i end
for k, v in pairs(a) do print(k, v) end
