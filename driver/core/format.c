// SPDX-License-Identifier: GPL-2.0-only
/*
 * A perf PMU's format files (/sys/bus/event_source/devices/PMU/format/,
 * read on the target through ops->find_pmu): which config bits each names.
 * Used by uncore.c (the bits an uncore select or filter may have) and
 * ibs.c (IBS's option bits); it calls neither, so neither depends on the
 * other through it (tools/call-cycles).
 */
#include "internal.h"

/*
 * One format file's text, "config:0-7,21" or "config1:0-8\n", into the
 * bits it names per word. False if it is not one.
 */
bool acp_pmu_format_bits(const char *spec, u64 bits[ACP_FORMAT_WORDS])
{
	static const char *const words[ACP_FORMAT_WORDS] = { "config:", "config1:", "config2:" };
	const char *p = NULL;
	u32 w;

	for (w = 0; w < ACP_FORMAT_WORDS && !p; w++)
		if (!strncmp(spec, words[w], strlen(words[w])))
			p = spec + strlen(words[w]);
	if (!p)
		return false;
	w--;
	for (;;) {
		u32 lo = 0, hi;
		const char *start = p;

		while (*p >= '0' && *p <= '9' && lo < 64)
			lo = lo * 10 + (*p++ - '0');
		if (p == start || lo > 63)
			return false;
		hi = lo;
		if (*p == '-') {
			start = ++p;
			hi = 0;
			while (*p >= '0' && *p <= '9' && hi < 64)
				hi = hi * 10 + (*p++ - '0');
			if (p == start || hi > 63 || hi < lo)
				return false;
		}
		bits[w] |= (hi == 63 ? ~0ull : (1ull << (hi + 1)) - 1) & ~((1ull << lo) - 1);
		if (*p != ',')
			break;
		p++;
	}
	return !*p || (*p == '\n' && !p[1]);
}
