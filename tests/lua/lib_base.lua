-- Base library: every function, results and error messages as lua5.4.
local function err(f, ...)
  local ok, m = pcall(f, ...)
  assert(not ok, "expected an error")
  return m
end
local function has(m, s) assert(string.find(m, s, 1, true), m) end

assert(_VERSION == "Lua 5.4" and _G._G == _G)
assert(type(nil) == "nil" and type(print) == "function" and type({}) == "table")
has(err(type), "bad argument #1 to 'type' (value expected)")

assert(tonumber("10") == 10 and tonumber("0x10") == 16 and tonumber(" 5 ") == 5)
assert(tonumber("1e1") == 10.0 and tonumber("z") == nil and tonumber({}) == nil)
assert(tonumber("ff", 16) == 255 and tonumber("-zz", 36) == -1295)
assert(tonumber("777", 8) == 511 and tonumber("8", 8) == nil)
assert(tonumber(" 11 ", 2) == 3 and tonumber("", 10) == nil)
has(err(tonumber, "1", 1), "bad argument #2 to 'tonumber' (base out of range)")
has(err(tonumber, "1", 37), "base out of range")
has(err(tonumber, 10, 16), "string expected, got number")
has(err(tonumber), "bad argument #1 to 'tonumber' (value expected)")

assert(tostring(12) == "12" and tostring(1.5) == "1.5" and tostring(nil) == "nil")
assert(tostring(-0.0) == "-0.0" and tostring(true) == "true")
local mt = {__tostring = function() return "OBJ" end}
assert(tostring(setmetatable({}, mt)) == "OBJ")
assert(tostring(setmetatable({}, {__name = "My"})):find("^My: "))

assert(select("#") == 0 and select("#", nil, nil) == 2)
assert(select(2, "a", "b", "c") == "b" and select(-1, "a", "b", "c") == "c")
assert(select(5, 1, 2) == nil)
has(err(select, 0), "bad argument #1 to 'select' (index out of range)")
has(err(select, -3, 1), "index out of range")

local t = {10, 20, nil, 40}
local n = 0
for i, v in ipairs(t) do n = n + 1; assert(v == i * 10) end
assert(n == 2)
local proxy = setmetatable({}, {__index = function(_, i) if i <= 3 then return i end end})
n = 0
for i, v in ipairs(proxy) do n = n + v end
assert(n == 6)

local seen = 0
for k, v in pairs({a = 1, b = 2, 3}) do seen = seen + v end
assert(seen == 6)
local pt = setmetatable({}, {__pairs = function(s) return function(_, k)
  if not k then return 1, "one" end end, s, nil end})
for k, v in pairs(pt) do assert(k == 1 and v == "one") end
assert(next({}) == nil and next({5}) == 1)
has(err(next, {}, "nokey"), "invalid key to 'next'")

assert(rawequal(t, t) and not rawequal(t, {}))
has(err(rawequal, 1), "bad argument #2 to 'rawequal' (value expected)")
assert(rawlen({1, 2}) == 2 and rawlen("abc") == 3)
has(err(rawlen, 5), "table or string expected")
local r = setmetatable({}, {__index = function() return "meta" end})
assert(r.x == "meta" and rawget(r, "x") == nil)
assert(rawset(r, "x", 1) == r and rawget(r, "x") == 1)
has(err(rawget, 1), "bad argument #1 to 'rawget' (table expected, got number)")
has(err(rawset, {}, nil, 1), "index is nil")

local p = setmetatable({}, {__metatable = "locked"})
assert(getmetatable(p) == "locked")
has(err(setmetatable, p, {}), "cannot change a protected metatable")
has(err(setmetatable, {}, 1), "bad argument #2 to 'setmetatable' (nil or table expected")
assert(getmetatable("x").__index == string)

print("lib_base ok")
