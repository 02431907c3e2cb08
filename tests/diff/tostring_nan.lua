-- NaN prints as the C library prints it
print(0/0, -(0/0), math.huge - math.huge, math.sqrt(-1))
print(string.format("%.3f", 0/0), string.format("%g", -(0/0)))
