-- pairs output, with keys sorted first (traversal order is unspecified)
local t = {10, 20, 30, x = 1, y = 2, [1.5] = "f", [-1] = "neg", [true] = "b"}
local keys = {}
for k in pairs(t) do keys[#keys + 1] = k end
table.sort(keys, function(a, b)
  if type(a) ~= type(b) then return type(a) < type(b) end
  if type(a) == "boolean" then return not a and b end
  return a < b
end)
for _, k in ipairs(keys) do print(k, t[k]) end
print(next({}), rawequal(next({5}), 1))
print(pcall(next, {}, "missing"))
