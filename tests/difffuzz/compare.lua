-- tests/difffuzz/compare.lua — compares two transcripts of a batch
-- (tests/difffuzz/driver.lua's output under lua5.4 and rtlua).
--
--   lua5.4 tests/difffuzz/compare.lua REF RTLUA KNOWN
--
-- Prints the numbers of the programs whose lines differ, one a line,
-- after applying to both transcripts the rules of KNOWN (each line a Lua
-- pattern and its replacement, separated by a tab: the documented
-- differences), and a last line "programs N differ M".  When a
-- transcript ends early (the interpreter died or ran out of time), the
-- program it ended in differs and those after it are not compared (the
-- runner keeps the batch whole).

local function read(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("a")
  f:close()
  return s
end

local rules = {}
for l in read(arg[3]):gmatch("[^\n]+") do
  if not l:match("^#") then
    local pat, rep = l:match("^(.-)\t(.*)$")
    if pat then rules[#rules + 1] = { pat, rep } end
  end
end

-- program number -> its lines (as one string), in order
local function split(s)
  local progs, order = {}, {}
  local num, lines
  local function flush()
    if num then
      local body = table.concat(lines, "\n")
      for _, r in ipairs(rules) do body = body:gsub(r[1], r[2]) end
      progs[num] = body
      order[#order + 1] = num
    end
  end
  for l in (s .. "\n"):gmatch("([^\n]*)\n") do
    local n = l:match("^@@ (%d+)$")
    if n then
      flush()
      num, lines = n, {}
    elseif num then
      lines[#lines + 1] = l
    end
  end
  flush()
  return progs, order
end

local ref, order = split(read(arg[1]))
local rt = split(read(arg[2]))
local differ = 0
for _, num in ipairs(order) do
  if rt[num] == nil then break end
  if ref[num] ~= rt[num] then
    differ = differ + 1
    print(num)
  end
end
print("programs " .. #order .. " differ " .. differ)
