x = 0x7fffffffffffffff + 1 y = math.mininteger // -1 z = 1 << 63 return x, y, z
