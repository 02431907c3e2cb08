-- Field access with string keys: records read and written by name, a
-- lookup in a small dictionary, and records made with fields.
-- arg[1] = iterations (default 100000).
local n = tonumber(arg and arg[1]) or N or 100000
local acct = {balance = 0, deposits = 0, withdrawals = 0, limit = 500,
              owner = "ann", flags = 0}
local rates = {red = 1, green = 2, blue = 3, cyan = 4, magenta = 5,
               yellow = 6, black = 7, white = 8}
local names = {"red", "green", "blue", "cyan", "magenta", "yellow", "black",
               "white"}
local recs, sum = {}, 0
for i = 1, n do
  local amount = i % 97
  if amount > 40 then
    acct.balance = acct.balance + amount
    acct.deposits = acct.deposits + 1
  elseif acct.balance > amount then
    acct.balance = acct.balance - amount
    acct.withdrawals = acct.withdrawals + 1
  end
  if acct.balance > acct.limit then acct.flags = acct.flags + 1 end
  sum = sum + rates[names[i % 8 + 1]]
  local r = {id = i, kind = names[i % 8 + 1], size = amount, next = false}
  recs[i % 64 + 1] = r
  sum = sum + r.size + #r.kind
end
print("checksum", acct.balance, acct.deposits, acct.withdrawals, acct.flags, sum)
