#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# TAP 13 for the shell tests, sourced once before the first test (bash):
#   # shellcheck source=../common/tap.sh
#   . "$repo/selftests/common/tap.sh"
# It counts the tests in n and the failed ones in failed, from 0:
#   tap_start            "TAP version 13"
#   tap_plan N [WHY]     the plan 1..N (at the end: tap_plan "$n"); with WHY,
#                        "1..N # SKIP WHY" (1..0: the whole script skipped)
#   result STATUS DESCRIPTION [LOG [LINES]]
#                        "ok N - DESCRIPTION" if STATUS is 0, else
#                        "not ok N - DESCRIPTION" followed by the last
#                        LINES (30; "all": every) lines of LOG as
#                        diagnostics; LOG and LINES default to $tap_log
#                        and $tap_lines when set
#   skip DESCRIPTION WHY "ok N - DESCRIPTION # SKIP WHY" (a skip: no pass)
#   diag [FILE...]       the files, or stdin, as "# " diagnostics
#   bail REASON          "Bail out! REASON", and exit 1
#   tap_done             status 0 if no test failed, else 1: a script's last
#                        command
n=0
failed=0

tap_start() {
	echo "TAP version 13"
}

tap_plan() {
	echo "1..$1${2:+ # SKIP $2}"
}

result() {
	local log=${3:-${tap_log:-}} lines=${4:-${tap_lines:-30}}

	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
		return 0
	fi
	failed=$((failed + 1))
	echo "not ok $n - $2"
	if [ -n "$log" ] && [ -r "$log" ]; then
		if [ "$lines" = all ]; then
			diag "$log"
		else
			tail -n "$lines" "$log" | diag
		fi
	fi
	return 0
}

skip() {
	n=$((n + 1))
	echo "ok $n - $1 # SKIP $2"
}

diag() {
	sed 's/^/# /' "$@"
}

bail() {
	echo "Bail out! $*"
	exit 1
}

tap_done() {
	[ "$failed" = 0 ]
}
