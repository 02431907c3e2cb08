-- C08: math.deg and math.rad were missing (the 5.4 manual's §6.7 lists
-- them: deg(x) converts the angle x from radians to degrees, rad(x) the
-- reverse, both always floats).  The rest of the library was checked
-- against the 5.4.8 manual at the same time: fmod's integer edge cases,
-- log with a base, tointeger on strings, type, ult.  Debian's lua5.4 is
-- built with LUA_COMPAT_MATHLIB (math.pow, ldexp, cosh...); 5.4.8's
-- default build and its manual have none of those, so neither does rtlua.
-- Every float printed is formatted or exact, so that both number models
-- print the same lines; one within 1e-9 of an integer prints as that
-- integer's float (libm's log(81)/log(3) is 4.0 in glibc, one ulp below
-- in newlib).
local function show(...)
  local r = table.pack(pcall(...))
  for i = 1, r.n do
    local v = r[i]
    if math.type(v) == "float" and v == v and math.abs(v) < 2^53 then
      local n = math.floor(v + 0.5)
      if math.abs(v - n) < 1e-9 then r[i] = string.format("%d.0", n)
      else r[i] = string.format("%.4f", v) end
    else r[i] = tostring(v) end
  end
  print(table.concat(r, " ", 1, r.n))
end
-- deg and rad
print(math.deg(math.pi), math.rad(180) == math.pi, math.rad(90) * 2 == math.pi)
show(math.deg, 1)
show(math.rad, 1)
show(math.deg, 0.5)
show(math.rad, 45)
show(math.deg, 3)
show(math.rad, "180")
print(math.type(math.deg(0)), math.type(math.rad(0)), math.deg(-0.0), math.deg(1 / 0), math.rad(-1 / 0))
show(math.deg)
show(math.rad, {})
print(math.pow, math.ldexp, math.cosh, math.log10, math.atan2)
-- fmod: integers stay integers, with C's sign rule (the dividend's)
show(math.fmod, -6, 4)
show(math.fmod, 6, -4)
show(math.fmod, 7, -1)
show(math.fmod, math.mininteger, -1)
show(math.fmod, math.mininteger, math.mininteger)
show(math.fmod, 1, 0)
show(math.fmod, -6.0, 4)
show(math.fmod, 5.5, 2)
show(math.fmod, 1, 1 / 0)
print(math.fmod(1, 0.0) ~= math.fmod(1, 0.0), math.fmod(1 / 0, 1) ~= math.fmod(1 / 0, 1))
show(math.fmod, "5", 2)
show(math.fmod, 3)
-- log with a base
show(math.log, 8, 2)
show(math.log, 100, 10)
show(math.log, 1024, 4)
show(math.log, 81, 3)
show(math.log, "8", "2")
show(math.log, 8, nil)
print(math.log(0), math.log(0, 2), math.log(0, 10))
-- tointeger, type, ult
show(math.tointeger, 3.0)
show(math.tointeger, 3.5)
show(math.tointeger, "8")
show(math.tointeger, "0x10")
show(math.tointeger, "x")
show(math.tointeger, {})
show(math.tointeger)
show(math.type, 1)
show(math.type, 1.0)
show(math.type, "1")
show(math.type)
show(math.ult, 1, -1)
show(math.ult, -1, 1)
show(math.ult, 1.0, 2)
show(math.ult, 1.5, 2)
show(math.ult, 1)
