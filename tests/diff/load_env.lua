-- load with an environment, chunk names, readers and modes
local env = {x = 2}
local f = load("y = x * 21; return y", "=env", "t", env)
print(f(), env.y, y)
print(load("return ...", "=va")(1, 2, 3))
local parts, i = {"return ", "1 ", "+ 41"}, 0
print(load(function() i = i + 1; return parts[i] end)())
print(load("\27Lua", "=bin", "t"))
print(load("return 1", "=m", "b"))
print(pcall(load, "x", "=n", "q"))
print(load(function() return {} end))
print(pcall(load("error('inside')", "=named")))
print(pcall(load("error('inside')", "@file.lua")))
print(pcall(load("error('inside')", "plain source text")))
local g = load("local a = ... return function() return a end")(5)
print(g())
print(_ENV == _G, _G._G == _G, _VERSION)
