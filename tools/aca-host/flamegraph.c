// SPDX-License-Identifier: GPL-2.0-only
/* An SVG flame graph of folded stacks (flamegraph.h). */
#include <stdlib.h>
#include <string.h>

#include "flamegraph.h"
#include "textesc.h"
#include "util.h"

#define FONT_SIZE	12
#define FONT_WIDTH	0.59	/* of an average glyph, in font sizes */
#define MIN_WIDTH	0.1	/* pixels: narrower frames are left out */
#define ROOT_NAME	"all"

/* One frame: a name at a depth over [start, end) of the samples. */
struct node {
	const char *name;
	size_t len;
	size_t depth;
	uint64_t start, end;
};

struct flow {
	struct node *nodes;	/* closed frames */
	size_t n, cap;
	struct node *open;	/* the frames of the last stack, by depth */
	size_t nopen, open_cap;
	int nomem;
};

static void close_to(struct flow *f, size_t depth, uint64_t t)
{
	while (f->nopen > depth) {
		struct node *v = grow(f->nodes, &f->cap, f->n + 1, sizeof(*v));

		if (!v) {
			f->nomem = 1;
			return;
		}
		f->nodes = v;
		f->nodes[f->n] = f->open[--f->nopen];
		f->nodes[f->n++].end = t;
	}
}

static void open_frame(struct flow *f, const char *name, size_t len, uint64_t t)
{
	struct node *v = grow(f->open, &f->open_cap, f->nopen + 1, sizeof(*v));

	if (!v) {
		f->nomem = 1;
		return;
	}
	f->open = v;
	f->open[f->nopen] = (struct node){
		.name = name, .len = len, .depth = f->nopen, .start = t,
	};
	f->nopen++;
}

/*
 * flamegraph.pl's flow(): stacks in name order, each sharing a prefix with
 * the one before; frames past that prefix close, the new ones open.
 */
static void add_stack(struct flow *f, const char *stack, uint64_t t)
{
	const char *p = stack;
	size_t depth = 1;	/* the root stays open throughout */

	for (;;) {
		size_t len = strcspn(p, ";");

		if (depth < f->nopen && (f->open[depth].len != len ||
					 memcmp(f->open[depth].name, p, len)))
			close_to(f, depth, t);
		if (depth >= f->nopen)
			open_frame(f, p, len, t);
		if (f->nomem || !p[len])
			break;
		p += len + 1;
		depth++;
	}
	close_to(f, depth + 1, t);
}

static int by_key(const void *a, const void *b)
{
	return strcmp(((const struct tally_entry *)a)->key,
		      ((const struct tally_entry *)b)->key);
}

uint32_t flame_color(const char *name)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (const char *c = name; *c; c++)
		h = (h ^ (uint8_t)*c) * 0x100000001b3ull;
	/* FlameGraph's "hot": red 205-255, green 0-230, blue 0-55. */
	return (205 + (uint32_t)(h % 51)) << 16 | (uint32_t)(h >> 16 & 0xffff) % 231 << 8 |
	       (uint32_t)(h >> 32 & 0xffff) % 56;
}

static void draw(const struct node *n, uint64_t total, double per_sample,
		 size_t height, FILE *out)
{
	double x1 = FLAME_XPAD + n->start * per_sample;
	double w = (n->end - n->start) * per_sample;
	size_t y1 = height - FLAME_BOTTOM - (n->depth + 1) * FLAME_FRAME_HEIGHT + 1;
	char name[1024];
	size_t chars = (size_t)(w / (FONT_SIZE * FONT_WIDTH));
	uint32_t c;

	if (n->depth)
		snprintf(name, sizeof(name), "%.*s", (int)(n->len < 1023 ? n->len : 1023),
			 n->name);
	else
		snprintf(name, sizeof(name), "%s", ROOT_NAME);
	c = flame_color(name);
	fputs("<g><title>", out);
	xml_text(out, name);
	fprintf(out, " (%llu samples, %.2f%%)</title>", (unsigned long long)(n->end - n->start),
		pct(n->end - n->start, total));
	fprintf(out, "<rect x=\"%.1f\" y=\"%zu\" width=\"%.1f\" height=\"%d\" "
		"fill=\"rgb(%u,%u,%u)\" rx=\"2\" ry=\"2\"/>", x1, y1, w,
		FLAME_FRAME_HEIGHT - 1, c >> 16, c >> 8 & 0xff, c & 0xff);
	if (chars >= 3) {
		/* Cut to fit, with ".." where it was cut. */
		if (chars < strlen(name)) {
			name[chars] = 0;
			memcpy(name + chars - 2, "..", 2);
		}
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">", x1 + 3,
			y1 + (FLAME_FRAME_HEIGHT - 1) / 2.0 + 4);
		xml_text(out, name);
		fputs("</text>", out);
	}
	fputs("</g>\n", out);
}

int flamegraph_write(const struct tally *stacks, const char *title, FILE *out)
{
	struct flow f = { 0 };
	uint64_t total = 0;
	size_t n, depth = 0, height;
	struct tally_entry *v = tally_sorted(stacks, &n);
	double per_sample;

	if (!v)
		return -1;
	qsort(v, n, sizeof(*v), by_key);
	open_frame(&f, "", 0, 0);
	for (size_t i = 0; i < n && !f.nomem; i++) {
		add_stack(&f, v[i].key, total);
		total += v[i].count;
	}
	close_to(&f, 0, total);
	if (f.nomem) {
		free(f.nodes);
		free(f.open);
		free(v);
		return -1;
	}
	per_sample = total ? (double)(FLAME_WIDTH - 2 * FLAME_XPAD) / total : 0;
	for (size_t i = 0; i < f.n; i++)
		if ((f.nodes[i].end - f.nodes[i].start) * per_sample >= MIN_WIDTH &&
		    f.nodes[i].depth > depth)
			depth = f.nodes[i].depth;
	height = (depth + 1) * FLAME_FRAME_HEIGHT + FLAME_TOP + FLAME_BOTTOM;
	fprintf(out, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" width=\"%d\" height=\"%zu\" viewBox=\"0 0 %d %zu\" "
		"xmlns=\"http://www.w3.org/2000/svg\">\n"
		"<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%zu\" fill=\"rgb(238,238,238)\"/>\n"
		"<text x=\"%d\" y=\"24\" text-anchor=\"middle\" font-family=\"Verdana\" "
		"font-size=\"17\">", FLAME_WIDTH, height, FLAME_WIDTH, height, FLAME_WIDTH,
		height, FLAME_WIDTH / 2);
	xml_text(out, title);
	fprintf(out, "</text>\n<g font-family=\"Verdana\" font-size=\"%d\">\n", FONT_SIZE);
	for (size_t i = 0; i < f.n && total; i++)
		if ((f.nodes[i].end - f.nodes[i].start) * per_sample >= MIN_WIDTH)
			draw(&f.nodes[i], total, per_sample, height, out);
	fputs("</g>\n</svg>\n", out);
	free(f.nodes);
	free(f.open);
	free(v);
	return 0;
}
