-- Integer floor division and modulo at the edges of 32 bits.  In the
-- 64-bit model on a 32-bit board the interpreter divides in 32 bits when
-- both operands fit (vm.c, int_div32), and in 64 otherwise; every pair
-- below, across that line and on both sides of it, must obey the
-- definition: a == q * b + r, r zero or of b's sign, |r| < |b|.
-- The operands come from a table, so that no constant folding (arith.c)
-- takes the place of the interpreter's own operators.
local wide = math.maxinteger > 0x7fffffff
local vals = {0, 1, -1, 2, -2, 3, -3, 7, -7, 10, -10, 65521, -65521,
              1000003, 0x7ffffffe, 0x7fffffff, -0x7fffffff,
              math.mininteger, math.maxinteger}
if wide then
  for _, v in ipairs({0x80000000, -0x80000000, -0x80000001, 0x80000001,
                      0xffffffff, -0xffffffff, 0x100000000, -0x100000000,
                      0x123456789, -0x123456789}) do
    vals[#vals + 1] = v
  end
else
  vals[#vals + 1] = -0x7fffffff - 1
end

local function check(a, b)
  local q, r = a // b, a % b
  assert(math.type(q) == "integer" and math.type(r) == "integer")
  if b == -1 then
    -- the wrap of mininteger // -1 is the language's, not an error
    assert(q == -a and r == 0, string.format("%d // -1", a))
    return
  end
  assert(q * b + r == a, string.format("%d // %d = %d, %% %d", a, b, q, r))
  if r ~= 0 then
    assert((r < 0) == (b < 0), string.format("%d %% %d = %d: sign", a, b, r))
  end
  -- |r| < |b|, written so that neither side overflows at mininteger
  if b > 0 then
    assert(r >= 0 and r < b, string.format("%d %% %d = %d", a, b, r))
  else
    assert(r <= 0 and r > b, string.format("%d %% %d = %d", a, b, r))
  end
end

local n = 0
for _, a in ipairs(vals) do
  for _, b in ipairs(vals) do
    if b ~= 0 then
      check(a, b)
      n = n + 1
    end
  end
end
assert(n == #vals * (#vals - 1))

-- A few values written out, from the manual's definition.
local t = {7, -7, 2, -2, 0x7fffffff, -0x7fffffff - 1, 65521}
assert(t[1] // t[3] == 3 and t[1] % t[3] == 1)
assert(t[2] // t[3] == -4 and t[2] % t[3] == 1)
assert(t[1] // t[4] == -4 and t[1] % t[4] == -1)
assert(t[2] // t[4] == 3 and t[2] % t[4] == -1)
assert(t[6] // t[3] == -0x40000000 and t[6] % t[4] == 0)
assert(t[5] % t[7] == 0x7fffffff - (0x7fffffff // 65521) * 65521)
if wide then
  local big = {0x80000000, -0x80000001, 0x123456789}
  assert(big[1] // t[3] == 0x40000000 and big[1] % t[7] == 32873)
  assert(big[2] // t[3] == -0x40000001 and big[2] % t[3] == 1)
  assert(t[6] // t[4] == 0x40000000)
  assert(big[3] % t[7] == 4886718345 % 65521 and big[3] % t[7] == 4886718345 - (4886718345 // 65521) * 65521)
end
print(n .. " pairs: intdiv ok")
