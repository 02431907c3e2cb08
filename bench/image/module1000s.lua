-- A generated module (bench/image/gen_module.lua): the shape of an
-- application's code, for measuring what loading it costs.
local M = {}
function M.task0(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  for field in line:gmatch('[^;]+') do
    local k, v = field:match('^%s*([%w_]+)%s*=%s*(.-)%s*$')
    if k == nil then
      bad = bad + 1
    elseif v:match('^%-?%d+$') then
      rec[k] = math.tointeger(tonumber(v))
      count = count + 1
    elseif v == 'true' or v == 'false' then
      rec[k] = v == 'true'
      count = count + 1
    else
      rec[k] = v:sub(1, 16)
      count = count + 1
    end
  end
  return rec, st, out, text, count, bad, lo, hi
end
function M.task1(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  local s = st.state
  if s == 'idle' then
    if ev == 'start' then st.state = 'running' st.ticks = 0 end
  elseif s == 'running' then
    st.ticks = st.ticks + 1
    if ev == 'stop' then
      st.state = 'idle'
    elseif ev == 'fault' or st.ticks > 101 then
      st.state = 'fault'
      st.errors = st.errors + 1
    end
  elseif s == 'fault' then
    if ev == 'reset' then st.state = 'idle' st.ticks = 0 end
  else
    error('bad state ' .. tostring(s))
  end
  return rec, st, out, text, count, bad, lo, hi
end
function M.task2(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  local k = 4
  local acc = samples[1] or 0
  for i = 1, #samples do
    local x = samples[i]
    acc = acc + (x - acc) / k
    if acc < lo then lo = acc end
    if acc > hi then hi = acc end
    out[i] = acc
  end
  return rec, st, out, text, count, bad, lo, hi
end
function M.task3(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  local keys = {}
  for key in pairs(rec) do keys[#keys + 1] = tostring(key) end
  table.sort(keys)
  local parts = {}
  for i, key in ipairs(keys) do
    local v = rec[key]
    if type(v) == 'number' then
      parts[i] = string.format('%s=%.6g', key, v)
    elseif type(v) == 'boolean' then
      parts[i] = key .. '=' .. (v and 'yes' or 'no')
    else
      parts[i] = key .. '="' .. tostring(v) .. '"'
    end
  end
  text = '{' .. table.concat(parts, '; ') .. '}'
  return rec, st, out, text, count, bad, lo, hi
end
function M.task4(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  for field in line:gmatch('[^;]+') do
    local k, v = field:match('^%s*([%w_]+)%s*=%s*(.-)%s*$')
    if k == nil then
      bad = bad + 1
    elseif v:match('^%-?%d+$') then
      rec[k] = math.tointeger(tonumber(v))
      count = count + 1
    elseif v == 'true' or v == 'false' then
      rec[k] = v == 'true'
      count = count + 1
    else
      rec[k] = v:sub(1, 20)
      count = count + 1
    end
  end
  return rec, st, out, text, count, bad, lo, hi
end
function M.task5(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  local s = st.state
  if s == 'idle' then
    if ev == 'start' then st.state = 'running' st.ticks = 0 end
  elseif s == 'running' then
    st.ticks = st.ticks + 1
    if ev == 'stop' then
      st.state = 'idle'
    elseif ev == 'fault' or st.ticks > 105 then
      st.state = 'fault'
      st.errors = st.errors + 1
    end
  elseif s == 'fault' then
    if ev == 'reset' then st.state = 'idle' st.ticks = 0 end
  else
    error('bad state ' .. tostring(s))
  end
  return rec, st, out, text, count, bad, lo, hi
end
function M.task6(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  local k = 8
  local acc = samples[1] or 0
  for i = 1, #samples do
    local x = samples[i]
    acc = acc + (x - acc) / k
    if acc < lo then lo = acc end
    if acc > hi then hi = acc end
    out[i] = acc
  end
  return rec, st, out, text, count, bad, lo, hi
end
function M.task7(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  local keys = {}
  for key in pairs(rec) do keys[#keys + 1] = tostring(key) end
  table.sort(keys)
  local parts = {}
  for i, key in ipairs(keys) do
    local v = rec[key]
    if type(v) == 'number' then
      parts[i] = string.format('%s=%.5g', key, v)
    elseif type(v) == 'boolean' then
      parts[i] = key .. '=' .. (v and 'yes' or 'no')
    else
      parts[i] = key .. '="' .. tostring(v) .. '"'
    end
  end
  text = '{' .. table.concat(parts, '; ') .. '}'
  return rec, st, out, text, count, bad, lo, hi
end
function M.task8(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  for field in line:gmatch('[^;]+') do
    local k, v = field:match('^%s*([%w_]+)%s*=%s*(.-)%s*$')
    if k == nil then
      bad = bad + 1
    elseif v:match('^%-?%d+$') then
      rec[k] = math.tointeger(tonumber(v))
      count = count + 1
    elseif v == 'true' or v == 'false' then
      rec[k] = v == 'true'
      count = count + 1
    else
      rec[k] = v:sub(1, 24)
      count = count + 1
    end
  end
  return rec, st, out, text, count, bad, lo, hi
end
function M.task9(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  local s = st.state
  if s == 'idle' then
    if ev == 'start' then st.state = 'running' st.ticks = 0 end
  elseif s == 'running' then
    st.ticks = st.ticks + 1
    if ev == 'stop' then
      st.state = 'idle'
    elseif ev == 'fault' or st.ticks > 109 then
      st.state = 'fault'
      st.errors = st.errors + 1
    end
  elseif s == 'fault' then
    if ev == 'reset' then st.state = 'idle' st.ticks = 0 end
  else
    error('bad state ' .. tostring(s))
  end
  return rec, st, out, text, count, bad, lo, hi
end
function M.task10(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  local k = 5
  local acc = samples[1] or 0
  for i = 1, #samples do
    local x = samples[i]
    acc = acc + (x - acc) / k
    if acc < lo then lo = acc end
    if acc > hi then hi = acc end
    out[i] = acc
  end
  return rec, st, out, text, count, bad, lo, hi
end
function M.task11(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  local keys = {}
  for key in pairs(rec) do keys[#keys + 1] = tostring(key) end
  table.sort(keys)
  local parts = {}
  for i, key in ipairs(keys) do
    local v = rec[key]
    if type(v) == 'number' then
      parts[i] = string.format('%s=%.4g', key, v)
    elseif type(v) == 'boolean' then
      parts[i] = key .. '=' .. (v and 'yes' or 'no')
    else
      parts[i] = key .. '="' .. tostring(v) .. '"'
    end
  end
  text = '{' .. table.concat(parts, '; ') .. '}'
  return rec, st, out, text, count, bad, lo, hi
end
function M.task12(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  for field in line:gmatch('[^;]+') do
    local k, v = field:match('^%s*([%w_]+)%s*=%s*(.-)%s*$')
    if k == nil then
      bad = bad + 1
    elseif v:match('^%-?%d+$') then
      rec[k] = math.tointeger(tonumber(v))
      count = count + 1
    elseif v == 'true' or v == 'false' then
      rec[k] = v == 'true'
      count = count + 1
    else
      rec[k] = v:sub(1, 28)
      count = count + 1
    end
  end
  return rec, st, out, text, count, bad, lo, hi
end
function M.task13(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  local s = st.state
  if s == 'idle' then
    if ev == 'start' then st.state = 'running' st.ticks = 0 end
  elseif s == 'running' then
    st.ticks = st.ticks + 1
    if ev == 'stop' then
      st.state = 'idle'
    elseif ev == 'fault' or st.ticks > 113 then
      st.state = 'fault'
      st.errors = st.errors + 1
    end
  elseif s == 'fault' then
    if ev == 'reset' then st.state = 'idle' st.ticks = 0 end
  else
    error('bad state ' .. tostring(s))
  end
  return rec, st, out, text, count, bad, lo, hi
end
function M.task14(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  local k = 2
  local acc = samples[1] or 0
  for i = 1, #samples do
    local x = samples[i]
    acc = acc + (x - acc) / k
    if acc < lo then lo = acc end
    if acc > hi then hi = acc end
    out[i] = acc
  end
  return rec, st, out, text, count, bad, lo, hi
end
function M.task15(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  local keys = {}
  for key in pairs(rec) do keys[#keys + 1] = tostring(key) end
  table.sort(keys)
  local parts = {}
  for i, key in ipairs(keys) do
    local v = rec[key]
    if type(v) == 'number' then
      parts[i] = string.format('%s=%.3g', key, v)
    elseif type(v) == 'boolean' then
      parts[i] = key .. '=' .. (v and 'yes' or 'no')
    else
      parts[i] = key .. '="' .. tostring(v) .. '"'
    end
  end
  text = '{' .. table.concat(parts, '; ') .. '}'
  return rec, st, out, text, count, bad, lo, hi
end
function M.task16(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  for field in line:gmatch('[^;]+') do
    local k, v = field:match('^%s*([%w_]+)%s*=%s*(.-)%s*$')
    if k == nil then
      bad = bad + 1
    elseif v:match('^%-?%d+$') then
      rec[k] = math.tointeger(tonumber(v))
      count = count + 1
    elseif v == 'true' or v == 'false' then
      rec[k] = v == 'true'
      count = count + 1
    else
      rec[k] = v:sub(1, 16)
      count = count + 1
    end
  end
  return rec, st, out, text, count, bad, lo, hi
end
function M.task17(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  local s = st.state
  if s == 'idle' then
    if ev == 'start' then st.state = 'running' st.ticks = 0 end
  elseif s == 'running' then
    st.ticks = st.ticks + 1
    if ev == 'stop' then
      st.state = 'idle'
    elseif ev == 'fault' or st.ticks > 117 then
      st.state = 'fault'
      st.errors = st.errors + 1
    end
  elseif s == 'fault' then
    if ev == 'reset' then st.state = 'idle' st.ticks = 0 end
  else
    error('bad state ' .. tostring(s))
  end
  return rec, st, out, text, count, bad, lo, hi
end
function M.task18(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  local k = 6
  local acc = samples[1] or 0
  for i = 1, #samples do
    local x = samples[i]
    acc = acc + (x - acc) / k
    if acc < lo then lo = acc end
    if acc > hi then hi = acc end
    out[i] = acc
  end
  return rec, st, out, text, count, bad, lo, hi
end
function M.task19(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  local keys = {}
  for key in pairs(rec) do keys[#keys + 1] = tostring(key) end
  table.sort(keys)
  local parts = {}
  for i, key in ipairs(keys) do
    local v = rec[key]
    if type(v) == 'number' then
      parts[i] = string.format('%s=%.7g', key, v)
    elseif type(v) == 'boolean' then
      parts[i] = key .. '=' .. (v and 'yes' or 'no')
    else
      parts[i] = key .. '="' .. tostring(v) .. '"'
    end
  end
  text = '{' .. table.concat(parts, '; ') .. '}'
  return rec, st, out, text, count, bad, lo, hi
end
function M.task20(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  for field in line:gmatch('[^;]+') do
    local k, v = field:match('^%s*([%w_]+)%s*=%s*(.-)%s*$')
    if k == nil then
      bad = bad + 1
    elseif v:match('^%-?%d+$') then
      rec[k] = math.tointeger(tonumber(v))
      count = count + 1
    elseif v == 'true' or v == 'false' then
      rec[k] = v == 'true'
      count = count + 1
    else
      rec[k] = v:sub(1, 20)
      count = count + 1
    end
  end
  return rec, st, out, text, count, bad, lo, hi
end
function M.task21(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  local s = st.state
  if s == 'idle' then
    if ev == 'start' then st.state = 'running' st.ticks = 0 end
  elseif s == 'running' then
    st.ticks = st.ticks + 1
    if ev == 'stop' then
      st.state = 'idle'
    elseif ev == 'fault' or st.ticks > 121 then
      st.state = 'fault'
      st.errors = st.errors + 1
    end
  elseif s == 'fault' then
    if ev == 'reset' then st.state = 'idle' st.ticks = 0 end
  else
    error('bad state ' .. tostring(s))
  end
  return rec, st, out, text, count, bad, lo, hi
end
function M.task22(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  local k = 3
  local acc = samples[1] or 0
  for i = 1, #samples do
    local x = samples[i]
    acc = acc + (x - acc) / k
    if acc < lo then lo = acc end
    if acc > hi then hi = acc end
    out[i] = acc
  end
  return rec, st, out, text, count, bad, lo, hi
end
function M.task23(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  local keys = {}
  for key in pairs(rec) do keys[#keys + 1] = tostring(key) end
  table.sort(keys)
  local parts = {}
  for i, key in ipairs(keys) do
    local v = rec[key]
    if type(v) == 'number' then
      parts[i] = string.format('%s=%.6g', key, v)
    elseif type(v) == 'boolean' then
      parts[i] = key .. '=' .. (v and 'yes' or 'no')
    else
      parts[i] = key .. '="' .. tostring(v) .. '"'
    end
  end
  text = '{' .. table.concat(parts, '; ') .. '}'
  return rec, st, out, text, count, bad, lo, hi
end
function M.task24(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  for field in line:gmatch('[^;]+') do
    local k, v = field:match('^%s*([%w_]+)%s*=%s*(.-)%s*$')
    if k == nil then
      bad = bad + 1
    elseif v:match('^%-?%d+$') then
      rec[k] = math.tointeger(tonumber(v))
      count = count + 1
    elseif v == 'true' or v == 'false' then
      rec[k] = v == 'true'
      count = count + 1
    else
      rec[k] = v:sub(1, 24)
      count = count + 1
    end
  end
  return rec, st, out, text, count, bad, lo, hi
end
function M.task25(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  local s = st.state
  if s == 'idle' then
    if ev == 'start' then st.state = 'running' st.ticks = 0 end
  elseif s == 'running' then
    st.ticks = st.ticks + 1
    if ev == 'stop' then
      st.state = 'idle'
    elseif ev == 'fault' or st.ticks > 125 then
      st.state = 'fault'
      st.errors = st.errors + 1
    end
  elseif s == 'fault' then
    if ev == 'reset' then st.state = 'idle' st.ticks = 0 end
  else
    error('bad state ' .. tostring(s))
  end
  return rec, st, out, text, count, bad, lo, hi
end
function M.task26(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  local k = 7
  local acc = samples[1] or 0
  for i = 1, #samples do
    local x = samples[i]
    acc = acc + (x - acc) / k
    if acc < lo then lo = acc end
    if acc > hi then hi = acc end
    out[i] = acc
  end
  return rec, st, out, text, count, bad, lo, hi
end
function M.task27(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  local keys = {}
  for key in pairs(rec) do keys[#keys + 1] = tostring(key) end
  table.sort(keys)
  local parts = {}
  for i, key in ipairs(keys) do
    local v = rec[key]
    if type(v) == 'number' then
      parts[i] = string.format('%s=%.5g', key, v)
    elseif type(v) == 'boolean' then
      parts[i] = key .. '=' .. (v and 'yes' or 'no')
    else
      parts[i] = key .. '="' .. tostring(v) .. '"'
    end
  end
  text = '{' .. table.concat(parts, '; ') .. '}'
  return rec, st, out, text, count, bad, lo, hi
end
function M.task28(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  for field in line:gmatch('[^;]+') do
    local k, v = field:match('^%s*([%w_]+)%s*=%s*(.-)%s*$')
    if k == nil then
      bad = bad + 1
    elseif v:match('^%-?%d+$') then
      rec[k] = math.tointeger(tonumber(v))
      count = count + 1
    elseif v == 'true' or v == 'false' then
      rec[k] = v == 'true'
      count = count + 1
    else
      rec[k] = v:sub(1, 28)
      count = count + 1
    end
  end
  return rec, st, out, text, count, bad, lo, hi
end
function M.task29(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  local s = st.state
  if s == 'idle' then
    if ev == 'start' then st.state = 'running' st.ticks = 0 end
  elseif s == 'running' then
    st.ticks = st.ticks + 1
    if ev == 'stop' then
      st.state = 'idle'
    elseif ev == 'fault' or st.ticks > 129 then
      st.state = 'fault'
      st.errors = st.errors + 1
    end
  elseif s == 'fault' then
    if ev == 'reset' then st.state = 'idle' st.ticks = 0 end
  else
    error('bad state ' .. tostring(s))
  end
  return rec, st, out, text, count, bad, lo, hi
end
function M.task30(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  local k = 4
  local acc = samples[1] or 0
  for i = 1, #samples do
    local x = samples[i]
    acc = acc + (x - acc) / k
    if acc < lo then lo = acc end
    if acc > hi then hi = acc end
    out[i] = acc
  end
  return rec, st, out, text, count, bad, lo, hi
end
function M.task31(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  local keys = {}
  for key in pairs(rec) do keys[#keys + 1] = tostring(key) end
  table.sort(keys)
  local parts = {}
  for i, key in ipairs(keys) do
    local v = rec[key]
    if type(v) == 'number' then
      parts[i] = string.format('%s=%.4g', key, v)
    elseif type(v) == 'boolean' then
      parts[i] = key .. '=' .. (v and 'yes' or 'no')
    else
      parts[i] = key .. '="' .. tostring(v) .. '"'
    end
  end
  text = '{' .. table.concat(parts, '; ') .. '}'
  return rec, st, out, text, count, bad, lo, hi
end
function M.task32(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  for field in line:gmatch('[^;]+') do
    local k, v = field:match('^%s*([%w_]+)%s*=%s*(.-)%s*$')
    if k == nil then
      bad = bad + 1
    elseif v:match('^%-?%d+$') then
      rec[k] = math.tointeger(tonumber(v))
      count = count + 1
    elseif v == 'true' or v == 'false' then
      rec[k] = v == 'true'
      count = count + 1
    else
      rec[k] = v:sub(1, 16)
      count = count + 1
    end
  end
  return rec, st, out, text, count, bad, lo, hi
end
function M.task33(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  local s = st.state
  if s == 'idle' then
    if ev == 'start' then st.state = 'running' st.ticks = 0 end
  elseif s == 'running' then
    st.ticks = st.ticks + 1
    if ev == 'stop' then
      st.state = 'idle'
    elseif ev == 'fault' or st.ticks > 133 then
      st.state = 'fault'
      st.errors = st.errors + 1
    end
  elseif s == 'fault' then
    if ev == 'reset' then st.state = 'idle' st.ticks = 0 end
  else
    error('bad state ' .. tostring(s))
  end
  return rec, st, out, text, count, bad, lo, hi
end
function M.task34(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  local k = 8
  local acc = samples[1] or 0
  for i = 1, #samples do
    local x = samples[i]
    acc = acc + (x - acc) / k
    if acc < lo then lo = acc end
    if acc > hi then hi = acc end
    out[i] = acc
  end
  return rec, st, out, text, count, bad, lo, hi
end
function M.task35(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  local keys = {}
  for key in pairs(rec) do keys[#keys + 1] = tostring(key) end
  table.sort(keys)
  local parts = {}
  for i, key in ipairs(keys) do
    local v = rec[key]
    if type(v) == 'number' then
      parts[i] = string.format('%s=%.3g', key, v)
    elseif type(v) == 'boolean' then
      parts[i] = key .. '=' .. (v and 'yes' or 'no')
    else
      parts[i] = key .. '="' .. tostring(v) .. '"'
    end
  end
  text = '{' .. table.concat(parts, '; ') .. '}'
  return rec, st, out, text, count, bad, lo, hi
end
function M.task36(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  for field in line:gmatch('[^;]+') do
    local k, v = field:match('^%s*([%w_]+)%s*=%s*(.-)%s*$')
    if k == nil then
      bad = bad + 1
    elseif v:match('^%-?%d+$') then
      rec[k] = math.tointeger(tonumber(v))
      count = count + 1
    elseif v == 'true' or v == 'false' then
      rec[k] = v == 'true'
      count = count + 1
    else
      rec[k] = v:sub(1, 20)
      count = count + 1
    end
  end
  return rec, st, out, text, count, bad, lo, hi
end
function M.task37(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  local s = st.state
  if s == 'idle' then
    if ev == 'start' then st.state = 'running' st.ticks = 0 end
  elseif s == 'running' then
    st.ticks = st.ticks + 1
    if ev == 'stop' then
      st.state = 'idle'
    elseif ev == 'fault' or st.ticks > 137 then
      st.state = 'fault'
      st.errors = st.errors + 1
    end
  elseif s == 'fault' then
    if ev == 'reset' then st.state = 'idle' st.ticks = 0 end
  else
    error('bad state ' .. tostring(s))
  end
  return rec, st, out, text, count, bad, lo, hi
end
function M.task38(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  local k = 5
  local acc = samples[1] or 0
  for i = 1, #samples do
    local x = samples[i]
    acc = acc + (x - acc) / k
    if acc < lo then lo = acc end
    if acc > hi then hi = acc end
    out[i] = acc
  end
  return rec, st, out, text, count, bad, lo, hi
end
function M.task39(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  local keys = {}
  for key in pairs(rec) do keys[#keys + 1] = tostring(key) end
  table.sort(keys)
  local parts = {}
  for i, key in ipairs(keys) do
    local v = rec[key]
    if type(v) == 'number' then
      parts[i] = string.format('%s=%.7g', key, v)
    elseif type(v) == 'boolean' then
      parts[i] = key .. '=' .. (v and 'yes' or 'no')
    else
      parts[i] = key .. '="' .. tostring(v) .. '"'
    end
  end
  text = '{' .. table.concat(parts, '; ') .. '}'
  return rec, st, out, text, count, bad, lo, hi
end
function M.task40(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  for field in line:gmatch('[^;]+') do
    local k, v = field:match('^%s*([%w_]+)%s*=%s*(.-)%s*$')
    if k == nil then
      bad = bad + 1
    elseif v:match('^%-?%d+$') then
      rec[k] = math.tointeger(tonumber(v))
      count = count + 1
    elseif v == 'true' or v == 'false' then
      rec[k] = v == 'true'
      count = count + 1
    else
      rec[k] = v:sub(1, 24)
      count = count + 1
    end
  end
  return rec, st, out, text, count, bad, lo, hi
end
function M.task41(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  local s = st.state
  if s == 'idle' then
    if ev == 'start' then st.state = 'running' st.ticks = 0 end
  elseif s == 'running' then
    st.ticks = st.ticks + 1
    if ev == 'stop' then
      st.state = 'idle'
    elseif ev == 'fault' or st.ticks > 141 then
      st.state = 'fault'
      st.errors = st.errors + 1
    end
  elseif s == 'fault' then
    if ev == 'reset' then st.state = 'idle' st.ticks = 0 end
  else
    error('bad state ' .. tostring(s))
  end
  return rec, st, out, text, count, bad, lo, hi
end
function M.task42(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  local k = 2
  local acc = samples[1] or 0
  for i = 1, #samples do
    local x = samples[i]
    acc = acc + (x - acc) / k
    if acc < lo then lo = acc end
    if acc > hi then hi = acc end
    out[i] = acc
  end
  return rec, st, out, text, count, bad, lo, hi
end
function M.task43(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  local keys = {}
  for key in pairs(rec) do keys[#keys + 1] = tostring(key) end
  table.sort(keys)
  local parts = {}
  for i, key in ipairs(keys) do
    local v = rec[key]
    if type(v) == 'number' then
      parts[i] = string.format('%s=%.6g', key, v)
    elseif type(v) == 'boolean' then
      parts[i] = key .. '=' .. (v and 'yes' or 'no')
    else
      parts[i] = key .. '="' .. tostring(v) .. '"'
    end
  end
  text = '{' .. table.concat(parts, '; ') .. '}'
  return rec, st, out, text, count, bad, lo, hi
end
function M.task44(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  for field in line:gmatch('[^;]+') do
    local k, v = field:match('^%s*([%w_]+)%s*=%s*(.-)%s*$')
    if k == nil then
      bad = bad + 1
    elseif v:match('^%-?%d+$') then
      rec[k] = math.tointeger(tonumber(v))
      count = count + 1
    elseif v == 'true' or v == 'false' then
      rec[k] = v == 'true'
      count = count + 1
    else
      rec[k] = v:sub(1, 28)
      count = count + 1
    end
  end
  return rec, st, out, text, count, bad, lo, hi
end
function M.task45(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  local s = st.state
  if s == 'idle' then
    if ev == 'start' then st.state = 'running' st.ticks = 0 end
  elseif s == 'running' then
    st.ticks = st.ticks + 1
    if ev == 'stop' then
      st.state = 'idle'
    elseif ev == 'fault' or st.ticks > 145 then
      st.state = 'fault'
      st.errors = st.errors + 1
    end
  elseif s == 'fault' then
    if ev == 'reset' then st.state = 'idle' st.ticks = 0 end
  else
    error('bad state ' .. tostring(s))
  end
  return rec, st, out, text, count, bad, lo, hi
end
function M.task46(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  local k = 6
  local acc = samples[1] or 0
  for i = 1, #samples do
    local x = samples[i]
    acc = acc + (x - acc) / k
    if acc < lo then lo = acc end
    if acc > hi then hi = acc end
    out[i] = acc
  end
  return rec, st, out, text, count, bad, lo, hi
end
function M.task47(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  local keys = {}
  for key in pairs(rec) do keys[#keys + 1] = tostring(key) end
  table.sort(keys)
  local parts = {}
  for i, key in ipairs(keys) do
    local v = rec[key]
    if type(v) == 'number' then
      parts[i] = string.format('%s=%.5g', key, v)
    elseif type(v) == 'boolean' then
      parts[i] = key .. '=' .. (v and 'yes' or 'no')
    else
      parts[i] = key .. '="' .. tostring(v) .. '"'
    end
  end
  text = '{' .. table.concat(parts, '; ') .. '}'
  return rec, st, out, text, count, bad, lo, hi
end
function M.task48(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  for field in line:gmatch('[^;]+') do
    local k, v = field:match('^%s*([%w_]+)%s*=%s*(.-)%s*$')
    if k == nil then
      bad = bad + 1
    elseif v:match('^%-?%d+$') then
      rec[k] = math.tointeger(tonumber(v))
      count = count + 1
    elseif v == 'true' or v == 'false' then
      rec[k] = v == 'true'
      count = count + 1
    else
      rec[k] = v:sub(1, 16)
      count = count + 1
    end
  end
  return rec, st, out, text, count, bad, lo, hi
end
function M.task49(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  local s = st.state
  if s == 'idle' then
    if ev == 'start' then st.state = 'running' st.ticks = 0 end
  elseif s == 'running' then
    st.ticks = st.ticks + 1
    if ev == 'stop' then
      st.state = 'idle'
    elseif ev == 'fault' or st.ticks > 149 then
      st.state = 'fault'
      st.errors = st.errors + 1
    end
  elseif s == 'fault' then
    if ev == 'reset' then st.state = 'idle' st.ticks = 0 end
  else
    error('bad state ' .. tostring(s))
  end
  return rec, st, out, text, count, bad, lo, hi
end
function M.task50(line, ev, samples, st)
  local rec, count, bad = {}, 0, 0
  local out, lo, hi, text = {}, math.huge, -math.huge, nil
  st = st or {state = 'idle', ticks = 0, errors = 0}
  local k = 3
  local acc = samples[1] or 0
  for i = 1, #samples do
    local x = samples[i]
    acc = acc + (x - acc) / k
    if acc < lo then lo = acc end
    if acc > hi then hi = acc end
    out[i] = acc
  end
  return rec, st, out, text, count, bad, lo, hi
end
return M
