#!/bin/sh
# dracut pre-trigger hook of 90modalias: the hotplug agent, coldplug to a
# fixed point, then the completion barrier.
/sbin/hotplug --daemon --coldplug &
/sbin/hotplug --settle=60 || echo "modalias: the device agent did not settle (see hotplug(8))" >&2
