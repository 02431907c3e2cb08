-- tests/difffuzz/gen.lua — random Lua programs for the differential
-- fuzzer (tests/difffuzz/run): valid Lua 5.4, deterministic, printing
-- what they compute.  Each program exercises expressions of every
-- operator on every type (integer and float edges, strings that are and
-- are not numbers, booleans, nil, tables, functions), metamethods,
-- closures, coroutines, the string library (formats, patterns), table
-- functions, pcall/error with values of every type and levels.
--
--   lua5.4 tests/difffuzz/gen.lua SEED COUNT
--
-- writes COUNT programs to stdout, each after a line "--@@ N" (N from
-- SEED * COUNT): the batch that tests/difffuzz/driver.lua runs.  A
-- program is a function of SEED and N only.  It never prints what Lua
-- leaves to the implementation: addresses, the order of pairs, borders
-- of tables with holes, random numbers, time, memory figures; and it
-- touches nothing shared between the programs of a batch (globals go to
-- its own environment; no metatable of a basic type is set).  A string
-- that may hold an address ("table: 0x...", from tostring or a "%s"
-- format of any value) goes through the driver's A, which writes the
-- address as ADDR before the program measures or cuts the string: the
-- length of an address differs between two processes.

local seed, count = tonumber(arg[1]) or 1, tonumber(arg[2]) or 100

local R -- math.random, reseeded for each program

