-- goto edge cases: repeat-until scope, labels at block ends, nested loops
print(load("repeat goto cont; local x ::cont:: until x", "=g"))
print(load("do goto l end ::l::", "=g") ~= nil)
print(load("goto l; do ::l:: end", "=g"))
print(load("local x goto l; local y ::l:: print(y)", "=g"))
print(load("goto l; local y ::l::", "=g") ~= nil)
local out = {}
for i = 1, 3 do
  for j = 1, 3 do
    if j == 2 then goto next_i end
    out[#out + 1] = i .. j
  end
  ::next_i::
end
print(table.concat(out, " "))
local n = 0
::a:: n = n + 1
if n < 3 then goto a end
print(n)
