-- filter: the sensor's cleaning.  new{alpha = a} returns a function of
-- one reading: the median of the last three readings (a spike never
-- passes), then an exponential low pass of weight a.
local M = {}

local function median3(a, b, c)
  if a > b then a, b = b, a end
  if b > c then b = c end
  if a > b then b = a end
  return b
end

function M.new(opts)
  local alpha = opts and opts.alpha or 0.5
  assert(alpha > 0 and alpha <= 1, "alpha must be in (0, 1]")
  local r1, r2, out
  return function(x)
    r1, r2 = r1 or x, r2 or x
    local m = median3(r1, r2, x)
    r1, r2 = r2, x
    out = out and out + alpha * (m - out) or m
    return out
  end
end

return M
