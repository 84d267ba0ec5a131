// SPDX-License-Identifier: GPL-2.0-only
/* Text for terminals and text files; CSV, JSON and XML strings (textesc.h). */
#include <stdint.h>
#include <string.h>

#include "textesc.h"

/*
 * The character at @s, of at most @avail bytes (not 0): its length, with
 * its code point in *@cp; or 0 if no valid UTF-8 character is there (a
 * NUL ends one too, so nothing past it is read).
 */
static size_t utf8_char(const unsigned char *s, size_t avail, unsigned int *cp)
{
	size_t n;
	unsigned int c = s[0], min;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, min = 0x80;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, min = 0x800;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, min = 0x10000;
	else
		return 0;
	if (n > avail)
		return 0;
	c &= 0x3f >> (n - 1);
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)	/* a NUL ends here too */
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	/* No overlong form, no surrogate, nothing above U+10FFFF. */
	if (c < min || (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
		return 0;
	*cp = c;
	return n;
}

/* What a terminal acts on rather than shows: C0 (ESC among them), DEL, C1. */
static int is_control(unsigned int c)
{
	return c < 0x20 || (c >= 0x7f && c < 0xa0);
}

/*
 * Write at most @max bytes of @s, up to its NUL, with @esc deciding each
 * character (its code point): it writes the character escaped and returns
 * 1, or returns 0 to have it written as it is. A byte that is no UTF-8 is
 * written as '?'.
 */
static void put(FILE *f, const char *s, size_t max, int (*esc)(FILE *f, unsigned int c))
{
	const unsigned char *p = (const unsigned char *)s;

	while (max && *p) {
		unsigned int c;
		size_t n = utf8_char(p, max, &c);

		if (!n) {
			fputc('?', f);
			n = 1;
		} else if (!esc(f, c)) {
			fwrite(p, 1, n, f);
		}
		p += n;
		max -= n;
	}
}

static int text_esc(FILE *f, unsigned int c)
{
	if (!is_control(c))
		return 0;
	fputc('?', f);
	return 1;
}

void text_put(FILE *f, const char *s, size_t max)
{
	put(f, s, max, text_esc);
}

size_t text_copy(char *dst, size_t len, const char *s, size_t max)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t k = 0;

	if (!len)
		return 0;
	while (max && *p) {
		unsigned int c;
		size_t n = utf8_char(p, max, &c);
		const void *from = p;
		size_t w = n;

		if (!n || is_control(c)) {
			from = "?";
			w = 1;
			n = n ? n : 1;
		}
		/* Room for the character and the NUL, or it is left out whole. */
		if (w >= len - k)
			break;
		memcpy(dst + k, from, w);
		k += w;
		p += n;
		max -= n;
	}
	dst[k] = 0;
	return k;
}

static int csv_esc(FILE *f, unsigned int c)
{
	if (c == '"') {
		fputs("\"\"", f);
		return 1;
	}
	/* CR and LF are data in a quoted field (RFC 4180). */
	if (c != '\r' && c != '\n')
		return text_esc(f, c);
	return 0;
}

void csv_field(FILE *f, const char *s)
{
	int quote = !!strpbrk(s, ",\"\r\n");

	if (quote)
		fputc('"', f);
	/* Formula injection: a spreadsheet takes "'=..." for text. */
	if (s[0] && strchr("=+-@", s[0]))
		fputc('\'', f);
	put(f, s, SIZE_MAX, csv_esc);
	if (quote)
		fputc('"', f);
}

static int json_esc(FILE *f, unsigned int c)
{
	switch (c) {
	case '"':
		fputs("\\\"", f);
		return 1;
	case '\\':
		fputs("\\\\", f);
		return 1;
	case '\n':
		fputs("\\n", f);
		return 1;
	case '\t':
		fputs("\\t", f);
		return 1;
	}
	if (is_control(c)) {
		fprintf(f, "\\u%04x", c);
		return 1;
	}
	return 0;
}

void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	put(f, s, SIZE_MAX, json_esc);
	fputc('"', f);
}

static int xml_esc(FILE *f, unsigned int c)
{
	switch (c) {
	case '&':
		fputs("&amp;", f);
		return 1;
	case '<':
		fputs("&lt;", f);
		return 1;
	case '>':
		fputs("&gt;", f);
		return 1;
	case '"':
		fputs("&quot;", f);
		return 1;
	case '\'':
		fputs("&apos;", f);
		return 1;
	}
	/* XML 1.0 allows no control character but tab, CR and LF. */
	if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
		fputc('?', f);
		return 1;
	}
	return 0;
}

void xml_text(FILE *f, const char *s)
{
	put(f, s, SIZE_MAX, xml_esc);
}
