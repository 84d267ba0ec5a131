// SPDX-License-Identifier: GPL-2.0-only
/* DIR/groups.txt, written from GROUP_TIMES and read back (groups.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include "files.h"
#include "groups.h"
#include "../../driver/core/sep_cmd.h"

/* A window line is at most 64 bytes: 8192 of them and the rest fit. */
#define MAX_GROUPS_FILE		(4u << 20)

size_t groups_reply_size(void)
{
	return sizeof(struct aca_group_times_head) +
	       GROUPS_MAX * sizeof(struct aca_group_time) +
	       ACA_GROUP_WINDOWS_MAX * sizeof(struct aca_group_window);
}

/*
 * An event name as one awk field: printable, no blanks, never empty.
 * @dst may be @src.
 */
static void field_copy(char *dst, size_t len, const char *src)
{
	size_t i;

	for (i = 0; i + 1 < len && src[i]; i++)
		dst[i] = src[i] > ' ' && src[i] <= '~' ? src[i] : '?';
	if (!i && len > 1)
		dst[i++] = '?';
	dst[i] = 0;
}

/*
 * The windows listed in @len bytes of reply with @h: those kept, as many
 * as follow the groups; -1 if the groups themselves do not fit.
 */
static long long windows_listed(const struct aca_group_times_head *h, size_t len)
{
	size_t groups = sizeof(*h) + (size_t)h->ngroups * sizeof(struct aca_group_time);
	size_t room;

	if (h->ngroups > GROUPS_MAX || groups > len)
		return -1;
	room = (len - groups) / sizeof(struct aca_group_window);
	return h->nwindows < room ? h->nwindows : (long long)room;
}

static void write_groups(FILE *f, const uint8_t *reply, size_t len,
			 const char *const *events, uint32_t nevents,
			 uint64_t tsc_hz, long long nwin)
{
	const struct aca_group_times_head *h = (const void *)reply;
	const uint8_t *p = reply + sizeof(*h);
	char name[GROUPS_NAME_MAX];

	fprintf(f, "switch_ms %u switches %llu windows_kept %lld windows_lost %u tsc_hz %llu\n",
		h->switch_ms, (unsigned long long)h->switches, nwin, h->windows_lost,
		(unsigned long long)tsc_hz);
	for (uint32_t i = 0; i < h->ngroups; i++, p += sizeof(struct aca_group_time)) {
		struct aca_group_time g;
		int known;

		memcpy(&g, p, sizeof(g));
		known = g.group < nevents;
		field_copy(name, sizeof(name), known ? events[g.group] : "?");
		fprintf(f, "group %u event %s index %d windows %u running_tsc %llu\n",
			g.group, name, known ? (int)g.group : -1, g.windows,
			(unsigned long long)g.running_tsc);
	}
	for (long long i = 0; i < nwin; i++, p += sizeof(struct aca_group_window)) {
		struct aca_group_window w;

		memcpy(&w, p, sizeof(w));
		fprintf(f, "window %u %llu %llu\n", w.group, (unsigned long long)w.on_tsc,
			(unsigned long long)w.off_tsc);
	}
}

int groups_write(const char *dir, const void *reply, size_t len,
		 const char *const *events, uint32_t nevents, uint64_t tsc_hz)
{
	struct aca_group_times_head h;
	char path[4096];
	long long nwin;
	FILE *f;

	if (len < sizeof(h)) {
		fprintf(stderr, "aca-host: GROUP_TIMES: %zu bytes, not even the head\n", len);
		return -1;
	}
	memcpy(&h, reply, sizeof(h));
	nwin = windows_listed(&h, len);
	if (nwin < 0) {
		fprintf(stderr, "aca-host: GROUP_TIMES: %u groups, at most %u fit the answer\n",
			h.ngroups, GROUPS_MAX);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/" GROUPS_FILE, dir);
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "aca-host: %s: %s\n", path, strerror(errno));
		return -1;
	}
	write_groups(f, reply, len, events, nevents, tsc_hz, nwin);
	if (fclose(f)) {
		fprintf(stderr, "aca-host: %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* One line of groups.txt into @gt; -1 if it is none of the three kinds. */
static int read_line(const char *line, struct group_times *gt)
{
	unsigned long long a, b;
	struct group_time *g;
	unsigned int u, v, w;
	int end = -1;

	if (!strncmp(line, "window ", 7))
		return sscanf(line, "window %u %llu %llu%n", &u, &a, &b, &end) == 3 &&
		       !line[end] ? 0 : -1;
	if (!strncmp(line, "switch_ms ", 10)) {
		if (sscanf(line, "switch_ms %u switches %llu windows_kept %u windows_lost %u "
			   "tsc_hz %llu%n", &u, &a, &v, &w, &b, &end) != 5 || line[end])
			return -1;
		gt->switch_ms = u;
		gt->switches = a;
		gt->windows_kept = v;
		gt->windows_lost = w;
		gt->tsc_hz = b;
		return 0;
	}
	if (gt->n == GROUPS_MAX)
		return -1;
	g = &gt->g[gt->n];
	/* GROUPS_NAME_MAX - 1 characters at most. */
	if (sscanf(line, "group %u event %63s index %d windows %u running_tsc %llu%n",
		   &g->group, g->event, &g->index, &g->windows, &a, &end) != 5 || line[end])
		return -1;
	g->running_tsc = a;
	/* The file is input like any other: its names print as they are. */
	field_copy(g->event, sizeof(g->event), g->event);
	gt->n++;
	return 0;
}

int groups_read(const char *dir, struct group_times *gt, char *err, size_t errlen)
{
	char path[4096], *txt, *line, *save = NULL;
	unsigned int lineno = 0;
	size_t len;

	memset(gt, 0, sizeof(*gt));
	snprintf(path, sizeof(path), "%s/" GROUPS_FILE, dir);
	txt = (char *)read_whole_file(path, MAX_GROUPS_FILE, &len);
	if (!txt) {
		char why[128];

		if (errno == ENOENT)
			return 1;
		snprintf(err, errlen, "%s: %s", path, read_failed(why, sizeof(why), errno, len,
								  MAX_GROUPS_FILE,
								  "any groups.txt has"));
		return -1;
	}
	for (line = strtok_r(txt, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		lineno++;
		if (read_line(line, gt)) {
			snprintf(err, errlen, "%s: line %u does not parse", path, lineno);
			free(txt);
			return -1;
		}
	}
	free(txt);
	return 0;
}
