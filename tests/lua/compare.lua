-- Comparison: numbers across subtypes, strings, equality of references,
-- and the errors for incomparable values.
local maxi, mini = math.maxinteger, math.mininteger
assert(1 == 1.0 and not (1 ~= 1.0) and 1 < 1.5 and 2 > 1.5)
assert(-0.0 == 0.0 and 0 == -0)
local nan = 0 / 0
assert(not (nan < 1) and not (nan > 1) and not (nan == nan) and nan ~= nan)
assert(not (nan <= nan) and not (1 <= nan))
assert(math.huge > maxi and -math.huge < mini)
assert(maxi < math.huge and mini > -math.huge)
if maxi > 2 ^ 31 then
  -- exact comparison of integers with floats that cannot represent them
  assert(maxi < 2 ^ 63 and maxi + 0.0 == 2 ^ 63 and maxi ~= 2 ^ 63)
  assert(mini == -2 ^ 63 and mini <= -2 ^ 63 and not (mini < -2 ^ 63))
  assert((1 << 53) + 1 > 2 ^ 53 and (1 << 53) + 1 ~= 2.0 ^ 53)
  assert(9007199254740993 > 9007199254740992.0)
end

-- strings compare bytewise
assert("a" < "b" and "a" < "ab" and "" < "a" and "Z" < "a")
assert("a\0b" > "a" and "a\0a" < "a\0b" and "abc" <= "abc" and "b" >= "abc")
assert(not ("a" < "a") and "10" < "9")

-- equality: different types are never equal, no coercion
assert("1" ~= 1 and not ("1" == 1) and 1 ~= "1")
local t1, t2 = {}, {}
assert(t1 ~= t2 and t1 == t1)
local f1 = function() end
assert(f1 == f1 and f1 ~= function() end)
assert(nil == nil and false ~= nil and true == true)

-- results are booleans
assert((1 < 2) == true and (2 < 1) == false)
assert(type(1 == 1) == "boolean")

-- and/or return operands
assert((nil or 5) == 5 and (false and error()) == false and (1 and 2) == 2)
assert((nil and 1) == nil and (false or nil) == nil and (0 or 1) == 0)

local function err(src, msg)
  local ok, e = pcall(assert(load(src, "=t")))
  assert(not ok)
  if e ~= msg then error(("got %q want %q"):format(tostring(e), msg), 2) end
end
err("return {} < {}", "t:1: attempt to compare two table values")
err("return 1 < 'x'", "t:1: attempt to compare number with string")
err("local a, b = 1, {} return a <= b", "t:1: attempt to compare number with table")
err("return nil > 1", "t:1: attempt to compare number with nil")
err("return 'a' >= 1", "t:1: attempt to compare number with string")
err("return print < print", "t:1: attempt to compare two function values")
print("ok")
