--! big
-- string.rep: contents against a naive builder for every small shape
-- (with and without a separator, empty pieces, n = 0/1/negative), an
-- empty result for any n in no time, and a cost that does not grow with
-- the number of repetitions for a given result size (it copies by
-- doubling, not once per repetition).
local function naive(s, n, sep)
  local t = {}
  for i = 1, n do t[i] = s end
  return table.concat(t, sep or "")
end

local pieces = {"", "x", "ab", "\0", "abc\0de", ("q"):rep(37)}
for _, s in ipairs(pieces) do
  for _, sep in ipairs({false, "", ",", "\0", "<->", ("s"):rep(41)}) do
    for n = -2, 19 do
      local got = sep and string.rep(s, n, sep) or string.rep(s, n)
      local want = n > 0 and naive(s, n, sep or nil) or ""
      assert(got == want, string.format("rep(%q, %d, %q)", s, n, tostring(sep)))
    end
  end
end
-- Around the doubling steps: lengths just below, at and after a power
-- of two, with a separator that breaks the period in the middle.
for _, n in ipairs({31, 32, 33, 63, 64, 65, 127, 128, 129, 1000}) do
  assert(string.rep("abc", n, "--") == naive("abc", n, "--"))
  assert(#string.rep("z", n) == n)
end
assert(string.rep("x", 1, "sep") == "x" and string.rep("", 3, "+") == "++")
assert(string.rep("x", 3.0) == "xxx" and string.rep("x", "2") == "xx")
assert(string.rep("x", math.mininteger) == "")

-- An empty result is immediate, whatever n (one step per repetition
-- would run for hours here).
assert(string.rep("", math.maxinteger) == "")
assert(string.rep("", math.maxinteger, "") == "")

local function has_error(f, text)
  local ok, m = pcall(f)
  assert(not ok and string.find(m, text, 1, true), tostring(m))
end
-- Past INT_MAX bytes in both number models (maxinteger is INT_MAX in
-- the 32-bit one).
has_error(function() return string.rep("xx", math.maxinteger) end, "resulting string too large")
has_error(function() return string.rep("", math.maxinteger, ",,") end, "resulting string too large")
has_error(function() return string.rep("ab", 1 << 30, ",") end, "resulting string too large")
has_error(function() return string.rep("x", 2.5) end, "number has no integer representation")

-- The same 8 KiB result from 8,192 one-byte pieces and from 128
-- 64-byte pieces: copying by doubling makes both cost about the same,
-- where one copy per repetition makes the first many times dearer.
-- Only where rt.cycles counts the machine's own time (a board, or QEMU
-- with -icount): on the host it is wall-clock time, which another
-- process or a sanitizer's interceptors can stretch at will (bench/
-- measures the host).
local function best(s, n)
  local b = math.huge
  for _ = 1, 7 do
    local t0 = rt.cycles()
    local r = string.rep(s, n)
    local d = rt.cycles() - t0
    assert(#r == 8192)
    if d < b then b = d end
  end
  return b
end
if rt.stats().clock ~= "host" then
  local one, wide = best("x", 8192), best(("y"):rep(64), 128)
  assert(one < 2 * wide + 1000, string.format("%d cycles against %d", one, wide))
end
print("ok")
