-- A generated module (bench/image/gen_module.lua): the shape of an
-- application's code, for measuring what loading it costs.
local M = {}
function M.parse0(line, into)
  local rec = into or {}
  local count, bad = 0, 0
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
  return rec, count, bad
end
function M.machine1(st, ev)
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
  return st
end
function M.format2(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = tostring(k) end
  table.sort(keys)
  local parts = {}
  for i, k in ipairs(keys) do
    local v = t[k]
    if type(v) == 'number' then
      parts[i] = string.format('%s=%.5g', k, v)
    elseif type(v) == 'boolean' then
      parts[i] = k .. '=' .. (v and 'yes' or 'no')
    else
      parts[i] = k .. '="' .. tostring(v) .. '"'
    end
  end
  return '{' .. table.concat(parts, ', ') .. '}'
end
function M.filter3(samples, k)
  k = k or 5
  local out, acc, lo, hi = {}, 0, math.huge, -math.huge
  for i = 1, #samples do
    local x = samples[i]
    acc = acc + (x - acc) / k
    if acc < lo then lo = acc end
    if acc > hi then hi = acc end
    out[i] = acc
  end
  return out, lo, hi
end
function M.parse4(line, into)
  local rec = into or {}
  local count, bad = 0, 0
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
  return rec, count, bad
end
function M.machine5(st, ev)
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
  return st
end
function M.format6(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = tostring(k) end
  table.sort(keys)
  local parts = {}
  for i, k in ipairs(keys) do
    local v = t[k]
    if type(v) == 'number' then
      parts[i] = string.format('%s=%.4g', k, v)
    elseif type(v) == 'boolean' then
      parts[i] = k .. '=' .. (v and 'yes' or 'no')
    else
      parts[i] = k .. '="' .. tostring(v) .. '"'
    end
  end
  return '{' .. table.concat(parts, ', ') .. '}'
end
function M.filter7(samples, k)
  k = k or 2
  local out, acc, lo, hi = {}, 0, math.huge, -math.huge
  for i = 1, #samples do
    local x = samples[i]
    acc = acc + (x - acc) / k
    if acc < lo then lo = acc end
    if acc > hi then hi = acc end
    out[i] = acc
  end
  return out, lo, hi
end
function M.parse8(line, into)
  local rec = into or {}
  local count, bad = 0, 0
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
  return rec, count, bad
end
function M.machine9(st, ev)
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
  return st
end
function M.format10(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = tostring(k) end
  table.sort(keys)
  local parts = {}
  for i, k in ipairs(keys) do
    local v = t[k]
    if type(v) == 'number' then
      parts[i] = string.format('%s=%.3g', k, v)
    elseif type(v) == 'boolean' then
      parts[i] = k .. '=' .. (v and 'yes' or 'no')
    else
      parts[i] = k .. '="' .. tostring(v) .. '"'
    end
  end
  return '{' .. table.concat(parts, ', ') .. '}'
end
function M.filter11(samples, k)
  k = k or 6
  local out, acc, lo, hi = {}, 0, math.huge, -math.huge
  for i = 1, #samples do
    local x = samples[i]
    acc = acc + (x - acc) / k
    if acc < lo then lo = acc end
    if acc > hi then hi = acc end
    out[i] = acc
  end
  return out, lo, hi
end
function M.parse12(line, into)
  local rec = into or {}
  local count, bad = 0, 0
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
  return rec, count, bad
end
function M.machine13(st, ev)
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
  return st
end
function M.format14(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = tostring(k) end
  table.sort(keys)
  local parts = {}
  for i, k in ipairs(keys) do
    local v = t[k]
    if type(v) == 'number' then
      parts[i] = string.format('%s=%.7g', k, v)
    elseif type(v) == 'boolean' then
      parts[i] = k .. '=' .. (v and 'yes' or 'no')
    else
      parts[i] = k .. '="' .. tostring(v) .. '"'
    end
  end
  return '{' .. table.concat(parts, ', ') .. '}'
end
function M.filter15(samples, k)
  k = k or 3
  local out, acc, lo, hi = {}, 0, math.huge, -math.huge
  for i = 1, #samples do
    local x = samples[i]
    acc = acc + (x - acc) / k
    if acc < lo then lo = acc end
    if acc > hi then hi = acc end
    out[i] = acc
  end
  return out, lo, hi
end
function M.parse16(line, into)
  local rec = into or {}
  local count, bad = 0, 0
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
  return rec, count, bad
end
function M.machine17(st, ev)
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
  return st
end
function M.format18(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = tostring(k) end
  table.sort(keys)
  local parts = {}
  for i, k in ipairs(keys) do
    local v = t[k]
    if type(v) == 'number' then
      parts[i] = string.format('%s=%.6g', k, v)
    elseif type(v) == 'boolean' then
      parts[i] = k .. '=' .. (v and 'yes' or 'no')
    else
      parts[i] = k .. '="' .. tostring(v) .. '"'
    end
  end
  return '{' .. table.concat(parts, ', ') .. '}'
end
function M.filter19(samples, k)
  k = k or 7
  local out, acc, lo, hi = {}, 0, math.huge, -math.huge
  for i = 1, #samples do
    local x = samples[i]
    acc = acc + (x - acc) / k
    if acc < lo then lo = acc end
    if acc > hi then hi = acc end
    out[i] = acc
  end
  return out, lo, hi
end
function M.parse20(line, into)
  local rec = into or {}
  local count, bad = 0, 0
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
  return rec, count, bad
end
function M.machine21(st, ev)
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
  return st
end
function M.format22(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = tostring(k) end
  table.sort(keys)
  local parts = {}
  for i, k in ipairs(keys) do
    local v = t[k]
    if type(v) == 'number' then
      parts[i] = string.format('%s=%.5g', k, v)
    elseif type(v) == 'boolean' then
      parts[i] = k .. '=' .. (v and 'yes' or 'no')
    else
      parts[i] = k .. '="' .. tostring(v) .. '"'
    end
  end
  return '{' .. table.concat(parts, ', ') .. '}'
end
function M.filter23(samples, k)
  k = k or 4
  local out, acc, lo, hi = {}, 0, math.huge, -math.huge
  for i = 1, #samples do
    local x = samples[i]
    acc = acc + (x - acc) / k
    if acc < lo then lo = acc end
    if acc > hi then hi = acc end
    out[i] = acc
  end
  return out, lo, hi
end
function M.parse24(line, into)
  local rec = into or {}
  local count, bad = 0, 0
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
  return rec, count, bad
end
function M.machine25(st, ev)
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
  return st
end
function M.format26(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = tostring(k) end
  table.sort(keys)
  local parts = {}
  for i, k in ipairs(keys) do
    local v = t[k]
    if type(v) == 'number' then
      parts[i] = string.format('%s=%.4g', k, v)
    elseif type(v) == 'boolean' then
      parts[i] = k .. '=' .. (v and 'yes' or 'no')
    else
      parts[i] = k .. '="' .. tostring(v) .. '"'
    end
  end
  return '{' .. table.concat(parts, ', ') .. '}'
end
function M.filter27(samples, k)
  k = k or 8
  local out, acc, lo, hi = {}, 0, math.huge, -math.huge
  for i = 1, #samples do
    local x = samples[i]
    acc = acc + (x - acc) / k
    if acc < lo then lo = acc end
    if acc > hi then hi = acc end
    out[i] = acc
  end
  return out, lo, hi
end
function M.parse28(line, into)
  local rec = into or {}
  local count, bad = 0, 0
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
  return rec, count, bad
end
function M.machine29(st, ev)
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
  return st
end
function M.format30(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = tostring(k) end
  table.sort(keys)
  local parts = {}
  for i, k in ipairs(keys) do
    local v = t[k]
    if type(v) == 'number' then
      parts[i] = string.format('%s=%.3g', k, v)
    elseif type(v) == 'boolean' then
      parts[i] = k .. '=' .. (v and 'yes' or 'no')
    else
      parts[i] = k .. '="' .. tostring(v) .. '"'
    end
  end
  return '{' .. table.concat(parts, ', ') .. '}'
end
function M.filter31(samples, k)
  k = k or 5
  local out, acc, lo, hi = {}, 0, math.huge, -math.huge
  for i = 1, #samples do
    local x = samples[i]
    acc = acc + (x - acc) / k
    if acc < lo then lo = acc end
    if acc > hi then hi = acc end
    out[i] = acc
  end
  return out, lo, hi
end
function M.parse32(line, into)
  local rec = into or {}
  local count, bad = 0, 0
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
  return rec, count, bad
end
function M.machine33(st, ev)
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
  return st
end
function M.format34(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = tostring(k) end
  table.sort(keys)
  local parts = {}
  for i, k in ipairs(keys) do
    local v = t[k]
    if type(v) == 'number' then
      parts[i] = string.format('%s=%.7g', k, v)
    elseif type(v) == 'boolean' then
      parts[i] = k .. '=' .. (v and 'yes' or 'no')
    else
      parts[i] = k .. '="' .. tostring(v) .. '"'
    end
  end
  return '{' .. table.concat(parts, ', ') .. '}'
end
function M.filter35(samples, k)
  k = k or 2
  local out, acc, lo, hi = {}, 0, math.huge, -math.huge
  for i = 1, #samples do
    local x = samples[i]
    acc = acc + (x - acc) / k
    if acc < lo then lo = acc end
    if acc > hi then hi = acc end
    out[i] = acc
  end
  return out, lo, hi
end
function M.parse36(line, into)
  local rec = into or {}
  local count, bad = 0, 0
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
  return rec, count, bad
end
function M.machine37(st, ev)
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
  return st
end
function M.format38(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = tostring(k) end
  table.sort(keys)
  local parts = {}
  for i, k in ipairs(keys) do
    local v = t[k]
    if type(v) == 'number' then
      parts[i] = string.format('%s=%.6g', k, v)
    elseif type(v) == 'boolean' then
      parts[i] = k .. '=' .. (v and 'yes' or 'no')
    else
      parts[i] = k .. '="' .. tostring(v) .. '"'
    end
  end
  return '{' .. table.concat(parts, ', ') .. '}'
end
function M.filter39(samples, k)
  k = k or 6
  local out, acc, lo, hi = {}, 0, math.huge, -math.huge
  for i = 1, #samples do
    local x = samples[i]
    acc = acc + (x - acc) / k
    if acc < lo then lo = acc end
    if acc > hi then hi = acc end
    out[i] = acc
  end
  return out, lo, hi
end
function M.parse40(line, into)
  local rec = into or {}
  local count, bad = 0, 0
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
  return rec, count, bad
end
function M.machine41(st, ev)
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
  return st
end
function M.format42(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = tostring(k) end
  table.sort(keys)
  local parts = {}
  for i, k in ipairs(keys) do
    local v = t[k]
    if type(v) == 'number' then
      parts[i] = string.format('%s=%.5g', k, v)
    elseif type(v) == 'boolean' then
      parts[i] = k .. '=' .. (v and 'yes' or 'no')
    else
      parts[i] = k .. '="' .. tostring(v) .. '"'
    end
  end
  return '{' .. table.concat(parts, ', ') .. '}'
end
function M.filter43(samples, k)
  k = k or 3
  local out, acc, lo, hi = {}, 0, math.huge, -math.huge
  for i = 1, #samples do
    local x = samples[i]
    acc = acc + (x - acc) / k
    if acc < lo then lo = acc end
    if acc > hi then hi = acc end
    out[i] = acc
  end
  return out, lo, hi
end
function M.parse44(line, into)
  local rec = into or {}
  local count, bad = 0, 0
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
  return rec, count, bad
end
function M.machine45(st, ev)
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
  return st
end
function M.format46(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = tostring(k) end
  table.sort(keys)
  local parts = {}
  for i, k in ipairs(keys) do
    local v = t[k]
    if type(v) == 'number' then
      parts[i] = string.format('%s=%.4g', k, v)
    elseif type(v) == 'boolean' then
      parts[i] = k .. '=' .. (v and 'yes' or 'no')
    else
      parts[i] = k .. '="' .. tostring(v) .. '"'
    end
  end
  return '{' .. table.concat(parts, ', ') .. '}'
end
function M.filter47(samples, k)
  k = k or 7
  local out, acc, lo, hi = {}, 0, math.huge, -math.huge
  for i = 1, #samples do
    local x = samples[i]
    acc = acc + (x - acc) / k
    if acc < lo then lo = acc end
    if acc > hi then hi = acc end
    out[i] = acc
  end
  return out, lo, hi
end
function M.parse48(line, into)
  local rec = into or {}
  local count, bad = 0, 0
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
  return rec, count, bad
end
function M.machine49(st, ev)
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
  return st
end
function M.format50(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = tostring(k) end
  table.sort(keys)
  local parts = {}
  for i, k in ipairs(keys) do
    local v = t[k]
    if type(v) == 'number' then
      parts[i] = string.format('%s=%.3g', k, v)
    elseif type(v) == 'boolean' then
      parts[i] = k .. '=' .. (v and 'yes' or 'no')
    else
      parts[i] = k .. '="' .. tostring(v) .. '"'
    end
  end
  return '{' .. table.concat(parts, ', ') .. '}'
end
function M.filter51(samples, k)
  k = k or 4
  local out, acc, lo, hi = {}, 0, math.huge, -math.huge
  for i = 1, #samples do
    local x = samples[i]
    acc = acc + (x - acc) / k
    if acc < lo then lo = acc end
    if acc > hi then hi = acc end
    out[i] = acc
  end
  return out, lo, hi
end
function M.parse52(line, into)
  local rec = into or {}
  local count, bad = 0, 0
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
  return rec, count, bad
end
function M.machine53(st, ev)
  st = st or {state = 'idle', ticks = 0, errors = 0}
  local s = st.state
  if s == 'idle' then
    if ev == 'start' then st.state = 'running' st.ticks = 0 end
  elseif s == 'running' then
    st.ticks = st.ticks + 1
    if ev == 'stop' then
      st.state = 'idle'
    elseif ev == 'fault' or st.ticks > 153 then
      st.state = 'fault'
      st.errors = st.errors + 1
    end
  elseif s == 'fault' then
    if ev == 'reset' then st.state = 'idle' st.ticks = 0 end
  else
    error('bad state ' .. tostring(s))
  end
  return st
end
function M.format54(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = tostring(k) end
  table.sort(keys)
  local parts = {}
  for i, k in ipairs(keys) do
    local v = t[k]
    if type(v) == 'number' then
      parts[i] = string.format('%s=%.7g', k, v)
    elseif type(v) == 'boolean' then
      parts[i] = k .. '=' .. (v and 'yes' or 'no')
    else
      parts[i] = k .. '="' .. tostring(v) .. '"'
    end
  end
  return '{' .. table.concat(parts, ', ') .. '}'
end
function M.filter55(samples, k)
  k = k or 8
  local out, acc, lo, hi = {}, 0, math.huge, -math.huge
  for i = 1, #samples do
    local x = samples[i]
    acc = acc + (x - acc) / k
    if acc < lo then lo = acc end
    if acc > hi then hi = acc end
    out[i] = acc
  end
  return out, lo, hi
end
function M.parse56(line, into)
  local rec = into or {}
  local count, bad = 0, 0
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
  return rec, count, bad
end
function M.machine57(st, ev)
  st = st or {state = 'idle', ticks = 0, errors = 0}
  local s = st.state
  if s == 'idle' then
    if ev == 'start' then st.state = 'running' st.ticks = 0 end
  elseif s == 'running' then
    st.ticks = st.ticks + 1
    if ev == 'stop' then
      st.state = 'idle'
    elseif ev == 'fault' or st.ticks > 157 then
      st.state = 'fault'
      st.errors = st.errors + 1
    end
  elseif s == 'fault' then
    if ev == 'reset' then st.state = 'idle' st.ticks = 0 end
  else
    error('bad state ' .. tostring(s))
  end
  return st
end
return M
