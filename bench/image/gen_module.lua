-- bench/image/gen_module.lua [LINES [FLINES]]: prints a Lua module of
-- about LINES lines (default 1000) made of functions of about FLINES
-- lines each (default 40), the shape of an application's code: a
-- parser, a state machine, a formatter, a filter, in turn, each with
-- locals, branches, loops, table constructors, string constants and
-- calls.  bench/image/module1000.lua is its output with the defaults:
-- the 1,000-line module of issue 15's arena target (make bench,
-- tests/image/test_image.c).
local LINES = tonumber(arg and arg[1]) or 1000
local FLINES = tonumber(arg and arg[2]) or 40

local out = {}
local function emit(s) out[#out + 1] = s end

local bodies = {
  function(n) -- a parser of "key=value;..." records
    emit(("function M.parse%d(line, into)"):format(n))
    emit("  local rec = into or {}")
    emit("  local count, bad = 0, 0")
    emit("  for field in line:gmatch('[^;]+') do")
    emit("    local k, v = field:match('^%s*([%w_]+)%s*=%s*(.-)%s*$')")
    emit("    if k == nil then")
    emit("      bad = bad + 1")
    emit("    elseif v:match('^%-?%d+$') then")
    emit("      rec[k] = math.tointeger(tonumber(v))")
    emit("      count = count + 1")
    emit("    elseif v == 'true' or v == 'false' then")
    emit("      rec[k] = v == 'true'")
    emit("      count = count + 1")
    emit("    else")
    emit(("      rec[k] = v:sub(1, %d)"):format(16 + n % 16))
    emit("      count = count + 1")
    emit("    end")
    emit("  end")
    emit("  return rec, count, bad")
    emit("end")
  end,
  function(n) -- a state machine step
    emit(("function M.machine%d(st, ev)"):format(n))
    emit("  st = st or {state = 'idle', ticks = 0, errors = 0}")
    emit("  local s = st.state")
    emit("  if s == 'idle' then")
    emit("    if ev == 'start' then st.state = 'running' st.ticks = 0 end")
    emit("  elseif s == 'running' then")
    emit("    st.ticks = st.ticks + 1")
    emit("    if ev == 'stop' then")
    emit("      st.state = 'idle'")
    emit(("    elseif ev == 'fault' or st.ticks > %d then"):format(100 + n))
    emit("      st.state = 'fault'")
    emit("      st.errors = st.errors + 1")
    emit("    end")
    emit("  elseif s == 'fault' then")
    emit("    if ev == 'reset' then st.state = 'idle' st.ticks = 0 end")
    emit("  else")
    emit("    error('bad state ' .. tostring(s))")
    emit("  end")
    emit("  return st")
    emit("end")
  end,
  function(n) -- a formatter
    emit(("function M.format%d(t)"):format(n))
    emit("  local keys = {}")
    emit("  for k in pairs(t) do keys[#keys + 1] = tostring(k) end")
    emit("  table.sort(keys)")
    emit("  local parts = {}")
    emit("  for i, k in ipairs(keys) do")
    emit("    local v = t[k]")
    emit("    if type(v) == 'number' then")
    emit(("      parts[i] = string.format('%%s=%%.%dg', k, v)"):format(3 + n % 5))
    emit("    elseif type(v) == 'boolean' then")
    emit("      parts[i] = k .. '=' .. (v and 'yes' or 'no')")
    emit("    else")
    emit("      parts[i] = k .. '=\"' .. tostring(v) .. '\"'")
    emit("    end")
    emit("  end")
    emit(("  return '{' .. table.concat(parts, '%s') .. '}'"):format(n % 2 == 0 and ", " or "; "))
    emit("end")
  end,
  function(n) -- a filter
    emit(("function M.filter%d(samples, k)"):format(n))
    emit(("  k = k or %d"):format(2 + n % 7))
    emit("  local out, acc, lo, hi = {}, 0, math.huge, -math.huge")
    emit("  for i = 1, #samples do")
    emit("    local x = samples[i]")
    emit("    acc = acc + (x - acc) / k")
    emit("    if acc < lo then lo = acc end")
    emit("    if acc > hi then hi = acc end")
    emit("    out[i] = acc")
    emit("  end")
    emit("  return out, lo, hi")
    emit("end")
  end,
}

emit("-- A generated module (bench/image/gen_module.lua): the shape of an")
emit("-- application's code, for measuring what loading it costs.")
emit("local M = {}")
local n = 0
while #out + 2 < LINES do
  local start = #out
  while #out - start < FLINES and #out + 2 < LINES do
    bodies[n % #bodies + 1](n)
    n = n + 1
  end
end
emit("return M")
io.write(table.concat(out, "\n"), "\n")
