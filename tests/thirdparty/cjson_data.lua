-- tests/thirdparty/cjson_data.lua: lua-cjson on a board, where its own
-- suite does not fit (its test data alone is 2.16 million strings).
-- Our own checks over the data files its tests/ directory ships (run
-- from that directory): each decoded, encoded, decoded again; the
-- number forms, escapes, errors and cjson.safe.  Prints one line per
-- check, in a canonical form (sorted keys), so that tests/thirdparty/run
-- can compare what rtlua prints with what lua5.4 prints for the same
-- module; a failed round trip raises an error.
local cjson = require "cjson"
local safe = require "cjson.safe"

local function canon(v)
  local t = type(v)
  if t == "table" then
    local keys = {}
    for k in pairs(v) do keys[#keys + 1] = k end
    table.sort(keys, function(a, b)
      if type(a) == type(b) then return a < b end
      return type(a) == "number"
    end)
    local out = {}
    for _, k in ipairs(keys) do
      out[#out + 1] = canon(k) .. "=" .. canon(v[k])
    end
    return "{" .. table.concat(out, ",") .. "}"
  elseif t == "string" then
    return ("%q"):format(v)
  elseif v == cjson.null then
    return "null"
  elseif math.type(v) == "float" then
    return ("%.14g"):format(v)
  end
  return tostring(v)
end

local function load(name)
  local f = assert(io.open(name, "rb"))
  local s = f:read("a")
  f:close()
  return s
end

local files = {"example1.json", "example2.json", "example3.json",
               "example4.json", "example5.json", "numbers.json",
               "rfc-example1.json", "rfc-example2.json", "types.json"}
for _, name in ipairs(files) do
  local v = cjson.decode(load(name))
  local text = cjson.encode(v)
  local again = cjson.decode(text)
  assert(canon(again) == canon(v), name .. ": the round trip differs")
  print(name, #text, canon(v))
end

local octets = load("octets-escaped.dat")
local raw = cjson.decode(octets)
assert(#raw == 256, #raw)
for i = 0, 255 do assert(raw:byte(i + 1) == i) end
assert(cjson.decode(cjson.encode(raw)) == raw)
print("octets", #cjson.encode(raw))

for _, x in ipairs{0, 1, -1, 100, 0.5, -0.25, 1e10, 123456789,
                   2^31, -2^31, 1e-5, 3.0} do
  print("number", x, cjson.encode(x), canon(cjson.decode(cjson.encode(x))))
end
print("array", cjson.encode({1, 2, 3, {4, {5}}, "six", true, false, cjson.null}))
print("escapes", cjson.encode("a\"b\\c/d\n\r\t\1\31"))
print("unicode", canon(cjson.decode('"\\u00e9\\u4e2d\\ud83d\\ude00"')))
print("empty", cjson.encode({}), canon(cjson.decode("[]")), canon(cjson.decode("{}")))
print("sparse", pcall(cjson.encode, {[1] = 1, [1000] = 2}))
print("function", pcall(cjson.encode, print))
print("bad", pcall(cjson.decode, "{\"a\":}"))
print("safe", safe.decode("[1,2"))
print("safe encode", safe.encode(print))
local nested = "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]"
print("deep", pcall(cjson.decode, nested .. nested))
print("version", type(cjson._VERSION))
print("cjson data ok")
