-- tools/cstack.lua — the C stack a board build keeps in reserve
-- (LUAI_CSTACK_KEEP), computed from the compiler's own figures.
--
--   lua5.4 tools/cstack.lua [--prefix arm-none-eabi-] [--irq-frame BYTES]
--       [--report FILE] [--opaque "OBJECT.o ..."] IMAGE.elf OBJECT.o...
--
-- Prints the reserve in bytes; exits 1, saying why on stderr, when it
-- cannot be bounded (outside the objects --opaque names): recursion
-- that no check interrupts, a frame of
-- dynamic size, an indirect call whose targets it cannot tell, a check
-- that does not come first in its function.
--
-- The runtime checks its C stack at a few places, the checkpoints: the
-- functions that call port_stack_left, or compare with a floor address
-- after the mark PORT_CSTACK_CHECKED(kind) (port/port.h) (ccall, before every call through
-- the API; the parser's recursive functions; the pattern matcher;
-- lua_resume; the binary-chunk reader and writer).  A check that passes
-- has seen at least the reserve left.  So the reserve is enough when
-- whatever runs after a check until the next one fits in it, including a
-- check that fails there and raises its error (the message, the message
-- handler's call, the throw); plus what interrupts push on top.
--
-- The figures:
--   - frames: each object's .ci (-fcallgraph-info=su), the frame of every
--     function as -fstack-usage computes it, and its direct calls;
--   - calls the compiler adds after that graph (memcpy for a structure
--     copy, soft-float and division helpers): the objects' relocations;
--   - indirect calls: the object's GIMPLE dump (.tree,
--     -fdump-tree-optimized) gives the function pointer's type at each;
--     the targets are the functions of that type whose address is taken
--     anywhere (a relocation other than a call).  A call through a
--     parameter (do_rawrunprotected's f) goes where the callers' arguments
--     say; a call through a value only one API function sets (the panic
--     function, lua_atpanic) goes to what is passed to that function;
--   - newlib and libgcc, which come without .ci: the image's disassembly
--     (the stack its instructions move, summed, and its calls);
--   - interrupts: the handlers in the image's vector table, each with the
--     exception frame the core stacks (--irq-frame), all nested at once.
--
-- A check that fails calls one of FAIL_FUNCS, which raise (or return an
-- error, or let the call go on after a check of their own).  Raising calls
-- the message handler through ccall, whose check fails too; the runtime
-- then throws LUA_ERRERR without calling anything (g->cstackerr, see
-- do_cstackfail in vm/do.c).  The walk follows up to FAIL_LEVELS nested
-- failures, then only the throw.  Each checkpoint's GIMPLE is checked: no
-- call may come before its check on any path.

-- What a checkpoint calls when its check fails.
local FAIL_FUNCS = {
    do_cstackfail = true, luaL_error = true, resumeshort = true, corrupted = true,
    do_throw = true, cstack_error = true, do_cstackerror = true, loadshort = true,
}
-- Indirect calls through a value only one API function sets: the
-- function making them -> the setter and the argument that is the value.
local SETTERS = { do_throw = { fn = "lua_atpanic", arg = 2 } }
-- Functions a guard keeps from being entered again while they run: a
-- second entry returns at once (costs its frame).  rt_post_dispatch
-- (lib/rtpost.c, `dispatching`), gc_finalize (gc/gc.c, g->gcfinalizing);
-- and do_throw's call of the panic function, which it clears first.
local ONCE = { rt_post_dispatch = true, gc_finalize = true }
local ONCE_INDIRECT = { do_throw = true }
-- Checkpoints whose failure calls nothing: a status returned (dump), the
-- work left for later (a safe point).
local NOFAIL_OK = {
    ["lang/dump.c:putfunction"] = true, pace_safepoint_ = true,
    ["gc/gc.c:assist"] = true, ["gc/gc.c:emergency"] = true, rtlua_poll = true,
}
-- Exception handlers that move to a stack of their own before anything
-- (port/cortex-m/fault.c): only the core's exception frame is pushed.
local FAULT_HANDLERS = {
    HardFault_Handler = true, MemManage_Handler = true, BusFault_Handler = true,
    UsageFault_Handler = true,
}
-- Library functions whose indirect calls are start-up or exit, or a
-- return (longjmp).
local LIB_INDIRECT_OK = {
    __libc_init_array = true, exit = true, __call_exitprocs = true,
    __libc_fini_array = true, _exit = true, abort = true, longjmp = true,
}
-- Library functions that set the stack pointer from a register (only to
-- raise it back).
local LIB_SP_OK = { longjmp = true, setjmp = true }

local prefix, irq_frame, report = "arm-none-eabi-", 36, nil
local show_path -- --path FUNCTION: print its deepest path (for reading)
local kinds = {}  -- --kinds "call parse ...": every kind gets a line
local elf
local objects = {}
-- --opaque "OBJ.o ...": objects of user C modules (USER_C_MODULES), read
-- like the others, but their functions count their own frame only: what
-- a module's C code does with the stack (recursion, stdio) is its
-- author's to bound, as with Lua's C modules; the stack guard (the MPU,
-- or microbit's canary) catches an overflow there.
local opaque = {}
do
    local i = 1
    while i <= #arg do
        local a = arg[i]
        if a == "--prefix" then prefix = arg[i + 1]; i = i + 1
        elseif a == "--irq-frame" then irq_frame = tonumber(arg[i + 1]); i = i + 1
        elseif a == "--report" then report = arg[i + 1]; i = i + 1
        elseif a == "--path" then show_path = arg[i + 1]; i = i + 1
        elseif a == "--opaque" then
            for o in arg[i + 1]:gmatch("%S+") do opaque[o] = true end
            i = i + 1
        elseif a == "--kinds" then
            for k in arg[i + 1]:gmatch("%S+") do kinds[#kinds + 1] = k end
            i = i + 1
        elseif not elf then elf = a
        else objects[#objects + 1] = a end
        i = i + 1
    end
    if not elf or #objects == 0 then
        io.stderr:write("usage: cstack.lua [--prefix P] [--irq-frame N] [--report F] IMAGE.elf OBJECT.o...\n")
        os.exit(2)
    end
end

local errors, error_seen = {}, {}
local function fail(msg)
    if not error_seen[msg] then
        error_seen[msg] = true
        errors[#errors + 1] = msg
    end
end

local function lines_of(cmd)
    local p = assert(io.popen(cmd))
    local t = {}
    for l in p:lines() do t[#t + 1] = l end
    if not p:close() then
        io.stderr:write("cstack.lua: failed: " .. cmd .. "\n")
        os.exit(2)
    end
    return t
end

local function read_file(path)
    local f = io.open(path)
    if not f then return nil end
    local s = f:read("a")
    f:close()
    return s
end

-- ---- C types as GIMPLE prints them ----------------------------------------
-- Comparable form: no white space, no name inside a pointer's (*name).
local function norm_type(t)
    t = t:gsub("<T%x+>", ""):gsub("%(%*[%w_]*%)", "(*)")
    return (t:gsub("%s+", ""))
end

local function split_params(s)
    local out, depth, cur = {}, 0, {}
    for c in s:gmatch(".") do
        if c == "(" or c == "<" then depth = depth + 1
        elseif c == ")" or c == ">" then depth = depth - 1 end
        if c == "," and depth == 0 then
            out[#out + 1] = table.concat(cur)
            cur = {}
        else
            cur[#cur + 1] = c
        end
    end
    out[#out + 1] = table.concat(cur)
    for i, p in ipairs(out) do out[i] = p:gsub("^%s+", ""):gsub("%s+$", "") end
    return out
end

-- "ret (*x) (params)" -> "ret(params)", or nil when not a function pointer.
local function fnptr_sig(t)
    local ret, params = t:match("^(.-)%s*%(%*[^)]*%)%s*(%b())%s*$")
    if not ret then return nil end
    local ps = {}
    for _, p in ipairs(split_params(params:sub(2, -2))) do ps[#ps + 1] = norm_type(p) end
    if #ps == 1 and ps[1] == "void" then ps = {} end
    return norm_type(ret) .. "(" .. table.concat(ps, ",") .. ")"
end

-- A definition's header "ret name (T a, T b)" -> name, sig, {param names}.
local function header_sig(line)
    local ret, name, params = line:match("^(.-)%s*([%w_.]+) (%b())%s*$")
    if not ret or ret == "" then return nil end
    local ps, names = {}, {}
    for _, p in ipairs(split_params(params:sub(2, -2))) do
        local pname
        if p ~= "void" and p ~= "..." then
            pname = p:match("([%w_]+)$")
            p = p:gsub("%s*[%w_]+$", "")
        end
        if p ~= "void" then
            ps[#ps + 1] = norm_type(p)
            names[#names + 1] = pname or "?"
        end
    end
    return name, norm_type(ret) .. "(" .. table.concat(ps, ",") .. ")", names
end

-- ---- the graph ------------------------------------------------------------
-- A function (id: "src:name" for a static one, its name for a global one):
--   frame, dynamic, obj, src, lib
--   calls    {name=true}   direct callees, as names seen from its object
--   resolve  function      name -> id, in its object
--   icalls   {{sig, param}} indirect calls: type, and the parameter's
--                          index when the pointer is one of its parameters
--   sites    {callee name -> {{args}}} direct calls with their arguments
--   params   {names}       its parameters, in order
--   bbs      GIMPLE blocks, for the order of the check
local nodes = {}
local globals = {}      -- global name -> id
local addr_taken = {}   -- id -> true
local sig_of = {}       -- id -> signature

local function node(id)
    local n = nodes[id]
    if not n then
        n = { id = id, calls = {}, icalls = {}, sites = {} }
        nodes[id] = n
    end
    return n
end

local function strip_section(name)
    return (name:gsub("^%.text%.unlikely%.", ""):gsub("^%.text%.startup%.", "")
        :gsub("^%.text%.hot%.", ""):gsub("^%.text%.", ""))
end

local function read_object(obj)
    local base = obj:gsub("%.o$", "")
    local ci = read_file(base .. ".ci")
    if not ci then
        fail(obj .. ": no " .. base .. ".ci (not compiled with -fcallgraph-info=su)")
        return
    end
    local src = ci:match('^graph: { title: "([^"]*)"')
    local locals = {}
    local defined = 0
    for title, label in ci:gmatch('node: { title: "([^"]*)" label: "([^"]*)" }') do
        local bytes, qual = label:match("\\n(%d+) bytes %(([%w,]+)%)$")
        if bytes then
            local n = node(title)
            n.frame = tonumber(bytes)
            n.dynamic = qual ~= "static"
            n.obj, n.src = obj, src
            local pfx, nm = title:match("^(.*):([^:]+)$")
            if pfx == src then locals[nm] = true else globals[title] = title end
            defined = defined + 1
        end
    end
    local function resolve(name)
        name = strip_section(name)
        if locals[name] then return src .. ":" .. name end
        return name
    end
    for from, to in ci:gmatch('edge: { sourcename: "([^"]*)" targetname: "([^"]*)"') do
        local n = node(from)
        n.resolve = resolve
        if to == "__indirect_call" then n.has_indirect = true else n.calls[to] = true end
    end
    for _, t in pairs(nodes) do
        if t.obj == obj then t.resolve = resolve end
    end
    -- Calls the compiler made after the graph; addresses taken.
    local section
    for _, l in ipairs(lines_of(prefix .. "readelf -rW " .. obj)) do
        local s = l:match("^Relocation section '%.rel(%.[^']*)'")
        if s then
            section = s
        elseif section and not section:match("^%.debug") and not section:match("^%.ARM%.ex") then
            local typ, sym = l:match("^%x+%s+%x+%s+(R_ARM_[%w_]+)%s+%x+%s+(%S+)")
            local kind = sym and sym:match("^rtlua_cstack_keep_(%w+)$")
            if kind then
                if section:match("^%.text") then
                    local n = node(resolve(section))
                    if n.kind and n.kind ~= kind then
                        fail(n.id .. " checks the C stack for two kinds, " .. n.kind .. " and " .. kind)
                    end
                    n.kind = kind
                end
            elseif typ then
                local target = resolve(sym)
                if typ:match("CALL$") or typ:match("JUMP") then
                    if section:match("^%.text") then node(resolve(section)).calls[target] = true end
                elseif section:match("^%.text") and resolve(section) == target then
                    -- its own jump table or label addresses
                elseif section:match("^%.isr_vector") then
                    -- the handlers the core calls
                else
                    addr_taken[target] = true
                end
            end
        end
    end
    if defined == 0 then return end
    local tree = read_file(base .. ".tree")
    if not tree then
        fail(obj .. ": no " .. base .. ".tree (not compiled with -fdump-tree-optimized)")
        return
    end
    -- Signatures, indirect calls and their types, calls with arguments,
    -- and the blocks of each function.
    local cur, n, decls, in_body, bb
    for l in (tree .. "\n"):gmatch("([^\n]*)\n") do
        local asm = l:match("^;; Function [^ ]+ %(([^,]+),")
        if asm then
            cur = resolve(asm)
            n = node(cur)
            n.resolve = n.resolve or resolve
            n.bbs, n.bb_order = {}, {}
            decls, in_body, bb = {}, false, nil
        elseif n and not in_body and l:match("^[%a_]") and not l:match("^Removing") then
            local name, sig, pnames = header_sig(l)
            if name then
                sig_of[cur] = sig
                n.params = pnames
                local params = l:match("(%b())%s*$")
                for _, p in ipairs(split_params(params:sub(2, -2))) do
                    local pn = p:match("([%w_]+)$")
                    if pn then decls[pn] = p:gsub("%s*[%w_]+$", "") end
                end
            end
        elseif n and l == "{" then
            in_body = true
        elseif n and l == "}" then
            n = nil
        elseif n and in_body then
            local b = l:match("^  <bb (%d+)>")
            if b then
                bb = { id = tonumber(b), calls = {}, succ = {} }
                n.bbs[bb.id] = bb
                n.bb_order[#n.bb_order + 1] = bb.id
            elseif not bb then
                local t, v = l:match("^  (.-) ([%w_.]+);$")
                if t and not l:find("=", 1, true) then decls[v] = t end
            else
                -- a check without a call (port/port.h: PORT_CSTACK_CHECKED)
                local mk = l:match('__asm__ __volatile__%("@ rtlua cstack check (%w+)"')
                if mk then
                    n.marked = mk
                    bb.calls[#bb.calls + 1] = "<check>"
                end
                for s in l:gmatch("<bb (%d+)>") do bb.succ[#bb.succ + 1] = tonumber(s) end
                if l:match("^%s+goto ") or l:match("^%s+return") then bb.ends = true end
                -- a call: "[lhs = ] callee (args);"
                local callee, args = l:match("^%s+[^=]-= ([%w_.]+%(?D?%)?) (%b());")
                if not callee then callee, args = l:match("^%s+([%w_.]+%(?D?%)?) (%b());") end
                if callee and not l:match("^%s+if ") then
                    local var = callee:gsub("%(D%)$", "")
                    local ty = decls[var] or decls[(var:gsub("_%d+$", ""))]
                    if ty and (callee:match("_%d+$") or callee:match("%(D%)$")) then
                        local sig = fnptr_sig(ty)
                        local param
                        if callee:match("%(D%)$") then
                            local pn = var:gsub("_%d+$", "")
                            for i, nm in ipairs(n.params or {}) do
                                if nm == pn then param = i end
                            end
                        end
                        if sig then
                            n.icalls[#n.icalls + 1] = { sig = sig, param = param }
                        else
                            n.untyped = (n.untyped or "") .. " " .. ty
                        end
                        bb.calls[#bb.calls + 1] = "<indirect>"
                    else
                        local list = n.sites[callee] or {}
                        n.sites[callee] = list
                        list[#list + 1] = split_params(args:sub(2, -2))
                        bb.calls[#bb.calls + 1] = callee
                    end
                end
            end
        end
    end
end

for _, obj in ipairs(objects) do read_object(obj) end

-- ---- the image: library functions and interrupt handlers -------------------
local sym_addr, addr_sym = {}, {}
for _, l in ipairs(lines_of(prefix .. "nm " .. elf)) do
    local a, t, name = l:match("^(%x+) (%a) (%S+)$")
    if a and (t == "T" or t == "t" or t == "W" or t == "w") then
        local v = tonumber(a, 16) & ~1
        sym_addr[name] = sym_addr[name] or v
        addr_sym[v] = addr_sym[v] or name
    end
end

local lib_by_addr = {} -- address -> id "lib:label"
-- b, bl, blx, and the conditional b<cc>, with .n/.w
local CONDS = {}
for c in ("eq ne cs cc hs lo mi pl vs vc hi ls ge lt gt le al"):gmatch("%a+") do CONDS[c] = true end
local function is_branch(op)
    op = op:gsub("%.[nw]$", "")
    return op == "b" or op == "bl" or op == "blx"
        or (#op == 3 and op:sub(1, 1) == "b" and CONDS[op:sub(2)] ~= nil)
end
do
    local cur
    for _, l in ipairs(lines_of(prefix .. "objdump -d --no-show-raw-insn " .. elf)) do
        local a, name = l:match("^(%x+) <([^>]+)>:$")
        if name then
            cur = node("lib:" .. name)
            cur.lib, cur.frame, cur.libcalls = true, 0, {}
            lib_by_addr[tonumber(a, 16)] = cur.id
        elseif cur then
            local op, args = l:match("^%s+%x+:%s+(%S+)%s*(.*)$")
            if op then
                local regs = args:match("{([^}]*)}")
                local function count(list)
                    local c = 0
                    for r in list:gmatch("[^,%s]+") do
                        local x, y = r:match("^%a+(%d+)%-%a+(%d+)$")
                        c = c + (x and (tonumber(y) - tonumber(x) + 1) or 1)
                    end
                    return c
                end
                if (op == "push" or op == "push.w") and regs then
                    cur.frame = cur.frame + 4 * count(regs)
                elseif op:match("^stmdb") and args:match("^sp!") then
                    cur.frame = cur.frame + 4 * count(regs)
                elseif op:match("^vpush") or (op:match("^vstmdb") and args:match("^sp!")) then
                    cur.frame = cur.frame + (regs:match("d") and 8 or 4) * count(regs)
                elseif (op:match("^sub") or op:match("^add")) and args:match("^sp, ") then
                    local imm = args:match("#(%-?%d+)")
                    if imm then
                        imm = tonumber(imm)
                        if op:match("^sub") and imm > 0 then cur.frame = cur.frame + imm end
                        if op:match("^add") and imm < 0 then cur.frame = cur.frame - imm end
                    elseif op:match("^sub") then
                        cur.libdyn = true
                    end
                elseif op:match("^str") and args:match("%[sp, #%-(%d+)%]!") then
                    cur.frame = cur.frame + tonumber(args:match("%[sp, #%-(%d+)%]!"))
                elseif op:match("^mov") and args:match("^sp, ") then
                    cur.libdyn = true
                elseif op:match("^ldm") and args:match("sp[,}]") then
                    cur.libdyn = true
                elseif is_branch(op) then
                    if args:match("^r%d") or args:match("^ip") or args:match("^lr") then
                        cur.libindirect = true
                    else
                        local target = tonumber(args:match("^(%x+)") or "", 16)
                        local tname = args:match("<([^>+]+)>")
                        if target and tname and tname ~= cur.id:sub(5) then
                            cur.libcalls[#cur.libcalls + 1] = target
                        end
                    end
                elseif op == "bx" and not args:match("^lr") then
                    cur.libindirect = true
                end
            end
        end
    end
end

-- A callee name, as seen from a function of ours, to an id.
local function resolve_global(name)
    local n = nodes[name]
    if n and n.frame and not n.lib then return name end
    if globals[name] then return globals[name] end
    local a = sym_addr[name]
    if a and lib_by_addr[a] then return lib_by_addr[a] end
    return nil
end

local function in_image(n)
    if n.lib then return true end
    return sym_addr[n.id:match("[^:]+$")] ~= nil
end

-- Library functions: their calls by address; those of ours they call.
for _, n in pairs(nodes) do
    if n.lib then
        local name = n.id:sub(5)
        n.out = {}
        if globals[name] then
            n.shadowed = true -- ours, seen through the disassembly too
        else
            for _, a in ipairs(n.libcalls) do
                local id = lib_by_addr[a]
                local nm = addr_sym[a]
                if nm and globals[nm] then id = globals[nm] end
                if id then n.out[#n.out + 1] = id end
            end
            if n.libdyn and not LIB_SP_OK[name] then n.dynamic = true end
            if n.libindirect and not LIB_INDIRECT_OK[name] then n.lib_indirect = true end
        end
    end
end

-- Indirect targets: by type, among the functions whose address is taken.
local by_sig = {}
for id in pairs(addr_taken) do
    local rid = resolve_global(id) or id
    if sig_of[rid] then
        by_sig[sig_of[rid]] = by_sig[sig_of[rid]] or {}
        by_sig[sig_of[rid]][rid] = true
    end
end

-- Functions that call through a parameter, and which: params[i] true.
-- A function passing its own parameter on to such a parameter is one too.
local fnparams = {}
for id, n in pairs(nodes) do
    for _, ic in ipairs(n.icalls) do
        if ic.param then
            fnparams[id] = fnparams[id] or {}
            fnparams[id][ic.param] = true
        end
    end
end
local changed = true
while changed do
    changed = false
    for id, n in pairs(nodes) do
        for callee, list in pairs(n.sites) do
            local cid = n.resolve and resolve_global(n.resolve(callee))
            if cid and fnparams[cid] then
                for i in pairs(fnparams[cid]) do
                    for _, args in ipairs(list) do
                        local pn = (args[i] or ""):match("^([%w_]-)_%d+%(D%)$")
                        for j, nm in ipairs(n.params or {}) do
                            if nm == pn then
                                fnparams[id] = fnparams[id] or {}
                                if not fnparams[id][j] then
                                    fnparams[id][j] = true
                                    changed = true
                                end
                            end
                        end
                    end
                end
            end
        end
    end
end

local checkpoints = {}
for id, n in pairs(nodes) do
    if n.frame and not n.lib and (n.calls.port_stack_left or n.marked) then
        checkpoints[id] = true
        if n.marked then
            if n.kind and n.kind ~= n.marked then
                fail(id .. " checks the C stack for two kinds, " .. n.kind .. " and " .. n.marked)
            end
            n.kind = n.marked
        end
    end
end

-- A checkpoint checks before it calls anything: walking its blocks from
-- the entry, every path meets port_stack_left or a failure function
-- before any other call.
for id in pairs(checkpoints) do
    local n = nodes[id]
    if not n.bbs or #n.bb_order == 0 then
        fail("checkpoint " .. id .. " has no GIMPLE blocks to check")
    else
        local seen, work = {}, { n.bb_order[1] }
        local nextbb = {}
        for i, b in ipairs(n.bb_order) do nextbb[b] = n.bb_order[i + 1] end
        while #work > 0 do
            local b = table.remove(work)
            if not seen[b] and n.bbs[b] then
                seen[b] = true
                local bb, stop = n.bbs[b], false
                for _, c in ipairs(bb.calls) do
                    local name = c:match("[^:]+$")
                    if c == "port_stack_left" or c == "<check>" or FAIL_FUNCS[name] then
                        stop = true
                        break
                    end
                    fail("checkpoint " .. id .. " calls " .. c .. " before its check")
                end
                if not stop then
                    for _, s in ipairs(bb.succ) do work[#work + 1] = s end
                    if not bb.ends and #bb.succ == 0 and nextbb[b] then work[#work + 1] = nextbb[b] end
                end
            end
        end
    end
end

-- Targets of one indirect call made by n under binding (param -> set).
local function setter_targets(n)
    local s = SETTERS[n.id:match("[^:]+$")]
    if not s then return nil end
    local out = {}
    for _, m in pairs(nodes) do
        for callee, list in pairs(m.sites) do
            if callee == s.fn then
                for _, args in ipairs(list) do
                    local a = args[s.arg] or ""
                    local id = m.resolve and resolve_global(m.resolve(a:gsub("^&", "")))
                    if id and sig_of[id] then out[id] = true
                    elseif a ~= "0B" then fail(m.id .. " passes " .. a .. " to " .. s.fn .. ": not a function") end
                end
            end
        end
    end
    return out
end

-- The callees of n under a binding of its function-pointer parameters:
-- a list of {id, binding}.
local function callees(n, binding, ctx)
    local out = {}
    if n.lib then
        for _, id in ipairs(n.out) do out[#out + 1] = { id } end
        return out
    end
    for c in pairs(n.calls) do
        local id = resolve_global(n.resolve and n.resolve(c) or c)
        if not id then
            if in_image(n) then fail(n.id .. " calls " .. c .. ", found neither in the objects nor the image") end
        elseif id ~= "port_stack_left" or true then
            local b
            local fp = fnparams[id]
            if fp then
                b = {}
                local sites = n.sites[c] or n.sites[id:match("[^:]+$")]
                for i in pairs(fp) do
                    local set = {}
                    if not sites then set = nil end
                    for _, args in ipairs(sites or {}) do
                        local a = (args[i] or ""):gsub("^&", "")
                        local fid = n.resolve and resolve_global(n.resolve(a))
                        local pn = a:match("^([%w_]-)_%d+%(D%)$")
                        local pidx
                        for j, nm in ipairs(n.params or {}) do if nm == pn then pidx = j end end
                        if fid and sig_of[fid] then
                            set[fid] = true
                        elseif pidx and binding and binding[pidx] then
                            for t in pairs(binding[pidx]) do set[t] = true end
                        else
                            set = nil
                            break
                        end
                    end
                    b[i] = set -- nil: unknown, by type
                end
            end
            out[#out + 1] = { id, b }
        end
    end
    local st = setter_targets(n)
    local name = n.id:match("[^:]+$")
    local icalls = n.icalls
    if ONCE_INDIRECT[name] and ctx and ctx:find("|" .. name .. "*", 1, true) then
        icalls = {} -- already inside its indirect call
    end
    for _, ic in ipairs(icalls) do
        local set
        if st then
            set = st
        elseif ic.param and binding and binding[ic.param] then
            set = binding[ic.param]
        else
            set = by_sig[ic.sig] or {}
        end
        for t in pairs(set) do out[#out + 1] = { t, nil, ONCE_INDIRECT[name] and (name .. "*") } end
    end
    if n.has_indirect and #n.icalls == 0 and in_image(n) then
        fail(n.id .. " makes an indirect call the .tree dump does not show")
    end
    if n.untyped and in_image(n) then
        fail(n.id .. " calls through a value that is not a function pointer:" .. n.untyped)
    end
    table.sort(out, function(a, b) return a[1] < b[1] end)
    return out
end

local function binding_key(b)
    if not b then return "" end
    local parts = {}
    for i, set in pairs(b) do
        local ids = {}
        for t in pairs(set) do ids[#ids + 1] = t end
        table.sort(ids)
        parts[#parts + 1] = i .. "=" .. table.concat(ids, ",")
    end
    table.sort(parts)
    return table.concat(parts, ";")
end

-- cost(id, level, binding, ctx): the deepest stack from entering id until
-- the next check (level 0) or along a failure at `level`; and the path.
-- ctx: the ONCE functions (and indirect calls) entered, "|a|b*".
local memo, onpath, stack = {}, {}, {}
local cost

local function addctx(ctx, name)
    if not name then return ctx end
    ctx = ctx or ""
    if ctx:find("|" .. name .. "|", 1, true) or ctx:sub(-#name - 1) == "|" .. name then
        return ctx
    end
    local parts = {}
    for p in ctx:gmatch("[^|]+") do parts[#parts + 1] = p end
    parts[#parts + 1] = name
    table.sort(parts)
    return "|" .. table.concat(parts, "|")
end

local function inctx(ctx, name)
    if not ctx then return false end
    for p in ctx:gmatch("[^|]+") do if p == name then return true end end
    return false
end

-- The deepest of n's callees that keep(id) accepts (all without keep),
-- entered from level: bytes, and the path.
local edge_cost
local function deepest(n, binding, ctx, level, keep)
    local best, bp = 0, {}
    for _, e in ipairs(callees(n, binding, ctx)) do
        if not keep or keep(e[1]) then
            local v, p = edge_cost(e, level, ctx)
            if v > best then best, bp = v, p end
        end
    end
    return best, bp
end

-- A checkpoint c's check fails: the most its failure functions use.
local function fail_cost(c, level, ctx)
    return deepest(nodes[c], nil, ctx, level, function(id)
        return FAIL_FUNCS[id:match("[^:]+$")] and id ~= c
    end)
end

-- What entering callee e from level costs, with its path.
edge_cost = function(e, level, ctx)
    local c = e[1]
    if checkpoints[c] then
        local fv, fp = fail_cost(c, level, ctx)
        local p = { string.format("%s %d (its check fails)", c, nodes[c].frame) }
        table.move(fp, 1, #fp, 2, p)
        return nodes[c].frame + fv, p
    end
    local name = c:match("[^:]+$")
    if ONCE[name] and inctx(ctx, name) then
        return nodes[c].frame, { string.format("%s %d (entered again: returns)", c, nodes[c].frame) }
    end
    return cost(c, level, e[2], addctx(addctx(ctx, e[3]), ONCE[name] and name or nil))
end

cost = function(id, level, binding, ctx)
    local key = level .. "|" .. id .. "|" .. binding_key(binding) .. "|" .. (ctx or "")
    local m = memo[key]
    if m then return m[1], m[2] end
    local o = nodes[id]
    if o and o.obj and opaque[o.obj] then
        local f = o.frame or 0
        return f, { string.format("%s %d (a user C module's: its own frame only)", id, f) }
    end
    if onpath[key] then
        local cyc = {}
        for i = onpath[key], #stack do cyc[#cyc + 1] = stack[i] end
        cyc[#cyc + 1] = id
        fail("recursion that no check interrupts: " .. table.concat(cyc, " -> "))
        return 0, {}
    end
    local n = nodes[id]
    if not n or not n.frame then
        fail("no frame for " .. id)
        return 0, {}
    end
    stack[#stack + 1] = id
    onpath[key] = #stack
    if n.dynamic then fail(id .. " has a frame of dynamic size") end
    if n.lib_indirect then fail(id .. " (library) makes an indirect call") end
    local best, bestpath = deepest(n, binding, ctx, level)
    onpath[key] = nil
    stack[#stack] = nil
    local total = n.frame + best
    local path = { string.format("%s %d", id, n.frame) }
    table.move(bestpath, 1, #bestpath, 2, path)
    memo[key] = { total, path }
    return total, path
end

-- After a check at each checkpoint: what its callees may use; the most
-- of each kind.
local results = {}
local by_kind = {} -- kind -> {bytes, path, from}
for id in pairs(checkpoints) do
    local n = nodes[id]
    local has_fail = false
    for c in pairs(n.calls) do
        if FAIL_FUNCS[c:match("[^:]+$")] then has_fail = true end
    end
    if not has_fail and not NOFAIL_OK[id] then
        fail("checkpoint " .. id .. " calls none of the failure functions")
    end
    if not n.kind then
        fail("checkpoint " .. id .. " names no rtlua_cstack_keep_KIND")
    end
    local best, bp = deepest(n, nil, nil, 0, function(c)
        return c ~= "port_stack_left"
    end)
    local kind = n.kind or "?"
    results[#results + 1] = { id = id, bytes = best, path = bp, kind = kind }
    local k = by_kind[kind]
    if not k or best > k.bytes then by_kind[kind] = { bytes = best, path = bp, from = id } end
end
for kind in pairs(by_kind) do
    local known = false
    for _, k in ipairs(kinds) do if k == kind then known = true end end
    if not known and #kinds > 0 then fail("a checkpoint of kind " .. kind .. ", which --kinds does not list") end
end
-- Interrupts: every handler in the vector table, all nested.
local irq_total, irq_lines = 0, {}
do
    local words = {}
    for _, l in ipairs(lines_of(prefix .. "objdump -s -j .isr_vector " .. elf)) do
        local rest = l:match("^ %x+ (.*)$")
        if rest then
            for w in rest:sub(1, 35):gmatch("(%x%x%x%x%x%x%x%x)") do
                words[#words + 1] = tonumber(w:sub(7, 8) .. w:sub(5, 6) .. w:sub(3, 4) .. w:sub(1, 2), 16)
            end
        end
    end
    local seen = {}
    for i = 2, #words do
        local a = words[i] & ~1
        local name = addr_sym[a]
        -- Reset runs once; the fault handlers move to a stack of their own.
        if words[i] ~= 0 and name and not seen[a] and not FAULT_HANDLERS[name]
            and name ~= "Reset_Handler" then
            seen[a] = true
            local id = resolve_global(name)
            if id then
                local v = cost(id, 0, nil, nil)
                irq_total = irq_total + irq_frame + v
                irq_lines[#irq_lines + 1] = string.format("  %6d  %s (+%d exception frame)", v, name, irq_frame)
            end
        end
    end
end

-- The fault report runs on a stack of its own (port/cortex-m/fault.c):
-- it must fit there.
local fault_need, fault_have
do
    for _, l in ipairs(lines_of(prefix .. "nm -S " .. elf)) do
        local size = l:match("^%x+ (%x+) [bBdD] cm_fault_stack$")
        if size then fault_have = tonumber(size, 16) end
    end
    if fault_have and resolve_global("cm_fault_report") then
        fault_need = cost(resolve_global("cm_fault_report"), 0, nil, nil)
        if fault_need > fault_have then
            fail(string.format("the fault report needs %d bytes of stack, cm_fault_stack has %d",
                fault_need, fault_have))
        end
    end
end

local function reserve(kind)
    local k = by_kind[kind]
    return k and ((k.bytes + irq_total + 7) & ~7) or 0
end
if #kinds == 0 then
    for kind in pairs(by_kind) do kinds[#kinds + 1] = kind end
    table.sort(kinds)
end

if report then
    local f = assert(io.open(report, "w"))
    f:write("The C stack's reserves (LUAI_CSTACK_KEEP, port/port.h), in bytes:\n")
    for _, kind in ipairs(kinds) do f:write(string.format("  %-8s %6d\n", kind, reserve(kind))) end
    f:write(string.format("\neach the most a check of the kind may be followed by, plus %d for\n"
        .. "interrupts, all nested:\n", irq_total))
    for _, l in ipairs(irq_lines) do f:write(l .. "\n") end
    if fault_have then
        f:write(string.format("\nThe fault report needs %d bytes of its own stack's %d.\n",
            fault_need or 0, fault_have))
    end
    for _, kind in ipairs(kinds) do
        local k = by_kind[kind]
        if k then
            f:write(string.format("\nDeepest after a check of kind %s: %d bytes, after %s:\n", kind, k.bytes, k.from))
            for _, p in ipairs(k.path) do f:write("    " .. p .. "\n") end
        end
    end
    f:write("\nCheckpoints (kind, and bytes their callees may use after the check):\n")
    for _, r in ipairs(results) do f:write(string.format("  %6d  %-7s %s\n", r.bytes, r.kind, r.id)) end
    f:write("\nLibrary entries (functions of type int(lua_State *) whose address is\n"
        .. "taken), deepest use from the call to the next check:\n")
    local entries = {}
    for id in pairs(by_sig["int(structlua_State*)"] or {}) do
        if in_image(nodes[id]) then
            local v = cost(id, 0, nil, nil)
            entries[#entries + 1] = { id = id, v = v }
        end
    end
    table.sort(entries, function(a, b) return a.v > b.v or (a.v == b.v and a.id < b.id) end)
    for _, e in ipairs(entries) do f:write(string.format("  %6d  %s\n", e.v, e.id)) end
    f:close()
end

if show_path then
    local id = resolve_global(show_path) or show_path
    local v, p = cost(id, 0, nil, nil)
    io.stderr:write(string.format("%s: %d bytes\n", id, v))
    for _, l in ipairs(p) do io.stderr:write("    " .. l .. "\n") end
end

if #errors > 0 then
    for _, e in ipairs(errors) do io.stderr:write("cstack.lua: " .. e .. "\n") end
    os.exit(1)
end
for _, kind in ipairs(kinds) do print(string.format("rtlua_cstack_keep_%s=%d", kind, reserve(kind))) end
