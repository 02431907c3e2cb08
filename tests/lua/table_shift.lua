--! medium
-- table.insert and table.remove in the middle: the shift moves a plain
-- array at once (rtlua_arraymove) and falls back to lua_geti/lua_seti
-- for holes, the hash part and proxies; every shape gives what a loop of
-- single stores gives, and metamethods run only where a slot is absent.
local function ref_insert(t, pos, v)
  local e = #t + 1
  for i = e, pos + 1, -1 do t[i] = t[i - 1] end
  t[pos] = v
end
local function ref_remove(t, pos)
  local size = #t
  local v = t[pos]
  for i = pos, size - 1 do t[i] = t[i + 1] end
  t[size] = nil
  return v
end
local function same(t, u, what)
  assert(#t == #u, what .. ": length " .. #t .. " vs " .. #u)
  for i = 1, #t + 2 do assert(t[i] == u[i], what .. ": at " .. i) end
end

-- plain arrays of every small size, every position, values of all kinds
local vals = {1, "s", 2.5, true, {}, print, false}
for n = 0, 12 do
  for pos = 1, n + 1 do
    local a, b = {}, {}
    for i = 1, n do a[i] = vals[i % #vals + 1]; b[i] = a[i] end
    table.insert(a, pos, "new"); ref_insert(b, pos, "new")
    same(a, b, "insert " .. n .. " at " .. pos)
    if n > 0 and pos <= n then
      local x, y = table.remove(a, pos), ref_remove(b, pos)
      assert(x == y, "removed at " .. pos)
      same(a, b, "remove " .. n .. " at " .. pos)
    end
  end
end

-- an array built in the hash part (backwards) and a long one
local h = {}
for i = 40, 1, -1 do h[i] = i end
table.insert(h, 1, 0)
for i = 1, 41 do assert(h[i] == i - 1, "hash " .. i) end
assert(table.remove(h, 1) == 0 and #h == 40 and h[1] == 1 and h[40] == 40)
local long = {}
for i = 1, 600 do long[i] = i end
for _ = 1, 100 do table.insert(long, 1, table.remove(long)) end
for i = 1, 600 do assert(long[i] == (i - 101) % 600 + 1, "long " .. i) end

-- a proxy: its absent slots go through __index and __newindex, in order
local store, log = {10, 20, 30}, {}
local p = setmetatable({}, {
  __index = function(_, k) log[#log + 1] = "get" .. k; return store[k] end,
  __newindex = function(_, k, v) log[#log + 1] = "set" .. k; store[k] = v end,
  __len = function() return #store end,
})
table.insert(p, 1, 5)
assert(table.concat(log, " ") == "get3 set4 get2 set3 get1 set2 set1")
assert(table.concat(store, ",") == "5,10,20,30")

-- a table with a metatable whose array slots are all present: __newindex
-- is not called for present slots, as with single stores
local calls = 0
local m = setmetatable({1, 2, 3, 4}, {__newindex = function(t, k, v)
  calls = calls + 1; rawset(t, k, v)
end})
table.insert(m, 2, 9)
assert(calls == 1 and table.concat(m, ",") == "1,9,2,3,4")
assert(table.remove(m, 1) == 1 and calls == 1 and table.concat(m, ",") == "9,2,3,4")

-- the shifts under a collection at every step keep the moved values
-- (the objects made with the collector stopped, from the live set alone:
-- what the sections above left as garbage is more than lm3s6965evb's
-- 49 KiB arena in the 64-bit model holds beside them, as the paced
-- collector's timing has it; a stopped collector runs the emergency
-- collection, as lua5.4's does, but the shifts below are to meet a
-- collection only at their steps)
collectgarbage()
collectgarbage("stop")
local objs = {}
for i = 1, 150 do objs[i] = {i} end
collectgarbage("restart")
for _ = 1, 50 do
  table.insert(objs, 1, {0})
  table.remove(objs, 2)
  collectgarbage("step", 1)
end
assert(#objs == 150 and objs[1][1] == 0)
for i = 2, 150 do assert(objs[i][1] == i, "kept " .. i) end
print("table_shift ok")
