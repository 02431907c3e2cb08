--! medium64
-- (medium64: a 1 KiB piece and the compiler do not fit microbit's 64-bit
-- arena, 7,112 bytes (its number formatter's scratch takes 1 KiB of
-- RAM); the 32-bit model's 7,416 bytes ran out of memory in 2 of 3
-- boots, as the per-boot hash seed placed the blocks, its 7,864 since
-- newlib's reentrancy structure left the firmware in none of 8.)
-- load(reader) compiles as the reader delivers (issue 17): an error is
-- found before the source ends, and a source bigger than the arena loads
-- when what it compiles to is small.

-- A syntax error in the first piece: load stops reading there (lua5.4
-- reads one piece more at most, for the lookahead), where collecting the
-- whole source first would never end.
local calls = 0
local f, e = load(function()
  calls = calls + 1
  if calls == 1 then return "x = = 1\n" end
  if calls > 1000 then error("the reader was called " .. calls .. " times") end
  return "-- more\n"
end)
assert(f == nil and e:find("unexpected symbol near '='", 1, true), e)
assert(calls <= 2, calls)

-- Pieces split anywhere: inside a name, a number, a string, a comment.
local src = "local abc = 12345 -- comment\nreturn abc .. 'xyz' .. [[long\nstring]]"
for size = 1, 7 do
  local at = 1
  local g = assert(load(function()
    local p = src:sub(at, at + size - 1)
    at = at + size
    return p
  end, "=pieces"))
  assert(g() == "12345xyzlong\nstring")
end

-- An empty piece or nil ends the chunk; a non-string is an error.
local n = 0
assert(load(function() n = n + 1; return n == 1 and "return 7" or "" end)() == 7)
f, e = load(function() return {} end)
assert(f == nil and e:find("reader function must return a string", 1, true), e)
-- An error raised by the reader is load's result.
f, e = load(function() error("boom") end)
assert(f == nil and e:find("boom", 1, true), e)

-- 4 MiB of source (comments) in 1 KiB pieces: more than a board's
-- arena, so it loads only because the text is never all in memory (a
-- piece fits microbit's arena beside the compiler).
local piece = "--" .. string.rep("x", 1021) .. "\n"
local left = 4096
f = assert(load(function()
  if left == 0 then return nil end
  left = left - 1
  return left == 0 and "return 'end of a long chunk'" or piece
end))
assert(left == 0)
assert(f() == "end of a long chunk")

-- A binary chunk through a reader, in small pieces.
local bin = string.dump(function(a) return a * 2 end)
local at = 1
f = assert(load(function()
  local p = bin:sub(at, at + 4)
  at = at + 5
  return p
end, "=bin", "b"))
assert(f(21) == 42)
f, e = load(function() local p = bin; bin = nil; return p end, "=bin", "t")
assert(f == nil and e:find("attempt to load a binary chunk", 1, true), e)

print("load_stream ok")
