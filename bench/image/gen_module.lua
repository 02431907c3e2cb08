-- bench/image/gen_module.lua [LINES [BLOCKS]]: prints a Lua module of
-- about LINES lines (default 1000) whose functions each do BLOCKS steps
-- (default 4, about 55 lines a function; 1 gives about 20): parsing a
-- "key=value;..." record, a state machine's step, a smoothing filter and
-- a formatter, in turn, with locals, branches, loops, table constructors,
-- string constants and library calls: the shape of an application's
-- code.  bench/image/module1000.lua is its output with the defaults, the
-- 1,000-line module of issue 15's arena target (make bench,
-- tests/image/test_image.c); bench/image/module1000s.lua the same lines
-- in functions of one step (BLOCKS 1).
local LINES = tonumber(arg and arg[1]) or 1000
local BLOCKS = tonumber(arg and arg[2]) or 4

local out = {}
local function emit(s) out[#out + 1] = s end

local blocks = {
  function(n) -- parse "key=value;..." into rec
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
  end,
  function(n) -- a state machine's step on event ev
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
  end,
  function(n) -- smooth the samples into out
    emit(("  local k = %d"):format(2 + n % 7))
    emit("  local acc = samples[1] or 0")
    emit("  for i = 1, #samples do")
    emit("    local x = samples[i]")
    emit("    acc = acc + (x - acc) / k")
    emit("    if acc < lo then lo = acc end")
    emit("    if acc > hi then hi = acc end")
    emit("    out[i] = acc")
    emit("  end")
  end,
  function(n) -- format rec into text
    emit("  local keys = {}")
    emit("  for key in pairs(rec) do keys[#keys + 1] = tostring(key) end")
    emit("  table.sort(keys)")
    emit("  local parts = {}")
    emit("  for i, key in ipairs(keys) do")
    emit("    local v = rec[key]")
    emit("    if type(v) == 'number' then")
    emit(("      parts[i] = string.format('%%s=%%.%dg', key, v)"):format(3 + n % 5))
    emit("    elseif type(v) == 'boolean' then")
    emit("      parts[i] = key .. '=' .. (v and 'yes' or 'no')")
    emit("    else")
    emit("      parts[i] = key .. '=\"' .. tostring(v) .. '\"'")
    emit("    end")
    emit("  end")
    emit(("  text = '{' .. table.concat(parts, '%s') .. '}'"):format(n % 2 == 0 and ", " or "; "))
  end,
}

emit("-- A generated module (bench/image/gen_module.lua): the shape of an")
emit("-- application's code, for measuring what loading it costs.")
emit("local M = {}")
local n, b = 0, 0
while #out + 2 < LINES do
  emit(("function M.task%d(line, ev, samples, st)"):format(n))
  emit("  local rec, count, bad = {}, 0, 0")
  emit("  local out, lo, hi, text = {}, math.huge, -math.huge, nil")
  emit("  st = st or {state = 'idle', ticks = 0, errors = 0}")
  for _ = 1, BLOCKS do
    blocks[b % #blocks + 1](n)
    b = b + 1
  end
  emit("  return rec, st, out, text, count, bad, lo, hi")
  emit("end")
  n = n + 1
end
emit("return M")
io.write(table.concat(out, "\n"), "\n")
