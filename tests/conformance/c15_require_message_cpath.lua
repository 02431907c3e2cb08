-- C15: when require finds no module, its message lists what every
-- searcher tried, in package.searchers' order: the preload field, each
-- file of package.path, each file of package.cpath for the whole name
-- (the C searcher), then, for a dotted name, each file of package.cpath
-- for its first component (the all-in-one searcher).  rtlua had only the
-- first two searchers.  Lua 5.4.8 and Debian's 5.4.4 print the same.
local function why(name)
  local ok, e = pcall(require, name)
  return ok and "loaded?" or e
end
package.path = "?.lua;?/?"
package.cpath = "?.so;?/init"
print(why("XXX"))
print(why("a.b.c"))
print(why("m-v2"))
package.path = ""
package.cpath = ""
print(why("e.f"))
package.path = "./?.lua"
package.cpath = "/no/such/dir/?.so;;/lib/lua/?/core.so"
print(why("x.y"))
print(#package.searchers, type(package.searchers[3]), type(package.searchers[4]))
-- each searcher alone, as require calls it
print(package.searchers[3]("p.q"))
print(package.searchers[4]("p.q"))
print(select("#", package.searchers[4]("p")))
package.cpath = 42
print(why("num"))
package.cpath = {}
print((select(2, pcall(require, "tab")):gsub("^[^:]*:%d+: ", "")))
