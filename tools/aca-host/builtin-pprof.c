// SPDX-License-Identifier: GPL-2.0-only
/* aca-host pprof: its command line (the writer: pprof.c). */
#include <stdio.h>

#include "args.h"
#include "builtin.h"
#include "pprof.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: aca-host pprof DIR --out FILE [--sysroot PATH] [--kallsyms FILE]\n"
		"                          [--vmlinux FILE] [--pid PID] [--tid TID]\n"
		"                          [--comms LIST] [--dsos LIST]\n"
		"  Write a collection saved by aca-host collect as a gzipped pprof\n"
		"  profile (profile.proto) that go tool pprof and the stores of pprof\n"
		"  profiles read: sample types samples/count and cpu/nanoseconds (a\n"
		"  sample worth sample_after / tsc_hz seconds), each sample's stack\n"
		"  named as aca-host report names it, mappings with the build-ids the\n"
		"  target sent, labels pid, tid and cpu. Read it with\n"
		"    go tool pprof -top FILE\n"
		"  --out FILE      the profile to write: FILE.tmp until it is whole\n"
		"  --sysroot, --kallsyms, --vmlinux  where names come from, as for\n"
		"                  aca-host report (default: DIR/kallsyms)\n"
		"  --pid, --tid, --comms, --dsos  only those samples, as for aca-host\n"
		"                  report\n"
		ARG_WRITE_STATUS);
}

int cmd_pprof(int argc, char **argv)
{
	return arg_write_command("aca-host pprof", usage, pprof_write, argc, argv);
}
