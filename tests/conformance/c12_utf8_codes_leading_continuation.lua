-- C12: utf8.codes(s) refuses a string that starts with a continuation
-- byte (0x80..0xBF): "bad argument #1 to 'codes' (invalid UTF-8 code)"
-- at the call, strict or lax.  This is Lua 5.4.6 and later (5.4.8
-- here); Debian's lua5.4 (5.4.4) returned the iterator and its first
-- step skipped the byte, so the first line printed "true".  We follow
-- 5.4.8, the reference the rest of rtlua follows: a string that starts
-- inside a character is not valid UTF-8 (utf8.len says so too).  The
-- second half holds in 5.4.8 as in rtlua before this fix (5.4.4 differs
-- there too): a continuation byte after a whole character is an error of
-- the iterator, not skipped.
local function msg(ok, e)
  if ok then return "ok " .. tostring(e) end
  return (e:gsub("^[^:]*:%d+: ", ""))
end
local function try(s, lax)
  return msg(pcall(function ()
    local n = 0
    for p, c in utf8.codes(s, lax) do n = n + 1 end
    return n
  end))
end
local ok, e = pcall(function () for p, c in utf8.codes("\xbfabc") do end end)
print(ok, msg(ok, e))
print(try("\x80"))
print(try("\xbf\xbf", true))
print(msg(pcall(utf8.codes, "\x9fa")))
-- a lead byte, an ASCII byte or nothing at the start is fine
print(try(""), try("abc"), try("\xc3\xa9t\xc3\xa9"), try("\xf4\x8f\xbf\xbf"))
print(try("\xf4\x90\x80\x80", true))
-- a continuation byte after a whole character: the iterator's error
print(try("a\x80"))
print(try("\xc3\xa9\xa9", true))
-- the iterator itself, called with a control value, skips the rest of a
-- character: only utf8.codes checks the start of the string
local step = utf8.codes("x")
print(step("\xbfab", 0))
print(utf8.len("\xbfabc"))
