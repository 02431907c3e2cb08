# rtlua — build for the host and for each Cortex-M board.
#
#   make [BOARD=x]   firmware build/x/rtlua.elf (+ .bin, .map, size report)
#   make host        build/host/rtlua and the host unit tests
#   make test        every test (host, torture, all boards); last line
#                    "N passed, N failed"
#   make thirdparty  third-party C modules' own suites (Debian's sources)
#   make run         boot the default board in QEMU
#   make bench       the benchmark report against lua5.4, in bench/results
#   make fuzz        the libFuzzer targets, FUZZ_SECONDS each
#   make fuzz-targets  only build them (FUZZ_MODE=check|campaign|cov)
#   make -s boards   the boards; make -s [BOARD=x] board-dir / host-dir:
#                    a build directory; make -s print-VAR: a variable
#   make BOARD=x APP=dir   the firmware with the application dir in flash
#   make repl|debug|size|flash|flash-image|clean
#
# RTLUA_NUM=32|64 picks the number model; the default is 32 on boards and
# 64 on the host.  Each model builds into its own directory.
# USER_C_MODULES=dir links the C modules described in dir/*/module.mk
# into the host CLI and the firmware (see "user C modules" below);
# HOST_VARIANT / BOARD_VARIANT=name build into build/host-name or
# build/<board>-name instead.  make install PREFIX=dir installs the host
# build (rtlua, include/rtlua/, librtlua.a, lib/pkgconfig/rtlua.pc).

