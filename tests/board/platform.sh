#!/bin/bash
# tests/board/platform.sh BOARD [BUILD_DIR] — the platform cases on one
# board in QEMU.  Each prints one PASS/FAIL line.
set -u
board=$1
bdir=${2:-build/$board}
elf=$bdir/tests/platform.elf
name=$(basename "$bdir")

# An image that is not there is a failure of every case, never a pass.
for f in "$elf" "$bdir/rtlua.elf"; do
    if [ ! -f "$f" ]; then
        echo "FAIL platform.$name (no $f)"
        exit 1
    fi
done

# The status of a firmware that reported a fault (port/port.h).
fault=$(sed -n 's/^#define PORT_EXIT_FAULT \([0-9][0-9]*\).*/\1/p' port/port.h)
if [ -z "$fault" ]; then
    echo "FAIL platform.$name (no PORT_EXIT_FAULT in port/port.h)"
    exit 1
fi

# case  want-status  regex-the-output-must-match...
check() {
    local c=$1 want=$2 out st re ok=1
    shift 2
    out=$(RTLUA_TIMEOUT=30 qemu/run "$board" "$elf" "$c" 2>&1)
    st=$?
    for re in "$@"; do
        printf '%s\n' "$out" | grep -Eq -- "$re" || ok=0
    done
    if [ "$st" = "$want" ] && [ $ok = 1 ]; then
        echo "PASS platform.$name.$c"
    else
        echo "FAIL platform.$name.$c (status $st, want $want)"
        printf '%s\n' "$out" | sed 's/^/    | /' | head -20
    fi
}

check console 0 "^console: hello from $board -42 42 beef ok$"
check data 0 '^data: .data and .bss initialised$'
check ticks 0 '^ticks: ok$'
check exit3 3 ''
check malloc 0 '^malloc: NULL \(errno ENOMEM\)$'
check fault "$fault" 'pc=0xfffffff0 '
# The MPU (where the core has one, board.h): a runaway stack, a write to a
# ROM string and a null pointer fault, and the report names the address
# and its region.  Without it (microbit) the stack still faults (it leaves
# the RAM), a write to flash faults too (QEMU's nRF51 flash takes no plain
# writes; ARMv6-M records no address), a null pointer reads the vector
# table.
if grep -q '^#define BOARD_HAS_MPU 1' "board/$board/board.h"; then
    check mpu 0 '^mpu: on, [0-9]+ regions$'
    check stack "$fault" 'stack overflow.*|data access at 0x[0-9a-f]{8} in the stack guard'
    check romwrite "$fault" '^romwrite: RAM string written: Xamram$' \
        'data access at 0x[0-9a-f]{8} in flash \(read-only\)'
    check null "$fault" 'data access at 0x0000000c in the null page'
else
    check mpu 0 '^mpu: none$'
    check stack "$fault" 'stack overflow'
    check romwrite "$fault" '^romwrite: RAM string written: Xamram$' \
        '^romwrite: writing to "print"' '^\*\*\* HardFault$'
    check null 0 'null: not caught'
fi

# A firmware that never exits is stopped by qemu/run's timeout: 124.
RTLUA_TIMEOUT=2 qemu/run "$board" "$elf" hang >/dev/null 2>&1
st=$?
if [ $st = 124 ]; then
    echo "PASS platform.$name.timeout"
else
    echo "FAIL platform.$name.timeout (status $st, want 124)"
fi

# The firmware image itself boots and prints its banner.
out=$(RTLUA_TIMEOUT=30 qemu/run "$board" "$bdir/rtlua.elf" 2>&1 </dev/null)
st=$?
if [ $st = 0 ] && printf '%s\n' "$out" | grep -Eq "^rtlua .* on $board \(.* Hz.*arena [0-9]+ bytes"; then
    echo "PASS platform.$name.banner"
else
    echo "FAIL platform.$name.banner (status $st)"
    printf '%s\n' "$out" | sed 's/^/    | /' | head -5
fi

# Nothing in the firmware image reaches newlib's allocator.
# nm must read the image (a symbol list it could not make proves nothing),
# and the image must have symbols at all (main is always there).
syms=$(arm-none-eabi-nm "$bdir/rtlua.elf" 2>&1)
if [ $? != 0 ] || ! printf '%s\n' "$syms" | grep -Eq ' T main$'; then
    echo "FAIL platform.$name.no_malloc (cannot read the symbols of $bdir/rtlua.elf)"
elif printf '%s\n' "$syms" | grep -Eq ' T (malloc|_malloc_r|calloc|realloc|_sbrk_r)$'; then
    echo "FAIL platform.$name.no_malloc (newlib's allocator is linked in)"
else
    echo "PASS platform.$name.no_malloc"
fi
