/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A small PNG reader for the flame graph test: 8-bit RGB or RGBA,
 * non-interlaced (what Chromium's screenshots are), decompressed with
 * zlib and unfiltered. Anything else is refused.
 */
#ifndef ACA_HOST_TEST_PNG_H
#define ACA_HOST_TEST_PNG_H

#include <stddef.h>
#include <stdint.h>

struct png {
	uint32_t width, height;
	unsigned int channels;		/* 3: RGB, 4: RGBA */
	uint8_t *pixels;		/* rows of width * channels bytes */
};

/* Decode @len bytes at @data. Returns 0, or -1 with a reason in @err. */
int png_decode(const uint8_t *data, size_t len, struct png *img, char *err,
	       size_t errlen);

/* The pixel at (@x, @y) as 0xRRGGBB. */
uint32_t png_rgb(const struct png *img, uint32_t x, uint32_t y);

void png_free(struct png *img);

#endif /* ACA_HOST_TEST_PNG_H */
