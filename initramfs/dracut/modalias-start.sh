#!/bin/sh
# dracut pre-trigger hook of 90modalias: the hotplug agent, coldplug to a
# fixed point, then the completion barrier (modalias-agent; the cleanup
# hook, modalias-stop.sh, stops it).
"${MODALIAS_AGENT:-/sbin/modalias-agent}" start
