# shellcheck shell=bash
# Sourced by the scripts that fetch Debian packages of another release than
# the host's (regenerate-debian.sh, fetch-sid-kmod.sh, tests/qemu/lib.sh); nothing is
# installed.
#
# apt_suite DIR SUITE...  writes DIR/sources.list for SUITE's main component
#   (a SUITE ending in -security from the security archive), in the archive
#   this host's apt already uses (its URIs, from `apt-get indextargets`),
#   updates DIR/lists, and sets APT_OPTS, the options that make apt-get and
#   apt-cache use them: `apt-get "${APT_OPTS[@]}" download PKG`.
# apt_download DIR PKG...  downloads the packages into DIR (made readable to
#   apt's sandbox user), as APT_OPTS say.
apt_suite() {
	local dir=$1 s uri archive security targets
	shift
	# shellcheck disable=SC2016 # apt's own $(FIELD) syntax
	targets=$(apt-get indextargets --format '$(REPO_URI) $(RELEASE)')
	archive=$(awk '$2 !~ /-/ && !u { u = $1 } END { print u }' <<< "$targets")
	security=$(awk '$2 ~ /-security$/ && !u { u = $1 } END { print u }' <<< "$targets")
	if [ -z "$archive" ]; then
		echo "apt_suite: this host's apt sources name no Debian archive (apt-get indextargets); add one to /etc/apt/sources.list.d" >&2
		return 1
	fi
	mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
	chmod 755 "$dir" "$dir/lists" "$dir/cache"
	: > "$dir/sources.list"
	for s in "$@"; do
		uri=$archive
		case $s in *-security) uri=${security:-${archive%/debian/}/debian-security/} ;; esac
		echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri $s main" >> "$dir/sources.list"
	done
	APT_OPTS=(-o "Dir::Etc::sourcelist=$dir/sources.list" -o Dir::Etc::sourceparts=-
		-o "Dir::State::Lists=$dir/lists" -o "Dir::Cache=$dir/cache" -o APT::Get::List-Cleanup=0)
	if ! apt-get "${APT_OPTS[@]}" update > "$dir/update.log" 2>&1; then
		sed 's/^/apt: /' "$dir/update.log" >&2
		echo "apt_suite: apt-get update for $* failed (see above)" >&2
		return 1
	fi
}

apt_download() {
	local dir=$1
	shift
	mkdir -p "$dir"
	chmod 777 "$dir"   # apt-get download runs as user _apt
	(cd "$dir" && apt-get "${APT_OPTS[@]}" download "$@" > /dev/null)
}

# kernel_parts IMAGE_DEB KVER PART...  the packages linux-PART-KVER that the
#   image package IMAGE_DEB depends on, one a line: since 7.x Debian's
#   linux-image-KVER is small and depends on linux-modules-KVER (the .ko.xz
#   modules), linux-base-KVER (modules.builtin, modules.builtin.modinfo,
#   modules.order) and linux-binary-KVER (vmlinuz); nothing for an image that
#   holds them itself (up to 6.x).
kernel_parts() {
	local deb=$1 kver=$2 part deps
	shift 2
	deps=$(dpkg-deb -f "$deb" Depends | sed 's/[,|]/\n/g' | awk '{ print $1 }')
	for part in "$@"; do
		if grep -qxF "linux-$part-$kver" <<< "$deps"; then echo "linux-$part-$kver"; fi
	done
}

# kernel_tree ROOT DEB...  the packages unpacked into ROOT (dpkg-deb -x),
#   with the modules below /lib/modules (Debian 12) or /usr/lib/modules (13
#   on) reachable by both paths: a lib -> usr/lib link serves depmod 30
#   (/lib/modules) and 34 (/usr/lib/modules), and the other way round.
kernel_tree() {
	local root=$1 deb
	shift
	for deb in "$@"; do
		dpkg-deb -x "$deb" "$root" || return 1
	done
	if [ -d "$root/usr/lib/modules" ] && [ ! -e "$root/lib" ]; then
		ln -s usr/lib "$root/lib"
	fi
	if [ -d "$root/lib/modules" ] && [ ! -e "$root/usr/lib/modules" ]; then
		mkdir -p "$root/usr/lib"
		ln -s ../../lib/modules "$root/usr/lib/modules"
	fi
}