# The boards: every folder of board/ with a board.mk, but the template
# (docs/porting.md).  This is the one list: scripts ask for it with
# `make -s boards`.
BOARD ?= mps2-an385
BOARDS := $(sort $(filter-out template,$(patsubst board/%/board.mk,%,$(wildcard board/*/board.mk))))
ifeq ($(filter $(BOARD),$(BOARDS) template),)
$(error unknown board '$(BOARD)'; the boards are: $(BOARDS))
endif
include board/$(BOARD)/board.mk
# The board's makefiles: its board.mk and what that includes (a family's
# shared facts: mps2-an386 and mps2-an500 include mps2-an385's), on which
# its objects depend.
BOARD_MKS := $(filter board/%.mk,$(MAKEFILE_LIST))
# What every board.mk must set (BOARD_QEMU may be empty: a board without a
# QEMU machine is built and checked on the host only).  The template sets
# none of them, so a copy of it fails here until it is filled in.
BOARD_REQUIRED := BOARD_CPU BOARD_LD BOARD_UART BOARD_STACK BOARD_GUARD \
                  BOARD_NULL_GUARD BOARD_APP_IMAGE BOARD_TEST_LUA BOARD_TEST_TAG
$(foreach v,$(BOARD_REQUIRED),$(if $($(v)),,$(error board/$(BOARD)/board.mk sets no $(v) (docs/porting.md))))
ifeq ($(wildcard drivers/uart_$(BOARD_UART).c),)
$(error board/$(BOARD)/board.mk: BOARD_UART := $(BOARD_UART) names no drivers/uart_$(BOARD_UART).c)
endif
ifeq ($(filter smoke all,$(BOARD_TEST_LUA)),)
$(error board/$(BOARD)/board.mk: BOARD_TEST_LUA is smoke or all, not '$(BOARD_TEST_LUA)')
endif
ifeq ($(filter board small tiny,$(BOARD_TEST_TAG)),)
$(error board/$(BOARD)/board.mk: BOARD_TEST_TAG is board, small or tiny, not '$(BOARD_TEST_TAG)')
endif

V ?= 0
Q := $(if $(filter 1,$(V)),,@)

WARN := -Wall -Wextra -Wshadow -Wundef -Wmissing-prototypes \
        -Wstrict-prototypes -Werror
# DEBUG_INFO: the debug information in every object, -g by default;
# tests/run builds with -g1 (line tables and functions, no variables or
# types), which takes a fifth less compile time.  Each build directory
# notes the one it was built with (DIR/debug-info, rewritten only when it
# changes), and its objects depend on that note: a build with another
# DEBUG_INFO compiles them again.
DEBUG_INFO ?= -g
COMMON := -std=c11 $(DEBUG_INFO) -ffunction-sections -fdata-sections \
          -I. -Iinclude

# ---- build directories -------------------------------------------------
# The one rule for their names; scripts ask for them with `make -s
# host-dir` and `make -s BOARD=x board-dir` (with RTLUA_NUM and the
# variants).  build_dir BASE NUM DEFAULT_NUM VARIANT: BASE, -numNUM when
# NUM is not the target's default, -VARIANT.
build_dir = build/$(1)$(if $(filter-out $(3),$(2)),-num$(2))$(if $(4),-$(4))

# ---- host --------------------------------------------------------------
HOST_NUM := $(or $(RTLUA_NUM),64)
HOST_DIR := $(call build_dir,host,$(HOST_NUM),64,$(HOST_VARIANT))
HOST_CC ?= gcc
HOST_OPT ?= -O2
# The checking variants that tests/run and tests/thirdparty/run both build,
# their defines written once (a build directory is not rebuilt when its
# flags change: two spellings of one variant left whichever ran first).
# HOST_VARIANT=apicheck: the C API's argument checks, freed blocks
# poisoned; HOST_VARIANT=checked: the heap checked after every collector
# step that did work, freed blocks poisoned, the portable switch dispatch,
# the collector's trace.
HOST_VARIANT_EXTRA_apicheck := -DRTLUA_APICHECK -DRTLUA_ARENA_POISON
HOST_VARIANT_EXTRA_checked := -DRTLUA_GC_CHECKSTEPS -DRTLUA_ARENA_POISON \
                              -DRTLUA_VM_SWITCH -DRTLUA_GC_TRACE
HOST_EXTRA ?= $(HOST_VARIANT_EXTRA_$(HOST_VARIANT))
HOST_INC := $(HOST_DIR)/include
HOST_CFLAGS := $(COMMON) -I$(HOST_INC) -I$(HOST_DIR)/gen $(HOST_OPT) $(WARN) -DRTLUA_HOST=1 \
               $(HOST_EXTRA)
HOST_LDFLAGS := -Wl,--gc-sections -lm $(HOST_EXTRA)

# ---- board -------------------------------------------------------------
CROSS := arm-none-eabi-
CC := $(CROSS)gcc
OBJCOPY := $(CROSS)objcopy
SIZE := $(CROSS)size
BOARD_NUM := $(or $(RTLUA_NUM),32)
BDIR := $(call build_dir,$(BOARD),$(BOARD_NUM),32,$(BOARD_VARIANT))
# Flash is bytes and instructions are time: the firmware is built for
# size (BOARD_OPT), but for the files where a program's time goes
# (BOARD_HOT: the interpreter, calls, tables, strings, the allocator and
# the collector; bench/profile shows them), which are built for speed
# (BOARD_HOT_OPT, after BOARD_OPT on their command line).  A board short
# of flash sets BOARD_HOT_OPT to its BOARD_OPT.  vm/tm.c, vm/func.c and
# lib/lauxlib.c at -Os: 1,656 bytes less on mps2-an385 (32-bit), and the
# same instructions in bench/run-board but for oo's __index chain (+0.3%);
# vm/do.c stays (at -Os fib and calls took 1% more).
BOARD_OPT ?= -Os
BOARD_HOT_OPT ?= -O2
BOARD_HOT ?= vm/vm.c vm/do.c vm/tab.c vm/tabgrow.c vm/api.c \
             vm/str.c gc/arena.c gc/gc.c \
             lib/strlib.c lib/strpat.c
BOARD_INC := $(BDIR)/include
# CSTACK_FLAGS (see "the C stack's reserves"): a change to them
# rebuilds every board object.
CSTACK_MARK := tools/cstack-flags.mk
include $(CSTACK_MARK)
# -fbuiltin after -ffreestanding: the compiler may still expand memcpy,
# memset and the like of a few bytes inline (freestanding alone makes
# every one a call); newlib provides them, with their standard meaning.
# Not the malloc family: on the boards it is lib/cmalloc.c's, whose
# blocks come from the arena (a built-in malloc is assumed to change no
# memory but its block, so a read of the arena's counters across a call
# would be folded).
TARGET_CFLAGS := $(COMMON) -I$(BOARD_INC) -I$(BDIR)/gen $(BOARD_OPT) $(WARN) \
                 $(BOARD_CPU) -Iboard/$(BOARD) -ffreestanding -fbuiltin \
                 -fno-builtin-malloc -fno-builtin-calloc \
                 -fno-builtin-realloc -fno-builtin-free \
                 -fno-common -DBOARD_STACK_BYTES=$(BOARD_STACK) $(BOARD_TEST_DEFS) \
                 $(BOARD_EXTRA)
TARGET_LDFLAGS := $(BOARD_CPU) -nostartfiles -Wl,--gc-sections -Llinker \
                  -T$(BOARD_LD) -Wl,--defsym=STACK_SIZE=$(BOARD_STACK) \
                  -Wl,--defsym=STACK_GUARD=$(BOARD_GUARD) \
                  -Wl,--defsym=NULL_GUARD=$(BOARD_NULL_GUARD) \
                  -Wl,--no-warn-rwx-segments

# ---- sources -----------------------------------------------------------
CORE_SRCS := $(sort $(wildcard gc/*.c vm/*.c lang/*.c lib/*.c))
CORE_SRCS := $(filter-out lib/main.c,$(CORE_SRCS))
# The hw library's drivers (drivers/hw_*.c): those board.mk names
# in BOARD_HW, and the register-bit pins the host's simulated board uses.
# BOARD_HW_SRCS: a board's other hw sources (a table shared in a family).
HW_DRIVERS := $(sort $(patsubst %,drivers/hw_%.c,$(BOARD_HW)) \
                     $(BOARD_HW_SRCS))
PORT_HOST := port/fmt.c $(wildcard port/host/*.c) drivers/hw_reg.c
# The console's UART driver is the one board.mk's BOARD_UART names
# (drivers/uart_NAME.c); board/$(BOARD)/*.c are the board's own files
# (clock bring-up, the hw library's table, a random number generator).
PORT_CM := port/fmt.c $(wildcard port/cortex-m/*.c) drivers/uart_$(BOARD_UART).c \
           $(sort $(wildcard board/$(BOARD)/*.c) $(HW_DRIVERS))
CHECK_SRCS := tests/unit/check.c
# The flash-image compiler's own sources (host only; docs/images.md).
IMG_TOOL_SRCS := tools/rtluac.c tools/imgwrite.c
UNIT_TESTS := $(basename $(notdir $(wildcard tests/unit/test_*.c)))

host_obj = $(patsubst %.c,$(HOST_DIR)/obj/%.o,$(1))
board_obj = $(patsubst %.c,$(BDIR)/obj/%.o,$(1))

# ---- ROM strings and tables (tools/romgen) -------------------------------
# tools/romgen, a host program, turns tools/romstr.txt into const string
# objects for flash (DIR/gen/romstr.c, part of the core on the host and
# on every board) and their C names (DIR/gen/romstr.h), and
# tools/romtab.txt into the ROM library tables: DIR/gen/romtab.h (their
# names) and DIR/gen/romtab.inc (their contents, one block a library
# source includes); DIR/gen is on the include path.  The hashes and
# layouts it computes come from vm/strhash.h, the code the target runs.
# Every build directory has its own (the rules are after the user C
# modules'): the user modules of a build add their openers to
# package.preload's table and their own ROM tables, with the ROM strings
# those need.  Without user modules the files do not depend on the
# board or the number model (entries that do are conditional in the C).
ROMGEN := build/tools/romgen
rom_generated = $(addprefix $(1)/gen/,romstr.c romstr.h romtab.h romtab.inc)
HOST_ROM := $(call rom_generated,$(HOST_DIR))
BOARD_ROM := $(call rom_generated,$(BDIR))

# (vm/obj.h wants a configuration: the host's, whose number model the
# generated files do not depend on.  So any host build's will do, and a
# newer one does not make it again: an order-only prerequisite.  Made
# again, the tool would be newer than every build's generated files, and
# builds that run side by side (tests/run) would each remake theirs.
# It is written whole, then renamed.)
$(ROMGEN): tools/romgen.c tools/romtab.c tools/romgen.h vm/strhash.h vm/obj.h \
           vm/num.h lang/reserved.h lang/escape.h \
           | $(HOST_INC)/rtlua_config.h
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) -std=c11 -O2 $(WARN) -I. -I$(HOST_INC) tools/romgen.c \
	    tools/romtab.c -o $@.$$$$.tmp && mv -f $@.$$$$.tmp $@

# Any object may include the generated files: they are made first.
ROMSTR_USERS := $(CORE_SRCS) $(PORT_HOST) $(PORT_CM) $(CHECK_SRCS) \
                lib/main.c tests/board/platform.c \
                $(wildcard tests/unit/test_*.c) $(IMG_TOOL_SRCS) \
                tests/image/test_image.c
$(call host_obj,$(ROMSTR_USERS)): | $(HOST_ROM)
$(call board_obj,$(ROMSTR_USERS)): | $(BOARD_ROM)
# ---- end of ROM strings and tables --------------------------------------------------

# ---- the configuration header and the public include directory ------------
# Every build directory has its own include/: the public headers and
# rtlua_config.h, generated here from the build's settings (number model,
# stack and buffer limits, the exact C type of lua_Integer).  include/
# luaconf.h has no defaults of its own: it includes rtlua_config.h and
# refuses to compile without it, so a module compiled with only
# -I build/<target>/include gets the ABI of the runtime built there, and
# the runtime itself is built against the same file.  RTLUA_CONFIG, the
# string of the ABI's settings, is what luaL_checkversion compares.
PUBLIC_HEADERS := lua.h lauxlib.h lualib.h luaconf.h rtlua.h

# gen_config CC CFLAGS NUM MAXSTACK BUFFERSIZE TARGET: rtlua_config.h on
# stdout.  The printf length of lua_Integer is the one that names its C
# type for this compiler (int, long or long long), found by _Generic.
define gen_config
	num=$(3); it=$$([ $$num = 64 ] && echo int64_t || echo int32_t); \
	frm=; for f in l ll h; do \
	    case $$f in l) t=long ;; ll) t="long long" ;; h) t=int ;; esac; \
	    if printf '#include <stdint.h>\n_Static_assert(_Generic((%s)0, %s: 1, default: 0), "");\n' \
	        "$$it" "$$t" | $(1) $(2) -x c -fsyntax-only - 2>/dev/null; then \
	        frm=$$f; break; fi; done; \
	case $$frm in h) ity=1 ;; l) ity=2 ;; *) ity=3 ;; esac; \
	[ "$$frm" = h ] && frm=; \
	[ $$num = 64 ] && fl='"%.14g"' || fl='"%.7g"'; \
	sig="num$$num int=$${frm:-i} maxstack=$(4) buffer=$(5)"; \
	printf '%s\n' \
	  '/* rtlua_config.h, generated by the Makefile for $(6): the settings' \
	  ' * the runtime in this directory was built with.  Do not edit; a' \
	  ' * module compiled against this directory gets their ABI. */' \
	  '#ifndef RTLUA_CONFIG_H' '#define RTLUA_CONFIG_H' \
	  '#define RTLUA_CONFIG_TARGET "$(6)"' \
	  "#define RTLUA_CONFIG_NUM $$num" \
	  "#define RTLUA_CONFIG_INT_TYPE $$ity" \
	  "#define RTLUA_CONFIG_INTEGER_FRMLEN \"$$frm\"" \
	  "#define RTLUA_CONFIG_NUMBER_FMT $$fl" \
	  '#define RTLUA_CONFIG_MAXSTACK $(4)' \
	  '#define RTLUA_CONFIG_BUFFERSIZE $(5)' \
	  "#define RTLUA_CONFIG \"$$sig\"" '#endif'
endef

# write_if_changed TMP OUT: keeps OUT's date when nothing changed, so
# regenerating rebuilds nothing.  OUT then stays older than what it
# depends on and its rule runs in every make: TMP is named by the
# shell's pid ($@.$$$$.tmp, in the same recipe line), so that makes run
# side by side (tests/run builds the boards at once) never share it.
write_if_changed = cmp -s $(1) $(2) && rm -f $(1) || mv -f $(1) $(2)
# write_note TEXT: a note file's recipe (DIR/debug-info,
# DIR/gen/romgen.args): TEXT into $@, rewritten only when it changes.
write_note = mkdir -p $(dir $@) && echo '$(1)' > $@.$$$$.tmp && \
    $(call write_if_changed,$@.$$$$.tmp,$@)

$(HOST_INC)/rtlua_config.h: Makefile
	@mkdir -p $(dir $@)
	$(Q){ $(call gen_config,$(HOST_CC),-std=c11,$(HOST_NUM),1000000,1024,$(notdir $(HOST_DIR))); } \
	    > $@.$$$$.tmp && $(call write_if_changed,$@.$$$$.tmp,$@)

$(BOARD_INC)/rtlua_config.h: Makefile $(BOARD_MKS)
	@mkdir -p $(dir $@)
	$(Q){ $(call gen_config,$(CC),-std=c11 $(BOARD_CPU),$(BOARD_NUM),20000,128,$(notdir $(BDIR))); } \
	    > $@.$$$$.tmp && $(call write_if_changed,$@.$$$$.tmp,$@)

$(HOST_INC)/%.h: include/%.h
	@mkdir -p $(dir $@)
	$(Q)cp $< $@

$(BOARD_INC)/%.h: include/%.h
	@mkdir -p $(dir $@)
	$(Q)cp $< $@

HOST_INCLUDE := $(HOST_INC)/rtlua_config.h $(addprefix $(HOST_INC)/,$(PUBLIC_HEADERS))
BOARD_INCLUDE := $(BOARD_INC)/rtlua_config.h $(addprefix $(BOARD_INC)/,$(PUBLIC_HEADERS))

# Only the include directories (tests/cmod/run builds modules against
# another number model's).
.PHONY: host-include board-include
host-include: $(HOST_INCLUDE)
board-include: $(BOARD_INCLUDE)

.PHONY: all host board run test repl debug size flash clean setup bench fuzz \
        board-tests install thirdparty
.DEFAULT_GOAL := all
# No "Entering directory" lines, also under make -C DIR: the test scripts
# read make's output as values ($(make -s host-dir), make -s print-VAR),
# and the sub-makes they run inherit -w from a make -C.
MAKEFLAGS += --no-print-directory
# Objects are never intermediates to delete.
.SECONDARY:

all: board

setup:
	$(Q)tools/setup

# ---- user C modules ----------------------------------------------------
# make USER_C_MODULES="dir...": every dir/*/module.mk (or dir/module.mk) is a
# C module, built for the target as a third-party module is built (the
# target's compiler and CPU flags, -I build/<target>/include, no -D and
# nothing internal) and linked into the host CLI and the firmware, where
# require finds its opener in package.preload's ROM table (romgen -p).
# A module.mk sets
#   MODULE        the name require takes (a.b opens with luaopen_a_b), or
#                 several names for a module with several openers
#                 (lua-cjson: cjson cjson.safe)
#   MODULE_SRCS   its C files, relative to the module.mk's directory
#   MODULE_OPEN   optional: the opener, when not luaopen_<MODULE> (one name)
#   MODULE_ROMTAB optional: a file of ROM tables (tools/romtab.c's format,
#                 no FILE), laid out by romgen in this build's generated
#                 files; the opener gets them from rtlua_romtable
#   MODULE_CFLAGS optional: its own flags, after the build's warnings and
#                 optimisation (so -Wno-error or -O3 hold) and before the
#                 include directory (so its own paths are searched first)
# The list of modules is part of the build: the generated files are
# remade when it changes (gen/romgen.args), and only then.
USER_C_MODULES ?=
UMOD_MKS := $(sort $(foreach d,$(USER_C_MODULES),$(wildcard $(d)/module.mk \
                $(d)/*/module.mk)))
ifneq ($(USER_C_MODULES),)
ifeq ($(UMOD_MKS),)
$(error USER_C_MODULES=$(USER_C_MODULES): no module.mk there)
endif
endif
UMODS :=
define umod_load
MODULE :=
MODULE_SRCS :=
MODULE_OPEN :=
MODULE_CFLAGS :=
MODULE_ROMTAB :=
include $(1)
ifeq ($$(MODULE),)
$$(error $(1) sets no MODULE)
endif
ifneq ($$(and $$(MODULE_OPEN),$$(word 2,$$(MODULE))),)
$$(error $(1): MODULE_OPEN goes with one MODULE name)
endif
UMOD_KEY := $$(firstword $$(MODULE))
UMODS += $$(UMOD_KEY)
UMOD_DIR_$$(UMOD_KEY) := $(patsubst %/,%,$(dir $(1)))
UMOD_SRCS_$$(UMOD_KEY) := $$(MODULE_SRCS)
UMOD_OPENS_$$(UMOD_KEY) := $$(if $$(MODULE_OPEN),$$(MODULE)=$$(MODULE_OPEN),\
    $$(foreach n,$$(MODULE),$$(n)=luaopen_$$(subst .,_,$$(n))))
UMOD_CFLAGS_$$(UMOD_KEY) := $$(MODULE_CFLAGS)
UMOD_ROMTAB_$$(UMOD_KEY) := $$(addprefix $(patsubst %/,%,$(dir $(1)))/,$$(MODULE_ROMTAB))
endef
$(foreach m,$(UMOD_MKS),$(eval $(call umod_load,$(m))))

# The flags a module author's own build would use, and no others.
UMOD_WARN := -Wall -Wextra -Werror
UMOD_HOST_BASE = -O2 $(DEBUG_INFO) -fPIC $(UMOD_WARN)
UMOD_BOARD_BASE = $(BOARD_OPT) $(DEBUG_INFO) -ffunction-sections -fdata-sections \
                  $(BOARD_CPU) $(UMOD_WARN)
UMOD_HOST_FLAGS = $(UMOD_HOST_BASE) -I$(HOST_INC)
UMOD_BOARD_FLAGS = $(UMOD_BOARD_BASE) -I$(BOARD_INC)

define umod_rules
UMOD_HOST_OBJS += $$(patsubst %.c,$(HOST_DIR)/umod/$(1)/%.o,$$(UMOD_SRCS_$(1)))
UMOD_BOARD_OBJS += $$(patsubst %.c,$(BDIR)/umod/$(1)/%.o,$$(UMOD_SRCS_$(1)))
$(HOST_DIR)/umod/$(1)/%.o: $$(UMOD_DIR_$(1))/%.c $(HOST_DIR)/debug-info \
                           | $$(HOST_INCLUDE)
	@mkdir -p $$(dir $$@)
	$$(Q)$$(HOST_CC) $$(UMOD_HOST_BASE) $$(UMOD_CFLAGS_$(1)) -I$$(HOST_INC) -MMD -MP -c $$< -o $$@
$(BDIR)/umod/$(1)/%.o: $$(UMOD_DIR_$(1))/%.c $$(CSTACK_MARK) \
                       $(BDIR)/debug-info | $$(BOARD_INCLUDE)
	@mkdir -p $$(dir $$@)
	$$(Q)$$(CC) $$(UMOD_BOARD_BASE) $$(UMOD_CFLAGS_$(1)) -I$$(BOARD_INC) $$(CSTACK_FLAGS) -MMD -MP -c $$< -o $$@
endef
UMOD_HOST_OBJS :=
UMOD_BOARD_OBJS :=
$(foreach m,$(UMODS),$(eval $(call umod_rules,$(m))))

# ---- the generated ROM files of a build directory ----------------------
# romgen's options for this build's user modules: each opener an entry of
# package.preload's ROM table, each MODULE_ROMTAB file's tables.
UMOD_ROMTABS := $(foreach m,$(UMODS),$(UMOD_ROMTAB_$(m)))
ROMGEN_ARGS := $(foreach m,$(UMODS),$(addprefix -p ,$(UMOD_OPENS_$(m)))) \
               $(addprefix -m ,$(UMOD_ROMTABS))

.PHONY: FORCE
FORCE:

# DIR/debug-info holds DEBUG_INFO, rewritten only when it changes.
%/debug-info: FORCE
	$(Q)$(call write_note,$(DEBUG_INFO))

# gen/romgen.args holds the options, rewritten only when they change.
%/gen/romgen.args: FORCE
	$(Q)$(call write_note,$(ROMGEN_ARGS))

# rom_rules DIR: DIR/gen's files, and romstr.o built from them with the
# core's flags (CFLAGS_VAR names them, CC_VAR the compiler; on the boards
# with CSTACK_FLAGS, as every board object).
define rom_rules
$(call rom_generated,$(1)) &: tools/romstr.txt tools/romtab.txt $$(ROMGEN) \
                             $(1)/gen/romgen.args $$(UMOD_ROMTABS)
	@mkdir -p $(1)/gen
	$$(Q)$$(ROMGEN) $$(ROMGEN_ARGS) tools/romstr.txt tools/romtab.txt \
	    $(call rom_generated,$(1)) || { rm -f $(call rom_generated,$(1)); exit 1; }
$(1)/gen/romstr.o: $(1)/gen/romstr.c $(1)/gen/romstr.h $(1)/debug-info $(5) \
                   | $(4)
	$$(Q)$$($(3)) $$($(2)) $(6) -MMD -MP -c $$< -o $$@
endef
$(eval $(call rom_rules,$(HOST_DIR),HOST_CFLAGS,HOST_CC,$$(HOST_INCLUDE)))
$(eval $(call rom_rules,$(BDIR),TARGET_CFLAGS,CC,$$(BOARD_INCLUDE),$$(CSTACK_MARK),$$(CSTACK_FLAGS)))

# ---- host rules --------------------------------------------------------
HOST_CORE_OBJS := $(call host_obj,$(CORE_SRCS) $(PORT_HOST)) $(HOST_DIR)/gen/romstr.o

$(HOST_DIR)/obj/%.o: %.c $(HOST_DIR)/debug-info | $(HOST_INCLUDE)
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(HOST_CFLAGS) -MMD -MP -c $< -o $@

# -rdynamic: C modules loaded from package.cpath (.so) find the API in
# the executable, as they find it in lua5.4.  -no-pie: its ROM strings
# lie where the ELF says, so rtluac can make flash images for it (they
# point at them; docs/images.md).
$(HOST_DIR)/rtlua: $(call host_obj,lib/main.c) $(HOST_CORE_OBJS) $(UMOD_HOST_OBJS)
	$(Q)$(HOST_CC) $^ -o $@ -Wl,-Map=$@.map -rdynamic -no-pie $(HOST_LDFLAGS) -ldl

# rtluac runs its sibling of the other number model (tools/rtluac.c,
# run_sibling): the two directories' names, by the one rule above.
$(call host_obj,tools/rtluac.c): HOST_CFLAGS += \
    -DRTLUAC_DIR_NUM32='"$(notdir $(call build_dir,host,32,64))"' \
    -DRTLUAC_DIR_NUM64='"$(notdir $(call build_dir,host,64,64))"'
# The image compiler (tools/rtluac.c): Lua sources to a flash image for a
# firmware, compiled in this build's number model.
$(HOST_DIR)/rtluac: $(call host_obj,$(IMG_TOOL_SRCS)) $(HOST_CORE_OBJS)
	$(Q)$(HOST_CC) $^ -o $@ $(HOST_LDFLAGS)

# The images' own test (host only: it writes images with the writer).
$(HOST_DIR)/tests/test_image: $(call host_obj,tests/image/test_image.c \
                              tools/imgwrite.c $(CHECK_SRCS)) $(HOST_CORE_OBJS)
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $^ -o $@ $(HOST_LDFLAGS)

# The runtime as a library, for programs that embed it (main.c is the
# CLI's, not part of it).
$(HOST_DIR)/librtlua.a: $(HOST_CORE_OBJS)
	$(Q)rm -f $@ && ar rcs $@ $^

# pkg-config's description of this build directory; `make install`
# writes one for its PREFIX.
# gen_pc PREFIX INCLUDEDIR LIBDIR
define gen_pc
	printf '%s\n' 'prefix=$(1)' 'includedir=$(2)' 'libdir=$(3)' '' \
	    'Name: rtlua' \
	    'Description: rtlua, a Lua 5.4 runtime for Cortex-M (host build, $(HOST_NUM)-bit numbers)' \
	    'Version: 5.4.4' \
	    'Cflags: -I$${includedir}' \
	    'Libs: -L$${libdir} -lrtlua -lm -ldl'
endef
$(HOST_DIR)/rtlua.pc: Makefile
	$(Q)$(call gen_pc,$(CURDIR)/$(HOST_DIR),$${prefix}/include,$${prefix}) > $@

# tests/capi/testmod.c, test_capi's module, is built as a module is, with
# only the public include directory: it cannot use anything internal.
$(HOST_DIR)/obj/tests/capi/testmod.o: tests/capi/testmod.c \
                                      $(HOST_DIR)/debug-info | $(HOST_INCLUDE)
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(UMOD_HOST_FLAGS) $(HOST_EXTRA) -MMD -MP -c $< -o $@
$(HOST_DIR)/tests/test_capi $(HOST_DIR)/tests/test_capi2: \
    $(HOST_DIR)/obj/tests/capi/testmod.o

$(HOST_DIR)/tests/test_%: $(HOST_DIR)/obj/tests/unit/test_%.o \
                          $(call host_obj,$(CHECK_SRCS)) $(HOST_CORE_OBJS)
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $^ -o $@ $(HOST_LDFLAGS)

host: $(HOST_DIR)/rtlua $(HOST_DIR)/rtluac $(HOST_DIR)/tests/test_image \
      $(addprefix $(HOST_DIR)/tests/,$(UNIT_TESTS)) \
      $(HOST_DIR)/librtlua.a $(HOST_DIR)/rtlua.pc $(HOST_INCLUDE)

# make install PREFIX=dir: the host build's rtlua, headers (with its
# rtlua_config.h), librtlua.a and pkg-config file under dir.
PREFIX ?= /usr/local
install: host
	install -d $(PREFIX)/bin $(PREFIX)/include/rtlua $(PREFIX)/lib/pkgconfig
	install -m 755 $(HOST_DIR)/rtlua $(PREFIX)/bin/rtlua
	install -m 644 $(HOST_INCLUDE) $(PREFIX)/include/rtlua
	install -m 644 $(HOST_DIR)/librtlua.a $(PREFIX)/lib
	$(call gen_pc,$(PREFIX),$${prefix}/include/rtlua,$${prefix}/lib) \
	    > $(PREFIX)/lib/pkgconfig/rtlua.pc

# ---- board rules -------------------------------------------------------
BOARD_CORE_OBJS := $(call board_obj,$(CORE_SRCS) $(PORT_CM)) $(BDIR)/gen/romstr.o

# board.mk holds flags (stack size, defines): a change rebuilds the board.
# Each object leaves beside it what tools/cstack.lua reads
# (CSTACK_FLAGS, tools/cstack-flags.mk).
$(BDIR)/obj/%.o: %.c $(BOARD_MKS) $(CSTACK_MARK) $(BDIR)/debug-info \
                 | $(BOARD_INCLUDE)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(TARGET_CFLAGS) $(CSTACK_FLAGS) -MMD -MP -c $< -o $@

# ---- the C stack's reserves ----------------------------------------------
# Each kind of check of the C stack (port/port.h: LUAI_CSTACK_KEEP) needs
# the most stack that anything may use after it until the next check,
# which tools/cstack.lua computes from the firmware's objects (their .ci
# and .tree, CSTACK_FLAGS) and a first link of it (newlib and libgcc, the
# vector table).  The links give those numbers to the runtime as the
# symbols rtlua_cstack_keep_KIND (cstack.flags, a gcc response file); the
# first link has zeros.  Every image of the build (tests, bench) gets the
# firmware's.  cstack.txt says where each number comes from.
CSTACK_KINDS := call parse match dump undump gc error load poll
CSTACK_ZERO := $(foreach k,$(CSTACK_KINDS),-Wl,--defsym=rtlua_cstack_keep_$(k)=0)
# The exception frame the core stacks: 8 words and the alignment word,
# and with a floating-point unit (lazy stacking reserves it) 18 more.
CSTACK_IRQ_FRAME := $(if $(filter -mfloat-abi=hard,$(BOARD_CPU)),108,36)
CSTACK_FILE := $(BDIR)/cstack.flags

define board_link
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(filter %.o,$^) -o $@ $(TARGET_LDFLAGS) -Wl,-Map=$(@:.elf=.map) \
	    -Wl,--defsym=APP_IMAGE_SIZE=$(LINK_APP_IMAGE) @$(CSTACK_FILE) -lm -lc -lgcc
endef

BOARD_LINK_DEPS := $(BOARD_CORE_OBJS) $(BOARD_LD) linker/cortex-m.ld $(CSTACK_FILE)
FIRMWARE_OBJS := $(call board_obj,lib/main.c) $(BOARD_CORE_OBJS) $(UMOD_BOARD_OBJS)

$(BDIR)/rtlua.pre.elf: $(FIRMWARE_OBJS) $(BOARD_LD) linker/cortex-m.ld
	$(Q)$(CC) $(filter %.o,$^) -o $@ $(TARGET_LDFLAGS) $(CSTACK_ZERO) \
	    -Wl,--defsym=APP_IMAGE_SIZE=$(BOARD_APP_IMAGE) -lm -lc -lgcc

$(CSTACK_FILE): $(BDIR)/rtlua.pre.elf tools/cstack.lua
	$(Q)lua5.4 tools/cstack.lua --prefix $(CROSS) --irq-frame $(CSTACK_IRQ_FRAME) \
	    --kinds "$(CSTACK_KINDS)" --report $(BDIR)/cstack.txt \
	    --opaque "$(UMOD_BOARD_OBJS)" \
	    $< $(FIRMWARE_OBJS) > $@.tmp || { rm -f $@.tmp; exit 1; }
	$(Q)sed 's/^/-Wl,--defsym=/' $@.tmp > $@ && rm -f $@.tmp

$(call board_obj,$(BOARD_HOT)): TARGET_CFLAGS += $(BOARD_HOT_OPT)
# The interpreter loop in the 64-bit model: GCC's register allocator with
# one region for the whole function spills less of the loop's state
# (base, k, cl) around the 64-bit operations (bench/run-board, 64-bit:
# fib -11%, calls -6%, oo -4%, the others -1 to -2%; in the 32-bit
# model it gains nothing).
# In the 32-bit model, the loop without GCC's inlining of the small
# functions not declared inline (on at -O2): fewer bytes and fewer
# instructions (mps2-an385, bench/run-board: 1,016 bytes less, a
# geometric mean of 1.090x -> 1.076x stock Lua's instructions; in the
# 64-bit model 1.119x -> 1.121x).
VM_LOOP_OPT := $(if $(filter 64,$(BOARD_NUM)),-fira-region=one,-fno-inline-small-functions)
$(call board_obj,vm/vm.c): TARGET_CFLAGS += $(VM_LOOP_OPT)

# The firmware has the board's image region at the top of its flash
# (docs/images.md); test and benchmark images have none (APP_IMAGE_SIZE
# 0): they may use all of flash.
LINK_APP_IMAGE = 0
$(BDIR)/rtlua.elf: LINK_APP_IMAGE = $(BOARD_APP_IMAGE)
$(BDIR)/rtlua.elf: $(FIRMWARE_OBJS) $(BOARD_LINK_DEPS)
	$(board_link)

$(BDIR)/librtlua.a: $(BOARD_CORE_OBJS)
	$(Q)rm -f $@ && $(CROSS)ar rcs $@ $^

$(BDIR)/tests/platform.elf: $(call board_obj,tests/board/platform.c) \
                            $(BOARD_LINK_DEPS)
	$(board_link)

# The hw library, the raw mode, the line editor and the REPL wait on
# wires, registers and people, not on the interpreter: built for size on
# boards (6 KiB less; lm3s6965evb's 64-bit firmware did not fit below its
# image region at -O2 with them).
$(call board_obj,lib/hwlib.c lib/rawmode.c lib/lineedit.c lib/repl.c $(HW_DRIVERS)): \
    TARGET_CFLAGS += -Os
# So are the os, io, debug, package and utf8 libraries and lua_dump, which
# no loop of a control program or benchmark spends its time in:
# lm3s6965evb's 64-bit unit test images overflowed its 256 KiB at -O2.
$(call board_obj,lib/oslib.c lib/iolib.c lib/dblib.c lib/loadlib.c lib/utf8lib.c lang/dump.c): \
    TARGET_CFLAGS += -Os

# test_capi's own code (not the runtime it tests) is built for size: on
# 256 KiB of flash (lm3s6965evb, 64-bit numbers) the runtime and its
# cases would not fit at -O2, even split in two images (test_capi2).
# (Only there: -Os changes how other cases build their NaNs.)
$(BDIR)/obj/tests/unit/test_capi.o $(BDIR)/obj/tests/unit/test_capi2.o: \
    TARGET_CFLAGS += -Os

$(BDIR)/obj/tests/capi/testmod.o: tests/capi/testmod.c $(BOARD_MKS) \
                                  $(BDIR)/debug-info | $(BOARD_INCLUDE)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(UMOD_BOARD_FLAGS) -Os -MMD -MP -c $< -o $@
$(BDIR)/tests/test_capi.elf $(BDIR)/tests/test_capi2.elf: \
    $(BDIR)/obj/tests/capi/testmod.o

$(BDIR)/tests/test_%.elf: $(BDIR)/obj/tests/unit/test_%.o \
                          $(call board_obj,$(CHECK_SRCS)) $(BOARD_LINK_DEPS)
	$(board_link)

$(BDIR)/bench/%.elf: $(BDIR)/obj/bench/%.o $(BOARD_LINK_DEPS)
	$(board_link)

%.bin: %.elf
	$(Q)$(OBJCOPY) -O binary $< $@

board: $(BDIR)/rtlua.elf $(BDIR)/rtlua.bin $(BDIR)/librtlua.a $(BOARD_INCLUDE)
	$(Q)tools/size $(BDIR)/rtlua.elf > $(BDIR)/rtlua.size
	@cat $(BDIR)/rtlua.size

board-tests: $(BDIR)/rtlua.elf $(BDIR)/tests/platform.elf \
             $(BDIR)/bench/gc_latency.elf \
             $(addprefix $(BDIR)/tests/,$(addsuffix .elf,$(UNIT_TESTS)))

# The image's flash and RAM, and the arena in use after boot with every
# library open, as tests/unit/test_romtab.c measures it on the board.
size: board $(BDIR)/tests/test_romtab.elf
	$(Q)RTLUA_TIMEOUT=60 qemu/run $(BOARD) $(BDIR)/tests/test_romtab.elf | \
	    sed -n 's/^# \(arena in use after boot.*\)/  \1/p'

# ---- applications in flash (docs/images.md) ------------------------------
# make BOARD=x APP=dir: the application folder dir (main.lua and its
# modules) compiled by rtluac into a flash image for build/x/rtlua.elf and
# linked into that firmware's image region: one ELF,
# build/x/app-NAME/rtlua.elf, whose require and main script come from
# flash.  rtluac runs in the board's number model (the host build of that
# model, made here when missing).  make run / make flash with APP= run or
# flash that ELF; make flash-image APP=dir flashes the image alone, into
# the region, without rebuilding the firmware.
APP ?=
RTLUAC := $(call build_dir,host,$(BOARD_NUM),64)/rtluac
.PHONY: host-rtluac flash-image
host-rtluac: $(HOST_DIR)/rtluac

ifneq ($(APP),)
APP_NAME := $(notdir $(abspath $(APP)))
APP_BDIR := $(BDIR)/app-$(APP_NAME)
APP_LUA := $(shell find $(APP) -name '*.lua' 2>/dev/null)
ifeq ($(APP_LUA),)
$(error APP=$(APP): no .lua file there)
endif
APP_ELF := $(APP_BDIR)/rtlua.elf

# (rtluac of the other number model than this make's host build: made by
# a make of that model.)
ifneq ($(RTLUAC),$(HOST_DIR)/rtluac)
$(RTLUAC): FORCE
	$(Q)$(MAKE) -s RTLUA_NUM=$(BOARD_NUM) APP= host-rtluac
endif

$(APP_BDIR)/app.img: $(BDIR)/rtlua.elf $(APP_LUA) $(RTLUAC)
	@mkdir -p $(dir $@)
	$(Q)$(RTLUAC) -f $(BDIR)/rtlua.elf -o $@ $(APP)

$(APP_BDIR)/app.o: $(APP_BDIR)/app.img
	$(Q)$(OBJCOPY) -I binary -O elf32-littlearm -B arm \
	    --rename-section .data=.appimage,alloc,load,readonly,data,contents $< $@

# Linked again with the image in its region; the rest lies where it lay,
# which rtluac -c checks (the image fits this ELF: same layout, same ROM
# strings at the same addresses, same region).
$(APP_ELF): LINK_APP_IMAGE = $(BOARD_APP_IMAGE)
# (app.o last: the ELF takes its ARM attributes from the first object,
# and objcopy's has none.)
$(APP_ELF): $(call board_obj,lib/main.c) $(BOARD_LINK_DEPS) $(UMOD_BOARD_OBJS) \
            $(APP_BDIR)/app.o
	$(board_link)
	$(Q)$(RTLUAC) -f $@ -c $(APP_BDIR)/app.img

board: $(APP_ELF)
endif

# ---- running -----------------------------------------------------------
# The demo: a 1 kHz PID loop making garbage, 2 s of virtual time.
run: setup board
ifneq ($(APP),)
	qemu/run $(BOARD) $(APP_ELF)
else
	qemu/run --image $(BDIR)/rtlua.elf $(BOARD) examples/control_loop.lua
endif

repl: board
	qemu/run $(BOARD) $(BDIR)/rtlua.elf

debug: board
	@echo "QEMU halted, gdb stub on :1234.  In another terminal:"
	@echo "  gdb-multiarch $(BDIR)/rtlua.elf -ex 'target remote :1234'"
	qemu/run --debug $(BOARD) $(BDIR)/rtlua.elf

# A real board (tools/flash, README "An application on a real board"):
# FLASH (default the board's BOARD_FLASH) is how: openocd (a probe,
# BOARD_OPENOCD), dfu (the chip's USB boot loader, dfu-util, BOARD_DFU),
# drive (a USB drive taking a hex file: DRIVE=its mount point) or sdcard
# (an MPS2 board's SD card: SDCARD=its mount point, or the steps
# printed).  DRY=1 shows what would be written and runs no programmer.
FLASH ?= $(BOARD_FLASH)
flash_with = OPENOCD_ARGS="$(BOARD_OPENOCD)" DFU_ID="$(BOARD_DFU)" \
    DRIVE="$(DRIVE)" SDCARD="$(SDCARD)" tools/flash $(if $(DRY),--dry) $(FLASH)
flash: board
	@test -n "$(FLASH)" || \
	    { echo "$(BOARD) has no way to be flashed (board.mk: BOARD_FLASH)"; exit 1; }
	$(Q)$(flash_with) $(or $(APP_ELF),$(BDIR)/rtlua.elf)

# The image alone, into the region of the firmware already on the board.
flash-image: board
	@test -n "$(APP)" || { echo "flash-image needs APP=dir"; exit 1; }
	@test -n "$(FLASH)" || \
	    { echo "$(BOARD) has no way to be flashed (board.mk: BOARD_FLASH)"; exit 1; }
	$(Q)$(flash_with) $(BDIR)/rtlua.elf $(APP_BDIR)/app.img

# One report against the reference lua5.4: speed (host and boards), the
# collector's latency, the control loop, footprint; bench/results/latest.md
# and the plots beside it (bench/report).
bench: setup host
	bench/report

# The compiler, VM and undump fuzz targets (libFuzzer), FUZZ_SECONDS each,
# and the differential fuzzer, DIFFFUZZ_PROGRAMS random programs run by
# rtlua and lua5.4 (tests/difffuzz/run).  FUZZ_CAMPAIGN=RUNS: a long
# campaign of the libFuzzer targets instead, RUNS inputs each, with
# coverage figures (tests/fuzz/run --campaign).
FUZZ_SECONDS ?= 300
# libFuzzer's seed for make fuzz: 0 a random one (make test's smoke run
# uses a fixed one, tests/fuzz/run's default).
FUZZ_SEED ?= 0
DIFFFUZZ_PROGRAMS ?= 1000000
fuzz: setup host
	$(if $(FUZZ_CAMPAIGN),tests/fuzz/run --campaign $(FUZZ_CAMPAIGN),tests/fuzz/run --seconds $(FUZZ_SECONDS) --seed $(FUZZ_SEED))
	tests/difffuzz/run --programs $(DIFFFUZZ_PROGRAMS)

test: setup
	$(Q)tests/run

# The libFuzzer targets tests/fuzz/run runs (make fuzz-targets): each
# tests/fuzz/fuzz_NAME.c with the host's core (CORE_SRCS, PORT_HOST and
# this host build's romstr.c), built by clang with an 8 MiB arena
# (memory errors reachable, each input cheap) into FUZZ_DIR/fuzz_NAME;
# fuzz_image also with the image writer, and without PIE (the ROM strings
# its seeds point at stay where they were).  FUZZ_MODE picks the build:
#   check     build/fuzz: address and undefined-behaviour sanitizers,
#             no recovery (the runs of make test and make fuzz);
#   campaign  build/fuzz-campaign: the fuzzer's instrumentation only, -O2
#             (several times the inputs a second), and none of its
#             tracing of comparisons in vm/ and gc/ but for the text
#             they read (vm/num.c, vm/str.c): FUZZ_NOCMP;
#   cov       build/fuzz-cov: clang's source coverage, to replay a
#             campaign's corpus for llvm-cov.
FUZZ_MODE ?= check
FUZZ_CC ?= clang
FUZZ_TARGETS ?= fuzz_compile fuzz_run fuzz_undump fuzz_image
FUZZ_CFLAGS := -std=c11 -g -I. -Iinclude -I$(HOST_DIR)/gen -I$(HOST_INC) \
               -DRTLUA_HOST=1 -DRTLUA_HOST_ARENA=8388608u -DRTLUA_FUZZ=1
ifeq ($(FUZZ_MODE),check)
FUZZ_DIR := build/fuzz
FUZZ_CFLAGS += -O1 -fsanitize=fuzzer-no-link,address,undefined \
               -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_LDFLAGS := -fsanitize=fuzzer,address,undefined
else ifeq ($(FUZZ_MODE),campaign)
FUZZ_DIR := build/fuzz-campaign
FUZZ_CFLAGS += -O2 -fsanitize=fuzzer-no-link
FUZZ_LDFLAGS := -fsanitize=fuzzer
else ifeq ($(FUZZ_MODE),cov)
FUZZ_DIR := build/fuzz-cov
FUZZ_CFLAGS += -O1 -fprofile-instr-generate -fcoverage-mapping -fsanitize=fuzzer-no-link
FUZZ_LDFLAGS := -fprofile-instr-generate -fsanitize=fuzzer
else
$(error FUZZ_MODE is check, campaign or cov, not '$(FUZZ_MODE)')
endif
FUZZ_OBJS := $(patsubst %.c,$(FUZZ_DIR)/obj/%.o,$(CORE_SRCS) $(PORT_HOST) \
                 $(HOST_DIR)/gen/romstr.c)
# The campaign's interpreter and collector without -fsanitize=fuzzer's
# trace-cmp (their edges are still counted).  libFuzzer's hooks for the
# comparisons there (the VM's on type tags and opcodes at every
# instruction, the collector's and tables' on sizes and offsets) took a
# third of fuzz_run's processor time, and what they tell it, binary
# integers, is no mutation of a Lua source: fuzz_run ran 25% more inputs
# in a processor second.  The lexer, parser, undump, libraries and the
# numeral and string readers keep it (the characters and words they look
# for are what it learns).
ifeq ($(FUZZ_MODE),campaign)
FUZZ_NOCMP := $(filter-out vm/num.c vm/str.c,$(filter vm/% gc/%,$(CORE_SRCS)))
$(patsubst %.c,$(FUZZ_DIR)/obj/%.o,$(FUZZ_NOCMP)): \
    FUZZ_XCFLAGS := -fno-sanitize-coverage=trace-cmp
endif

$(FUZZ_DIR)/obj/%.o: %.c | $(HOST_INCLUDE) $(HOST_ROM)
	@mkdir -p $(dir $@)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_XCFLAGS) -MMD -MP -c $< -o $@

$(FUZZ_DIR)/fuzz_image: $(FUZZ_DIR)/obj/tools/imgwrite.o
$(FUZZ_DIR)/fuzz_image: FUZZ_XLINK := -no-pie
$(FUZZ_DIR)/fuzz_%: $(FUZZ_DIR)/obj/tests/fuzz/fuzz_%.o $(FUZZ_OBJS)
	$(Q)$(FUZZ_CC) $(filter %.o,$^) $(FUZZ_LDFLAGS) $(FUZZ_XLINK) -lm -o $@

.PHONY: fuzz-targets
fuzz-targets: $(addprefix $(FUZZ_DIR)/,$(FUZZ_TARGETS))

# Third-party C modules, unchanged: lua-cjson, lua-lpeg and
# lua-filesystem from Debian's source packages (fetched once into
# build/thirdparty; needs Debian's registry), built as their authors
# build them and run by their own suites against rtlua and lua5.4 on the
# host, lpeg and cjson also linked into $(BOARD)'s firmware
# (tests/thirdparty/run).  Not part of make test: see the README.
thirdparty: setup
	$(Q)tests/thirdparty/run --host --boards "$(BOARD)"

clean:
	rm -rf build

# ---- what scripts ask ------------------------------------------------------
# make -s boards: the boards, one line.  make -s host-dir / board-dir: the
# build directory of these settings.  make -s BOARD=x print-VAR: a
# variable's value (tests/run reads board.mk's BOARD_TEST_LUA this way).
.PHONY: boards host-dir board-dir
boards:
	@echo $(BOARDS)
host-dir:
	@echo $(HOST_DIR)
board-dir:
	@echo $(BDIR)
print-%:
	@printf '%s\n' '$(subst ','\'',$($*))'

# The dependency files of the builds this make names (the host's and the
# board's directories of its settings, and FUZZ_DIR when it builds the
# fuzz targets), not those of every build.
-include $(shell find $(HOST_DIR) $(BDIR) $(if $(filter $(FUZZ_DIR)/% fuzz-targets,\
    $(MAKECMDGOALS)),$(FUZZ_DIR)) -name '*.d' 2>/dev/null)
