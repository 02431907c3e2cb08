-- floor division and modulo over all sign combinations
for _, a in ipairs({7, -7, 0, 7.5, -7.5, 6}) do
  local row = {}
  for _, b in ipairs({2, -2, 3, -3, 2.5, -2.5}) do
    row[#row + 1] = string.format("%s//%s=%s %s%%%s=%s", a, b, a // b, a, b, a % b)
  end
  print(table.concat(row, "  "))
end
