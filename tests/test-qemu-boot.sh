#!/bin/sh
# make check's entry for the quick boot test (tests/qemu/boot-bench.sh
# --quick: Debian's 6.1 kernel under qemu -smp 4 with a smaller device set,
# booted once with the agent as daemon + coldplug and once one-shot; each
# must load every driver modprobe -R names for the guest's devices).  The
# timed comparison with systemd-udevd is make bench-boot's.  TAP on stdout;
# skipped, as e2e is, where qemu cannot run.
if [ -n "${MODALIAS_QEMU_SKIP:-}" ]; then
	echo "1..0 # SKIP $MODALIAS_QEMU_SKIP"
	exit 0
fi
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${G_TEST_BUILDDIR:-$here}/.." && pwd)
: "${HOTPLUG_BIN:=$build/cli/hotplug}"
: "${LIBMODALIAS_SO:=$build/libmodalias/.libs/libmodalias.so}"
: "${MODALIAS_QEMU_CACHE:=$build/tests/qemu/.cache}"
export HOTPLUG_BIN LIBMODALIAS_SO MODALIAS_QEMU_CACHE
bash "$here/qemu/boot-bench.sh" --quick
status=$?
[ $status = 77 ] && exit 0
exit $status
