#!/bin/sh
# The hotplug agent as the initramfs's device manager, for the boot scripts
# of both initramfs-tools (init-top/modalias, init-bottom/modalias) and
# dracut (90modalias's pre-trigger and cleanup hooks), which copy it into
# the initramfs as /sbin/modalias-agent:
#   start  the daemon (coldplug to a fixed point), its pid kept, then the
#          completion barrier
#   stop   once settled, the daemon stopped (SIGTERM, waited for) before
#          the root is switched to: the system's unit then takes over
#          /run/modalias/control, which a daemon left running would hold
# (MODALIAS_HOTPLUG, MODALIAS_PIDFILE: a test's agent and pid file)
agent=${MODALIAS_HOTPLUG:-/sbin/hotplug}
pidfile=${MODALIAS_PIDFILE:-/run/modalias/initramfs.pid}

settle() {
	"$agent" --settle=60 || echo "modalias: the device agent did not settle (see hotplug(8))" >&2
}

# PID still the agent: not gone, not a zombie, not another program since
running() {
	[ "$(cat "/proc/$1/comm" 2>/dev/null)" = hotplug ] && ! grep -qs '^[0-9]* ([^)]*) Z' "/proc/$1/stat"
}

case ${1:-} in
start)
	mkdir -p -m 0755 "${pidfile%/*}"
	"$agent" --daemon --coldplug &
	echo $! >"$pidfile"
	settle
	;;
stop)
	[ -f "$pidfile" ] || exit 0
	pid=$(cat "$pidfile")
	rm -f "$pidfile"
	running "$pid" || exit 0
	settle
	kill -TERM "$pid"
	# its stop is bounded (handlers still running are killed 2 s after it)
	i=0
	while running "$pid" && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	if running "$pid"; then
		echo "modalias: the device agent did not stop: killed" >&2
		kill -KILL "$pid"
	fi
	;;
*)
	echo "usage: $0 start|stop" >&2
	exit 2
	;;
esac
exit 0
