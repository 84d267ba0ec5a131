// SPDX-License-Identifier: GPL-2.0-only
/* stderr logging; under systemd the <N> prefix sets the journal priority. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "relay.h"

void log_msg(int prio, const char *fmt, ...)
{
	static int journal = -1;
	va_list ap;

	if (journal < 0)
		journal = getenv("JOURNAL_STREAM") != NULL;
	if (journal)
		fprintf(stderr, "<%d>", prio);
	else
		fputs("aca-relay: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
