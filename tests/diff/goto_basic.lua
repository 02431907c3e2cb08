-- goto: loops built from labels, continue, nested breakouts
local i = 1
::top::
print("i", i)
i = i + 1
if i <= 3 then goto top end
for a = 1, 3 do
  for b = 1, 3 do
    if b == 2 then goto continue end
    if a == 3 then goto out end
    print(a, b)
    ::continue::
  end
end
::out::
print("out")
local fs = {}
do
  local k = 0
  ::again::
  local v = k
  fs[#fs + 1] = function() return v end
  k = k + 1
  if k < 3 then goto again end
end
print(fs[1](), fs[2](), fs[3]())
print(load("goto x", "=g"))
print(load("goto x; local a; ::x:: print(a)", "=g"))
print(load("::x:: ::x::", "=g"))
