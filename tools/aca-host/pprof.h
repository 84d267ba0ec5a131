/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * aca-host pprof: a collection written as a gzipped pprof profile
 * (profile.proto of github.com/google/pprof; the fields this writer uses in
 * pprof.proto, packed by libprotobuf-c, gzipped by zlib), what go tool
 * pprof, Pyroscope, Parca and other stores of pprof profiles read:
 *
 *   sample_type   samples/count, and cpu/nanoseconds when collection.txt
 *                 gives sample_after and tsc_hz: each sample is worth
 *                 sample_after / tsc_hz seconds, the time between two
 *                 samples of an event that counts at the TSC's rate (the
 *                 CPU time of CPU_CLK_UNHALTED.REF_TSC and cpu-clock
 *                 samples; any other event's samples weighted alike)
 *   sample        one per record the filters keep: its frames as aca-host
 *                 script names them (stack.h), leaf first; values 1 and the
 *                 nanoseconds; labels pid, tid and cpu (decimal strings:
 *                 readers drop a numeric label of 0), and event (its
 *                 group's) when the collection multiplexed several
 *   location      one per distinct (module record, address, return
 *                 address or not): the address as recorded, its mapping,
 *                 one line naming its function
 *   function      one per name and file: the name aca-host report --sort
 *                 sym gives (the symbol, else MODULE+0xOFFSET, else
 *                 [unknown]), kernel names from the collection's kallsyms
 *                 (or --kallsyms, --vmlinux), user ones through --sysroot
 *   mapping       one per module record a location is in: its addresses,
 *                 file offset, perf's name for it ([kernel.kallsyms],
 *                 [MODULE], a user file's path), its build-id in hex when
 *                 the target sent one; has_functions, as every location is
 *                 named here
 *   period_type   cpu/nanoseconds and period the nanoseconds of a sample
 *                 (without them samples/count, 1)
 *   time_nanos    when collection.txt was last written (the collection's
 *                 end), duration_nanos the span of the samples' TSCs
 *
 * The profile is streamed: each sample is packed as a Profile of its own,
 * and the tables (mappings, locations, functions, strings) as one more
 * after the last, which a reader of protobuf merges into one Profile (the
 * repeated fields of messages written one after another are concatenated).
 * The file is written as FILE.tmp and renamed to FILE when whole; a
 * collection with any input problem writes nothing.
 */
#ifndef ACA_HOST_PPROF_H
#define ACA_HOST_PPROF_H

#include "report.h"

/*
 * Write @dir as the gzipped profile @out (o's names and filters apply;
 * @argc, @argv unused: the command line of report_writer). Returns 0; 1 if
 * the collection is malformed or truncated; 2 if there is nothing to write
 * or @out cannot be written. Every failure is said on o->warn and leaves
 * no @out.
 */
int pprof_write(const char *dir, const struct report_opts *o, const char *out,
		int argc, char *const *argv);

#endif /* ACA_HOST_PPROF_H */
