-- tests/difffuzz/driver.lua — runs a batch of programs (tests/difffuzz/
-- gen.lua's output) in one interpreter, rtlua or lua5.4, and prints a
-- transcript that must be the same under both.
--
--   INTERP tests/difffuzz/driver.lua BATCH
--
-- Each program is compiled as chunk "=p" in an environment of its own
-- (reads fall through to _G) and runs under pcall.  It prints through
-- three functions (and A, which gen.lua explains): P(...) shows its
-- arguments, V(v) is v but nil made
-- false (no holes in a table), T(f, ...) calls f in
-- protected mode and shows the status and results or message.  Values
-- show as tostring would, but tables, functions, threads and userdata
-- without __tostring show as their type, and "table: 0x..." inside a
-- string as "table: ADDR" (no addresses).  The transcript
-- is "@@ N" then the program's lines, for every program.

local batch = assert(io.open(arg[1], "rb")):read("a")
local out = {}

local function show(v)
  local ty = type(v)
  if ty == "string" then -- tostring(t) made by the program: no address
    return (v:gsub("(%a+): 0[xX]%x+", "%1: ADDR"))
  elseif ty == "number" or ty == "boolean" or ty == "nil" then
    return tostring(v)
  end
  local mt = getmetatable(v)
  if type(mt) == "table" and rawget(mt, "__tostring") then
    local ok, s = pcall(tostring, v)
    return ok and s or "<__tostring error: " .. tostring(s) .. ">"
  end
  return ty
end

local function line(...)
  local n = select("#", ...)
  local parts = {}
  for k = 1, n do parts[k] = show((select(k, ...))) end
  out[#out + 1] = table.concat(parts, "\t")
end

-- A(s): s with every address written ADDR, for the programs' own use
-- (#tostring(t) would differ with the address's length).
local function A(s)
  if type(s) ~= "string" then return s end
  return (s:gsub("(%a+): 0[xX]%x+", "%1: ADDR"))
end
local function P(...) line(...) end
local function V(v) if v == nil then return false end return v end
local function T(f, ...)
  line(pcall(f, ...))
end

local n = 0
for num, src in batch:gmatch("%-%-@@ (%d+)\n(.-)\n%f[%-\0]") do
  n = n + 1
  out[#out + 1] = "@@ " .. num
  local env = setmetatable({P = P, T = T, V = V, A = A}, {__index = _G})
  local f, err = load(src, "=p", "t", env)
  if not f then
    out[#out + 1] = "compile: " .. err
  else
    local ok, e = pcall(f)
    if not ok then out[#out + 1] = "error: " .. show(e) end
  end
  if #out > 4096 then
    io.write(table.concat(out, "\n"), "\n")
    out = {}
  end
end
io.write(table.concat(out, "\n"), "\n")
io.write("programs: " .. n .. "\n")
