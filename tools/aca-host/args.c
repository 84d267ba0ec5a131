// SPDX-License-Identifier: GPL-2.0-only
/* The command lines of aca-host's commands, read one way (args.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "ecb.h"
#include "host.h"
#include "payload.h"

/* Options in one command's table, at most. */
#define ARG_MAX_OPTS	32

int arg_number(const char *cmd, const char *opt, const char *s,
	       unsigned long lo, unsigned long hi, unsigned long *v)
{
	char *end;

	if (*s >= '0' && *s <= '9') {
		errno = 0;
		*v = strtoul(s, &end, 10);
		if (!errno && !*end && *v >= lo && *v <= hi)
			return 0;
	}
	fprintf(stderr, "%s: %s: '%s' is not a number from %lu to %lu\n", cmd, opt, s,
		lo, hi);
	return -1;
}

/* Digits with at most one '.' among them, at least one digit. */
static int decimal(const char *s)
{
	size_t whole = strspn(s, "0123456789"), fraction = 0;
	const char *rest = s + whole;

	if (*rest == '.')
		fraction = strspn(++rest, "0123456789");
	return (whole || fraction) && !rest[fraction];
}

int arg_seconds(const char *cmd, const char *opt, const char *s, double max,
		double *v)
{
	if (decimal(s)) {
		*v = strtod(s, NULL);
		if (*v > 0 && *v <= max)
			return 0;
	}
	fprintf(stderr, "%s: %s: '%s' is not a number of seconds, more than 0 and "
		"at most %g\n", cmd, opt, s, max);
	return -1;
}

int arg_call_graph(const char *cmd, const char *s, unsigned int *depth)
{
	unsigned long v = HOST_DEFAULT_CALL_DEPTH;

	if (strncmp(s, "fp", 2) || (s[2] && s[2] != ',')) {
		fprintf(stderr, "%s: --call-graph '%s': only fp (frame pointers) is supported\n",
			cmd, s);
		return -1;
	}
	if (s[2] && arg_number(cmd, "--call-graph fp,N", s + 3, 1,
			       HOST_MAX_CALL_DEPTH, &v))
		return -1;
	*depth = v;
	return 0;
}

int arg_timeout(const char *cmd, const char *s, int *timeout_s)
{
	unsigned long v;

	if (arg_number(cmd, "--timeout", s, 1, HOST_MAX_TIMEOUT_S, &v))
		return -1;
	*timeout_s = (int)v;
	return 0;
}

/* Option @id of @c's line: 0, or 2 said. */
static int option(const struct arg_cmd *c, int id, const char *arg)
{
	struct collect_opts *co = c->collect;
	struct report_opts *ro = c->report;
	char what[64];
	unsigned long v;
	double t;

	switch (id) {
	case ARG_TIMEOUT:
		return arg_timeout(c->cmd, arg, c->timeout_s) ? 2 : 0;
	case ARG_OUT:
		*c->out = arg;
		return 0;
	case ARG_DURATION:
		return arg_seconds(c->cmd, "--duration", arg, c->max_duration,
				   c->duration) ? 2 : 0;
	case ARG_ECB:
		co->ecb_file = arg;
		return 0;
	case ARG_RATE:
		if (arg_number(c->cmd, "--rate", arg, 1, 100000, &v))
			return 2;
		co->rate = v;
		return 0;
	case ARG_CALLERS:
		co->call_depth = HOST_DEFAULT_CALL_DEPTH;
		return 0;
	case ARG_CALL_GRAPH:
		return arg_call_graph(c->cmd, arg, &co->call_depth) ? 2 : 0;
	case ARG_EOF_TIMEOUT:
		if (arg_seconds(c->cmd, "--eof-timeout", arg, 86400, &t))
			return 2;
		co->eof_timeout_s = (int)ceil(t);
		return 0;
	case ARG_SYSROOT:
		ro->sysroot = arg;
		return 0;
	case ARG_KALLSYMS:
		ro->kallsyms = arg;
		return 0;
	case ARG_VMLINUX:
		ro->vmlinux = arg;
		return 0;
	case ARG_PID:
		if (arg_number(c->cmd, "--pid", arg, 0, REPORT_MAX_PID, &v))
			return 2;
		ro->only_pid = 1;
		ro->pid = v;
		return 0;
	case ARG_TID:
		if (arg_number(c->cmd, "--tid", arg, 0, REPORT_MAX_PID, &v))
			return 2;
		ro->only_tid = 1;
		ro->tid = v;
		return 0;
	case ARG_COMMS:
	case ARG_DSOS:
		snprintf(what, sizeof(what), "%s: --%s", c->cmd,
			 id == ARG_COMMS ? "comms" : "dsos");
		return name_list_parse(id == ARG_COMMS ? &ro->comms : &ro->dsos, arg,
				       what) ? 2 : 0;
	}
	return c->option(id, arg, c->own);
}

