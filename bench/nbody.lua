-- Float arithmetic on table fields: a 5-body simulation.  arg[1] = steps
-- (default 20000).
local steps = tonumber(arg and arg[1]) or N or 20000
local PI, DAYS = 3.141592653589793, 365.24
local SOLAR = 4 * PI * PI
local function body(x, y, z, vx, vy, vz, m)
  return {x = x, y = y, z = z, vx = vx * DAYS, vy = vy * DAYS, vz = vz * DAYS, m = m * SOLAR}
end
local bodies = {
  body(0, 0, 0, 0, 0, 0, 1),
  body(4.84, -1.16, -0.10, 1.66e-3, 7.70e-3, -6.90e-5, 9.55e-4),
  body(8.34, 4.12, -0.40, -2.77e-3, 5.00e-3, 2.30e-5, 2.86e-4),
  body(12.89, -15.11, -0.22, 2.96e-3, 2.38e-3, -2.96e-5, 4.37e-5),
  body(15.38, -25.92, 0.18, 2.68e-3, 1.63e-3, -9.51e-5, 5.15e-5),
}
local function advance(dt)
  local n = #bodies
  for i = 1, n do
    local a = bodies[i]
    for j = i + 1, n do
      local b = bodies[j]
      local dx, dy, dz = a.x - b.x, a.y - b.y, a.z - b.z
      local d2 = dx * dx + dy * dy + dz * dz
      local mag = dt / (d2 * math.sqrt(d2))
      local bm, am = b.m * mag, a.m * mag
      a.vx, a.vy, a.vz = a.vx - dx * bm, a.vy - dy * bm, a.vz - dz * bm
      b.vx, b.vy, b.vz = b.vx + dx * am, b.vy + dy * am, b.vz + dz * am
    end
  end
  for i = 1, n do
    local a = bodies[i]
    a.x, a.y, a.z = a.x + dt * a.vx, a.y + dt * a.vy, a.z + dt * a.vz
  end
end
local function energy()
  local e = 0.0
  for i = 1, #bodies do
    local a = bodies[i]
    e = e + 0.5 * a.m * (a.vx * a.vx + a.vy * a.vy + a.vz * a.vz)
    for j = i + 1, #bodies do
      local b = bodies[j]
      local dx, dy, dz = a.x - b.x, a.y - b.y, a.z - b.z
      e = e - a.m * b.m / math.sqrt(dx * dx + dy * dy + dz * dz)
    end
  end
  return e
end
for _ = 1, steps do advance(0.01) end
print("checksum", string.format("%.9f", energy()))
