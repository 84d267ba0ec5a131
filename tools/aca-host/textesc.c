// SPDX-License-Identifier: GPL-2.0-only
/* CSV, JSON and XML strings (textesc.h). */
#include <string.h>

#include "textesc.h"

/* Bytes of the valid UTF-8 sequence at @s (not NUL), or 0 if it is not one. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n;
	unsigned int c = s[0], min;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, min = 0x80;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, min = 0x800;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, min = 0x10000;
	else
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
	return n;
}

/*
 * Write @s with @esc deciding each ASCII byte: it writes the byte escaped
 * and returns 1, or returns 0 to have it written as it is.
 */
static void put(FILE *f, const char *s, int (*esc)(FILE *f, unsigned char c))
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t n = utf8_len(p);

		if (!n) {
			fputc('?', f);
			p++;
		} else if (n > 1) {
			fwrite(p, 1, n, f);
			p += n;
		} else {
			if (!esc(f, *p))
				fputc(*p, f);
			p++;
		}
	}
}

static int csv_esc(FILE *f, unsigned char c)
{
	if (c != '"')
		return 0;
	fputs("\"\"", f);
	return 1;
}

void csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		put(f, s, csv_esc);
		return;
	}
	fputc('"', f);
	put(f, s, csv_esc);
	fputc('"', f);
}

static int json_esc(FILE *f, unsigned char c)
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
	if (c < 0x20 || c == 0x7f) {
		fprintf(f, "\\u%04x", c);
		return 1;
	}
	return 0;
}

void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	put(f, s, json_esc);
	fputc('"', f);
}

static int xml_esc(FILE *f, unsigned char c)
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
	put(f, s, xml_esc);
}
