-- util: helpers, a table of string keys, errors with positions.
local M = {}
M.VERSION = "1.2"
M.lookup = {version = "key found", other = 1}
M.long = "a string constant longer than forty bytes, kept as a long one"

function M.add(a, b)
  return a + b
end

function M.fail(what)
  error("util failed: " .. what)
end

function M.deep(n)
  if n == 0 then
    local t = nil
    return t.field
  end
  return M.deep(n - 1) + 1
end

return M
