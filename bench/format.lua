-- string.format: integers, padded fields, hex, strings, %q and floats.
-- arg[1] = rounds (default 5000).
local n = tonumber(arg and arg[1]) or N or 5000
local acc = 0
for i = 1, n do
  local a = string.format("%d:%5d:%-6d|", i, i * 3, -i)
  local b = string.format("%x %X %08x", i, i * 17, i)
  local c = string.format("[%s] [%10s] [%-8s]", "k" .. i % 10, "abc", "x")
  local d = string.format("%q", "line\n" .. i)
  local e = string.format("%.3f %g %5.1f", i / 8, i * 0.25, i / 3)
  acc = acc + #a + #b + #c + #d + #e + a:byte(2) + e:byte(1)
end
print("checksum", acc)
