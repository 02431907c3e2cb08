-- argument errors of library functions, including method calls
local cases = {
  function() return ("x"):rep() end, function() return ("x"):sub({}) end,
  function() return string.sub() end, function() return ("x").rep() end,
  function() return table.insert(nil, 1) end, function() return table.insert({}, 1, 2, 3) end,
  function() return table.remove({}, 5) end, function() return table.concat({}, {}) end,
  function() return table.unpack() end, function() return setmetatable({}, 1) end,
  function() return getmetatable() end, function() return rawset({}, nil, 1) end,
  function() return rawget(1) end, function() return next(1) end, function() return ipairs() end,
  function() return select() end, function() return select("x") end, function() return tonumber("1", 100) end,
  function() return math.floor() end, function() return math.max("a") end, function() return math.tointeger() end,
  function() return string.char("x") end, function() return string.byte("a", "b") end,
  function() return coroutine.resume(nil) end, function() return coroutine.wrap(1) end,
  function() return string.format("%d", {}) end, function() return string.format("%c", "x") end,
  function() return string.rep("x", 2^63) end, function() return table.concat({1, 2}, ",", 1, 5) end,
  function() return math.ult(1) end, function() return ("x"):format(1, 2) end,
  function() return string.format("%s %s", 1) end, function() return load(1) end,
  function() return setmetatable({}) end, function() return rawequal(1) end, function() return rawlen() end,
  function() return math.abs("x") end, function() return math.fmod(1) end, function() return string.upper() end,
  function() return table.pack() and table.move({}, 1, 2) end, function() return collectgarbage(1) end,
}
for i, f in ipairs(cases) do print(i, pcall(f)) end
