-- os: dates (own strftime), time normalisation, clock, getenv, errors.
local function err(f, ...)
  local ok, m = pcall(f, ...)
  assert(not ok, "expected an error")
  return m
end
local function has(m, s) assert(string.find(m, s, 1, true), m) end
local host = os.getenv("PATH") ~= nil
local big = math.maxinteger > 2^31

local all = "%a %A %b %B %c|%C %d %D %e %F %g %G %h %H %I %j %m %M %n %p %r %R %S %t %T %u %U %V %w %W %x %X %y %Y %z %Z %%"
assert(os.date("!" .. all, 0) == "Thu Thursday Jan January Thu Jan  1 00:00:00 1970|19 01 01/01/70  1 1970-01-01 70 1970 Jan 00 12 001 01 00 \n AM 12:00:00 AM 00:00 00 \t 00:00:00 4 00 01 4 00 01/01/70 00:00:00 70 1970 +0000 GMT %")
assert(os.date("!%c %U %V %W %u %j %p %I", 1700000000) == "Tue Nov 14 22:13:20 2023 46 46 46 2 318 PM 10")
assert(os.date("!%Ec|%EC|%Ex|%EX|%Ey|%EY|%Od%Oe%OH%OI%Om%OM%OS%Ou%OU%OV%Ow%OW%Oy", -1) ==
  "Wed Dec 31 23:59:59 1969|19|12/31/69|23:59:59|69|1969|3131231112595935201352" .. "69")
-- ISO weeks across year ends (2005-01-01 is in 2004's week 53).
assert(os.date("!%G-%V %g %U %W", 1104537600) == "2004-53 04 00 00")
assert(os.date("!%G-%V", 1262217600) == "2009-53" and os.date("!%G-%V", 1293753600) == "2010-52")
assert(os.date("!%F %T %j", 951782400) == "2000-02-29 00:00:00 060")
if big then
  assert(os.date("!%c %G %V", 4102444800) == "Fri Jan  1 00:00:00 2100 2099 53")
  assert(os.date("!%F %T", 253402300799) == "9999-12-31 23:59:59")
  has(err(os.date, "%Y", 2^60), "date result cannot be represented in this installation")
end
local d = os.date("!*t", 951782400)
assert(d.year == 2000 and d.month == 2 and d.day == 29 and d.hour == 0 and d.min == 0)
assert(d.sec == 0 and d.wday == 3 and d.yday == 60 and d.isdst == false)
for _, f in ipairs{"%", "%q", "%Ez", "%E", "%O", "abc%", "%Oc", "%5d"} do
  has(err(os.date, f), "invalid conversion specifier '%" .. f:match("%%(.*)$") .. "'")
end
has(err(os.date, "%Y", 1.5), "number has no integer representation")
assert(os.date("", 0) == "" and os.date("!%Y", 2.0) == "1970" and #os.date() > 0)
assert(math.type(os.date("*t").year) == "integer")

-- os.time with a table normalises the fields and writes them back.
local t = {year = 2020, month = 14, day = 35, hour = 25, min = -5, sec = 70}
local n = os.time(t)
assert(t.year == 2021 and t.month == 3 and t.day == 8 and t.hour == 0)
assert(t.min == 56 and t.sec == 10 and t.yday == 67 and t.wday == 2 and t.isdst == false)
local r = os.date("*t", n)
assert(r.year == 2021 and r.month == 3 and r.day == 8 and r.hour == 0 and r.min == 56)
if os.date("%z", 0) == "+0000" then -- UTC: absolute values hold
  assert(n == 1615164970 and os.time{year = 2000, month = 1, day = 1, hour = 0} == 946684800)
  assert(os.time{year = 2024, month = 2, day = 29} == 1709208000)
end
assert(os.time{year = "2000", month = "1", day = "1"} == os.time{year = 2000, month = 1, day = 1})
has(err(os.time, {}), "field 'year' missing in date table")
has(err(os.time, {year = 1, month = 1}), "field 'day' missing in date table")
has(err(os.time, {year = 1, month = "x", day = 1}), "field 'month' is not an integer")
has(err(os.time, {year = 2000, month = 1, day = 1.5}), "field 'day' is not an integer")
if big then has(err(os.time, {year = 2^40, month = 1, day = 1}), "field 'year' is out-of-bound") end

assert(math.type(os.time()) == "integer" and os.time() >= 0)
local c = os.clock()
assert(math.type(c) == "float" and c >= 0)
assert(os.difftime(10, 3) == 7.0 and math.type(os.difftime(10, 3)) == "float")
has(err(os.difftime, 1), "bad argument #2 to ")
has(err(os.difftime, 1.5, 1), "number has no integer representation")
assert(os.getenv("RTLUA_SURELY_UNSET_VAR") == nil)
has(err(os.getenv), "bad argument #1 to ")
if host then
  assert(type(os.getenv("PATH")) == "string")
end
-- host files, on the host and over a board's semihosting
do
  local a, m, e = os.rename("/nonexist/a", "/tmp/b")
  assert(a == nil and m == "No such file or directory" and e == 2)
  local tn = os.tmpname()
  local tn2 = os.tmpname()
  assert(type(tn) == "string" and tn ~= tn2)
  local f = assert(io.open(tn, "r")) -- created, empty
  assert(f:read("a") == "") f:close()
  f = assert(io.open(tn, "w")) f:write("moved") f:close()
  assert(os.rename(tn, tn2) == true)
  f = assert(io.open(tn2)) assert(f:read("a") == "moved") f:close()
  assert(io.open(tn) == nil and os.remove(tn2) == true)
  a, m, e = os.remove(tn)
  assert(a == nil and m == tn .. ": No such file or directory" and e == 2)
  assert(select(3, os.remove(tn2)) == 2)
end
print("ok")
