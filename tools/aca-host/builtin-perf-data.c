// SPDX-License-Identifier: GPL-2.0-only
/* aca-host perf-data: its command line (the writer: perfdata.c). */
#include <stdio.h>

#include "args.h"
#include "builtin.h"
#include "perfdata.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: aca-host perf-data DIR --out FILE [--sysroot PATH]\n"
		"                              [--kallsyms FILE] [--pid PID] [--tid TID]\n"
		"                              [--comms LIST] [--dsos LIST]\n"
		"  Write a collection saved by aca-host collect as a perf.data file\n"
		"  that perf report, perf script and perf annotate read: the samples\n"
		"  oldest first with their CPU, time, period and callers, COMM and\n"
		"  MMAP2 records of the module records (with the build-ids the target\n"
		"  sent), the target's kernel release and CPU count. Read it with\n"
		"    perf report -i FILE --kallsyms DIR/kallsyms --symfs SYSROOT\n"
		"  --out FILE      the perf.data to write: FILE.tmp until it is whole\n"
		"  --kallsyms FILE the kallsyms copy whose _stext places the kernel\n"
		"                  (default: DIR/kallsyms)\n"
		"  --sysroot, --pid, --tid, --comms, --dsos  only those samples, as\n"
		"                  for aca-host report\n"
		ARG_WRITE_STATUS);
}

int cmd_perf_data(int argc, char **argv)
{
	return arg_write_command("aca-host perf-data", usage, perfdata_write, argc, argv);
}
