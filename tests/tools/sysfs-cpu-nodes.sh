#!/bin/sh
# This machine's CPU -> node map as "cpu|node" lines, sorted by CPU, read from sysfs
# without kma (what report.db's cpu_nodes must hold for a recording made here by
# kma-record, or for --live): each /sys/devices/system/node/nodeN/cpulist's ranges; a
# kernel without NUMA has no node directories: every online CPU is node 0.
nodes() {
	found=0
	for d in /sys/devices/system/node/node[0-9]*; do
		[ -s "$d/cpulist" ] || continue
		found=1
		for r in $(tr ',' ' ' < "$d/cpulist"); do
			seq "${r%-*}" "${r#*-}" | sed "s/\$/|${d##*node}/"
		done
	done
	if [ $found = 0 ]; then
		for r in $(tr ',' ' ' < /sys/devices/system/cpu/online); do
			seq "${r%-*}" "${r#*-}" | sed 's/$/|0/'
		done
	fi
}
nodes | sort -t'|' -k1,1n
