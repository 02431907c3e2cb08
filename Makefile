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
HOST_CFLAGS := $(COMMON) $(HOST_OPT) $(WARN) -DRTLUA_HOST=1 \
               -DRTLUA_NUM=$(HOST_NUM) $(HOST_EXTRA)
HOST_LDFLAGS := -Wl,--gc-sections -lm $(HOST_EXTRA)

# ---- board -------------------------------------------------------------
CROSS := arm-none-eabi-
CC := $(CROSS)gcc
OBJCOPY := $(CROSS)objcopy
SIZE := $(CROSS)size
BOARD_NUM := $(or $(RTLUA_NUM),32)
BDIR := build/$(BOARD)$(if $(filter 64,$(BOARD_NUM)),-num64)
BOARD_OPT ?= -O2
TARGET_CFLAGS := $(COMMON) $(BOARD_OPT) $(WARN) $(BOARD_CPU) \
                 -Iboard/$(BOARD) -DRTLUA_NUM=$(BOARD_NUM) -ffreestanding \
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

$(ROMGEN): tools/romgen.c tools/romtab.c tools/romgen.h vm/strhash.h vm/obj.h
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) -std=c11 -O2 $(WARN) -I. tools/romgen.c tools/romtab.c -o $@

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

.PHONY: all host board run test repl debug size flash clean setup bench-gc bench fuzz \
        host-tests board-tests
.DEFAULT_GOAL := all
# Objects are never intermediates to delete.
.SECONDARY:

all: board

setup:
	$(Q)tools/setup

# ---- host rules --------------------------------------------------------
HOST_CORE_OBJS := $(call host_obj,$(CORE_SRCS) $(PORT_HOST))

$(HOST_DIR)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(HOST_CFLAGS) -MMD -MP -c $< -o $@

$(HOST_DIR)/rtlua: $(call host_obj,lib/main.c) $(HOST_CORE_OBJS)
	$(Q)$(HOST_CC) $^ -o $@ -Wl,-Map=$@.map $(HOST_LDFLAGS)

$(HOST_DIR)/tests/test_%: $(HOST_DIR)/obj/tests/unit/test_%.o \
                          $(call host_obj,$(CHECK_SRCS)) $(HOST_CORE_OBJS)
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $^ -o $@ $(HOST_LDFLAGS)

host: $(HOST_DIR)/rtlua $(addprefix $(HOST_DIR)/tests/,$(UNIT_TESTS))
host-tests: host

# ---- board rules -------------------------------------------------------
BOARD_CORE_OBJS := $(call board_obj,$(CORE_SRCS) $(PORT_CM))

# board.mk holds flags (stack size, defines): a change rebuilds the board.
$(BDIR)/obj/%.o: %.c board/$(BOARD)/board.mk
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(TARGET_CFLAGS) -MMD -MP -c $< -o $@

define board_link
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(filter %.o,$^) -o $@ $(TARGET_LDFLAGS) -Wl,-Map=$(@:.elf=.map) \
	    -lm -lc -lgcc
endef

BOARD_LINK_DEPS := $(BOARD_CORE_OBJS) $(BOARD_LD) linker/cortex-m.ld

$(BDIR)/rtlua.elf: $(call board_obj,lib/main.c) $(BOARD_LINK_DEPS)
	$(board_link)

$(BDIR)/tests/platform.elf: $(call board_obj,tests/board/platform.c) \
                            $(BOARD_LINK_DEPS)
	$(board_link)

# test_capi's own code (not the runtime it tests) is built for size: on
# 256 KiB of flash (lm3s6965evb, 64-bit numbers) the runtime and its
# cases would not fit at -O2, even split in two images (test_capi2).
# (Only there: -Os changes how other cases build their NaNs.)
$(BDIR)/obj/tests/unit/test_capi.o $(BDIR)/obj/tests/unit/test_capi2.o: \
    TARGET_CFLAGS += -Os

$(BDIR)/tests/test_%.elf: $(BDIR)/obj/tests/unit/test_%.o \
                          $(call board_obj,$(CHECK_SRCS)) $(BOARD_LINK_DEPS)
	$(board_link)

$(BDIR)/bench/%.elf: $(BDIR)/obj/bench/%.o $(BOARD_LINK_DEPS)
	$(board_link)

%.bin: %.elf
	$(Q)$(OBJCOPY) -O binary $< $@

board: $(BDIR)/rtlua.elf $(BDIR)/rtlua.bin
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
