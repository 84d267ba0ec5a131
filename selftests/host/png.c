// SPDX-License-Identifier: GPL-2.0-only
/* 8-bit RGB(A) non-interlaced PNG decoding (png.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "png.h"

#define MAX_SIDE	16384

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

static int paeth(int a, int b, int c)
{
	int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);

	return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/* Undo each row's filter (PNG spec 9.2) in place, into img->pixels. */
static int unfilter(struct png *img, const uint8_t *raw, char *err, size_t errlen)
{
	size_t bpp = img->channels, stride = (size_t)img->width * bpp;

	for (uint32_t y = 0; y < img->height; y++) {
		const uint8_t *in = raw + y * (stride + 1) + 1;
		uint8_t *row = img->pixels + y * stride;
		const uint8_t *prev = y ? row - stride : NULL;
		int type = in[-1];

		for (size_t x = 0; x < stride; x++) {
			int a = x >= bpp ? row[x - bpp] : 0, b = prev ? prev[x] : 0;
			int c = prev && x >= bpp ? prev[x - bpp] : 0, v;

			switch (type) {
			case 0: v = 0; break;
			case 1: v = a; break;
			case 2: v = b; break;
			case 3: v = (a + b) / 2; break;
			case 4: v = paeth(a, b, c); break;
			default:
				snprintf(err, errlen, "row %u: filter type %d", y, type);
				return -1;
			}
			row[x] = (uint8_t)(in[x] + v);
		}
	}
	return 0;
}

int png_decode(const uint8_t *data, size_t len, struct png *img, char *err,
	       size_t errlen)
{
	static const uint8_t sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	uint8_t *idat = NULL, *raw = NULL;
	size_t nidat = 0, off = 8;
	uLongf rawlen;
	int have_ihdr = 0, ret = -1;

	memset(img, 0, sizeof(*img));
	if (len < 8 || memcmp(data, sig, 8)) {
		snprintf(err, errlen, "not a PNG file");
		return -1;
	}
	while (off + 12 <= len) {
		uint32_t n = be32(data + off);
		const uint8_t *type = data + off + 4, *body = data + off + 8;

		if (n > len - off - 12) {
			snprintf(err, errlen, "chunk at %zu runs past the end", off);
			goto out;
		}
		if (!memcmp(type, "IHDR", 4) && n >= 13) {
			img->width = be32(body);
			img->height = be32(body + 4);
			/* bit depth 8; colour type 2 (RGB) or 6 (RGBA); no interlace */
			if (body[8] != 8 || (body[9] != 2 && body[9] != 6) || body[12] ||
			    !img->width || !img->height || img->width > MAX_SIDE ||
			    img->height > MAX_SIDE) {
				snprintf(err, errlen, "%ux%u, depth %u, colour type %u, "
					 "interlace %u: not 8-bit RGB(A) non-interlaced",
					 img->width, img->height, body[8], body[9], body[12]);
				goto out;
			}
			img->channels = body[9] == 2 ? 3 : 4;
			have_ihdr = 1;
		} else if (!memcmp(type, "IDAT", 4)) {
			uint8_t *p = realloc(idat, nidat + n + 1);

			if (!p)
				goto nomem;
			idat = p;
			memcpy(idat + nidat, body, n);
			nidat += n;
		} else if (!memcmp(type, "IEND", 4)) {
			break;
		}
		off += 12 + (size_t)n;
	}
	if (!have_ihdr || !nidat) {
		snprintf(err, errlen, "no IHDR or no IDAT");
		goto out;
	}
	rawlen = (uLongf)img->height * ((size_t)img->width * img->channels + 1);
	raw = malloc(rawlen);
	img->pixels = malloc((size_t)img->height * img->width * img->channels);
	if (!raw || !img->pixels)
		goto nomem;
	if (uncompress(raw, &rawlen, idat, nidat) != Z_OK ||
	    rawlen != (uLongf)img->height * ((size_t)img->width * img->channels + 1)) {
		snprintf(err, errlen, "image data does not inflate to %ux%u pixels",
			 img->width, img->height);
		goto out;
	}
	ret = unfilter(img, raw, err, errlen);
	goto out;
nomem:
	snprintf(err, errlen, "out of memory");
out:
	free(idat);
	free(raw);
	if (ret)
		png_free(img);
	return ret;
}

uint32_t png_rgb(const struct png *img, uint32_t x, uint32_t y)
{
	const uint8_t *p;

	if (x >= img->width || y >= img->height)
		return 0xffffffff;
	p = img->pixels + ((size_t)y * img->width + x) * img->channels;
	return (uint32_t)p[0] << 16 | p[1] << 8 | p[2];
}

void png_free(struct png *img)
{
	free(img->pixels);
	memset(img, 0, sizeof(*img));
}
