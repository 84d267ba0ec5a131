#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Host ports for the scripts that forward one into a VM or listen on one,
# sourced (bash):
#   # shellcheck source=../selftests/common/net.sh
#   . "$repo/selftests/common/net.sh"
#   port_busy PORT       something listens on TCP PORT: on any address (ss),
#                        or, without ss, takes a connection on 127.0.0.1
#   free_port PORT       the first port from PORT up that is not busy
# One probe for both, so that a port free_port picks is one tools/vm/run's
# --forward takes.

port_busy() {
	if command -v ss >/dev/null; then
		[[ -n $(ss -Hltn "sport = :$1" 2>/dev/null) ]]
	else
		(exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
	fi
}

free_port() {
	local p=$1

	while port_busy "$p"; do
		p=$((p + 1))
	done
	echo "$p"
}
