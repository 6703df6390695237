#!/bin/sh
# cross/run-qemu.sh QEMU MACHINE IMAGE - run a bare-metal image under
# qemu-system-arm with semihosting (its stdout is the program's output) and
# pass only if it exits 0 and printed 'baremetal: OK'. A hung image is killed
# after 30 s.
set -u
qemu=$1 machine=$2 image=$3
out=$(timeout 30 "$qemu" -M "$machine" -display none -monitor none -serial null \
    -semihosting-config enable=on,target=native -kernel "$image" 2>&1)
rc=$?
printf '%s\n' "$out"
echo "qemu $machine exit status: $rc"
[ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q '^baremetal: OK$'
