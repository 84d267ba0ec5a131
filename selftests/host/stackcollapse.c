// SPDX-License-Identifier: GPL-2.0-only
/* perf script text folded by stackcollapse-perf.pl's rules (stackcollapse.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stackcollapse.h"

struct counted {
	char *stack;
	unsigned long long n;
};

struct state {
	char *pname;		/* NULL: no sample, or one left out */
	unsigned long long period;
	char *event;		/* of the first sample */
	char **frames;		/* outermost first */
	size_t nframes;
	struct counted *stacks;
	size_t nstacks;
};

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' || c == '\n';
}

static int is_word(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* \s+(\d+)[/]*(\d+)*\s+ at @p: the length matched, or 0. */
static size_t pid_tid_at(const char *p)
{
	const char *q = p;

	if (!is_space(*q))
		return 0;
	while (is_space(*q))
		q++;
	if (!isdigit((unsigned char)*q))
		return 0;
	while (isdigit((unsigned char)*q))
		q++;
	while (*q == '/')
		q++;
	while (isdigit((unsigned char)*q))
		q++;
	if (!is_space(*q))
		return 0;
	return q - p + 1;
}

/* The leftmost /:\s*(\d+)*\s+(\S+):\s*$/: period (0 if none) and event. */
static int period_event(const char *line, unsigned long long *period, char **event)
{
	for (const char *c = strchr(line, ':'); c; c = strchr(c + 1, ':')) {
		const char *p = c + 1, *ws = p, *tok, *end;
		unsigned long long v = 0;

		while (is_space(*p))
			p++;
		if (isdigit((unsigned char)*p)) {
			v = strtoull(p, (char **)&p, 10);
			if (!is_space(*p))
				continue;
			while (is_space(*p))
				p++;
		} else if (p == ws) {
			continue;	/* \s+ needs one blank at least */
		}
		tok = p;
		while (*p && !is_space(*p))
			p++;
		end = p;
		while (is_space(*p))
			p++;
		if (*p || end - tok < 2 || end[-1] != ':')
			continue;
		*period = v;
		*event = strndup(tok, end - tok - 1);
		return 0;
	}
	return -1;
}

static void drop_frames(struct state *s)
{
	for (size_t i = 0; i < s->nframes; i++)
		free(s->frames[i]);
	s->nframes = 0;
}

static void header(struct state *s, const char *line)
{
	size_t len = strlen(line), l;
	unsigned long long period = 0;
	char *event = NULL;

	free(s->pname);
	s->pname = NULL;
	/* (\S.+?): the shortest comm of two characters at least. */
	for (l = 2; l < len; l++)
		if (pid_tid_at(line + l))
			break;
	if (period_event(line, &period, &event) == 0) {
		if (!s->event) {
			s->event = event;
		} else if (strcmp(event, s->event)) {
			free(event);
			return;		/* another event: left out */
		} else {
			free(event);
		}
	}
	s->period = period ? period : 1;
	s->pname = strndup(line, l);
	for (char *c = s->pname; *c; c++)
		if (*c == ' ')
			*c = '_';
}

static void tidy(char *f)
{
	char *p, *q;

	for (p = f; *p; p++)
		if (*p == ';')
			*p = ':';
	p = strstr(f, ".(");
	if (!(p && strstr(p + 2, ")."))) {
		for (p = q = f; *p; p++)
			if (*p != '<' && *p != '>')
				*q++ = *p;
		*q = 0;
		if (strncmp(f, "(anonymous namespace)", 21) && (p = strchr(f, '(')))
			*p = 0;
	}
	for (p = q = f; *p; p++)
		if (*p != '"' && *p != '\'')
			*q++ = *p;
	*q = 0;
}

/* The parts of one frame, put before the frames so far, in their order. */
static void frame(struct state *s, char *func, const char *mod)
{
	char *parts[256], *p = func, *end;
	size_t n = 0, len = strlen(func);

	/* s/\+0x[\da-f]+$// */
	end = func + len;
	while (end > func && (isdigit((unsigned char)end[-1]) ||
			      (end[-1] >= 'a' && end[-1] <= 'f')))
		end--;
	if (end < func + len && end - func >= 3 && !strncmp(end - 3, "+0x", 3))
		func[end - 3 - func] = 0;
	if (func[0] == '(')
		return;
	/* split /->/, trailing empty parts dropped */
	for (;;) {
		char *arrow = strstr(p, "->");

		if (arrow)
			*arrow = 0;
		if (n < 256)
			parts[n++] = p;
		if (!arrow)
			break;
		p = arrow + 2;
	}
	while (n && !parts[n - 1][0])
		n--;
	s->frames = realloc(s->frames, (s->nframes + n) * sizeof(*s->frames));
	memmove(s->frames + n, s->frames, s->nframes * sizeof(*s->frames));
	for (size_t i = 0; i < n; i++) {
		char *f;

		if (!strcmp(parts[i], "[unknown]") && strcmp(mod, "[unknown]")) {
			const char *base = strrchr(mod, '/');

			if (asprintf(&f, "[%s]", base ? base + 1 : mod) < 0)
				f = NULL;
		} else {
			f = strdup(parts[i]);
		}
		tidy(f);
		s->frames[i] = f;
	}
	s->nframes += n;
}

/* /^\s*(\w+)\s*(.+) \((\S*)\)/ */
static int stack_line(struct state *s, const char *line)
{
	const char *p = line, *r;
	size_t len = strlen(line);

	while (is_space(*p))
		p++;
	if (!is_word(*p))
		return -1;
	while (is_word(*p))
		p++;
	while (is_space(*p))
		p++;
	r = p;
	/* (.+) greedy: the last " (" whose \S* run has a ')' in it. */
	for (const char *j = line + len - 2; j > r; j--) {
		const char *k, *close = NULL;
		char *func, *mod;

		if (j[0] != ' ' || j[1] != '(')
			continue;
		for (k = j + 2; *k && !is_space(*k); k++)
			if (*k == ')')
				close = k;
		if (!close)
			continue;
		if (!s->pname)
			return 0;
		func = strndup(r, j - r);
		mod = strndup(j + 2, close - (j + 2));
		frame(s, func, mod);
		free(func);
		free(mod);
		return 0;
	}
	return -1;
}

static void end_of_sample(struct state *s)
{
	size_t len = strlen(s->pname) + 1;
	char *stack, *p;

	if (!s->pname[0] || !strcmp(s->pname, "0"))	/* false in Perl */
		goto out;
	for (size_t i = 0; i < s->nframes; i++)
		len += strlen(s->frames[i]) + 1;
	stack = p = malloc(len);
	p += sprintf(p, "%s", s->pname);
	for (size_t i = 0; i < s->nframes; i++)
		p += sprintf(p, ";%s", s->frames[i]);
	for (size_t i = 0; i < s->nstacks; i++) {
		if (!strcmp(s->stacks[i].stack, stack)) {
			s->stacks[i].n += s->period;
			free(stack);
			goto out;
		}
	}
	s->stacks = realloc(s->stacks, (s->nstacks + 1) * sizeof(*s->stacks));
	s->stacks[s->nstacks++] = (struct counted){ stack, s->period };
out:
	drop_frames(s);
	free(s->pname);
	s->pname = NULL;
}

static int by_stack(const void *a, const void *b)
{
	return strcmp(((const struct counted *)a)->stack, ((const struct counted *)b)->stack);
}

char *stackcollapse_perf(const char *text)
{
	struct state s = { 0 };
	char *copy = strdup(text), *line, *save = NULL, *out = NULL;
	size_t len = 0;
	FILE *f;

	if (!copy)
		return NULL;
	/* Line by line, empty lines included (strtok_r would skip them). */
	for (line = copy; line && *line; line = save) {
		save = strchr(line, '\n');
		if (save)
			*save++ = 0;
		if (line[0] == '#')
			continue;
		if (!line[0]) {
			if (s.pname)
				end_of_sample(&s);
			else
				drop_frames(&s);
			continue;
		}
		if (!is_space(line[0]) && line[1]) {
			size_t l;

			for (l = 2; l < strlen(line); l++)
				if (pid_tid_at(line + l))
					break;
			if (l < strlen(line)) {
				header(&s, line);
				continue;
			}
		}
		stack_line(&s, line);
	}
	qsort(s.stacks, s.nstacks, sizeof(*s.stacks), by_stack);
	f = open_memstream(&out, &len);
	for (size_t i = 0; f && i < s.nstacks; i++)
		fprintf(f, "%s %llu\n", s.stacks[i].stack, s.stacks[i].n);
	if (f)
		fclose(f);
	for (size_t i = 0; i < s.nstacks; i++)
		free(s.stacks[i].stack);
	free(s.stacks);
	drop_frames(&s);
	free(s.frames);
	free(s.pname);
	free(s.event);
	free(copy);
	return out;
}
