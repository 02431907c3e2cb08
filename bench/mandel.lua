-- Float loops: the Mandelbrot set on a grid.  arg[1] = size (default 250).
local size = tonumber(arg and arg[1]) or N or 250
local iter, inside = 50, 0
for y = 0, size - 1 do
  local ci = 2.0 * y / size - 1.0
  for x = 0, size - 1 do
    local cr = 2.5 * x / size - 2.0
    local zr, zi, k = 0.0, 0.0, 0
    while k < iter and zr * zr + zi * zi <= 4.0 do
      zr, zi = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci
      k = k + 1
    end
    if k == iter then inside = inside + 1 end
  end
end
print("checksum", inside)
