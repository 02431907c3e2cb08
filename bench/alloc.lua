-- Allocation churn: short-lived tables, closures and strings that become
-- garbage at once, plus a small long-lived set.  arg[1] = rounds (default 200).
local rounds = tonumber(arg and arg[1]) or N or 200
local keep, sum = {}, 0
for r = 1, rounds do
  local batch = {}
  for i = 1, 500 do
    local t = {i, r, name = "x"}
    batch[i] = t
    sum = sum + #t
  end
  local f = function() return r end
  sum = sum + f() + #tostring(r)
  keep[r % 64 + 1] = batch[r % 500 + 1]
end
print("checksum", sum, #keep)
