#!/bin/bash
# tests/board/template.sh — board/template/ fails loudly until it is
# filled in (docs/porting.md): a half-copied template must not build an
# image.  Two PASS/FAIL lines, both on the host (no QEMU):
#   board.template.mk  make BOARD=template stops, naming a variable its
#                      board.mk does not set;
#   board.template.h   with every variable set (as if board.mk were filled
#                      in), compiling the board's hw.c stops at board.h's
#                      #error.
set -u -o pipefail
cd "$(dirname "$0")/../.." || exit 2
dir=build/template-check
rm -rf "$dir"

# result NAME STATUS OUTPUT REGEX: PASS when make failed and said REGEX.
result() {
    if [ "$2" != 0 ] && grep -Eq -- "$4" <<<"$3"; then
        echo "PASS board.template.$1"
    else
        echo "FAIL board.template.$1 (status $2)"
        tail -5 <<<"$3" | sed 's/^/    | /'
    fi
}

out=$(make -s BOARD=template 2>&1)
result mk $? "$out" 'board/template/board\.mk sets no BOARD_[A-Z_]+'

out=$(make -s BOARD=template BOARD_VARIANT=check \
    BOARD_CPU="-mcpu=cortex-m3 -mthumb -mfloat-abi=soft" BOARD_LD=linker/mps2.ld \
    BOARD_UART=cmsdk BOARD_STACK=8192 BOARD_GUARD=256 BOARD_NULL_GUARD=256 \
    BOARD_APP_IMAGE=0x10000 BOARD_TEST_LUA=smoke BOARD_TEST_TAG=tiny \
    "$dir/obj/board/template/hw.o" 2>&1)
result h $? "$out" "#error .*the template's facts are not filled in"
rm -rf "$dir"
