-- Arithmetic: integer and float subtypes, //, %, wrap-around, bitwise
-- operators, string coercion, and the errors of each.
local maxi, mini = math.maxinteger, math.mininteger
local function eqt(a, b) return a == b and math.type(a) == math.type(b) end

assert(eqt(3 + 4, 7) and eqt(3 + 4.0, 7.0) and eqt(7 - 2, 5))
assert(eqt(6 * 7, 42) and eqt(7 / 2, 3.5) and eqt(4 / 2, 2.0))
assert(eqt(7 // 2, 3) and eqt(-7 // 2, -4) and eqt(7 // -2, -4))
assert(eqt(7.0 // 2, 3.0) and eqt(-7.5 // 2, -4.0))
assert(eqt(7 % 3, 1) and eqt(-7 % 3, 2) and eqt(7 % -3, -2) and eqt(-7 % -3, -1))
assert(eqt(5.5 % 2, 1.5) and eqt(-5.5 % 2, 0.5) and eqt(5.5 % -2, -0.5))
assert(eqt(2 ^ 2, 4.0) and eqt(2 ^ -1, 0.5))
assert(eqt(-(-3), 3) and eqt(- 2.5, -2.5))
assert(1 / 0 == math.huge and -1 / 0 == -math.huge)
local nan = 0 / 0
assert(nan ~= nan)
assert(eqt(1 // 0.0, math.huge) and eqt(-1 % math.huge, math.huge))
assert(eqt(3 % math.huge, 3.0) and eqt(-3 % -math.huge, -3.0))
assert(eqt(5 // 0.0, math.huge))

-- wrap-around of integer arithmetic
assert(maxi + 1 == mini and mini - 1 == maxi and -mini == mini)
assert(maxi * 2 == -2 and mini * -1 == mini)
assert(mini // -1 == mini and mini % -1 == 0)
assert(maxi // 1 == maxi and maxi % maxi == 0)

-- precedence and associativity
assert(2 ^ 3 ^ 2 == 512 and -2 ^ 2 == -4 and 2 + 3 * 4 == 14)
assert(1 .. 2 .. 3 == "123" and (2 - 3) - 4 == -5)
assert(not nil == true and not 1 == false)

-- bitwise operators (on integers and integral floats)
assert(eqt(0xF0 | 0x0F, 0xFF) and eqt(0xFF & 0x0F, 0x0F) and eqt(5 ~ 3, 6))
assert(eqt(~0, -1) and eqt(1 << 4, 16) and eqt(256 >> 4, 16))
assert(1 << 100 == 0 and 1 >> -1 == 2 and -1 >> 100 == 0)
assert(eqt(2.0 | 1, 3) and eqt(3.0 ~ 1.0, 2))
assert(-1 >> 1 == maxi and 1 << (math.maxinteger > 2^31 and 63 or 31) == mini)

-- string coercion
assert(eqt("10" + 1, 11) and eqt("10" * "2", 20) and eqt("3.0" + 1, 4.0))
assert(eqt("0x10" + 0, 16) and eqt(" 5 " - 0, 5) and eqt("1e1" * 1, 10.0))
assert(eqt(10 .. "", "10") and 1.5 .. "" == "1.5" and -0.0 .. "" == "-0.0")

-- conversions
assert(eqt(math.tointeger(3.0), 3) and math.tointeger(3.5) == nil)
assert(eqt(tonumber("  0x1F  "), 31) and tonumber("1e") == nil)
assert(tonumber("10", 2) == 2 and tonumber("zz", 36) == 1295 and tonumber("8", 8) == nil)
assert(eqt(3 | 0, 3) and math.type("3") == nil)
assert(1 == 1.0 and math.ult(1, -1) and not math.ult(-1, 1))
if maxi > 2 ^ 31 then
  assert(2 ^ 53 == 2 ^ 53 + 1.0 and eqt(2 ^ 53 // 1, 2 ^ 53))
  assert(maxi + 0.0 == 2 ^ 63 and eqt(math.tointeger(2 ^ 62), 1 << 62))
  assert(math.tointeger(2 ^ 63) == nil)
end

-- errors
local function err(src, msg)
  local ok, e = pcall(assert(load(src, "=t")))
  assert(not ok)
  if e ~= msg then error(("got %q want %q"):format(tostring(e), msg), 2) end
end
err("return 1 // 0", "t:1: attempt to divide by zero")
err("return 1 % 0", "t:1: attempt to perform 'n%0'")
err("local t = {} return t + 1", "t:1: attempt to perform arithmetic on a table value (local 't')")
err("return x * 2", "t:1: attempt to perform arithmetic on a nil value (global 'x')")
err("return 1.5 | 0", "t:1: number has no integer representation")
err("return '1' | 0", "t:1: attempt to perform bitwise operation on a string value (constant '1')")
err("return 'a' | 0", "t:1: attempt to perform bitwise operation on a string value (constant 'a')")
err("local s = 'x' return s + 1", "t:1: attempt to add a 'string' with a 'number'")
err("return -{}", "t:1: attempt to perform arithmetic on a table value")
err("local a = {} return a.b.c", "t:1: attempt to index a nil value (field 'b')")
err("return 2^'x'", "t:1: attempt to pow a 'number' with a 'string'")
print("ok")
