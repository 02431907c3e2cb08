--! medium
-- Metatables II: arithmetic, bitwise, __unm, __eq, __lt, __le events;
-- which operand's handler runs; results are adjusted to one value.
local V = {}
V.__index = V
local function vec(x) return setmetatable({x = x}, V) end
local function val(o) return type(o) == "table" and o.x or o end
V.__add = function(a, b) return vec(val(a) + val(b)) end
V.__sub = function(a, b) return vec(val(a) - val(b)) end
V.__mul = function(a, b) return vec(val(a) * val(b)) end
V.__div = function(a, b) return vec(val(a) / val(b)) end
V.__mod = function(a, b) return vec(val(a) % val(b)) end
V.__pow = function(a, b) return vec(val(a) ^ val(b)) end
V.__idiv = function(a, b) return vec(val(a) // val(b)) end
V.__unm = function(a) return vec(-a.x) end
V.__band = function(a, b) return vec(val(a) & val(b)) end
V.__bor = function(a, b) return vec(val(a) | val(b)) end
V.__bxor = function(a, b) return vec(val(a) ~ val(b)) end
V.__shl = function(a, b) return vec(val(a) << val(b)) end
V.__shr = function(a, b) return vec(val(a) >> val(b)) end
V.__bnot = function(a) return vec(~a.x) end
V.__eq = function(a, b) return a.x == b.x end
V.__lt = function(a, b) return val(a) < val(b) end
V.__le = function(a, b) return val(a) <= val(b) end

local a, b = vec(6), vec(3)
assert((a + b).x == 9 and (a - b).x == 3 and (a * b).x == 18 and (a / b).x == 2.0)
assert((a % b).x == 0 and (a ^ b).x == 216.0 and (a // b).x == 2 and (-a).x == -6)
assert((a + 1).x == 7 and (1 + a).x == 7 and (10 - a).x == 4)
assert((a & b).x == 2 and (a | b).x == 7 and (a ~ b).x == 5 and (~a).x == -7)
assert((a << 1).x == 12 and (a >> 1).x == 3 and (1 << b).x == 8)
-- strings with numeric content still use the metamethod of the table
assert(("2" * a).x == 12)

-- __eq only for two tables (or two userdata), result to boolean
assert(vec(1) == vec(1) and vec(1) ~= vec(2) and vec(1) ~= 1)
local e1 = setmetatable({}, {__eq = function() return "yes" end})
local e2 = setmetatable({}, {__eq = function() return nil end})
assert((e1 == {}) == true and (e2 == {}) == false and (e2 ~= {}) == true)
-- __eq is not called for the same object
local called = false
local same = setmetatable({}, {__eq = function() called = true; return false end})
assert(same == same and not called)

-- __lt / __le and the swapped forms for > and >=
assert(a > b and b < a and a >= b and b <= a and not (a < b))
assert(a < 7 and 7 > a and 1 <= a and not (a <= 5))
local lt = setmetatable({}, {__lt = function(x, y) return 1 end})
assert((lt < lt) == true)

-- the left operand's handler has priority; else the right one's
local L = setmetatable({}, {__add = function() return "left" end})
local R = setmetatable({}, {__add = function() return "right" end})
assert(L + R == "left" and R + L == "right" and 1 + R == "right")

-- multiple results of a metamethod are truncated
local multi = setmetatable({}, {__add = function() return 1, 2 end})
assert(select("#", multi + 1) == 1)

-- metamethods on strings via the string metatable's arithmetic fallbacks
assert("10" + 5 == 15 and -"2" == -2 and "3" * "4" == 12)

-- errors name the operation
local function err(src, msg)
  local ok, e = pcall(assert(load(src, "=t")))
  assert(not ok)
  if e ~= msg then error(("got %q want %q"):format(tostring(e), msg), 2) end
end
err("local x = setmetatable({}, {}) return x + 1", "t:1: attempt to perform arithmetic on a table value (local 'x')")
err("local x = {} return x < 1", "t:1: attempt to compare table with number")
err("local x = {} return x & 1", "t:1: attempt to perform bitwise operation on a table value (local 'x')")
err("local x = {} return ~x", "t:1: attempt to perform bitwise operation on a table value (local 'x')")
err("local x = {} return x .. 'a'", "t:1: attempt to concatenate a table value (local 'x')")
err("local x = setmetatable({}, {__index = function(t, k) error('idx ' .. k) end}) return x.foo", "t:1: idx foo")
-- x - c with a small integer c runs as x + (-c) (ADDI, issue 14): the
-- metamethod is still __sub with c, and so is the traceback's name
do
  local seen = {}
  local M = setmetatable({}, {__sub = function(a, b) seen[#seen + 1] = "sub " .. b; return b end,
                              __add = function(a, b) seen[#seen + 1] = "add " .. b; return b end})
  assert(M - 1 == 1 and M - 127 == 127 and M - -128 == -128 and M + 5 == 5 and M - 200 == 200)
  assert(table.concat(seen, ",") == "sub 1,sub 127,sub -128,add 5,sub 200")
  assert(("10" - 1) == 9 and 2.5 - 1 == 1.5 and math.mininteger - 1 == math.maxinteger)
  local tb = select(2, xpcall(function()
    local w = setmetatable({}, {__sub = function() error("boom") end})
    return w - 3
  end, debug.traceback))
  assert(tb:find("metamethod 'sub'"), tb)
end
err("local x; return x - 1", "t:1: attempt to perform arithmetic on a nil value (local 'x')")
print("ok")
