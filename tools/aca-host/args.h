/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Numbers on aca-host's command line, strictly parsed: digits only (no
 * sign, blank or suffix), within range. A bad one is said on stderr with
 * the command (@cmd, "aca-host report"), the option and the value.
 */
#ifndef ACA_HOST_ARGS_H
#define ACA_HOST_ARGS_H

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

#endif /* ACA_HOST_ARGS_H */
