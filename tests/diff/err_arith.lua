-- messages of arithmetic, bitwise, length and concatenation errors
local cases = {
  "local a; return a + 1", "return {} * 2", "local t = {} return t.x - 1", "return 1 // 0", "return 1 % 0",
  "return 2 ^ nil", "local s = 'abc' return s + 1", "return '10' + {}", "return -{}", "local t = {} return -t",
  "return 1.5 | 1", "return 1 << 2.5", "return '1' & 1", "return ~{}", "return 2^63 | 0", "local n return #n",
  "return #5", "local t = {} return #t.x", "return 1 .. {}", "local a = {} return 'x' .. a",
  "return math.huge // 0 | 0", "local up = {}; return (function() return up + 1 end)()",
}
for _, src in ipairs(cases) do print(pcall(load(src, "=c"))) end
