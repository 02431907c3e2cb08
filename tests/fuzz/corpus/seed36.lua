return select(-1, 1, 2, 3), select(2, table.unpack({1, 2, 3}))
