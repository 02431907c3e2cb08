-- Allocating trees: binary trees built, checked and dropped, plus one
-- long-lived tree (the shape of the binary-trees benchmark).
-- arg[1] = depth of the largest trees (default 12).
local depth = tonumber(arg and arg[1]) or N or 12
local function make(d)
  if d == 0 then return {} end
  d = d - 1
  return {make(d), make(d)}
end
local function check(t)
  local l = t[1]
  if l == nil then return 1 end
  return 1 + check(l) + check(t[2])
end
local long = make(depth)
local sum = 0
for d = 4, depth, 2 do
  local iters = 1 << (depth - d + 4)
  for _ = 1, iters do sum = sum + check(make(d)) end
end
print("checksum", sum, check(long))
