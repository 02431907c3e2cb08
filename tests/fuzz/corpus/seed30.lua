local a = 1 +
