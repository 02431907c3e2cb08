-- goto and labels: forward and backward jumps, continue idiom, nested
-- blocks, closures captured in a goto loop, and the compile errors.
local i = 1
::top::
if i < 5 then i = i + 1; goto top end
assert(i == 5)

-- continue
local odd = {}
for k = 1, 10 do
  if k % 2 == 0 then goto continue end
  odd[#odd + 1] = k
  ::continue::
end
assert(table.concat(odd, ",") == "1,3,5,7,9")

-- jump out of nested loops
local found
for a = 1, 10 do
  for b = 1, 10 do
    if a * b == 42 then found = a .. "x" .. b; goto done end
  end
end
::done::
assert(found == "6x7")

-- each pass of a backward goto makes a fresh local
local fs = {}
do
  local n = 1
  ::again::
  local v = n * 10
  fs[n] = function() return v end
  n = n + 1
  if n <= 3 then goto again end
end
assert(fs[1]() == 10 and fs[2]() == 20 and fs[3]() == 30)

-- a label at the end of a block may follow a local's scope
do
  goto skip
  local unused = 1
  ::skip::
end

-- labels in nested functions are separate
local function inner()
  goto l
  do return 1 end
  ::l::
  return 2
end
assert(inner() == 2)

-- same label name in different blocks
do ::x:: end
do ::x:: end

-- goto in while/repeat
local c = 0
while true do
  c = c + 1
  if c == 3 then goto out end
end
::out::
assert(c == 3)
repeat
  c = c + 1
  if c < 10 then goto cont end
  ::cont::
until c >= 10
assert(c == 10)

local function synerr(src, msg)
  local f, e = load(src, "=t")
  assert(f == nil)
  if e ~= msg then error(("got %q want %q"):format(e, msg), 2) end
end
synerr("goto l; local a; ::l:: print(a)", "t:1: <goto l> at line 1 jumps into the scope of local 'a'")
synerr("do ::l:: end goto l", "t:1: no visible label 'l' for <goto> at line 1")
synerr("::l:: ::l::", "t:1: label 'l' already defined on line 1")
synerr("local function f() goto l end ::l::", "t:1: no visible label 'l' for <goto> at line 1")
synerr("::l:: do ::l:: end", "t:1: label 'l' already defined on line 1")
print("ok")
