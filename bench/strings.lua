-- String work: concatenation, rep, sub, byte, format, table.concat.
-- arg[1] = rounds (default 20000).
local rounds = tonumber(arg and arg[1]) or N or 20000
local acc, parts = 0, {}
for i = 1, rounds do
  local s = "item" .. i .. ":" .. (i * 3)
  local r = ("ab"):rep(i % 8)
  local f = string.format("%05d|%s|%.2f", i, r, i / 7)
  acc = acc + #s + #f + s:byte(-1) + #f:sub(2, 6)
  if i % 100 == 0 then parts[#parts + 1] = f:upper() end
end
local all = table.concat(parts, ",")
print("checksum", acc, #all)
