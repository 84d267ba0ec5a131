// SPDX-License-Identifier: GPL-2.0-only
/* Strict numbers of the command line (args.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "host.h"
#include "payload.h"

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
