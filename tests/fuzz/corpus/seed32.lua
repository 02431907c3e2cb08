local function f() goto l end ::l::
