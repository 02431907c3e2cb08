-- No hook runs inside a hook: a line hook that loops, set in a coroutine.
local co = coroutine.wrap(function()
  debug.sethook(function(ev, line)
    local t = {}
    repeat t[#t + 1] = line; if #t > 8 then t = {} end until false
  end, "l")
  local s = 0
  for i = 1, 3 do s = s + i end
  return s
end)
print(pcall(co))
