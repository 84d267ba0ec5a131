/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Strings of the report written for other programs: a CSV field (RFC 4180
 * quoting), a JSON string, XML text (the flame graph's SVG). Names come
 * from untrusted files: bytes that are not valid UTF-8 are written as '?',
 * so the output stays well-formed whatever the input held.
 */
#ifndef ACA_HOST_TEXTESC_H
#define ACA_HOST_TEXTESC_H

#include <stdio.h>

/* @s as one CSV field: quoted if it holds a comma, quote, CR or LF. */
void csv_field(FILE *f, const char *s);

/* @s as a JSON string, quotes included. */
void json_string(FILE *f, const char *s);

/* @s as XML character data or attribute value (&, <, >, ", ' escaped). */
void xml_text(FILE *f, const char *s);

#endif /* ACA_HOST_TEXTESC_H */
