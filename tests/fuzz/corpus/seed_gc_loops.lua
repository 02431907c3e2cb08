-- __gc runs with hooks off: finalizers that loop, in Lua and in C.
for i = 1, 3 do
  setmetatable({}, {__gc = function()
    local s = ""
    while true do s = (s .. i):sub(-8) end
  end})
end
setmetatable({}, {__gc = function()
  table.move({}, 1, math.maxinteger - 1, 2)
end})
collectgarbage()
print(pcall(collectgarbage, "count"))
