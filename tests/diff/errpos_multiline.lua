-- error positions on the right line in multi-line expressions and calls
local src = [[
local t = {
  a = 1,
  b = nil,
}
local x = t.a +
  t.b
return x
]]
print(pcall(load(src, "=m")))
print(pcall(load("local f = nil\n\n\nf(\n1,\n2)", "=m")))
print(pcall(load("return 1 ..\n{}\n", "=m")))
print(pcall(load("local t = {}\nt.x.y\n= 1", "=m")))
print(pcall(load("\n\nerror('here')", "=m")))
