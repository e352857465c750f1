#!/bin/sh
# make check's entry for the real-kernel end-to-end test of the hotplug agent
# (tests/qemu/e2e.sh: Debian's 6.1 kernel under qemu-system-x86_64 -accel tcg).
# TAP on stdout.  e2e.sh exits 77 (plan "1..0 # SKIP ...") when qemu cannot
# run at all; automake's TAP driver counts that plan as a skip but would call
# the exit status an error, so it becomes 0 here.  SUITE and KVER pass
# through to e2e.sh (make check-qemu-kernels: SUITE=sid, sid's newest 7.x).
if [ -n "${MODALIAS_QEMU_SKIP:-}" ]; then
	echo "1..0 # SKIP $MODALIAS_QEMU_SKIP"
	exit 0
fi
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${G_TEST_BUILDDIR:-$here}/.." && pwd)
: "${HOTPLUG_BIN:=$build/cli/hotplug}"
: "${LIBMODALIAS_SO:=$build/libmodalias/.libs/libmodalias.so}"
# the kernel package is kept between runs (make clean keeps it, distclean not)
: "${MODALIAS_QEMU_CACHE:=$build/tests/qemu/.cache}"
export HOTPLUG_BIN LIBMODALIAS_SO MODALIAS_QEMU_CACHE
bash "$here/qemu/e2e.sh"
status=$?
[ $status = 77 ] && exit 0
exit $status
