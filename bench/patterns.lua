-- Patterns: find (plain and with patterns), match with captures,
-- gmatch over words and gsub with a string, a table and a function.
-- arg[1] = rounds (default 400).
local n = tonumber(arg and arg[1]) or N or 400
local text = "The quick brown fox, key=value; x=12 y=345 z=6789. " ..
             "Dates: 2024-01-15 and 1999-12-31 (end)"
local map = {quick = "slow", brown = "red", fox = "dog"}
local acc = 0
for i = 1, n do
  local s = text .. i
  acc = acc + (s:find("fox", 1, true) or 0) + (s:find("%d%d%d%d%-") or 0)
  local y, m, d = s:match("(%d+)-(%d+)-(%d+)")
  acc = acc + tonumber(y) + tonumber(m) + tonumber(d)
  for k, v in s:gmatch("(%a+)=(%w+)") do acc = acc + #k + #v end
  local words = 0
  for w in s:gmatch("%a+") do words = words + #w end
  acc = acc + words
  local r1 = s:gsub("%s+", " ")
  local r2 = s:gsub("%a+", map)
  local r3, c = s:gsub("%d+", function(x) return #x end)
  acc = acc + #r1 + #r2 + #r3 + c
  if s:match("^The%s+(%a+)") ~= "quick" then acc = -1 end
end
print("checksum", acc)
