-- C13: a table held in an upvalue (or _ENV) indexed by a condition:
-- t[1 < 2], t[a == b], t[x or y]...  The key's code (a comparison and its
-- jump) comes before the table is loaded into a register, so the jump
-- must not skip that load.  Lua 5.4.8 gives t[true]; 5.4.4 (Debian's
-- lua5.4) and every 5.4 up to 5.4.7 raise "attempt to index a number
-- value" for t[1 < 2], so this expectation follows 5.4.8, not lua5.4.
local t = {[true] = "T", [false] = "F", [1] = "one", [2] = "two"}
local a, b, n, z = 1, 2, nil, false
local cases = {
  function () return t[1 < 2] end,
  function () return t[a == b] end,
  function () return t[a ~= b] end,
  function () return t[not n] end,
  function () return t[not (a < b)] end,
  function () return t[a and b] end,
  function () return t[n or a] end,
  function () return t[a < b and 1 or 2] end,
  function () return t[a > b or z] end,
  function () return t[(a <= b)] end,
  function () return t[t[1 < 2] == "T"] end,
  function () return t[a < b][1] end, -- "T"[1]: string's __index, nil
  function () t[a == b] = "set"; local r = t[false]; t[false] = "F"; return r end,
  function () t[1 < 2] = "s2"; local r = t[true]; t[true] = "T"; return r end,
  function () t[not z] = "s3"; local r = t[true]; t[true] = "T"; return r end,
  function () t[n or 1] = "s4"; local r = t[1]; t[1] = "one"; return r end,
  function ()
    t[a < b], t[a > b] = "p", "q"
    local r = t[true] .. t[false]
    t[true], t[false] = "T", "F"
    return r
  end,
  function () local u = t return u[1 < 2], u[a >= b] end,
  function () return ({[a < b] = 1, [a > b] = 2})[true] end,
}
for i, f in ipairs(cases) do print(i, pcall(f)) end
-- _ENV is an upvalue of every function of the chunk, as t is above.
print(pcall(function () _ENV[a < b] = "env"; local r = _ENV[1 < 2]; _ENV[true] = nil; return r end))
-- in a method call's arguments and a call's, next to other registers
local o = {m = function (self, x, y) return t[x] .. t[y] end}
print(o:m(a < b, a > b), (function (...) return select("#", ...) end)(t[a < b], t[n or z]))
