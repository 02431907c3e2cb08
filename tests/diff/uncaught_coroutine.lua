-- an error inside coroutine.wrap propagates to the caller
local gen = coroutine.wrap(function()
  coroutine.yield(1)
  local t = nil
  return t.field
end)
print(gen())
print(gen())
