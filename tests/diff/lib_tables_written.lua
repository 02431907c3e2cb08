-- Library tables and _G written by a script (rtlua keeps them in flash
-- with a RAM overlay): every way of reading sees the same as lua5.4.
local function sorted_keys(t)
  local ks = {}
  for k in pairs(t) do ks[#ks + 1] = tostring(k) end
  table.sort(ks)
  return table.concat(ks, ",")
end
local function sorted_values(t, names)
  local out = {}
  for _, k in ipairs(names) do out[#out + 1] = k .. "=" .. tostring(rawget(t, k) ~= nil) end
  return table.concat(out, " ")
end

print(sorted_keys(coroutine))
coroutine.extra = 1
coroutine.wrap = nil
print(sorted_keys(coroutine))
print(coroutine.extra, coroutine.wrap, rawget(coroutine, "create") ~= nil)
coroutine.wrap = function() return "mine" end
print(coroutine.wrap(), rawlen(coroutine), #coroutine)

print(sorted_keys(table))
for k, v in pairs(table) do table[k] = v end
table[1], table[2], table[3] = "a", "b", "c"
print(#table, rawlen(table), table.concat(table, "-"))
table[2] = nil
print(table[1], table[2], table[3], (pcall(next, table, "concat")))

math.pi, math.huge = 3, nil
print(math.pi, math.huge, math.type(math.pi))
print(sorted_values(math, {"pi", "huge", "floor", "nope"}))

mything = "global"
print(mything, _G.mything, rawget(_G, "mything"), _ENV == _G)
local before = 0
for k in pairs(_G) do before = before + 1 end
print_saved, print = print, nil
print_saved(print, rawequal(_G.print, nil))
print = print_saved
local after = 0
for k in pairs(_G) do after = after + 1 end
print(after - before)

setmetatable(_G, {__index = function(_, k) return "missing " .. k end})
print(undefinedvar, type(getmetatable(_G)))
setmetatable(_G, nil)
print(undefinedvar)

setmetatable(string, {__index = function(_, k) return "no " .. k end})
print(string.nothing, ("x").nothing, getmetatable(string) ~= nil)
print(pcall(next, string, "not a key"))
package.loaded.mod1 = "loaded by hand"
print(require("mod1"), package.loaded.string == string)
print(pcall(require, "no.such.module_x") == false)