local function pick(t) return t[R(#t)] end
local function chance(p) return R() < p end

-- ---- atoms -------------------------------------------------------------
local INTS = {
  "0", "1", "-1", "2", "3", "7", "-7", "10", "16", "31", "32", "63", "64", "100", "255",
  "256", "1000", "65535", "2147483647", "-2147483648", "4294967296",
  "9007199254740993", "math.maxinteger", "math.mininteger", "(math.maxinteger - 1)",
  "(math.mininteger + 1)", "0x7fffffff", "0xff", "0x10", "-0x80000000", "0xffffffffffffffff",
}
local FLTS = {
  "0.0", "-0.0", "0.5", "-0.5", "1.5", "-2.5", "3.0", "1e308", "-1e308", "1e-308",
  "5e-324", "(1/0)", "(-1/0)", "(0/0)", "2^53", "2^63", "-2^63", "2^64", "0.1", "1e15",
  "1e16", "123456789012.0", "math.pi", "-math.pi", "1e100", "0x1p-1074", "0x1.8p1",
  "3.14159", "1e-7", "255.0", "-1e-300", "2^31", "2^32 + 0.5",
}
local STRS = {
  '""', '"a"', '"abc"', '"10"', '"-3"', '"0x10"', '"1e2"', '" 7 "', '"3.0"', '"2^3"',
  '"inf"', '"nan"', '"  0x1p4  "', '"1e500"', '"9223372036854775807"',
  '"9223372036854775808"', '"-0"', '"\\0x"', '"a\\nb"', '"Lua"', '"%d"', '"%"',
  '"hello world"', '"12abc"', '"0.1"', '"1 2"', '"\\255\\1"',
}
local OTHER = { "true", "false", "nil", "t1", "t2", "f1", "o1", "o2", "o3", "co" }

local function atom()
  local r = R(10)
  if r <= 3 then return pick(INTS)
  elseif r <= 5 then return pick(FLTS)
  elseif r <= 7 then return pick(STRS)
  elseif r <= 8 then return pick(OTHER)
  else return pick({ "a", "b", "c", "i", "x", "s" }) end -- locals
end

local num_atom = function() return chance(0.5) and pick(INTS) or pick(FLTS) end

-- ---- expressions ---------------------------------------------------------
local BINOPS = {
  "+", "-", "*", "/", "//", "%", "^", "..", "==", "~=", "<", "<=", ">", ">=",
  "and", "or", "&", "|", "~", "<<", ">>",
}
local UNOPS = { "- ", "not ", "#", "~ " }

local expr

local FMTS = {
  "%d", "%5d", "%-5d|", "%05d", "%+d", "%x", "%X", "%#x", "%o", "%c", "%i", "%u",
  "%g", "%.3g", "%10.4f", "%.0f", "%e", "%.2e", "%a", "%s", "%10s", "%-10s|",
  "%.2s", "%q", "%%", "%5.1f", "%.14g", "%.17g", "%G", "%E", "%.99f", "%5g",
}
for k, f in ipairs(FMTS) do FMTS[k] = string.format("%q", f) end
local PATS = {
  '"a"', '"%a+"', '"%d+"', '"(%w+)"', '"^a"', '"b$"', '"[%d%.]+"', '"%s*"',
  '"(a)(b)"', '"%b()"', '"%f[%w]%w+"', '"."', '".-b"', '"a*"', '"[^a]"', '"()a()"',
  '"%x%x"', '"(%l)%1"', '"[a-c]+"', '"%u"', '"%p"',
}

local PACKFMTS = {
  '"i4"', '"<i2"', '">I3"', '"b"', '"B"', '"h"', '"j"', '"J"', '"f"', '"d"', '"n"',
  '"s1"', '"z"', '"i16"', '"!4 i1 i4"', '"<d>d"', '"c3"', '"i3 x i1"', '"Xi4"', '"=I8"',
}

-- A call of a library function with random arguments.
local function libcall(d)
  local k = R(40)
  local e = function() return expr(d + 1) end
  if k == 1 then return "A(string.format(" .. pick(FMTS) .. ", " .. e() .. "))"
  elseif k == 2 then return "string.format(" .. pick(FMTS) .. ", " .. num_atom() .. ")"
  elseif k == 3 then return "string.rep(" .. e() .. ", " .. pick({ "0", "1", "3", "-1", "2.0" }) .. ")"
  elseif k == 4 then return "string.sub(" .. e() .. ", " .. num_atom() .. ", " .. num_atom() .. ")"
  elseif k == 5 then return "string.byte(" .. e() .. ", " .. pick({ "1", "-1", "2", "0" }) .. ")"
  elseif k == 6 then return "string.char(" .. pick({ "65", "0", "255", "256", "-1", "97, 98" }) .. ")"
  elseif k == 7 then return "string.find(" .. e() .. ", " .. pick(PATS) .. ")"
  elseif k == 8 then return "string.match(" .. pick(STRS) .. ", " .. pick(PATS) .. ")"
  elseif k == 9 then return "(string.gsub(" .. pick(STRS) .. ", " .. pick(PATS) .. ", " ..
      pick({ '"<%0>"', '"%1"', '"x"', "string.upper", "{a = 1, b = true}", "function(c) return c .. c end" }) .. "))"
  elseif k == 10 then return "string.upper(" .. e() .. ")"
  elseif k == 11 then return "string.len(" .. e() .. ")"
  elseif k == 12 then return "A(tostring(" .. e() .. "))"
  elseif k == 13 then return "tonumber(" .. e() .. ")"
  elseif k == 14 then return "tonumber(" .. pick(STRS) .. ", " .. pick({ "2", "16", "36", "10", "8" }) .. ")"
  elseif k == 15 then return "math.tointeger(" .. e() .. ")"
  elseif k == 16 then return "math.type(" .. e() .. ")"
  elseif k == 17 then return "math.floor(" .. num_atom() .. ")"
  elseif k == 18 then return "math.ceil(" .. num_atom() .. ")"
  elseif k == 19 then return "math.abs(" .. num_atom() .. ")"
  elseif k == 20 then return "math.fmod(" .. num_atom() .. ", " .. num_atom() .. ")"
  elseif k == 21 then return "math.max(" .. num_atom() .. ", " .. num_atom() .. ")"
  elseif k == 22 then return "math.ult(" .. pick(INTS) .. ", " .. pick(INTS) .. ")"
  elseif k == 23 then return "select(" .. pick({ "'#'", "1", "2", "-1" }) .. ", " .. e() .. ", " .. e() .. ")"
  elseif k == 24 then return "type(" .. e() .. ")"
  elseif k == 25 then return "rawequal(" .. e() .. ", " .. e() .. ")"
  elseif k == 26 then return "rawlen(" .. pick({ "t1", "t2", '"abc"', "o1" }) .. ")"
  elseif k == 27 then return "table.concat(" .. pick({ "t1", "t2", "{1, 2.5, 'x'}" }) .. ", " .. pick(STRS) .. ")"
  elseif k == 28 then return "select('#', table.unpack(" .. pick({ "t1", "{1, nil, 3}", "{}" }) .. "))"
  elseif k == 29 then return "math.modf(" .. num_atom() .. ")"
  elseif k == 30 then return "utf8.char(" .. pick({ "72", "0x10FFFF", "0x7FFFFFFF", "-1", "228, 8364", "0" }) .. ")"
  elseif k == 31 then return "utf8.len(" .. pick({ '"h\\xC3\\xA4"', '"\\xFF"', '"abc"', '"\\xE2\\x82"', e() }) .. ")"
  elseif k == 32 then return "utf8.codepoint(" .. pick({ '"h\\xC3\\xA4"', '"\\xF4\\x8F\\xBF\\xBF"', '"abc"' }) ..
      ", " .. pick({ "1", "-1", "2", "1, -1" }) .. ")"
  elseif k == 33 then return "utf8.offset(" .. pick({ '"h\\xC3\\xA4x"', '"abc"' }) .. ", " ..
      pick({ "1", "2", "-1", "0", "3" }) .. ")"
  elseif k == 34 then return "string.pack(" .. pick(PACKFMTS) .. ", " .. num_atom() .. ")"
  elseif k == 35 then return "string.unpack(" .. pick(PACKFMTS) .. ", " ..
      pick({ '"\\1\\2\\3\\4\\5\\6\\7\\8\\9\\10\\11\\12\\13\\14\\15\\16"', '"abc\\0def"', '""', '"\\255\\255\\255\\255"' }) .. ")"
  elseif k == 36 then return "string.packsize(" .. pick(PACKFMTS) .. ")"
  elseif k == 37 then return "math.fmod(" .. pick(INTS) .. ", " .. pick(INTS) .. ")"
  elseif k == 38 then return "string.format(" .. pick(FMTS) .. ", " .. pick(STRS) .. ")"
  elseif k == 39 then return "string.format('%q', " .. e() .. ")"
  else return "string.reverse(" .. e() .. ")" end
end

expr = function(d)
  d = d or 0
  if d > 3 then return atom() end
  local k = R(16)
  if k <= 3 then return atom()
  elseif k <= 8 then return "(" .. expr(d + 1) .. " " .. pick(BINOPS) .. " " .. expr(d + 1) .. ")"
  elseif k == 9 then return "(" .. pick(UNOPS) .. expr(d + 1) .. ")"
  elseif k <= 12 then return libcall(d)
  elseif k == 13 then return "(function(p) return " .. expr(d + 1) .. " end)(" .. expr(d + 1) .. ")"
  elseif k == 14 then return "({" .. expr(d + 1) .. ", " .. expr(d + 1) .. "})[" .. pick({ "1", "2", "3", "1.0", '"1"' }) .. "]"
  elseif k == 15 then return pick({ "o1", "o2", "t1" }) .. pick({ ".x", ".y", "[1]", "[2]", "[\"k\"]" })
  else return pick({ "f1", "o1", "o3" }) .. "(" .. expr(d + 1) .. ")" end
end

-- ---- statements ----------------------------------------------------------
-- Source that is probably broken: a valid expression with a token cut,
-- doubled or swapped, for the compiler's messages.
local TOKENS = { "(", ")", "[", "]", "{", "}", "=", "==", ",", ".", "..", "...", ";",
  "local", "function", "end", "return", "if", "then", "goto", "::", "<", "<const>",
  "<close>", "'", '"', "[[", "]]", "--[==[", "0x", "1e", "3..2", "@", "$", "\\", "~=" }
local function broken()
  local src = "return " .. expr(1)
  local k = R(4)
  local at = R(#src)
  if k == 1 then src = src:sub(1, at - 1) .. src:sub(at + R(3))
  elseif k == 2 then src = src:sub(1, at) .. " " .. pick(TOKENS) .. " " .. src:sub(at + 1)
  elseif k == 3 then src = src:sub(1, at)
  else src = pick({ "local x <foo> = 1", "goto nowhere", "::a:: ::a::", "break",
    "local function f() return end f()", "for i = 1 do end", "x = }", "return return",
    "local x <const> = 1; x = 2", "f() = 1", "a.b:c = 1", "return ...", "function f(...) return ... end",
    "local t = {} t.x.y = 1", "if x then elseif end", "repeat local z = 1 until z",
    string.rep("(", 300) .. "1" .. string.rep(")", 300), "return 1 2", "x = 0x", "x = 1e+",
    "x = '\\q'", "x = '\\300'", "x = '\\u{110000}'", "x = [==[ ]=]" }) end
  return string.format("%q", src)
end

local function stmt(i)
  local k = R(28)
  if k <= 10 then
    return "T(function() return " .. expr() .. " end)"
  elseif k == 11 then -- assignment then use (locals and upvalues)
    local v = pick({ "a", "b", "c" })
    return v .. " = " .. expr() .. "; T(function() return " .. v .. ", " .. expr() .. " end)"
  elseif k == 12 then -- closures capturing a loop variable
    return "do local fs = {} for j = " .. pick({ "1, 3", "3, 1, -1", "1, 2, 0.5", "0, -1" }) ..
        " do fs[#fs + 1] = function() return j, " .. expr() .. " end end " ..
        "for _, g in ipairs(fs) do T(g) end end"
  elseif k == 13 then -- coroutines
    return "do local w = coroutine.wrap(function(p) local q = coroutine.yield(" .. expr() ..
        ") return q, " .. expr() .. " end) T(w, " .. expr() .. ") T(w, " .. expr() .. ") T(w) end"
  elseif k == 14 then
    return "do local c = coroutine.create(function(p) error(" .. expr() .. ") end) " ..
        "T(coroutine.resume, c, 1) T(coroutine.status, c) T(coroutine.close, c) end"
  elseif k == 15 then -- errors of every value and level
    return "T(function() error(" .. pick({ expr(), "nil", "{}", "o3", "42", '"msg"' }) .. ", " ..
        pick({ "0", "1", "2" }) .. ") end)"
  elseif k == 16 then
    return "T(pcall, function() return " .. expr() .. " end)"
  elseif k == 17 then -- numeric for with edges
    return "do local n = 0 for j = " .. pick(INTS) .. ", " .. pick(INTS) .. ", " ..
        pick({ "1", "-1", "math.maxinteger", "7", "2^62", "-3" }) ..
        " do n = n + 1 if n > 5 then break end end T(function() return n end) end"
  elseif k == 18 then
    return "do local n = 0 for j = " .. pick(FLTS) .. ", " .. pick(FLTS) .. ", " ..
        pick({ "0.5", "-1.5", "1", "1e300" }) ..
        " do n = n + 1 if n > 5 then break end end T(function() return n end) end"
  elseif k == 19 then -- tables: sequences and table functions
    -- (V: nil becomes false, so the sequence has no holes: the border of
    -- a table with holes is the implementation's choice)
    return "do local t = {V(" .. expr() .. "), V(" .. expr() .. "), V(" .. expr() .. ")} " ..
        "T(function() table.insert(t, V(" .. expr() .. ")) return #t, t[1], t[4] end) " ..
        "T(function() return table.remove(t), #t end) " ..
        "T(function() return table.concat(t, ',') end) end"
  elseif k == 20 then
    return "do local t = {5, 3, 8, 1, 9, 2} table.sort(t" ..
        pick({ "", ", function(x, y) return x > y end" }) ..
        ") T(table.concat, t, ' ') T(table.unpack, table.move(t, 2, 4, 1, {})) end"
  elseif k == 21 then -- gmatch
    return "do local r = {} for w in string.gmatch(" .. pick(STRS) .. ", " .. pick(PATS) ..
        ") do r[#r + 1] = tostring(w) if #r > 9 then break end end T(table.concat, r, '|') end"
  elseif k == 22 then -- metamethods with a field set through __newindex
    return "T(function() o2.z = " .. expr() .. " return rawget(o2, 'z'), o2.z end)"
  elseif k == 24 then -- the compiler's messages
    return "T(load, " .. broken() .. ", '=c')"
  elseif k == 25 then -- varargs
    return "T(function(...) return select('#', ...), select(" .. pick({ "1", "2", "-1", "-2", "3" }) ..
        ", ...) end, " .. expr() .. ", nil, " .. expr() .. ")"
  elseif k == 26 then -- string comparison and string/number coercion in concat
    return "T(function() return " .. pick(STRS) .. " < " .. pick(STRS) .. ", " .. num_atom() ..
        " .. " .. num_atom() .. ", " .. pick(STRS) .. " <= " .. pick(STRS) .. " end)"
  elseif k == 27 then -- goto and a loop's closures over repeat-until
    return "do local r, n = {}, 0 ::top:: n = n + 1 r[n] = function() return n end " ..
        "if n < 3 then goto top end T(function() return r[1](), r[3](), " .. expr() .. " end) end"
  elseif k == 23 then -- integer/float conversions in string.format and concat
    return "T(function() return " .. num_atom() .. " .. '', string.format('%.14g', " .. num_atom() ..
        "), math.tointeger(" .. num_atom() .. ") end)"
  else -- to-be-closed variables
    return "T(function() local x <close> = setmetatable({}, {__close = function(_, e) " ..
        "P('closing', e) end}) return " .. expr() .. " end)"
  end
end

-- The prelude every program starts with: locals of every type, objects
-- with metamethods.
local PRELUDE = [[
local a, b, c, i, x, s = 1, 2.5, "3", 7, -0.0, "str"
local t1, t2 = {1, 2, 3, x = "tx"}, {"p", "q"}
local f1 = function(p) return p end
local mt = {}
mt.__add = function(l, r) return "add" end
mt.__sub = function(l, r) return 17 end
mt.__mul = function(l, r) return type(l) .. "*" .. type(r) end
mt.__div = function() return 0.5 end
mt.__mod = function() return "mod" end
mt.__unm = function() return "neg" end
mt.__idiv = function() return 3 end
mt.__band = function() return 4 end
mt.__shl = function() return "shl" end
mt.__bnot = function() return "bnot" end
mt.__concat = function(l, r) return "cat" end
mt.__len = function() return 42 end
mt.__eq = function() return true end
mt.__lt = function(l, r) return type(l) < type(r) end
mt.__le = function() return false end
mt.__index = function(o, k) return "idx:" .. A(tostring(k)) end
mt.__call = function(o, p) return "called", p end
mt.__tostring = function() return "o-tostring" end
mt.__name = "MyType"
local o1 = setmetatable({}, mt)
local store = {}
local o2 = setmetatable({}, {__index = t1, __newindex = function(o, k, v) store[k] = v end})
local o3 = setmetatable({}, {__tostring = function() return "o3!" end, __call = function(_, p) return p, p end})
local co = coroutine.running()
]]

local out = {}
for n = seed * count, seed * count + count - 1 do
  math.randomseed(n)
  R = math.random
  out[#out + 1] = "--@@ " .. n .. "\n" .. PRELUDE
  for i = 1, 6 + R(12) do out[#out + 1] = stmt(i) end
end
io.write(table.concat(out, "\n"), "\n")
