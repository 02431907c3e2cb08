-- nested pcall and xpcall with handlers
print(xpcall(function() error("a") end, function(m) return "handled: " .. m end))
print(xpcall(function() error({}) end, function(m) return type(m) end))
print(xpcall(function() return 1, 2, 3 end, print))
print(xpcall(function(...) return select("#", ...) end, print, nil, nil))
print(xpcall(error, function() error("again") end, "x"))
print(xpcall(function() local t; t.x = 1 end, function(m) return "H(" .. m .. ")" end))
print(pcall(pcall, error, "e"))
print(pcall(xpcall, error, function(m) return m .. "!" end, "e"))
print(pcall(function()
  local ok, e = pcall(error, "inner")
  error("outer after " .. e, 0)
end))
local depth = 0
local function h(m) depth = depth + 1; return m .. depth end
print(xpcall(function() xpcall(error, h, "one") error("two", 0) end, h))
print(pcall(xpcall))
print(pcall(xpcall, print))
