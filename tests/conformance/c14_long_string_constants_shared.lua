-- C14: equal long string literals of one chunk are one string object
-- (Lua 5.4.8 and 5.4.4: the compiler keeps one object per content for the
-- whole chunk, whatever function and whatever quoting wrote it), so
-- string.format("%p") gives them one address.  Strings made at run time,
-- or by another chunk, are other objects.
local function p (s) return string.format("%p", s) end
local s = "a long string constant, longer than forty characters......"
local function f () return "a long string constant, longer than forty characters......" end
local function g ()
  return function () return [[a long string constant, longer than forty characters......]] end
end
print("two functions", p(s) == p(f()))
print("nested, long brackets", p(s) == p(g()()))
print("escapes", p(s) == p("\97 long string constant, longer than forty characters\u{2E}....."))
print("in a table", p(s) == p(({"a long string constant, longer than forty characters......"})[1]))
print("as a key", next({["a long string constant, longer than forty characters......"] = 1}) == s)
print("other content", p(s) == p("a long string constant, longer than forty characters.....!"))
print("made at run time", p(s) == p(("a long string constant, longer than forty characters......"):sub(1)), p(s) == p(s:upper():lower()))
local other = load('return "a long string constant, longer than forty characters......"')
print("another chunk", other() == s, p(other()) == p(s), p(other()) == p(other()))
-- many distinct long literals, each repeated in two functions
local src = {"local a, b = {}, {}"}
for i = 1, 200 do
  local lit = string.format("%q", string.rep(string.char(65 + i % 26), 41) .. i)
  src[#src + 1] = "a[" .. i .. "] = function () return " .. lit .. " end"
  src[#src + 1] = "b[" .. i .. "] = function () return " .. lit .. " end"
end
src[#src + 1] = "return a, b"
local a, b = assert(load(table.concat(src, "\n")))()
local same, equal = 0, 0
for i = 1, 200 do
  if a[i]() == b[i]() then equal = equal + 1 end
  if p(a[i]()) == p(b[i]()) then same = same + 1 end
end
print("200 pairs", equal, same, p(a[1]()) ~= p(a[2]()))
