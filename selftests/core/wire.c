// SPDX-License-Identifier: GPL-2.0-only
/* Driving protocol-core connections from tests (see wire.h). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "wire.h"
#include "../../tools/aca-host/payload.h"

void tc_out_reset(struct tc_out *o)
{
	o->len = 0;
	o->total = 0;
}

u64 tc_drain(struct acp_conn *c, struct tc_out *o, size_t chunk)
{
	u64 got = 0;

	acp_conn_use(c);	/* a read, as read(2) on the device */
	for (;;) {
		const void *data = NULL;
		size_t n = acp_conn_peek(c, &data);
		size_t keep;

		if (!n)
			return got;
		if (chunk && n > chunk)
			n = chunk;
		keep = o->cap - o->len < n ? o->cap - o->len : n;
		if (keep)
			memcpy(o->buf + o->len, data, keep);
		o->len += keep;
		o->total += n;
		got += n;
		acp_conn_consume(c, n);
	}
}

int tc_feed(struct acp_conn *c, const void *buf, size_t len, size_t frag,
	    struct tc_out *o)
{
	const u8 *p = buf;

	while (len) {
		size_t n = frag && frag < len ? frag : len;
		size_t k = acp_conn_input(c, p, n);

		if (k > n)
			return -1;
		/* Short counts are normal; none at all means "read first". */
		if (!k && !tc_drain(c, o, 0))
			return -1;	/* pushed back with nothing to read */
		p += k;
		len -= k;
	}
	return 0;
}

struct sep_control_first_msg tc_hello(u32 msg_size)
{
	struct sep_control_first_msg h = {
		.msg_size = msg_size,
		.proto_version = SEP_PROTO_VERSION,
	};

	return h;
}

struct sep_control_msg_header tc_header(u32 id, u64 to_target, u64 from_target)
{
	struct sep_control_msg_header h = {
		.header_size = sizeof(h),
		.proto_version = SEP_PROTO_VERSION,
		.command_id = id,
		.to_target_data_size = to_target,
		.from_target_data_size = from_target,
	};

	return h;
}

int tc_request(struct acp_conn *c, struct tc_out *o,
	       const struct sep_control_msg_header *h, const void *payload,
	       u64 payload_len, size_t frag, struct tc_resp *r)
{
	size_t len = sizeof(*h) + payload_len;
	u8 *req = malloc(len);
	int ret;

	memset(r, 0, sizeof(*r));
	if (!req)
		return -1;
	memcpy(req, h, sizeof(*h));
	if (payload_len)
		memcpy(req + sizeof(*h), payload, payload_len);
	tc_out_reset(o);
	ret = tc_feed(c, req, len, frag, o);
	free(req);
	tc_drain(c, o, 0);
	r->total = o->total;
	if (o->len >= sizeof(r->h)) {
		r->got = true;
		memcpy(&r->h, o->buf, sizeof(r->h));
		r->data = o->buf + sizeof(r->h);
		r->len = o->total - sizeof(r->h);
	}
	return ret;
}

int tc_cmd(struct acp_conn *c, struct tc_out *o, u32 id, const void *in,
	   u64 in_len, u64 out_len, size_t frag, struct tc_resp *r)
{
	struct sep_control_msg_header h = tc_header(id, in_len, out_len);

	return tc_request(c, o, &h, in, in_len, frag, r);
}

void tc_stream_add(struct tc_stream *s, const void *p, size_t n)
{
	if (s->len + n > s->cap) {
		size_t cap = s->cap ? s->cap : 4096;

		while (cap < s->len + n)
			cap *= 2;
		s->buf = realloc(s->buf, cap);
		if (!s->buf)
			abort();
		s->cap = cap;
	}
	if (n)
		memcpy(s->buf + s->len, p, n);
	s->len += n;
}

void tc_stream_cmd(struct tc_stream *s, u32 id, const void *in, u64 in_len,
		   u64 out_len)
{
	struct sep_control_msg_header h = tc_header(id, in_len, out_len);

	tc_stream_add(s, &h, sizeof(h));
	tc_stream_add(s, in, in_len);
}

void tc_stream_free(struct tc_stream *s)
{
	free(s->buf);
	memset(s, 0, sizeof(*s));
}

int tc_parse_output(const u8 *p, size_t len, struct sep_target_status_msg *st,
		    struct tc_msg *msgs, int max)
{
	size_t off = sizeof(*st);
	int n = 0;

	if (len < sizeof(*st))
		return -1;
	memcpy(st, p, sizeof(*st));
	if (st->msg_size != sizeof(*st))
		return -1;
	while (off < len) {
		struct sep_control_msg_header h;

		if (len - off < sizeof(h))
			return -1;
		memcpy(&h, p + off, sizeof(h));
		off += sizeof(h);
		if (h.header_size != sizeof(h) ||
		    h.proto_version != SEP_PROTO_VERSION ||
		    (h.status != VT_SUCCESS && h.from_target_data_size) ||
		    h.from_target_data_size > len - off)
			return -1;
		if (n < max)
			msgs[n] = (struct tc_msg){ h, off };
		n++;
		off += h.from_target_data_size;
	}
	return n;
}

bool tc_all_zero(const void *p, size_t n)
{
	const u8 *b = p;

	for (size_t i = 0; i < n; i++)
		if (b[i])
			return false;
	return true;
}

u8 *tc_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	u8 *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET))
		goto out;
	buf = malloc(n + 1);
	if (buf && fread(buf, 1, n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	if (buf) {
		buf[n] = 0;
		*len = n;
	}
out:
	fclose(f);
	return buf;
}

char *tc_tests_dir(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	char *slash;

	if (n <= 0)
		return NULL;
	buf[n] = 0;
	slash = strrchr(buf, '/');
	if (!slash)
		return NULL;
	*slash = 0;
	return buf;
}

char *tc_ksrc_file(char *buf, size_t len, const char *rel)
{
	char exe[PATH_MAX];

	if (!tc_tests_dir(exe, sizeof(exe)))
		return NULL;
	snprintf(buf, len, "%s/../ksrc/%s", exe, rel);
	return buf;
}

u8 *tc_load_vector(const char *name, size_t *len)
{
	char exe[PATH_MAX], path[PATH_MAX + 256];
	const char *env = getenv("ACA_VECTORS");
	u8 *buf;

	if (env) {
		snprintf(path, sizeof(path), "%s/%s", env, name);
	} else {
		/* <repo>/build/tests -> <repo>/selftests/vectors */
		if (!tc_tests_dir(exe, sizeof(exe)))
			return NULL;
		snprintf(path, sizeof(path), "%s/../../selftests/vectors/%s",
			 exe, name);
	}
	buf = tc_read_file(path, len);
	if (!buf)
		fprintf(stderr, "# test vector %s: cannot read it\n", path);
	return buf;
}

/* The test host's payloads (tools/aca-host/payload.c), as it sends them. */
void tc_drv_config(struct sep_drv_config *c, u64 collection_config)
{
	host_drv_config(c);
	c->size = 120;		/* what the test host sends (spec 5.2) */
	c->collection_config = collection_config;
}

void tc_topology(struct sep_drv_topology_info *t, u32 ncpus)
{
	host_topology(t, ncpus);
}

void tc_event_config(struct sep_event_config *e, bool uncore)
{
	host_event_config(e);
	if (uncore) {
		e->sample_size = 0;
		e->num_groups_unc = 1;
	}
}
