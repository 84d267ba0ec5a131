/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * DIR/groups.txt: when each event group sampled, from the target's answer
 * to [ACA-EXT] GROUP_TIMES (sep_cmd.h), as text a shell or awk reads:
 *
 *   switch_ms M switches S windows_kept K windows_lost L tsc_hz HZ
 *   group G event NAME index I windows W running_tsc T     (one per group)
 *   window G ON_TSC OFF_TSC                                 (one per window)
 *
 * I is the event index the group's samples carry (-1: unknown, an --ecb
 * file's), NAME the event ("?" if aca-host did not name it). T is the
 * total TSC ticks of the group's W windows, lost ones included; K windows
 * are listed, oldest first.
 */
#ifndef ACA_HOST_GROUPS_H
#define ACA_HOST_GROUPS_H

#include <stddef.h>
#include <stdint.h>

#define GROUPS_FILE		"groups.txt"
/* The most groups a target answers about (the protocol core's ACP_MAX_GROUPS). */
#define GROUPS_MAX		64
#define GROUPS_NAME_MAX		64

struct group_time {
	uint32_t group;
	int32_t index;			/* of its samples' eventIndex; -1: unknown */
	uint32_t windows;
	uint64_t running_tsc;
	char event[GROUPS_NAME_MAX];
};

/* What groups.txt says, windows left out. */
struct group_times {
	uint32_t switch_ms;
	uint64_t switches;
	uint32_t windows_kept, windows_lost;
	uint64_t tsc_hz;
	uint32_t n;
	struct group_time g[GROUPS_MAX];
};

/* Bytes of the GROUP_TIMES reply to ask for: every group and window there can be. */
size_t groups_reply_size(void);

/*
 * Write @dir/groups.txt from the GROUP_TIMES reply @reply (@len bytes);
 * group g < @nevents sampled @events[g] with event index g. Returns 0, or
 * -1 with a message on stderr (a reply that does not add up included).
 */
int groups_write(const char *dir, const void *reply, size_t len,
		 const char *const *events, uint32_t nevents, uint64_t tsc_hz);

/*
 * Read @dir/groups.txt into @gt. Returns 0; 1 if there is none; -1 if it
 * does not parse, with @err set.
 */
int groups_read(const char *dir, struct group_times *gt, char *err, size_t errlen);

#endif /* ACA_HOST_GROUPS_H */
