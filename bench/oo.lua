-- Method calls on classes with inheritance.  arg[1] = iterations
-- (default 200000).
local n = tonumber(arg and arg[1]) or N or 200000
local Point = {}
Point.__index = Point
function Point.new(x, y) return setmetatable({x = x, y = y}, Point) end
function Point:add(o) self.x = self.x + o.x; self.y = self.y + o.y; return self end
function Point:len2() return self.x * self.x + self.y * self.y end
local Point3 = setmetatable({}, {__index = Point})
Point3.__index = Point3
function Point3.new(x, y, z) local p = Point.new(x, y); p.z = z; return setmetatable(p, Point3) end
function Point3:len2() return Point.len2(self) + self.z * self.z end
local p, q, sum = Point.new(0, 0), Point3.new(1, 2, 3), 0
for i = 1, n do
  p:add(q)
  sum = sum + q:len2() + (i % 7)
  if p.x > 1000 then p.x, p.y = 0, 0 end
end
print("checksum", sum, p.x, p.y)
