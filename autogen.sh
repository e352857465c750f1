#!/bin/sh
# Regenerate the build system. Set NOCONFIGURE=1 to stop before ./configure.
set -e
srcdir=$(dirname "$0")
test -n "$srcdir" || srcdir=.
cd "$srcdir"
autoreconf --force --install --symlink
if test -z "$NOCONFIGURE"; then
	exec ./configure "$@"
fi
