#!/bin/bash
# dracut module 90modalias (installed as modules.d/90modalias/module-setup.sh):
# the hotplug agent, libkmod (dlopen()ed: named by the agent's .note.dlopen
# note, so copied here by hand) and the hook that starts it.
check() {
	require_binaries /usr/local/sbin/hotplug || return 1
	return 255
}

depends() {
	return 0
}

install() {
	local soname lib
	inst_binary /usr/local/sbin/hotplug /sbin/hotplug
	for soname in $(readelf -p .note.dlopen /usr/local/sbin/hotplug 2>/dev/null | grep -o '"soname":\[[^]]*\]' |
		grep -o '"[^"]*\.so[^"]*"' | tr -d '"'); do
		lib=$(ldconfig -p 2>/dev/null | awk -v s="$soname" '$1 == s { print $NF; exit }')
		if [[ -z $lib ]] || ! inst_library "$lib"; then
			derror "modalias: $soname not found: the agent could not load modules"
			return 1
		fi
	done
	[[ -f /etc/modalias.conf ]] && inst_simple /etc/modalias.conf
	inst_hook pre-trigger 50 "$moddir/modalias-start.sh"
}
