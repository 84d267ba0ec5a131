/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * aca-host's command lines, read one way for every command (the
 * builtin-*.c files): getopt_long() underneath, each command's options a
 * table of its own, the options several commands take applied here.
 * Numbers are strictly parsed: digits only (no sign, blank or suffix),
 * within range. A bad one is said on stderr with the command (@cmd,
 * "aca-host report"), the option and the value.
 */
#ifndef ACA_HOST_ARGS_H
#define ACA_HOST_ARGS_H

#include <getopt.h>
#include <stdio.h>

#include "collect.h"
#include "report.h"

/* A decimal from @lo to @hi into *@v; 0, or -1 said. */
int arg_number(const char *cmd, const char *opt, const char *s,
	       unsigned long lo, unsigned long hi, unsigned long *v);

/* Seconds, fractions allowed ("0.5"), more than 0 and at most @max. */
int arg_seconds(const char *cmd, const char *opt, const char *s, double max,
		double *v);

/* --timeout: whole seconds, 1 to HOST_MAX_TIMEOUT_S. */
int arg_timeout(const char *cmd, const char *s, int *timeout_s);

/*
 * --call-graph fp[,N], perf's record mode and size (here: frames, 1 to
 * HOST_MAX_CALL_DEPTH, default HOST_DEFAULT_CALL_DEPTH) into *@depth.
 */
int arg_call_graph(const char *cmd, const char *s, unsigned int *depth);

/*
 * What an option is: the options several commands take, which
 * arg_parse() applies itself, then each command's own (ARG_OWN and up).
 */
enum arg_id {
	ARG_HELP = 256,		/* the usage on stdout, exit status 0 */
	ARG_TIMEOUT,		/* --timeout S: connecting, answers (arg_cmd.timeout_s) */
	ARG_OUT,		/* --out DIR or FILE (arg_cmd.out) */
	ARG_DURATION,		/* --duration S (arg_cmd.duration) */
	/* The collection's (arg_cmd.collect): collect and top. */
	ARG_ECB,		/* --ecb FILE */
	ARG_RATE,		/* --rate HZ */
	ARG_CALLERS,		/* -g: --call-graph fp */
	ARG_CALL_GRAPH,		/* --call-graph fp[,N] */
	ARG_EOF_TIMEOUT,	/* --eof-timeout S */
	/*
	 * The report's (arg_cmd.report): where names come from, which
	 * samples are kept. report, script, perf-data, pprof; top some.
	 */
	ARG_SYSROOT,
	ARG_KALLSYMS,
	ARG_VMLINUX,
	ARG_PID,
	ARG_TID,
	ARG_COMMS,
	ARG_DSOS,
	ARG_OWN,
};

/* One option of a command. */
struct arg_opt {
	const char *name;	/* --NAME; NULL: the letter alone (-g) */
	int has_arg;		/* required_argument or no_argument */
	int letter;		/* -L too; 0: none */
	int id;			/* enum arg_id; two names of one id are one option */
};

/* The report's options, as report, script, perf-data and pprof take them. */
#define ARG_REPORT_OPTS							\
	{ "sysroot", required_argument, 's', ARG_SYSROOT },		\
	{ "kallsyms", required_argument, 0, ARG_KALLSYMS },		\
	{ "vmlinux", required_argument, 0, ARG_VMLINUX },		\
	{ "pid", required_argument, 'p', ARG_PID },			\
	{ "tid", required_argument, 0, ARG_TID },			\
	{ "comms", required_argument, 0, ARG_COMMS },			\
	{ "dsos", required_argument, 0, ARG_DSOS }

#define ARG_HELP_OPT	{ "help", no_argument, 'h', ARG_HELP }

/*
 * A command's line: its options (a table that ends with { 0 }), its one
 * operand, where the shared options it takes go, and its own options'
 * handler.
 */
struct arg_cmd {
	const char *cmd;		/* "aca-host collect": messages, getopt's too */
	const char *operand;		/* "TARGET" or "DIR": exactly one */
	const struct arg_opt *opts;
	void (*usage)(FILE *f);
	/* An option ARG_OWN and up, with its value or NULL: 0, or 2 said. */
	int (*option)(int id, const char *arg, void *own);
	void *own;
	int *timeout_s;
	const char **out;
	double *duration;
	double max_duration;
	struct collect_opts *collect;
	struct report_opts *report;
};

/*
 * Read @argv (argv[0] the command's name) as @c says: every option in
 * order, then exactly one operand, which is returned. NULL when the
 * command is not to run, with *@status its exit status: 0 after --help
 * (the usage on stdout); 2 after a usage error, said on stderr (getopt's
 * or a bad value's message; an unknown option or a missing operand with
 * the usage).
 */
const char *arg_parse(const struct arg_cmd *c, int argc, char **argv, int *status);

/*
 * What collect and top check of their --event and --ecb: not both; the
 * default event without either; every event a built-in one. 0, or 2 said.
 */
int arg_check_events(const char *cmd, struct collect_opts *o);

/*
 * A command with a TARGET and --timeout alone (hello, info, ping):
 * `aca-host NAME [--timeout S] TARGET[:PORT]`, @cmd its first two words
 * ("aca-host ping"). arg_target_usage() is its usage, @what the text
 * under the synopsis. arg_target_command() reads the line (@usage prints
 * the usage) and returns @run's status on TARGET and --timeout's seconds
 * (0: not given), or 0 after --help, 2 after a usage error.
 */
void arg_target_usage(FILE *f, const char *cmd, const char *what);
int arg_target_command(const char *cmd, void (*usage)(FILE *f),
		       int (*run)(const char *target, int timeout_s),
		       int argc, char **argv);

/*
 * A command that writes collection DIR as file FILE (perf-data, pprof):
 * `aca-host NAME DIR --out FILE` with the report's options. @write gets
 * DIR, the options, FILE and the command line; its status is returned,
 * or 0 after --help, 2 after a usage error. @cmd names the command
 * ("aca-host pprof"); @usage prints its usage, which ends with
 * ARG_WRITE_STATUS.
 */
#define ARG_WRITE_STATUS						\
	"Exit status: 0; 1 if the collection is malformed or truncated; 2 if\n" \
	"there is nothing to write, FILE cannot be written, or on a usage\n" \
	"error. FILE is written only on 0.\n"
typedef int (*arg_writer)(const char *dir, const struct report_opts *o,
			  const char *out, int argc, char *const *argv);
int arg_write_command(const char *cmd, void (*usage)(FILE *f), arg_writer write,
		      int argc, char **argv);

#endif /* ACA_HOST_ARGS_H */
