return string.format("%d %s %q %5.2f %x", 1, "a", "b\n", 3.14159, 255)
