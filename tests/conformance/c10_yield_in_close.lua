-- C10: a __close metamethod may yield whenever the code closing it runs
-- in a coroutine without a C call in the way: on normal block exit, on
-- return, on break, in a generic for, and while an error unwinds to a
-- pcall inside the coroutine (the case Lua 5.4.8 and 5.4.4 print as
-- "in close boom" then "false  boom").  Closing goes on with the other
-- variables after each resume, the error object is kept, and an error in
-- a __close replaces the one being handled.  Where the closing is done by
-- C code that cannot be resumed (coroutine.close, an error unwinding a
-- pcall on the main thread) the yield is an error: "attempt to yield
-- across a C-call boundary" / "from outside a coroutine".
local function closer(tag, action)
  return setmetatable({}, {__close = function (_, e)
    if action == "yield" then
      local r = coroutine.yield(tag .. " closing " .. (type(e) == "table" and "a table" or tostring(e)))
      print(tag, "resumed with", r)
    elseif action == "error" then
      error(tag .. " failed (" .. tostring(e) .. ")", 0)
    elseif action == "twice" then
      coroutine.yield(tag .. " first yield")
      coroutine.yield(tag .. " second yield")
    elseif action == "yielderror" then
      coroutine.yield(tag .. " before error")
      error(tag .. " failed after yield", 0)
    else
      print(tag, "closed", e)
    end
  end})
end
local function run(name, f, ...)
  print("== " .. name)
  local co = coroutine.create(f)
  local args = table.pack(...)
  local step = 0
  while true do
    step = step + 1
    local res = table.pack(coroutine.resume(co, "r" .. step))
    print(step, coroutine.status(co), table.unpack(res, 1, res.n))
    if coroutine.status(co) == "dead" or step > 10 then break end
  end
end
-- the shared case
run("error in pcall", function ()
  return pcall(function ()
    local z <close> = closer("z", "yield")
    error("boom", 0)
  end)
end)
run("two tbc, error", function ()
  return pcall(function ()
    local a <close> = closer("a", "yield")
    local b <close> = closer("b", "yield")
    error("boom", 0)
  end)
end)
run("error replaced", function ()
  return pcall(function ()
    local a <close> = closer("a", "yield")
    local b <close> = closer("b", "error")
    local c <close> = closer("c", "yielderror")
    error("boom", 0)
  end)
end)
run("block exit", function ()
  do
    local a <close> = closer("a", "yield")
    local b <close> = closer("b", "yield")
    print("in block")
  end
  return "after block"
end)
run("return", function ()
  local function g()
    local a <close> = closer("a", "yield")
    local b <close> = closer("b", "plain")
    return 1, 2, 3
  end
  return g()
end)
run("return values", function ()
  local function g(...)
    local a <close> = closer("a", "yield")
    return ...
  end
  return "got", g("x", "y")
end)
run("break", function ()
  for i = 1, 3 do
    local a <close> = closer("a" .. i, "yield")
    if i == 2 then break end
  end
  return "broke"
end)
run("yields twice", function ()
  return pcall(function ()
    local a <close> = closer("a", "twice")
    error("boom", 0)
  end)
end)
run("error with values after", function ()
  local ok, e = pcall(function ()
    local a <close> = closer("a", "yield")
    error({code = 7})
  end)
  return ok, e.code, "and on"
end)
run("error unhandled", function ()
  local a <close> = closer("a", "yield")
  error("unhandled", 0)
end)
run("nested pcall", function ()
  local ok, e = pcall(function ()
    local a <close> = closer("outer", "yield")
    local ok2, e2 = pcall(function ()
      local b <close> = closer("inner", "yield")
      error("deep", 0)
    end)
    print("inner pcall", ok2, e2)
    error("second", 0)
  end)
  return ok, e
end)
run("error object table", function ()
  local obj = {}
  local ok, e = pcall(function ()
    local a <close> = closer("a", "yield")
    error(obj)
  end)
  return ok, e == obj
end)
run("for loop closing value", function ()
  local function iter() return nil end
  for _ in iter, nil, nil, closer("forclose", "yield") do end
  return "loop done"
end)
run("generic for break", function ()
  local n = 0
  local function iter() n = n + 1 if n < 5 then return n end end
  for i in iter, nil, nil, closer("forclose", "yield") do
    if i == 2 then break end
  end
  return "loop broke"
end)
-- coroutine.close with a pending tbc that yields
print("== coroutine.close")
local co = coroutine.create(function ()
  local a <close> = closer("a", "yield")
  coroutine.yield("suspended")
end)
print(coroutine.resume(co))
print(coroutine.close(co))
print(coroutine.status(co))
local co2 = coroutine.create(function ()
  local a <close> = closer("a", "plain")
  local b <close> = closer("b", "error")
  coroutine.yield("suspended")
end)
print(coroutine.resume(co2))
print(coroutine.close(co2))
-- yield in __close of the main thread's pcall: not in a coroutine
print("== main")
print(pcall(function ()
  local a <close> = closer("a", "yield")
  error("main boom", 0)
end))
-- wrap
local w = coroutine.wrap(function ()
  return pcall(function ()
    local z <close> = closer("z", "yield")
    error("boom", 0)
  end)
end)
print(w())
print(w())