/* The id of short option @letter of @opts; 0 for none ('?': getopt's error). */
static int letter_id(const struct arg_opt *opts, int letter)
{
	for (const struct arg_opt *o = opts; o->name || o->letter; o++)
		if (o->letter == letter)
			return o->id;
	return 0;
}

const char *arg_parse(const struct arg_cmd *c, int argc, char **argv, int *status)
{
	struct option longopts[ARG_MAX_OPTS + 1];
	char letters[2 * ARG_MAX_OPTS + 1];
	size_t n = 0, nlong = 0, nletters = 0;
	int v;

	for (const struct arg_opt *o = c->opts; o->name || o->letter; o++) {
		if (n++ == ARG_MAX_OPTS) {
			fprintf(stderr, "%s: more than %d options\n", c->cmd, ARG_MAX_OPTS);
			*status = 2;
			return NULL;
		}
		if (o->name)
			longopts[nlong++] = (struct option){ o->name, o->has_arg, NULL, o->id };
		if (o->letter) {
			letters[nletters++] = (char)o->letter;
			if (o->has_arg == required_argument)
				letters[nletters++] = ':';
		}
	}
	longopts[nlong] = (struct option){ 0 };
	letters[nletters] = '\0';

	argv[0] = (char *)c->cmd;	/* getopt's messages name the command */
	while ((v = getopt_long(argc, argv, letters, longopts, NULL)) != -1) {
		int id = v < ARG_HELP ? letter_id(c->opts, v) : v;

		if (id == ARG_HELP) {
			c->usage(stdout);
			*status = 0;
			return NULL;
		}
		if (!id) {		/* getopt_long() said what is wrong */
			c->usage(stderr);
			*status = 2;
			return NULL;
		}
		*status = option(c, id, optarg);
		if (*status)
			return NULL;
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "%s: one %s expected\n", c->cmd, c->operand);
		c->usage(stderr);
		*status = 2;
		return NULL;
	}
	return argv[optind];
}

int arg_check_events(const char *cmd, struct collect_opts *o)
{
	if (o->nevents && o->ecb_file) {
		fprintf(stderr, "%s: --event and --ecb exclude each other\n", cmd);
		return 2;
	}
	if (!o->ecb_file && !o->nevents)
		o->events[o->nevents++] = HOST_DEFAULT_EVENT;
	for (uint32_t i = 0; i < o->nevents; i++) {
		if (host_ecb_known(o->events[i]))
			continue;
		fprintf(stderr, "%s: unknown event '%s'; known events:\n", cmd,
			o->events[i]);
		host_ecb_list(stderr);
		return 2;
	}
	return 0;
}

void arg_target_usage(FILE *f, const char *cmd, const char *what)
{
	fprintf(f, "usage: %s [--timeout S] TARGET[:PORT]\n"
		   "  %s\n"
		   "  --timeout S  give up connecting, or on an answer, after S seconds,\n"
		   "               1 to %d (default %d connecting, %d an answer)\n"
		   "  TARGET is a host name or address, [ADDRESS]:PORT for IPv6 (default\n"
		   "  port %d).\n",
		cmd, what, HOST_MAX_TIMEOUT_S, HOST_CONNECT_TIMEOUT_S, HOST_RECV_TIMEOUT_S,
		SEP_TCP_PORT);
}

int arg_target_command(const char *cmd, void (*usage)(FILE *f),
		       int (*run)(const char *target, int timeout_s),
		       int argc, char **argv)
{
	static const struct arg_opt opts[] = {
		{ "timeout", required_argument, 0, ARG_TIMEOUT },
		ARG_HELP_OPT,
		{ 0 }
	};
	int timeout_s = 0, status;	/* 0: no --timeout (host_answer_s()) */
	const struct arg_cmd c = {
		.cmd = cmd, .operand = "TARGET", .opts = opts, .usage = usage,
		.timeout_s = &timeout_s,
	};
	const char *target = arg_parse(&c, argc, argv, &status);

	if (!target)
		return status;
	if (host_check_target(cmd, target))
		return 2;
	return run(target, timeout_s);
}

int arg_write_command(const char *cmd, void (*usage)(FILE *f), arg_writer write,
		      int argc, char **argv)
{
	static const struct arg_opt opts[] = {
		ARG_REPORT_OPTS,
		{ "out", required_argument, 'o', ARG_OUT },
		ARG_HELP_OPT,
		{ 0 }
	};
	struct report_opts o = { .warn = stderr };
	const char *out = NULL, *dir;
	const struct arg_cmd c = {
		.cmd = cmd, .operand = "DIR", .opts = opts, .usage = usage,
		.out = &out, .report = &o,
	};
	int ret;

	dir = arg_parse(&c, argc, argv, &ret);
	if (dir && (!out || !out[0])) {
		fprintf(stderr, "%s: --out FILE expected\n", cmd);
		usage(stderr);
		ret = 2;
	} else if (dir) {
		report_raise_nofile();
		ret = write(dir, &o, out, argc, argv);
	}
	report_opts_free(&o);
	return ret;
}
