/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Driving a protocol-core connection the way a transport would: bytes in
 * (in fragments of any size, honouring back-pressure), bytes out through
 * acp_conn_peek()/acp_conn_consume(), and responses parsed off the stream.
 * No test harness in here: functions report problems in their results.
 */
#ifndef ACA_TEST_WIRE_H
#define ACA_TEST_WIRE_H

#include "../../driver/core/core.h"

/* Everything a connection has output, kept up to @cap bytes. */
struct tc_out {
	u8 *buf;
	size_t cap;
	size_t len;		/* bytes kept */
	u64 total;		/* bytes read, kept or not */
};

void tc_out_reset(struct tc_out *o);

/*
 * Read all pending output, @chunk bytes at a time (0: as much as offered).
 * Returns the number of bytes read.
 */
u64 tc_drain(struct acp_conn *c, struct tc_out *o, size_t chunk);

/*
 * Feed @len bytes in pieces of @frag bytes (0: all at once), as the device's
 * write() does: acp_conn_input() again after a short count, and the output
 * read into @o whenever the core takes nothing (back-pressure). Returns 0,
 * or -1 if the core broke the input contract (consumed more than offered, or
 * took nothing with no output pending: a stall).
 */
int tc_feed(struct acp_conn *c, const void *buf, size_t len, size_t frag,
	    struct tc_out *o);

struct sep_control_first_msg tc_hello(u32 msg_size);
struct sep_control_msg_header tc_header(u32 id, u64 to_target, u64 from_target);

/* A response as parsed off the output stream. */
struct tc_resp {
	bool got;		/* at least a 48-byte header arrived */
	struct sep_control_msg_header h;
	const u8 *data;		/* the bytes after the header (kept part) */
	u64 len;		/* number of bytes after the header */
	u64 total;		/* everything output for the request */
};

/*
 * Send @h and @payload_len bytes of @payload (in pieces of @frag), read
 * everything that comes back into @o, and parse it as one response.
 */
int tc_request(struct acp_conn *c, struct tc_out *o,
	       const struct sep_control_msg_header *h, const void *payload,
	       u64 payload_len, size_t frag, struct tc_resp *r);

/* A well-formed request: header_size 48, protocol 6. */
int tc_cmd(struct acp_conn *c, struct tc_out *o, u32 id, const void *in,
	   u64 in_len, u64 out_len, size_t frag, struct tc_resp *r);

/* A whole client byte stream, built ahead of time. */
struct tc_stream {
	u8 *buf;
	size_t len, cap;
};

void tc_stream_add(struct tc_stream *s, const void *p, size_t n);
void tc_stream_cmd(struct tc_stream *s, u32 id, const void *in, u64 in_len,
		   u64 out_len);
void tc_stream_free(struct tc_stream *s);

/* One response found in a control channel's output. */
struct tc_msg {
	struct sep_control_msg_header h;
	size_t off;		/* of its payload, in the output */
};

/*
 * Split the output of a control channel into its status message and the
 * responses that follow. Returns the number of responses (at most @max are
 * stored), or -1 if the stream breaks spec 4.1: not 296 bytes of status
 * first, a header that is not 48 bytes of protocol 6, a payload on a
 * failure, or a truncated response.
 */
int tc_parse_output(const u8 *p, size_t len, struct sep_target_status_msg *st,
		    struct tc_msg *msgs, int max);

/* True if @n bytes at @p are all zero. */
bool tc_all_zero(const void *p, size_t n);

/*
 * Read a test vector of selftests/vectors (selftests/vectors/README.md): from
 * $ACA_VECTORS if set, else from the repository this executable was built
 * in (<repo>/build/tests/.. -> <repo>/selftests/vectors). Returns malloc()ed
 * bytes or NULL; *@len is set on success. A test that needs one fails
 * without it.
 */
u8 *tc_load_vector(const char *name, size_t *len);

/*
 * The whole of file @path, malloc()ed with a NUL after its *@len bytes,
 * or NULL if it cannot be read or is empty.
 */
u8 *tc_read_file(const char *path, size_t *len);

/* The directory of this test program (<repo>/build/tests) in @buf, or NULL. */
char *tc_tests_dir(char *buf, size_t len);
/* @rel of the kernel source tools/extract-ksrc extracted (build/ksrc). */
char *tc_ksrc_file(char *buf, size_t len, const char *rel);

#define TC_CORE_ECB	"bin_ecb.config_6_0_CPU_CLK_UNHALTED.REF_TSC"
#define TC_UNCORE_ECB	"bin_ecb.config_6_0_UNC_IMC_DRAM_RW_SLICE0_UNC_IMC_DRAM_RW_SLICE1"

/* Payloads of the spec 5.1 collection sequence, test-suite values. */
void tc_drv_config(struct sep_drv_config *c, u64 collection_config);
void tc_topology(struct sep_drv_topology_info *t, u32 ncpus);
void tc_event_config(struct sep_event_config *e, bool uncore);

#endif /* ACA_TEST_WIRE_H */
