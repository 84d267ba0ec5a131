/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The options report and script share (report_cli.c, script_cli.c): where
 * names come from (--sysroot, --kallsyms, --vmlinux) and which samples are
 * kept (--pid, --tid, --comms, --dsos).
 */
#ifndef ACA_HOST_REPORT_CLI_H
#define ACA_HOST_REPORT_CLI_H

#include "report.h"

/* getopt_long() values of the shared options: -s and -p are short ones. */
enum {
	OPT_SYSROOT = 's',
	OPT_KALLSYMS = 'k',
	OPT_VMLINUX = 'v',
	OPT_PID = 'p',
	OPT_TID = 256,
	OPT_COMMS,
	OPT_DSOS,
};

#define REPORT_SHARED_OPTIONS						\
	{ "sysroot", required_argument, NULL, OPT_SYSROOT },		\
	{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },		\
	{ "vmlinux", required_argument, NULL, OPT_VMLINUX },		\
	{ "pid", required_argument, NULL, OPT_PID },			\
	{ "tid", required_argument, NULL, OPT_TID },			\
	{ "comms", required_argument, NULL, OPT_COMMS },		\
	{ "dsos", required_argument, NULL, OPT_DSOS }

/*
 * Apply shared option @c with @arg to @o. Returns 0; 1 if @c is not one of
 * them; -1 on a bad value (said on stderr, after @cmd).
 */
int report_shared_option(const char *cmd, int c, const char *arg,
			 struct report_opts *o);

/* Raise the open file limit: libdwfl keeps every file it reads open. */
void report_raise_nofile(void);

void report_opts_free(struct report_opts *o);

/*
 * A command that writes collection DIR as file FILE (perf-data, pprof):
 * `aca-host CMD DIR --out FILE` with the shared options. @write gets DIR,
 * the options, FILE and the command line; its status is returned. @cmd
 * names the command ("aca-host pprof"); @help prints its usage.
 */
/* The end of such a command's usage: its exit status. */
#define REPORT_OUT_STATUS						\
	"Exit status: 0; 1 if the collection is malformed or truncated; 2 if\n" \
	"there is nothing to write, FILE cannot be written, or on a usage\n" \
	"error. FILE is written only on 0.\n"
typedef int (*report_writer)(const char *dir, const struct report_opts *o,
			     const char *out, int argc, char *const *argv);
int report_out_command(const char *cmd, void (*help)(FILE *f), report_writer write,
		       int argc, char **argv);

#endif /* ACA_HOST_REPORT_CLI_H */
