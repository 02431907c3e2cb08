--! medium
-- ROM tables: the library tables and _G live in flash; writes go to a RAM
-- overlay, and every way of reading a table sees the union.
local function keys(t)
  local ks = {}
  for k in pairs(t) do ks[#ks + 1] = tostring(k) end
  table.sort(ks)
  return table.concat(ks, " ")
end
local function count(t)
  local n = 0
  for _ in next, t do n = n + 1 end
  return n
end

-- a new field in a library table, seen by methods, rawget, pairs, next
local nstring = count(string)
assert(nstring >= 16, nstring)
string.trim = function(s) return (s:gsub("^%s+", ""):gsub("%s+$", "")) end
assert(("  hi  "):trim() == "hi")
assert(rawget(string, "trim") == string.trim)
assert(count(string) == nstring + 1)
assert(keys(string):find("trim", 1, true))
assert(getmetatable("").__index == string)

-- a flash field overridden, removed, restored
local fmt = string.format
string.format = nil
assert(string.format == nil and rawget(string, "format") == nil)
assert(not keys(string):find("format", 1, true))
assert(count(string) == nstring)
assert(not pcall(function() return ("%d"):format(1) end))
string.format = fmt
assert(("%d"):format(7) == "7" and count(string) == nstring + 1)
math.pi = 3
assert(math.pi == 3 and rawget(math, "pi") == 3)
math.pi = nil
assert(math.pi == nil)
for k in pairs(math) do assert(k ~= "pi") end

-- _G: globals a script defines beside the flash ones
local nglobals = count(_G)
newglobal = 42
function newfunction() return "f" end
assert(_G.newglobal == 42 and newfunction() == "f")
assert(count(_G) == nglobals + 2)
local seen = {}
for k, v in pairs(_G) do seen[k] = v end
assert(seen.print == print and seen.newglobal == 42 and seen._G == _G)
newglobal = nil
assert(count(_G) == nglobals + 1 and rawget(_G, "newglobal") == nil)

-- assigning existing fields while traversing, flash and RAM ones alike
for i = 1, 20 do table["extra" .. i] = i end
local n, visited = 0, {}
for k, v in pairs(table) do
  assert(not visited[k], "visited twice: " .. tostring(k))
  visited[k] = true
  n = n + 1
  table[k] = v          -- existing field: allowed during traversal
  if k == "extra5" then table.extra6 = nil end -- clearing is allowed too
end
assert(n == 7 + 20 or n == 7 + 19, n) -- extra6 seen or not
assert(table.insert and table.extra20 == 20)
local ok, msg = pcall(next, table, "no such key")
assert(not ok and msg:find("invalid key to 'next'", 1, true), msg)

-- integer keys: package.searchers is a flash list
local searchers = package.searchers
local ns = #searchers
assert(ns >= 2 and type(searchers[1]) == "function")
local marker = function() return nil end
table.insert(searchers, marker)
assert(#searchers == ns + 1 and searchers[ns + 1] == marker)
table.insert(searchers, 1, marker)
assert(#searchers == ns + 2 and searchers[1] == marker)
table.remove(searchers, 1)
table.remove(searchers)
assert(#searchers == ns and searchers[1] ~= marker and searchers[ns] ~= marker)
assert(select("#", table.unpack(searchers)) == ns)

-- metatables on flash tables: a strict _G
setmetatable(_G, {__index = function(_, k) error("undefined global " .. k, 2) end,
                  __newindex = function(t, k, v) rawset(t, k, v * 2) end})
local ok2, err = pcall(function() return undefined_thing end)
assert(not ok2 and err:find("undefined global undefined_thing", 1, true), err)
doubled = 21
assert(doubled == 42)
newfunction = 5                 -- an existing field: no __newindex
assert(newfunction == 5)
assert(getmetatable(_G).__index)
setmetatable(_G, nil)
assert(getmetatable(_G) == nil and undefined_thing == nil)

-- require and the loaded table
assert(require("string") == string and package.loaded.math == math)
package.preload.answer = function(name) return {name = name, v = 42} end
local m = require("answer")
assert(m.v == 42 and m.name == "answer" and package.loaded.answer == m)
assert(require("answer") == m)

-- the standard files are flash objects too
assert(io.type(io.stdout) == "file" and io.output() == io.stdout)
assert(tostring(io.stderr):find("^file %("))
local okc, why = io.stdout:close()
assert(okc == nil and why == "cannot close standard file")
io.write("")

-- overlays are kept by the collector
os.saved = {}
for i = 1, 100 do os.saved[i] = {i} end
for _ = 1, 3 do
  local junk = {}
  for i = 1, 200 do junk[i] = {i} end
  collectgarbage()
end
for i = 1, 100 do assert(os.saved[i][1] == i) end
assert(string.trim and table.extra20 == 20)

-- clearing a whole library table
for k in pairs(utf8) do utf8[k] = nil end
assert(next(utf8) == nil and count(utf8) == 0 and utf8.char == nil)
print("ok")
