#!/bin/sh
# dracut cleanup hook of 90modalias: the agent modalias-start.sh started,
# stopped once settled, before switch_root, so that the system's unit takes
# over its control socket (modalias-agent).
"${MODALIAS_AGENT:-/sbin/modalias-agent}" stop
