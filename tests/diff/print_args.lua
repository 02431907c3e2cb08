-- print separates with tabs, converts with __tostring and __name
print()
print(nil)
print(1, nil, 3)
print("a", "b", "", "c")
print(setmetatable({}, {__tostring = function() return "obj" end}), 1)
print(1, 2.0, -0.0, "x\0y")
print(pcall(print, setmetatable({}, {__tostring = function() return 1 end})))
print(pcall(print, setmetatable({}, {__tostring = function() error("ts fails") end})))
