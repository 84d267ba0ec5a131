/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report --flamegraph FILE: folded stacks (folded.h) drawn as a flame
 * graph in one self-contained SVG, as FlameGraph's flamegraph.pl lays it
 * out: the root ("all") at the bottom, each frame above its caller, as wide
 * as its share of the samples, frames of one parent in name order; each a
 * rectangle with a <title> (name, samples, percent) and its name cut to
 * fit. Colours are FlameGraph's "hot" palette picked by a hash of the
 * name, so a function has the same colour in every graph. No script.
 */
#ifndef ACA_HOST_FLAMEGRAPH_H
#define ACA_HOST_FLAMEGRAPH_H

#include <stdint.h>
#include <stdio.h>

#include "tally.h"

#define FLAME_WIDTH		1200	/* pixels */
#define FLAME_FRAME_HEIGHT	16
#define FLAME_XPAD		10
#define FLAME_TOP		36	/* the title's band */
#define FLAME_BOTTOM		34

/* The fill colour of a frame named @name: 0xRRGGBB. */
uint32_t flame_color(const char *name);

/* Draw @stacks under @title. Returns 0, or -1 when out of memory. */
int flamegraph_write(const struct tally *stacks, const char *title, FILE *out);

#endif /* ACA_HOST_FLAMEGRAPH_H */
