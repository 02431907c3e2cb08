# rtlua — build for the host and for each Cortex-M board.
#
#   make [BOARD=x]   firmware build/x/rtlua.elf (+ .bin, .map, size report)
#   make host        build/host/rtlua and the host unit tests
#   make test        every test (host, torture, all boards); last line
#                    "N passed, N failed"
#   make run         boot the default board in QEMU
#   make bench       the benchmark report against lua5.4, in bench/results
#   make fuzz        the libFuzzer targets, FUZZ_SECONDS each
#   make repl|debug|size|flash|clean
#
# RTLUA_NUM=32|64 picks the number model; the default is 32 on boards and
# 64 on the host.  Each model builds into its own directory.
# USER_C_MODULES=dir links the C modules described in dir/*/module.mk
# into the host CLI and the firmware (see "user C modules" below);
# HOST_VARIANT / BOARD_VARIANT=name build into build/host-name or
# build/<board>-name instead.  make install PREFIX=dir installs the host
# build (rtlua, include/rtlua/, librtlua.a, lib/pkgconfig/rtlua.pc).

BOARD ?= mps2-an385
BOARDS := $(sort $(filter-out template drivers,$(notdir $(wildcard board/*))))
ifeq ($(filter $(BOARD),$(BOARDS)),)
$(error unknown board '$(BOARD)'; the boards are: $(BOARDS))
endif
include board/$(BOARD)/board.mk

V ?= 0
Q := $(if $(filter 1,$(V)),,@)

WARN := -Wall -Wextra -Wshadow -Wundef -Wmissing-prototypes \
        -Wstrict-prototypes -Werror
COMMON := -std=c11 -g -ffunction-sections -fdata-sections -I. -Iinclude

# ---- host --------------------------------------------------------------
HOST_NUM := $(or $(RTLUA_NUM),64)
HOST_DIR := build/host$(if $(filter 32,$(HOST_NUM)),-num32)$(if $(HOST_VARIANT),-$(HOST_VARIANT))
HOST_CC ?= gcc
HOST_OPT ?= -O2
HOST_INC := $(HOST_DIR)/include
HOST_CFLAGS := $(COMMON) -I$(HOST_INC) $(HOST_OPT) $(WARN) -DRTLUA_HOST=1 \
               $(HOST_EXTRA)
HOST_LDFLAGS := -Wl,--gc-sections -lm $(HOST_EXTRA)

# ---- board -------------------------------------------------------------
CROSS := arm-none-eabi-
CC := $(CROSS)gcc
OBJCOPY := $(CROSS)objcopy
SIZE := $(CROSS)size
BOARD_NUM := $(or $(RTLUA_NUM),32)
BDIR := build/$(BOARD)$(if $(filter 64,$(BOARD_NUM)),-num64)$(if $(BOARD_VARIANT),-$(BOARD_VARIANT))
# Flash is bytes and instructions are time: the firmware is built for
# size (BOARD_OPT), but for the files where a program's time goes
# (BOARD_HOT: the interpreter, calls, tables, strings, the allocator and
# the collector; bench/profile shows them), which are built for speed
# (BOARD_HOT_OPT, after BOARD_OPT on their command line).  A board short
# of flash sets BOARD_HOT_OPT to its BOARD_OPT.
BOARD_OPT ?= -Os
BOARD_HOT_OPT ?= -O2
BOARD_HOT ?= vm/vm.c vm/do.c vm/tab.c vm/tabgrow.c vm/tm.c vm/api.c \
             vm/str.c vm/func.c gc/arena.c gc/gc.c lib/lauxlib.c \
             lib/strlib.c lib/strpat.c
BOARD_INC := $(BDIR)/include
# -fbuiltin after -ffreestanding: the compiler may still expand memcpy,
# memset and the like of a few bytes inline (freestanding alone makes
# every one a call); newlib provides them, with their standard meaning.
TARGET_CFLAGS := $(COMMON) -I$(BOARD_INC) $(BOARD_OPT) $(WARN) $(BOARD_CPU) \
                 -Iboard/$(BOARD) -ffreestanding -fbuiltin \
                 -fno-common -DBOARD_STACK_BYTES=$(BOARD_STACK) $(BOARD_TEST_DEFS) \
                 $(BOARD_EXTRA)
TARGET_LDFLAGS := $(BOARD_CPU) -nostartfiles -Wl,--gc-sections -Llinker \
                  -T$(BOARD_LD) -Wl,--defsym=STACK_SIZE=$(BOARD_STACK) \
                  -Wl,--defsym=STACK_GUARD=$(BOARD_GUARD) \
                  -Wl,--no-warn-rwx-segments

# ---- sources -----------------------------------------------------------
CORE_SRCS := $(sort $(wildcard gc/*.c vm/*.c lang/*.c lib/*.c))
CORE_SRCS := $(filter-out lib/main.c,$(CORE_SRCS))
PORT_HOST := port/fmt.c $(wildcard port/host/*.c)
PORT_CM := port/fmt.c $(wildcard port/cortex-m/*.c) $(wildcard board/$(BOARD)/*.c)
CHECK_SRCS := tests/unit/check.c
UNIT_TESTS := $(basename $(notdir $(wildcard tests/unit/test_*.c)))

host_obj = $(patsubst %.c,$(HOST_DIR)/obj/%.o,$(1))
board_obj = $(patsubst %.c,$(BDIR)/obj/%.o,$(1))

# ---- ROM strings and tables (tools/romgen) -------------------------------
# tools/romgen, a host program, turns tools/romstr.txt into const string
# objects for flash (build/gen/romstr.c, part of the core on the host and
# on every board) and their C names (build/gen/romstr.h, included as
# "build/gen/romstr.h" through -I.), and tools/romtab.txt into the ROM
# library tables: build/gen/romtab.h (their names) and build/gen/romtab.inc
# (their contents, one block a library source includes).  The hashes and
# layouts it computes come from vm/strhash.h, the code the target runs.
# One copy serves every build: the generated files do not depend on the
# board or the number model (entries that do are conditional in the C).
ROMGEN := build/tools/romgen
ROMSTR_C := build/gen/romstr.c
ROMSTR_H := build/gen/romstr.h
ROMTAB_H := build/gen/romtab.h
ROMTAB_INC := build/gen/romtab.inc
ROM_GENERATED := $(ROMSTR_C) $(ROMSTR_H) $(ROMTAB_H) $(ROMTAB_INC)
CORE_SRCS += $(ROMSTR_C)

# (vm/obj.h wants a configuration: the host's, whose number model the
# generated files do not depend on.)
$(ROMGEN): tools/romgen.c tools/romtab.c tools/romgen.h vm/strhash.h vm/obj.h \
           $(HOST_INC)/rtlua_config.h
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) -std=c11 -O2 $(WARN) -I. -I$(HOST_INC) tools/romgen.c \
	    tools/romtab.c -o $@

$(ROM_GENERATED) &: tools/romstr.txt tools/romtab.txt $(ROMGEN)
	@mkdir -p $(dir $@)
	$(Q)$(ROMGEN) tools/romstr.txt tools/romtab.txt $(ROM_GENERATED) || \
	    { rm -f $(ROM_GENERATED); exit 1; }

# Any object may include the generated files: they are made first.
ROMSTR_USERS := $(CORE_SRCS) $(PORT_HOST) $(PORT_CM) $(CHECK_SRCS) \
                lib/main.c tests/board/platform.c \
                $(wildcard tests/unit/test_*.c)
$(call host_obj,$(ROMSTR_USERS)) $(call board_obj,$(ROMSTR_USERS)): \
    | $(ROM_GENERATED)
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
# regenerating rebuilds nothing.
write_if_changed = cmp -s $(1) $(2) && rm -f $(1) || mv -f $(1) $(2)

$(HOST_INC)/rtlua_config.h: Makefile
	@mkdir -p $(dir $@)
	$(Q){ $(call gen_config,$(HOST_CC),-std=c11,$(HOST_NUM),1000000,1024,$(notdir $(HOST_DIR))); } > $@.tmp
	$(Q)$(call write_if_changed,$@.tmp,$@)

$(BOARD_INC)/rtlua_config.h: Makefile board/$(BOARD)/board.mk
	@mkdir -p $(dir $@)
	$(Q){ $(call gen_config,$(CC),-std=c11 $(BOARD_CPU),$(BOARD_NUM),20000,128,$(notdir $(BDIR))); } > $@.tmp
	$(Q)$(call write_if_changed,$@.tmp,$@)

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

.PHONY: all host board run test repl debug size flash clean setup bench-gc bench fuzz \
        host-tests board-tests install
.DEFAULT_GOAL := all
# Objects are never intermediates to delete.
.SECONDARY:

all: board

setup:
	$(Q)tools/setup

# ---- user C modules ----------------------------------------------------
# make USER_C_MODULES="dir...": every dir/*/module.mk (or dir/module.mk) is a
# C module, built for the target as a third-party module is built (the
# target's compiler and CPU flags, -I build/<target>/include, no -D and
# nothing internal) and linked into the host CLI and the firmware, whose
# luaL_openlibs offers it to require (rtlua_preload) through the
# generated umod/preload.c.  A module.mk sets
#   MODULE        the name require takes (a.b opens with luaopen_a_b)
#   MODULE_SRCS   its C files, relative to the module.mk's directory
#   MODULE_OPEN   optional: the opener, when not luaopen_<MODULE>
#   MODULE_CFLAGS optional: its own flags, before the build's (so its
#                 own include paths are searched first)
# The list of modules is part of the build: preload.c is rewritten when
# it changes, and only then.
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
include $(1)
ifeq ($$(MODULE),)
$$(error $(1) sets no MODULE)
endif
UMODS += $$(MODULE)
UMOD_DIR_$$(MODULE) := $(patsubst %/,%,$(dir $(1)))
UMOD_SRCS_$$(MODULE) := $$(MODULE_SRCS)
UMOD_OPEN_$$(MODULE) := $$(or $$(MODULE_OPEN),luaopen_$$(subst .,_,$$(MODULE)))
UMOD_CFLAGS_$$(MODULE) := $$(MODULE_CFLAGS)
endef
$(foreach m,$(UMOD_MKS),$(eval $(call umod_load,$(m))))

# The flags a module author's own build would use, and no others.
UMOD_WARN := -Wall -Wextra -Werror
UMOD_HOST_FLAGS = -O2 -g -fPIC $(UMOD_WARN) -I$(HOST_INC)
UMOD_BOARD_FLAGS = $(BOARD_OPT) -g -ffunction-sections -fdata-sections \
                   $(BOARD_CPU) $(UMOD_WARN) -I$(BOARD_INC)

define umod_rules
UMOD_HOST_OBJS += $$(patsubst %.c,$(HOST_DIR)/umod/$(1)/%.o,$$(UMOD_SRCS_$(1)))
UMOD_BOARD_OBJS += $$(patsubst %.c,$(BDIR)/umod/$(1)/%.o,$$(UMOD_SRCS_$(1)))
$(HOST_DIR)/umod/$(1)/%.o: $$(UMOD_DIR_$(1))/%.c | $$(HOST_INCLUDE)
	@mkdir -p $$(dir $$@)
	$$(Q)$$(HOST_CC) $$(UMOD_CFLAGS_$(1)) $$(UMOD_HOST_FLAGS) -MMD -MP -c $$< -o $$@
$(BDIR)/umod/$(1)/%.o: $$(UMOD_DIR_$(1))/%.c | $$(BOARD_INCLUDE)
	@mkdir -p $$(dir $$@)
	$$(Q)$$(CC) $$(UMOD_CFLAGS_$(1)) $$(UMOD_BOARD_FLAGS) -MMD -MP -c $$< -o $$@
endef
UMOD_HOST_OBJS :=
UMOD_BOARD_OBJS :=
$(foreach m,$(UMODS),$(eval $(call umod_rules,$(m))))

# preload.c: the openers, offered to require by luaL_openlibs.
define umod_preload
	{ printf '%s\n' '/* Generated by the Makefile: the USER_C_MODULES. */' \
	    '#include "lua.h"' '#include "rtlua.h"'; \
	  for m in $(foreach m,$(UMODS),$(m):$(UMOD_OPEN_$(m))); do \
	    printf 'int %s(lua_State *L);\n' "$${m#*:}"; done; \
	  printf '%s\n' 'void rtlua_openusermods(lua_State *L)' '{' '    (void)L;'; \
	  for m in $(foreach m,$(UMODS),$(m):$(UMOD_OPEN_$(m))); do \
	    printf '    rtlua_preload(L, "%s", %s);\n' "$${m%%:*}" "$${m#*:}"; done; \
	  printf '%s\n' '}'; } > $(1).tmp
	$(Q)$(call write_if_changed,$(1).tmp,$(1))
endef

.PHONY: FORCE
FORCE:

$(HOST_DIR)/umod/preload.c: FORCE
	@mkdir -p $(dir $@)
	$(Q)$(call umod_preload,$@)

$(BDIR)/umod/preload.c: FORCE
	@mkdir -p $(dir $@)
	$(Q)$(call umod_preload,$@)

$(HOST_DIR)/umod/preload.o: $(HOST_DIR)/umod/preload.c | $(HOST_INCLUDE)
	$(Q)$(HOST_CC) $(UMOD_HOST_FLAGS) -c $< -o $@

$(BDIR)/umod/preload.o: $(BDIR)/umod/preload.c | $(BOARD_INCLUDE)
	$(Q)$(CC) $(UMOD_BOARD_FLAGS) -c $< -o $@

UMOD_HOST_OBJS += $(HOST_DIR)/umod/preload.o
UMOD_BOARD_OBJS += $(BDIR)/umod/preload.o

# ---- host rules --------------------------------------------------------
HOST_CORE_OBJS := $(call host_obj,$(CORE_SRCS) $(PORT_HOST))

$(HOST_DIR)/obj/%.o: %.c | $(HOST_INCLUDE)
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(HOST_CFLAGS) -MMD -MP -c $< -o $@

# -rdynamic: C modules loaded from package.cpath (.so) find the API in
# the executable, as they find it in lua5.4.
$(HOST_DIR)/rtlua: $(call host_obj,lib/main.c) $(HOST_CORE_OBJS) $(UMOD_HOST_OBJS)
	$(Q)$(HOST_CC) $^ -o $@ -Wl,-Map=$@.map -rdynamic $(HOST_LDFLAGS) -ldl

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
$(HOST_DIR)/obj/tests/capi/testmod.o: tests/capi/testmod.c | $(HOST_INCLUDE)
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(UMOD_HOST_FLAGS) $(HOST_EXTRA) -MMD -MP -c $< -o $@
$(HOST_DIR)/tests/test_capi $(HOST_DIR)/tests/test_capi2: \
    $(HOST_DIR)/obj/tests/capi/testmod.o

$(HOST_DIR)/tests/test_%: $(HOST_DIR)/obj/tests/unit/test_%.o \
                          $(call host_obj,$(CHECK_SRCS)) $(HOST_CORE_OBJS)
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $^ -o $@ $(HOST_LDFLAGS)

host: $(HOST_DIR)/rtlua $(addprefix $(HOST_DIR)/tests/,$(UNIT_TESTS)) \
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
host-tests: host

# ---- board rules -------------------------------------------------------
BOARD_CORE_OBJS := $(call board_obj,$(CORE_SRCS) $(PORT_CM))

# board.mk holds flags (stack size, defines): a change rebuilds the board.
$(BDIR)/obj/%.o: %.c board/$(BOARD)/board.mk | $(BOARD_INCLUDE)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(TARGET_CFLAGS) -MMD -MP -c $< -o $@

define board_link
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(filter %.o,$^) -o $@ $(TARGET_LDFLAGS) -Wl,-Map=$(@:.elf=.map) \
	    -lm -lc -lgcc
endef

BOARD_LINK_DEPS := $(BOARD_CORE_OBJS) $(BOARD_LD) linker/cortex-m.ld

$(call board_obj,$(BOARD_HOT)): TARGET_CFLAGS += $(BOARD_HOT_OPT)

$(BDIR)/rtlua.elf: $(call board_obj,lib/main.c) $(BOARD_LINK_DEPS) $(UMOD_BOARD_OBJS)
	$(board_link)

$(BDIR)/librtlua.a: $(BOARD_CORE_OBJS)
	$(Q)rm -f $@ && $(CROSS)ar rcs $@ $^

$(BDIR)/tests/platform.elf: $(call board_obj,tests/board/platform.c) \
                            $(BOARD_LINK_DEPS)
	$(board_link)

# test_capi's own code (not the runtime it tests) is built for size: on
# 256 KiB of flash (lm3s6965evb, 64-bit numbers) the runtime and its
# cases would not fit at -O2, even split in two images (test_capi2).
# (Only there: -Os changes how other cases build their NaNs.)
$(BDIR)/obj/tests/unit/test_capi.o $(BDIR)/obj/tests/unit/test_capi2.o: \
    TARGET_CFLAGS += -Os

$(BDIR)/obj/tests/capi/testmod.o: tests/capi/testmod.c board/$(BOARD)/board.mk \
                                  | $(BOARD_INCLUDE)
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

# ---- running -----------------------------------------------------------
# The demo: a 1 kHz PID loop making garbage, 2 s of virtual time.
run: setup board
	qemu/run --image $(BDIR)/rtlua.elf $(BOARD) examples/control_loop.lua

repl: board
	qemu/run $(BOARD) $(BDIR)/rtlua.elf

debug: board
	@echo "QEMU halted, gdb stub on :1234.  In another terminal:"
	@echo "  gdb-multiarch $(BDIR)/rtlua.elf -ex 'target remote :1234'"
	qemu/run --debug $(BOARD) $(BDIR)/rtlua.elf

flash: board
	@test -n "$(BOARD_OPENOCD)" || \
	    { echo "$(BOARD) has no openocd configuration"; exit 1; }
	openocd $(BOARD_OPENOCD) -c "program $(BDIR)/rtlua.elf verify reset exit"

# The collector's latency on the board (deterministic virtual time).
bench-gc: $(BDIR)/bench/gc_latency.elf
	@mkdir -p bench/results
	RTLUA_TIMEOUT=900 qemu/run $(BOARD) $< | grep -v '^@' | tee bench/results/gc_latency-$(BOARD).md

# One report against the reference lua5.4: speed (host and boards), the
# collector's latency, the control loop, footprint; bench/results/latest.md
# and the plots beside it (bench/report).
bench: setup host
	bench/report

# The compiler and VM fuzz targets (libFuzzer); FUZZ_SECONDS each.
FUZZ_SECONDS ?= 300
fuzz: setup host
	tests/fuzz/run --seconds $(FUZZ_SECONDS)

test: setup
	$(Q)tests/run

clean:
	rm -rf build

-include $(shell find build -name '*.d' 2>/dev/null)
