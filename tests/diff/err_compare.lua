-- messages of comparison errors
local cases = {
  "return {} < {}", "return 1 < 'x'", "return 'x' < 1", "return nil < 1", "return {} <= 1",
  "return true > false", "return print >= print", "local a, b = 1, {} return a < b",
  "return setmetatable({}, {}) < setmetatable({}, {})",
}
for _, src in ipairs(cases) do print(pcall(load(src, "=c"))) end
