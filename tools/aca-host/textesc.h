/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Strings from untrusted input (the target's answers, the files it names,
 * the collection written from them) as text: for a terminal or a text file
 * (text_put(), text_copy()), and for other programs: a CSV field (RFC 4180
 * quoting), a JSON string, XML text (the flame graph's SVG). Bytes that are
 * not valid UTF-8 are written as '?', so the output stays well-formed
 * whatever the input held; and nothing reaches a terminal that it would act
 * on rather than show: no control character, C0 (ESC among them), DEL or
 * C1 (U+0080..U+009F: U+009B is CSI, as 0xc2 0x9b in UTF-8; alone, bytes
 * 0x80..0x9f are no UTF-8 at all).
 */
#ifndef ACA_HOST_TEXTESC_H
#define ACA_HOST_TEXTESC_H

#include <stddef.h>
#include <stdio.h>

/*
 * At most @max bytes of @s (fewer at its NUL) as text: every control
 * character and every byte that is not valid UTF-8 as '?'. Every string
 * of the target's that reaches a terminal or a text file goes through
 * this or text_copy().
 */
void text_put(FILE *f, const char *s, size_t max);

/*
 * The same into @dst (@len bytes, NUL-terminated when @len is not 0), a
 * character never cut in two at its end. Returns strlen(@dst).
 */
size_t text_copy(char *dst, size_t len, const char *s, size_t max);

/*
 * @s as one CSV field: quoted if it holds a comma, quote, CR or LF; other
 * control characters as '?'. A field that starts with '=', '+', '-' or '@'
 * gets a "'" before it, so that a spreadsheet takes it for text, not a
 * formula (aca-host(1)).
 */
void csv_field(FILE *f, const char *s);

/* @s as a JSON string, quotes included; control characters as \uXXXX. */
void json_string(FILE *f, const char *s);

/* @s as XML character data or attribute value (&, <, >, ", ' escaped). */
void xml_text(FILE *f, const char *s);

#endif /* ACA_HOST_TEXTESC_H */
