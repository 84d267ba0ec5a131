// SPDX-License-Identifier: GPL-2.0-only
/*
 * Protocol core, ECB translation against perf's own event tables (issue
 * 15): for every core event of a model's pmu-events JSON (Debian's
 * linux-source-6.12, tools/perf/pmu-events/arch/x86/MODEL, extracted into
 * build/ksrc by tools/extract-ksrc; ACA_PMU_EVENTS names another x86
 * directory), an ECB is built as a SEP host builds it, sent with
 * EM_CONFIG_NEXT, and the event START hands the sampler must be what perf
 * derives from the same entry (tools/perf/pmu-events/jevents.py):
 *
 *   config  = event[7:0] | umask << 8 | edge << 18 | any << 21 | inv << 23
 *             | cmask << 24, and on AMD event[11:8] << 32 (perf's amd
 *             format: event config:0-7,32-35)
 *   config1 = MSRValue for the events jevents gives an MSR field
 *             (0x1a6/0x1a7 offcore_rsp, 0x3f6 ldlat, 0x3f7 frontend)
 *   period  = SampleAfterValue; precise when the entry says PEBS.
 *
 * jevents replaces a few well-known names by fixed strings
 * (inst_retired.any -> event=0xc0, cpu_clk_unhalted.thread -> 0x3c, ...);
 * those win, as in perf. Fixed-counter events ("Counter": "Fixed counter
 * N") go to fixed counter N with FIXED_CTR_CTRL's nibble, the rest to the
 * first general counter their "Counter" lists. On a model whose fixed
 * counters can be precise (PEBS baseline in IA32_PERF_CAPABILITIES,
 * Icelake on), INST_RETIRED.PREC_DIST on fixed counter 0 is perf's
 * 0x0100; the fake target says so for those models.
 *
 * The JSON reader is this file's: arrays of flat objects whose values are
 * strings or numbers, which is what these tables are.
 * Its own program, build/tests/core_xlate_test, on the fixture every core
 * test program shares (core_fixture.h).
 */
#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "core_fixture.h"

/* ---- a JSON reader for pmu-events tables ---- */

#define J_MAX_KEYS	48
#define J_SCALAR	32

struct jobj {
	u32 n;
	const char *key[J_MAX_KEYS];
	const char *val[J_MAX_KEYS];
	char scalar[J_MAX_KEYS][J_SCALAR];	/* numbers, true, false, null */
};

struct jparse {
	char *p, *end;
	const char *err;
};

static void jspace(struct jparse *j)
{
	while (j->p < j->end && isspace((unsigned char)*j->p))
		j->p++;
}

static bool jtake(struct jparse *j, char c)
{
	jspace(j);
	if (j->p < j->end && *j->p == c) {
		j->p++;
		return true;
	}
	return false;
}

static bool jfail(struct jparse *j, const char *why)
{
	if (!j->err)
		j->err = why;
	return false;
}

/* A string, decoded in place over its own bytes and NUL-terminated. */
static char *jstring(struct jparse *j)
{
	char *start, *out;

	jspace(j);
	if (j->p >= j->end || *j->p != '"')
		return jfail(j, "expected a string"), NULL;
	start = out = ++j->p;
	while (j->p < j->end && *j->p != '"') {
		char c = *j->p++;

		if ((unsigned char)c < 0x20)
			return jfail(j, "control character in a string"), NULL;
		if (c == '\\') {
			if (j->p >= j->end)
				break;
			c = *j->p++;
			switch (c) {
			case '"': case '\\': case '/':
				break;
			case 'b': c = '\b'; break;
			case 'f': c = '\f'; break;
			case 'n': c = '\n'; break;
			case 'r': c = '\r'; break;
			case 't': c = '\t'; break;
			case 'u':
				for (int i = 0; i < 4; i++)
					if (j->p >= j->end || !isxdigit((unsigned char)*j->p++))
						return jfail(j, "bad \\u escape"), NULL;
				c = '?';	/* only descriptions have them */
				break;
			default:
				return jfail(j, "bad escape"), NULL;
			}
		}
		*out++ = c;
	}
	if (j->p >= j->end)
		return jfail(j, "unterminated string"), NULL;
	j->p++;
	*out = 0;
	return start;
}

/* A number, true, false or null, copied into @buf. */
static const char *jscalar(struct jparse *j, char *buf)
{
	size_t n = 0;

	jspace(j);
	while (j->p < j->end && (isalnum((unsigned char)*j->p) ||
				 strchr("+-.", *j->p))) {
		if (n == J_SCALAR - 1)
			return jfail(j, "scalar too long"), NULL;
		buf[n++] = *j->p++;
	}
	buf[n] = 0;
	if (!n)
		return jfail(j, "expected a value"), NULL;
	return buf;
}

static bool jobject(struct jparse *j, struct jobj *o)
{
	o->n = 0;
	if (!jtake(j, '{'))
		return jfail(j, "expected an object");
	if (jtake(j, '}'))
		return true;
	do {
		const char *k = jstring(j), *v;

		if (!k)
			return false;
		if (!jtake(j, ':'))
			return jfail(j, "expected ':'");
		if (o->n == J_MAX_KEYS)
			return jfail(j, "too many keys in one object");
		jspace(j);
		if (j->p < j->end && (*j->p == '{' || *j->p == '['))
			return jfail(j, "nested value: event tables are flat");
		v = j->p < j->end && *j->p == '"' ? jstring(j) :
			jscalar(j, o->scalar[o->n]);
		if (!v)
			return false;
		o->key[o->n] = k;
		o->val[o->n++] = v;
	} while (jtake(j, ','));
	if (!jtake(j, '}'))
		return jfail(j, "expected ',' or '}'");
	return true;
}

static const char *jget(const struct jobj *o, const char *key)
{
	for (u32 i = 0; i < o->n; i++)
		if (!strcmp(o->key[i], key))
			return o->val[i];
	return NULL;
}

/* ---- what perf encodes, what a host sends ---- */

#define EVTSEL_USR	(1ull << 16)
#define EVTSEL_OS	(1ull << 17)
#define EVTSEL_EDGE	(1ull << 18)
#define EVTSEL_INT	(1ull << 20)
#define EVTSEL_ANY	(1ull << 21)
#define EVTSEL_EN	(1ull << 22)
#define EVTSEL_INV	(1ull << 23)

#define DEFAULT_SAV	100003ull	/* entries without SampleAfterValue */

/* jevents.py's real_event(): names whose encoding is fixed. */
static const struct {
	const char *name;
	u64 config;
} perf_fixed_names[] = {
	{ "inst_retired.any", 0xc0 },
	{ "inst_retired.any_p", 0xc0 },
	{ "cpu_clk_unhalted.ref", 0x0300 },
	{ "cpu_clk_unhalted.thread", 0x3c },
	{ "cpu_clk_unhalted.core", 0x3c },
	{ "cpu_clk_unhalted.thread_any", 0x3c | EVTSEL_ANY },
};
#define PERF_FIXED_PERIOD	2000003ull

/* The auxiliary MSRs jevents' lookup_msr() knows, all config1 fields. */
static const u32 aux_msrs[] = { 0x1a6, 0x1a7, 0x3f6, 0x3f7 };

struct xmodel {
	const char *name;
	bool amd;		/* event select bits 35:32 hold event[11:8] */
	bool pebs_baseline;	/* Icelake on: fixed counters can be precise */
};

/* Why an entry is not a core event to check; each counted. */
enum skip {
	SKIP_NO_NAME,		/* no EventName: counter.json's counter counts */
	SKIP_METRIC,		/* MetricName: a metric, not an event */
	SKIP_UNCORE,		/* Unit other than a hybrid's cpu_core/cpu_atom: see below */
	SKIP_NO_ENCODING,	/* a field outside perf's cpu format */
	SKIP_TABLE_FILE,	/* a file that is not an array of events */
	NSKIP
};

static const char *const skip_why[NSKIP] = {
	[SKIP_NO_NAME] = "entries without EventName (counter.json's counter counts)",
	[SKIP_METRIC] = "metrics (MetricName)",
	[SKIP_UNCORE] = "uncore events (Unit set), not core ECBs",
	[SKIP_NO_ENCODING] = "fields perf's cpu format cannot hold",
	[SKIP_TABLE_FILE] = "files not an array of events (*metrics.json, metricgroups.json)",
};

#define MAX_UNITS	32

struct xtally {
	u32 checked, mismatches;
	u32 skipped[NSKIP];
	u32 nunits;
	struct {
		char name[32];
		u32 events;
	} units[MAX_UNITS];
};

/* An entry's number field; @dflt when absent, false when not a number. */
static bool jnum(const struct jobj *o, const char *key, u64 dflt, u64 *v)
{
	const char *s = jget(o, key);
	char *end;

	*v = dflt;
	if (!s)
		return true;
	*v = strtoull(s, &end, 0);
	/* "0xB7, 0xBB": jevents takes the first of a list, as here. */
	return end != s && (!*end || *end == ',');
}

struct perf_enc {
	u64 config, config1, period;
	bool precise;
	u32 aux_msr;		/* 0: none */
	int fixed;		/* fixed counter, or -1 */
	u32 counter;		/* general counter when not fixed */
	u64 evtsel;		/* the host's event select */
	bool any;
	bool prec_dist_ecb;	/* expected 0x0100, not jevents' name rule */
};

/* The encoding jevents.py derives from @o, and the host's registers. */
static bool perf_encode(const struct xmodel *m, const struct jobj *o,
			struct perf_enc *pe)
{
	u64 event, umask, cmask, edge, inv, any, msr, msrval, pebs, ext;
	const char *name = jget(o, "EventName"), *counter = jget(o, "Counter");

	memset(pe, 0, sizeof(*pe));
	if (!jnum(o, "EventCode", 0, &event) || !jnum(o, "ExtSel", 0, &ext) ||
	    !jnum(o, "UMask", 0, &umask) || !jnum(o, "CounterMask", 0, &cmask) ||
	    !jnum(o, "EdgeDetect", 0, &edge) || !jnum(o, "Invert", 0, &inv) ||
	    !jnum(o, "AnyThread", 0, &any) || !jnum(o, "MSRIndex", 0, &msr) ||
	    !jnum(o, "MSRValue", 0, &msrval) || !jnum(o, "PEBS", 0, &pebs) ||
	    !jnum(o, "SampleAfterValue", DEFAULT_SAV, &pe->period))
		return false;
	event |= ext << 8;
	if (event > (m->amd ? 0xfffull : 0xffull) || umask > 0xff ||
	    cmask > 0xff || edge > 1 || inv > 1 || any > 1 || !pe->period ||
	    pe->period >= 1ull << 48)
		return false;
	pe->config = (event & 0xff) | umask << 8 | edge << 18 | any << 21 |
		     inv << 23 | cmask << 24 | (event >> 8) << 32;
	pe->any = any;
	if (msr) {
		bool known = false;

		for (size_t i = 0; i < ARRAY_SIZE(aux_msrs); i++)
			known |= msr == aux_msrs[i];
		if (!known)
			return false;	/* jevents' lookup_msr() has no field */
		pe->aux_msr = msr;
		pe->config1 = msrval;
	}
	for (size_t i = 0; i < ARRAY_SIZE(perf_fixed_names); i++)
		if (!strcasecmp(name, perf_fixed_names[i].name)) {
			pe->config = perf_fixed_names[i].config;
			pe->config1 = 0;
			pe->period = PERF_FIXED_PERIOD;
		}
	pe->precise = pebs != 0;

	/* The host: a fixed counter where the table says so. */
	pe->fixed = -1;
	if (counter && !strncasecmp(counter, "Fixed counter ", 14)) {
		pe->fixed = atoi(counter + 14);
		if (pe->fixed < 0 || pe->fixed > 3)
			return false;
	} else if (counter && isdigit((unsigned char)counter[0])) {
		pe->counter = atoi(counter);
		if (pe->counter > 7)
			return false;
	}
	/*
	 * Precise on fixed counter 0 where fixed counters can be precise: the
	 * ECB (that counter, PEBS) of INST_RETIRED.PREC_DIST, whatever the
	 * entry's name. perf runs it on that counter as 0x0100; jevents' name
	 * rule would make INST_RETIRED.ANY 0xc0, which perf puts on a general
	 * counter the host did not program.
	 */
	if (m->pebs_baseline && pe->fixed == 0 && pe->precise) {
		pe->prec_dist_ecb = pe->config != 0x0100;
		pe->config = 0x0100;
	}
	pe->evtsel = (event & 0xff) | umask << 8 | EVTSEL_USR | EVTSEL_OS |
		     edge << 18 | EVTSEL_INT | any << 21 | EVTSEL_EN | inv << 23 |
		     cmask << 24 | (event >> 8) << 32;
	return true;
}

/* ---- the host's ECB ---- */

/*
 * Slots: GLOBAL_REGS 0-1 (GLOBAL_CTRL, FIXED_CTR_CTRL), CTRL_GP 2-9
 * (0x186 + k), DATA_FIXED 10-13 (0x309 + j), DATA_GP 14-21 (0xc1 + k),
 * OCR 22-25 (0x1a6, 0x1a7, 0x3f6, 0x3f7); empty slots have reg_id 0.
 */
#define X_CTRL_GP	2
#define X_FIXED		10
#define X_GP		14
#define X_OCR		22
#define X_SLOTS		26
#define X_ECB_LEN	(sizeof(struct sep_ecb) + X_SLOTS * sizeof(struct sep_event_reg))

static void x_slot(u8 *ecb, u32 slot, u32 reg, u64 value, u16 flags)
{
	struct sep_event_reg r = {
		.reg_type = SEP_REG_TYPE_DATA,
		.event_reg_id.reg_id = reg,
		.reg_value = value,
		.flags = flags,
		.max_bits = 0xffffffffffffull,
		.event_id_index = 7,
	};

	memcpy(ecb + sizeof(struct sep_ecb) + slot * sizeof(r), &r, sizeof(r));
}

static void x_section(struct sep_ecb *h, u32 op, u32 start, u32 len)
{
	h->operations[op].operation_type = op;
	h->operations[op].register_start = start;
	h->operations[op].register_len = len;
}

static void host_ecb(u8 *ecb, const struct perf_enc *pe)
{
	struct sep_ecb h = {
		.version = 2,
		.num_entries = X_SLOTS,
		.num_events = 1,
		.size_of_allocation = X_ECB_LEN,
		.device_type = SEP_DEVICE_CORE,
	};
	u64 reload = (1ull << 48) - pe->period;
	u16 precise = pe->precise ? SEP_EVREG_PRECISE : 0;

	memset(ecb, 0, X_ECB_LEN);
	x_section(&h, SEP_OP_GLOBAL_REGS, 0, 2);
	x_section(&h, SEP_OP_CTRL_GP, X_CTRL_GP, 8);
	x_section(&h, SEP_OP_DATA_FIXED, X_FIXED, 4);
	x_section(&h, SEP_OP_DATA_GP, X_GP, 8);
	x_section(&h, SEP_OP_OCR, X_OCR, 4);
	memcpy(ecb, &h, sizeof(h));
	if (pe->fixed >= 0) {
		/* Nibble: OS, USR, PMI, and AnyThread when the entry has it. */
		u64 nibble = 0xb | (pe->any ? 0x4 : 0);

		x_slot(ecb, 0, 0x38f, 1ull << (32 + pe->fixed), SEP_EVREG_GLOBAL);
		x_slot(ecb, 1, 0x38d, nibble << (4 * pe->fixed), SEP_EVREG_GLOBAL);
		x_slot(ecb, X_FIXED + pe->fixed, 0x309 + pe->fixed, reload,
		       precise | SEP_EVREG_FIXED_REG);
		return;
	}
	x_slot(ecb, 0, 0x38f, 1ull << pe->counter, SEP_EVREG_GLOBAL);
	x_slot(ecb, 1, 0x38d, 0, SEP_EVREG_GLOBAL);
	x_slot(ecb, X_CTRL_GP + pe->counter, 0x186 + pe->counter, pe->evtsel, 0);
	x_slot(ecb, X_GP + pe->counter, 0xc1 + pe->counter, reload,
	       precise | SEP_EVREG_IS_GP_REG);
	for (u32 i = 0; i < ARRAY_SIZE(aux_msrs); i++)
		if (pe->aux_msr == aux_msrs[i])
			x_slot(ecb, X_OCR + i, aux_msrs[i], pe->config1, 0);
}

/* ---- sending it ---- */

static const char *pmu_events_dir(char *buf, size_t len)
{
	const char *env = getenv("ACA_PMU_EVENTS");
	char exe[PATH_MAX];

	if (env)
		return env;
	/* <repo>/build/tests -> <repo>/build/ksrc/... */
	if (!tc_tests_dir(exe, sizeof(exe)))
		return NULL;
	snprintf(buf, len, "%s/../ksrc/tools/perf/pmu-events/arch/x86", exe);
	return buf;
}

static void count_unit(struct xtally *t, const char *unit)
{
	u32 i;

	for (i = 0; i < t->nunits; i++)
		if (!strcmp(t->units[i].name, unit))
			break;
	if (i == t->nunits) {
		if (t->nunits == MAX_UNITS)
			return;
		snprintf(t->units[t->nunits++].name, sizeof(t->units[0].name), "%s", unit);
	}
	t->units[i].events++;
}

/*
 * One event through the core as a host sends it: a fresh session,
 * EM_CONFIG_NEXT with the event's ECB, START, and what the sampler got.
 */
static bool translate(struct __test_metadata *_metadata, FIXTURE_DATA(core) *self,
		      const struct xmodel *m, const char *event,
		      const struct perf_enc *pe)
{
	static u8 ecb[X_ECB_LEN];
	const struct acp_event *e = &self->f.start_groups[0].events[0];
	bool ok = true;
	s32 st;

	host_ecb(ecb, pe);
	reinit(_metadata, self, FAKE_NCPUS);
	/* What IA32_PERF_CAPABILITIES says on that model (PREC_DIST's encoding). */
	fake_set_msr(&self->f, 0x345, m->pebs_baseline ? 1ull << 14 : 0);
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_CONFIGURED);
	EXPECT_EQ(VT_SUCCESS, em_groups(_metadata, self, 1));
	st = send_ecb(_metadata, self, ecb, X_ECB_LEN, 0);
	if (st != VT_SUCCESS) {
		ksft_print_msg("%s %s: EM_CONFIG_NEXT refused (%d)\n", m->name, event, st);
		return false;
	}
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
	if (self->f.start_groups[0].nevents != 1) {
		ksft_print_msg("%s %s: %u events decoded, not 1\n", m->name, event,
			       self->f.start_groups[0].nevents);
		ok = false;
	} else {
#define XCHECK(field, want) do { \
	if ((u64)e->field != (u64)(want)) { \
		ksft_print_msg("%s %s: " #field " 0x%llx, perf 0x%llx\n", m->name, event, \
			       (unsigned long long)e->field, (unsigned long long)(want)); \
		ok = false; \
	} } while (0)
		XCHECK(fixed, pe->fixed >= 0);
		XCHECK(counter, pe->fixed >= 0 ? (u32)pe->fixed : pe->counter);
		XCHECK(config, pe->config);
		XCHECK(config1, pe->config1);
		XCHECK(precise, pe->precise);
		XCHECK(period, pe->period);
		XCHECK(exclude_user, 0);
		XCHECK(exclude_kernel, 0);
		XCHECK(event_index, 7);
#undef XCHECK
	}
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_STOP, NULL, 0, 0));
	return ok;
}

static int json_file(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return n > 5 && !strcmp(d->d_name + n - 5, ".json");
}

/*
 * Each object of the JSON array @text through @each; NULL, or why the text
 * is not such an array (@at: where). A top-level object is not an event
 * table: *@table false, nothing walked.
 */
static const char *jtable(char *text, size_t len,
			  void (*each)(const struct jobj *o, void *arg), void *arg,
			  bool *table, size_t *at)
{
	struct jparse j = { .p = text, .end = text + len };
	struct jobj *o = malloc(sizeof(*o));

	*table = false;
	if (!o)
		return "out of memory";
	jspace(&j);
	if (j.p < j.end && *j.p == '{') {
		*at = 0;
		free(o);
		return NULL;
	}
	*table = true;
	if (!jtake(&j, '[')) {
		jfail(&j, "expected '[' or '{'");
	} else if (!jtake(&j, ']')) {
		do {
			if (!jobject(&j, o))
				break;
			each(o, arg);
		} while (jtake(&j, ','));
		if (!j.err && !jtake(&j, ']'))
			jfail(&j, "expected ',' or ']'");
	}
	jspace(&j);
	if (!j.err && j.p != j.end)
		jfail(&j, "text after the table");
	*at = j.p - text;
	free(o);
	return j.err;
}

struct xctx {
	struct __test_metadata *md;
	FIXTURE_DATA(core) *self;
	const struct xmodel *m;
	struct xtally *t;
};

/* One entry of a model's table: skipped (and why), or translated. */
static void each_entry(const struct jobj *o, void *arg)
{
	struct xctx *x = arg;
	const char *name = jget(o, "EventName"), *unit = jget(o, "Unit");
	struct xtally *t = x->t;
	struct perf_enc pe;

	if (jget(o, "MetricName")) {
		t->skipped[SKIP_METRIC]++;
	} else if (!name) {
		t->skipped[SKIP_NO_NAME]++;
	} else if (unit && strcmp(unit, "cpu_core") && strcmp(unit, "cpu_atom")) {
		t->skipped[SKIP_UNCORE]++;
		count_unit(t, unit);
	} else if (!perf_encode(x->m, o, &pe)) {
		t->skipped[SKIP_NO_ENCODING]++;
		ksft_print_msg("%s %s: not encodable\n", x->m->name, name);
	} else {
		t->checked++;
		if (pe.prec_dist_ecb)
			ksft_print_msg("%s %s: precise on fixed counter 0, INST_RETIRED.PREC_DIST's ECB: expected 0x0100\n",
				       x->m->name, name);
		if (!translate(x->md, x->self, x->m, name, &pe))
			t->mismatches++;
	}
}

/* Every core event of @m's tables through translate(); the tally. */
static void check_model(struct __test_metadata *_metadata, FIXTURE_DATA(core) *self,
			const struct xmodel *m, struct xtally *t)
{
	char dflt[PATH_MAX + 64], dir[PATH_MAX + 128], path[PATH_MAX + 512];
	const char *base = pmu_events_dir(dflt, sizeof(dflt));
	struct dirent **names;
	int nnames;

	memset(t, 0, sizeof(*t));
	ASSERT_NE(NULL, base);
	snprintf(dir, sizeof(dir), "%s/%s", base, m->name);
	nnames = scandir(dir, &names, json_file, alphasort);
	ASSERT_LT(0, nnames) TH_LOG("no pmu-events tables in %s: make tests extracts them", dir);
	for (int i = 0; i < nnames; i++) {
		struct xctx x = { _metadata, self, m, t };
		const char *err;
		bool table;
		size_t len = 0, at;
		char *text;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
		free(names[i]);
		text = (char *)tc_read_file(path, &len);
		ASSERT_NE(NULL, text) TH_LOG("cannot read %s", path);
		err = jtable(text, len, each_entry, &x, &table, &at);
		EXPECT_EQ(NULL, err) TH_LOG("%s: %s at byte %zu", path, err, at);
		if (!err && !table)
			t->skipped[SKIP_TABLE_FILE]++;
		free(text);
	}
	free(names);
	ksft_print_msg("checked %u events of %s, mismatches %u\n", t->checked,
		       m->name, t->mismatches);
	for (int k = 0; k < NSKIP; k++)
		ksft_print_msg("%s: skipped %u %s\n", m->name, t->skipped[k], skip_why[k]);
	for (u32 u = 0; u < t->nunits; u++)
		ksft_print_msg("%s: uncore unit %s: %u events, not core ECBs (%s)\n",
			       m->name, t->units[u].name, t->units[u].events,
			       strcmp(m->name, "skylakex") ? "aca has no uncore register map of this model" :
			       "skylakex_uncore_events_translate_as_perf_encodes_them checks them");
}

/* ---- the reader ---- */

static void count_objects(const struct jobj *o, void *arg)
{
	(*(u32 *)arg)++;
}

/* What the tables use parses; anything else is an error, not a short table. */
TEST(json_reader_takes_flat_tables_and_refuses_the_rest)
{
	static const struct {
		const char *text;
		bool ok;
		u32 objects;
	} cases[] = {
		{ "[]", true, 0 },
		{ " [ {}, {\"a\": \"b\"} ]\n", true, 2 },
		{ "[{\"EventCode\": \"0xB7, 0xBB\", \"N\": 4, \"D\": \"x\\\"\\u00e9\\n\"}]", true, 1 },
		{ "{\"Backend\": \"TopdownL1\"}", true, 0 },
		{ "", false, 0 },
		{ "[", false, 0 },
		{ "[{}", false, 0 },
		{ "[{},]", false, 0 },
		{ "[{\"a\": {\"b\": \"c\"}}]", false, 0 },
		{ "[{\"a\": [\"b\"]}]", false, 0 },
		{ "[{\"a\": \"b}]", false, 0 },
		{ "[{\"a\": \"\\q\"}]", false, 0 },
		{ "[{\"a\": \"\\u12\"}]", false, 0 },
		{ "[{\"a\" \"b\"}]", false, 0 },
		{ "[{\"a\": }]", false, 0 },
		{ "[{}] x", false, 0 },
		{ "[\"a\"]", false, 0 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *text = strdup(cases[i].text);
		u32 n = 0;
		size_t at;
		bool table;
		const char *err;

		ASSERT_NE(NULL, text);
		err = jtable(text, strlen(text), count_objects, &n, &table, &at);
		EXPECT_EQ(cases[i].ok, !err) TH_LOG("%s: %s", cases[i].text, err ? err : "parsed");
		if (cases[i].ok)
			EXPECT_EQ(cases[i].objects, n) TH_LOG("%s", cases[i].text);
		free(text);
	}
}

/* Values come back decoded, numbers as their text, the first of a key. */
TEST(json_reader_decodes_values)
{
	char text[] = "[{\"EventName\": \"A.B\", \"Q\": \"x\\\"y\\\\z\\/\", \"N\": 12, \"T\": true}]";
	struct jparse j = { .p = text, .end = text + strlen(text) };
	struct jobj o;
	u64 v;

	ASSERT_TRUE(jtake(&j, '['));
	ASSERT_TRUE(jobject(&j, &o));
	EXPECT_STREQ("A.B", jget(&o, "EventName"));
	EXPECT_STREQ("x\"y\\z/", jget(&o, "Q"));
	EXPECT_STREQ("12", jget(&o, "N"));
	EXPECT_STREQ("true", jget(&o, "T"));
	EXPECT_EQ(NULL, jget(&o, "Missing"));
	EXPECT_TRUE(jnum(&o, "N", 0, &v));
	EXPECT_EQ(12, v);
	EXPECT_FALSE(jnum(&o, "Q", 0, &v)) TH_LOG("not a number");
}

/* ---- the models ---- */

TEST_F(core, skylake_core_events_translate_as_perf_encodes_them)
{
	static const struct xmodel m = { "skylake", false, false };
	struct xtally t;

	check_model(_metadata, self, &m, &t);
	EXPECT_LT(400, t.checked);
	EXPECT_EQ(0, t.skipped[SKIP_NO_ENCODING]);
	EXPECT_EQ(0, t.mismatches);
}

TEST_F(core, skylakex_core_events_translate_as_perf_encodes_them)
{
	static const struct xmodel m = { "skylakex", false, false };
	struct xtally t;

	check_model(_metadata, self, &m, &t);
	EXPECT_LT(400, t.checked);
	EXPECT_LT(1000, t.skipped[SKIP_UNCORE]) TH_LOG("the server's uncore tables");
	EXPECT_EQ(0, t.skipped[SKIP_NO_ENCODING]);
	EXPECT_EQ(0, t.mismatches);
}

/* PEBS baseline: INST_RETIRED.PREC_DIST on fixed counter 0 is 0x0100. */
TEST_F(core, icelakex_core_events_translate_as_perf_encodes_them)
{
	static const struct xmodel m = { "icelakex", false, true };
	struct xtally t;

	check_model(_metadata, self, &m, &t);
	EXPECT_LT(300, t.checked);
	EXPECT_LT(1000, t.skipped[SKIP_UNCORE]) TH_LOG("the server's uncore tables");
	EXPECT_EQ(0, t.skipped[SKIP_NO_ENCODING]);
	EXPECT_EQ(0, t.mismatches);
}

TEST_F(core, sapphirerapids_core_events_translate_as_perf_encodes_them)
{
	static const struct xmodel m = { "sapphirerapids", false, true };
	struct xtally t;

	check_model(_metadata, self, &m, &t);
	EXPECT_LT(300, t.checked);
	EXPECT_EQ(0, t.skipped[SKIP_NO_ENCODING]);
	EXPECT_EQ(0, t.mismatches);
}

/* A hybrid: its cpu_core and cpu_atom events alike. */
TEST_F(core, alderlake_core_events_translate_as_perf_encodes_them)
{
	static const struct xmodel m = { "alderlake", false, true };
	struct xtally t;

	check_model(_metadata, self, &m, &t);
	EXPECT_LT(300, t.checked);
	EXPECT_EQ(0, t.skipped[SKIP_NO_ENCODING]);
	EXPECT_EQ(0, t.mismatches);
}

TEST_F(core, amdzen4_core_events_translate_as_perf_encodes_them)
{
	static const struct xmodel m = { "amdzen4", true, false };
	struct xtally t;

	check_model(_metadata, self, &m, &t);
	EXPECT_LT(150, t.checked);
	EXPECT_EQ(0, t.skipped[SKIP_NO_ENCODING]);
	EXPECT_EQ(0, t.mismatches);
}

/* ---- uncore: Linux's own register map and formats ---- */

/*
 * The server model's uncore, from the kernel that registers its PMUs
 * (arch/x86/events/intel/uncore_snbep.c, extracted into build/ksrc next to
 * the JSON): each skx_uncore_* type's name, boxes, registers (.event_ctl,
 * .perf_ctr, .fixed_ctr, .msr_offset and their #defines), the PCI device
 * and function of each box, and its format files' contents
 * (DEFINE_UNCORE_FORMAT_ATTR, through .format_group and .attrs). The host
 * builds each event's registers from these and the JSON; perf's encoding
 * of the same entry is its terms placed by the same formats, as perf's
 * pmu.c places them.
 */
#define K_NAME		64
#define K_MAX		512

struct kdef {
	char name[K_NAME];
	char val[K_NAME];
};

struct ktype {
	char var[K_NAME];	/* skx_uncore_chabox */
	char name[K_NAME];	/* .name: "cha" */
	char group[K_NAME];	/* .format_group */
	u64 event_ctl, perf_ctr, fixed_ctr, msr_offset;
	u32 nboxes;		/* .num_boxes, or the PCI boxes found */
	bool pci;
	u32 nat;		/* counters at kfamily.irp_ctls/ctrs (no .event_ctl) */
	u64 ctl_at[8], ctr_at[8];
	u8 devfn[8][2];
	char formats[FAKE_PMU_FORMATS];	/* each NUL-ended, as fake_add_pmu() takes them */
	const char *fmt[24];
	char fmt_name[24][K_NAME];
	u32 nfmt;
};

/*
 * A server family's uncore as this test reads it: its pmu-events
 * directory, the prefix of its types in uncore_snbep.c (<prefix>_uncore_*
 * and <PREFIX>_PCI_UNCORE_*), a CPUID.1.EAX of the model, and what the
 * kernel's source does not say by name: boxes counted at boot, the PCI
 * types whose selects are 8 bytes apart, the CBo/CHA filter registers,
 * the device and function of each PCI device ID the kernel matches by ID
 * alone (the uncore guide's), and the JSON unit Linux has no PMU for.
 */
struct kdevfn {
	const char *id;		/* PCI_DEVICE_ID_INTEL_UNC_HA */
	u8 dev, func;
};

struct kfamily {
	const char *name;		/* "jaketown" */
	const char *prefix;		/* "snbep" */
	const char *model;		/* aca's name of it, in its log lines */
	u32 cpuid1_eax;
	u32 max_boxes;			/* a type whose .num_boxes is counted at boot */
	const char *const *ctl_offs8;	/* NULL-ended */
	const char *filter0;		/* CBo/CHA filter #define: config1 low half */
	u32 filter1_step;		/* from it to the high half's register; 0: none */
	const struct kdevfn *devfn;	/* NULL-ended; NULL: UNCORE_PCI_DEV_FULL_DATA */
	const char *absent_unit;	/* a JSON unit with no PMU in Linux */
	/* The arrays of an IRP's select and counter offsets (its type has no .event_ctl). */
	const char *irp_ctls, *irp_ctrs;
	/* Types of another family's the model's uncore registers too (Broadwell-EP's PCU). */
	const char *const *also;
};

struct kmap {
	const struct kfamily *fam;
	struct kdef defs[K_MAX];		/* #define NAME number */
	u32 ndefs;
	struct kdef fmts[128];			/* format_attr_VAR -> "spec" (name in fmt_names) */
	char fmt_names[128][K_NAME];
	u32 nfmts;
	struct kdef arrays[256];		/* attribute array NAME -> its text */
	char array_text[256][1024];
	u32 narrays;
	struct kdef groups[128];		/* attribute_group NAME -> .attrs */
	u32 ngroups;
	struct ktype types[16];
	u32 ntypes;
};

static const char *kfind(const struct kdef *d, u32 n, const char *name)
{
	for (u32 i = 0; i < n; i++)
		if (!strcmp(d[i].name, name))
			return d[i].val;
	return NULL;
}

/* A value: a number, or a #define of one. */
static bool knum(const struct kmap *k, const char *s, u64 *v)
{
	char *end;
	const char *def;

	*v = strtoull(s, &end, 0);
	if (end != s && !*end)
		return true;
	def = kfind(k->defs, k->ndefs, s);
	if (!def)
		return false;
	*v = strtoull(def, &end, 0);
	return end != def && !*end;
}

static void kcopy(char *dst, const char *src, size_t n)
{
	snprintf(dst, K_NAME, "%.*s", (int)n, src);
}

/* ".key = value," inside a block, value without spaces, '&' or ','. */
static bool kfield(const char *block, const char *key, char *val)
{
	char pat[K_NAME + 8];
	const char *p;
	size_t n;

	snprintf(pat, sizeof(pat), ".%s", key);
	for (p = strstr(block, pat); p; p = strstr(p + 1, pat)) {
		const char *q = p + strlen(pat);

		while (*q == ' ' || *q == '\t')
			q++;
		if (*q != '=')
			continue;
		q++;
		while (*q == ' ' || *q == '\t' || *q == '&' || *q == '"')
			q++;
		n = strcspn(q, ",\"\n ");
		kcopy(val, q, n);
		return true;
	}
	return false;
}

static char *kload(const char *path)
{
	size_t len;

	return (char *)tc_read_file(path, &len);
}

/* A type's block with the *_COMMON_INIT() macros it uses spelled out. */
static bool kexpand(const char *text, char *block, size_t size)
{
	const char *m = block, *def;
	char macro[K_NAME], pat[K_NAME + 16];
	size_t len = strlen(block);

	while ((m = strstr(m, "_COMMON_INIT()"))) {
		const char *start = m;
		size_t n;

		while (start > block && (isalnum((unsigned char)start[-1]) || start[-1] == '_'))
			start--;
		n = m - start + strlen("_COMMON_INIT");
		m += strlen("_COMMON_INIT()");
		if (n >= K_NAME)
			return false;
		kcopy(macro, start, n);
		snprintf(pat, sizeof(pat), "#define %s()", macro);
		def = strstr(text, pat);
		if (!def)
			continue;	/* a use inside an expansion already added */
		def += strlen(pat);
		/* The body: lines ending in a backslash, and the one after. */
		for (n = 0; def[n] && !(def[n] == '\n' && (n == 0 || def[n - 1] != '\\')); n++)
			;
		if (len + n + 2 >= size)
			return false;
		block[len++] = '\n';
		memcpy(block + len, def, n);
		len += n;
		block[len] = 0;
	}
	return true;
}

/* The dev.func the uncore guide gives the PCI device ID @id. */
static const struct kdevfn *kdevfn_of(const struct kfamily *fam, const char *id)
{
	for (const struct kdevfn *d = fam->devfn; d && d->id; d++)
		if (!strcmp(d->id, id))
			return d;
	return NULL;
}

static void kadd_pci_box(struct kmap *k, const char *var, u32 idx, u8 dev, u8 func)
{
	for (u32 i = 0; i < k->ntypes; i++) {
		struct ktype *t = &k->types[i];

		if (strcmp(t->var, var))
			continue;
		t->pci = true;
		t->devfn[idx][0] = dev;
		t->devfn[idx][1] = func;
		if (idx + 1 > t->nboxes)
			t->nboxes = idx + 1;
	}
}

/* [<PREFIX>_PCI_UNCORE_X] = &<prefix>_uncore_x, : the type's variable. */
static bool kpci_type(const char *text, const char *upper, const char *which, char *var)
{
	char pat[K_NAME * 2];
	const char *map;

	snprintf(pat, sizeof(pat), "[%s_PCI_UNCORE_%s]", upper, which);
	map = strstr(text, pat);
	map = map ? strchr(map, '&') : NULL;
	return map && sscanf(map, "&%63[a-z0-9_]", var) == 1;
}

/* "static unsigned NAME[] = {0xd8, 0xdc, ...};": its numbers, at most @max. */
static u32 karray(const char *text, const char *name, u64 *out, u32 max)
{
	char pat[K_NAME * 2];
	const char *p;
	u32 n = 0;

	snprintf(pat, sizeof(pat), "static unsigned %s[] = {", name);
	p = name ? strstr(text, pat) : NULL;
	if (!p)
		return 0;
	p += strlen(pat);
	while (n < max && *p != '}') {
		char *end;

		out[n] = strtoull(p, &end, 0);
		if (end == p)
			return 0;
		n++;
		p = end + strspn(end, ", ");
	}
	return *p == '}' ? n : 0;
}

/* Each intel_uncore_type whose definition starts with @tpat: its name, registers and boxes. */
static bool kparse_types(struct kmap *k, const char *text, const struct kfamily *fam,
			 const char *tpat)
{
	const char *p;
	char val[K_NAME];

	for (p = text; (p = strstr(p, tpat)); p++) {
		const char *end = strstr(p, "};");
		struct ktype *t = &k->types[k->ntypes];
		char block[4096];

		if (!end || end - p >= 2048 || k->ntypes == ARRAY_SIZE(k->types))
			continue;
		snprintf(block, sizeof(block), "%.*s", (int)(end - p), p);
		if (!kexpand(text, block, sizeof(block)))
			return false;
		memset(t, 0, sizeof(*t));
		if (sscanf(p, "static struct intel_uncore_type %63s", t->var) != 1 ||
		    !kfield(block, "name", t->name) || !kfield(block, "format_group", t->group))
			continue;
		if (!strcmp(t->name, "irp") && !kfield(block, "event_ctl", val)) {
			/* Its counters where the IRP's ops put them. */
			t->nat = karray(text, fam->irp_ctls, t->ctl_at, ARRAY_SIZE(t->ctl_at));
			if (!t->nat ||
			    karray(text, fam->irp_ctrs, t->ctr_at, ARRAY_SIZE(t->ctr_at)) != t->nat)
				continue;
		} else if (!kfield(block, "event_ctl", val) || !knum(k, val, &t->event_ctl) ||
			   !kfield(block, "perf_ctr", val) || !knum(k, val, &t->perf_ctr)) {
			continue;
		}
		if (kfield(block, "fixed_ctr", val) && !knum(k, val, &t->fixed_ctr))
			return false;
		if (kfield(block, "msr_offset", val) && !knum(k, val, &t->msr_offset))
			return false;
		if (kfield(block, "num_boxes", val))
			t->nboxes = atoi(val);
		k->ntypes++;
	}
	return true;
}

static bool kparse(struct kmap *k, const char *text, const struct kfamily *fam)
{
	const char *p;
	char name[K_NAME], val[K_NAME], upper[K_NAME], tpat[K_NAME * 2];

	memset(k, 0, sizeof(*k));
	k->fam = fam;
	snprintf(upper, sizeof(upper), "%s", fam->prefix);
	for (char *c = upper; *c; c++)
		*c = toupper((unsigned char)*c);
	snprintf(tpat, sizeof(tpat), "static struct intel_uncore_type %s_uncore_", fam->prefix);
	for (p = text; (p = strstr(p, "#define ")); p++) {
		if (sscanf(p, "#define %63s %63s", name, val) == 2 && k->ndefs < K_MAX &&
		    (val[0] >= '0' && val[0] <= '9')) {
			snprintf(k->defs[k->ndefs].name, K_NAME, "%s", name);
			snprintf(k->defs[k->ndefs++].val, K_NAME, "%s", val);
		}
	}
	for (p = text; (p = strstr(p, "DEFINE_UNCORE_FORMAT_ATTR(")); p++) {
		char var[32], fname[K_NAME], spec[K_NAME];

		if (sscanf(p, "DEFINE_UNCORE_FORMAT_ATTR(%31[^,], %63[^,], \"%63[^\"]\")",
			   var, fname, spec) != 3 || k->nfmts == ARRAY_SIZE(k->fmts))
			continue;
		snprintf(k->fmts[k->nfmts].name, K_NAME, "format_attr_%s", var);
		snprintf(k->fmts[k->nfmts].val, K_NAME, "%s", spec);
		snprintf(k->fmt_names[k->nfmts++], K_NAME, "%s", fname);
	}
	for (p = text; (p = strstr(p, "struct attribute *")); p++) {
		const char *end = strstr(p, "};");

		if (sscanf(p, "struct attribute *%63[^[][] = {", name) != 1 || !end ||
		    k->narrays == ARRAY_SIZE(k->arrays) || end - p >= 1024)
			continue;
		snprintf(k->arrays[k->narrays].name, K_NAME, "%s", name);
		snprintf(k->array_text[k->narrays++], 1024, "%.*s", (int)(end - p), p);
	}
	for (p = text; (p = strstr(p, "struct attribute_group ")); p++) {
		const char *end = strstr(p, "};");
		char block[512];

		if (sscanf(p, "struct attribute_group %63s = {", name) != 1 || !end ||
		    k->ngroups == ARRAY_SIZE(k->groups))
			continue;
		snprintf(block, sizeof(block), "%.*s", (int)(end - p), p);
		if (!kfield(block, "attrs", val))
			continue;
		snprintf(k->groups[k->ngroups].name, K_NAME, "%s", name);
		snprintf(k->groups[k->ngroups++].val, K_NAME, "%s", val);
	}
	if (!kparse_types(k, text, fam, tpat))
		return false;
	for (u32 a = 0; fam->also && fam->also[a]; a++) {
		snprintf(tpat, sizeof(tpat), "static struct intel_uncore_type %s =", fam->also[a]);
		if (!kparse_types(k, text, fam, tpat))
			return false;
	}
	/* PCI boxes: UNCORE_PCI_DEV_FULL_DATA(dev, func, <PREFIX>_PCI_UNCORE_X, idx). */
	for (p = text; !fam->devfn && (p = strstr(p, "UNCORE_PCI_DEV_FULL_DATA(")); p++) {
		unsigned int dev, func, idx;
		char which[K_NAME], var[K_NAME], fmt[K_NAME * 2];

		snprintf(fmt, sizeof(fmt), "UNCORE_PCI_DEV_FULL_DATA(%%u, %%u, %s_PCI_UNCORE_%%63[^,], %%u)",
			 upper);
		if (sscanf(p, fmt, &dev, &func, which, &idx) != 4 || idx >= 8)
			continue;
		if (!kpci_type(text, upper, which, var))
			return false;
		kadd_pci_box(k, var, idx, dev, func);
	}
	/*
	 * Or by device ID: PCI_DEVICE(PCI_VENDOR_ID_INTEL, ID), then
	 * .driver_data = UNCORE_PCI_DEV_DATA(<PREFIX>_PCI_UNCORE_X, idx).
	 */
	for (p = text; fam->devfn && (p = strstr(p, "PCI_DEVICE(PCI_VENDOR_ID_INTEL, ")); p++) {
		const char *data = strstr(p, "UNCORE_PCI_DEV_DATA(");
		const struct kdevfn *d;
		unsigned int idx;
		char id[K_NAME], which[K_NAME], var[K_NAME], fmt[K_NAME * 2];

		snprintf(fmt, sizeof(fmt), "UNCORE_PCI_DEV_DATA(%s_PCI_UNCORE_%%63[^,], %%u)", upper);
		if (!data || sscanf(p, "PCI_DEVICE(PCI_VENDOR_ID_INTEL, %63[A-Za-z0-9_])", id) != 1 ||
		    sscanf(data, fmt, which, &idx) != 2 || idx >= 8)
			continue;
		d = kdevfn_of(fam, id);
		if (!d || !kpci_type(text, upper, which, var))
			return false;
		kadd_pci_box(k, var, idx, d->dev, d->func);
	}
	/* .num_boxes set at boot (SKX's CHAs: CAPID6). */
	for (u32 i = 0; i < k->ntypes; i++)
		if (!k->types[i].nboxes)
			k->types[i].nboxes = fam->max_boxes;
	/* Each type's format files. */
	for (u32 i = 0; i < k->ntypes; i++) {
		struct ktype *t = &k->types[i];
		const char *arr = kfind(k->groups, k->ngroups, t->group);
		const char *q = NULL;
		size_t off = 0;

		for (u32 a = 0; arr && a < k->narrays; a++)
			if (!strcmp(k->arrays[a].name, arr))
				q = k->array_text[a];
		if (!q)
			return false;
		while ((q = strstr(q, "&format_attr_"))) {
			char var[K_NAME];

			if (sscanf(q + 1, "%63[a-z0-9_]", var) != 1)
				return false;
			q++;
			for (u32 f = 0; f < k->nfmts; f++) {
				size_t n = strlen(k->fmts[f].val) + 1;

				if (strcmp(k->fmts[f].name, var) || t->nfmt == ARRAY_SIZE(t->fmt) ||
				    off + n >= sizeof(t->formats))
					continue;
				memcpy(t->formats + off, k->fmts[f].val, n);
				t->fmt[t->nfmt] = t->formats + off;
				memcpy(t->fmt_name[t->nfmt++], k->fmt_names[f], K_NAME);
				off += n;
			}
		}
	}
	return true;
}

/* ---- an uncore event: the host's registers and perf's encoding ---- */

/* CHA boxes: .num_boxes is counted at boot (CAPID6); at most 28. */
#define SKX_MAX_CHA	28
/* Model 0x55 (family 6): CPUID.1.EAX of a Skylake-SP. */
#define SKX_CPUID1_EAX	0x00050654u
/* Model 0x2d (family 6): CPUID.1.EAX of a Sandy Bridge-EP (C2 stepping). */
#define SNBEP_CPUID1_EAX	0x000206d7u
#define UNC_EN		(1ull << 22)
/* The PCU's occupancy select, PMON_CTL bits 15:14 (327043, the PCU's PMON control). */
#define UNC_PCU_OCC_SEL_SHIFT	14
#define UNC_GROUP_OFF	32
#define UNC_COUNT_OFF	40
#define UNC_EVENT_INDEX	9

/* PCI types whose init_box sets UNCORE_BOX_FLAG_CTL_OFFS8: selects 8 bytes apart. */
static const char *const skx_ctl_offs8[] = { "upi", "m2m", NULL };

static const struct kfamily skx_family = {
	.name = "skylakex", .prefix = "skx", .model = "Skylake-SP",
	.cpuid1_eax = SKX_CPUID1_EAX, .max_boxes = SKX_MAX_CHA, .ctl_offs8 = skx_ctl_offs8,
	/* skx_cha_hw_config(): FILTER0 of the box, FILTER1 the next MSR. */
	.filter0 = "HSWEP_C0_MSR_PMON_BOX_FILTER0", .filter1_step = 1,
};

/*
 * Sandy Bridge-EP's PCI boxes, which Linux matches by device ID: their
 * device and function in the uncore guide (327043, the PMON PCI devices).
 */
static const struct kdevfn snbep_devfn[] = {
	{ "PCI_DEVICE_ID_INTEL_UNC_HA", 14, 1 },
	{ "PCI_DEVICE_ID_INTEL_UNC_IMC0", 16, 0 }, { "PCI_DEVICE_ID_INTEL_UNC_IMC1", 16, 1 },
	{ "PCI_DEVICE_ID_INTEL_UNC_IMC2", 16, 4 }, { "PCI_DEVICE_ID_INTEL_UNC_IMC3", 16, 5 },
	{ "PCI_DEVICE_ID_INTEL_UNC_QPI0", 8, 2 }, { "PCI_DEVICE_ID_INTEL_UNC_QPI1", 9, 2 },
	{ "PCI_DEVICE_ID_INTEL_UNC_R2PCIE", 19, 1 },
	{ "PCI_DEVICE_ID_INTEL_UNC_R3QPI0", 19, 5 }, { "PCI_DEVICE_ID_INTEL_UNC_R3QPI1", 19, 6 },
	{ NULL, 0, 0 },
};

static const struct kfamily snbep_family = {
	.name = "jaketown", .prefix = "snbep", .model = "Sandy Bridge-EP",
	.cpuid1_eax = SNBEP_CPUID1_EAX, .max_boxes = 1,
	/* snbep_cbox_hw_config(): one filter register per box. */
	.filter0 = "SNBEP_C0_MSR_PMON_BOX_FILTER", .devfn = snbep_devfn,
	/* The IRP's PMON has no Linux PMU on Sandy Bridge-EP (ivbep_uncore_irp is Ivy Bridge-EP's). */
	.absent_unit = "IRP",
};

/* Model 0x3e (family 6): CPUID.1.EAX of an Ivy Bridge-EP (C1 stepping). */
#define IVBEP_CPUID1_EAX	0x000306e4u

/*
 * Ivy Bridge-EP's PCI boxes, matched by device ID alone: their device
 * and function in the v2 uncore guide (329468, the PMON PCI devices).
 */
static const struct kdevfn ivbep_devfn[] = {
	{ "0xe30", 14, 1 }, { "0xe38", 28, 1 },
	{ "0xeb4", 16, 4 }, { "0xeb5", 16, 5 }, { "0xeb0", 16, 0 }, { "0xeb1", 16, 1 },
	{ "0xef4", 30, 4 }, { "0xef5", 30, 5 }, { "0xef0", 30, 0 }, { "0xef1", 30, 1 },
	{ "0xe39", 5, 6 },
	{ "0xe32", 8, 2 }, { "0xe33", 9, 2 }, { "0xe3a", 24, 2 },
	{ "0xe34", 19, 1 },
	{ "0xe36", 19, 5 }, { "0xe37", 19, 6 }, { "0xe3e", 18, 5 },
	{ NULL, 0, 0 },
};

static const struct kfamily ivbep_family = {
	.name = "ivytown", .prefix = "ivbep", .model = "Ivy Bridge-EP",
	.cpuid1_eax = IVBEP_CPUID1_EAX, .max_boxes = 1,
	/* ivbep_cbox_enable_event(): config1's high half 6 MSRs past the low. */
	.filter0 = "SNBEP_C0_MSR_PMON_BOX_FILTER", .filter1_step = 6, .devfn = ivbep_devfn,
	.irp_ctls = "ivbep_uncore_irp_ctls", .irp_ctrs = "ivbep_uncore_irp_ctrs",
};

/* Model 0x3f (family 6): CPUID.1.EAX of a Haswell-EP (M0/R2 stepping). */
#define HSWEP_CPUID1_EAX	0x000306f2u

/*
 * Haswell-EP's PCI boxes by device ID: device and function as the v3
 * uncore guide (331051) and Intel's PCM place them (link 2 of the R3QPI
 * by the guide's layout: no second source found).
 */
static const struct kdevfn hswep_devfn[] = {
	{ "0x2f30", 18, 1 }, { "0x2f38", 18, 5 },
	{ "0x2fb0", 21, 0 }, { "0x2fb1", 21, 1 }, { "0x2fb4", 20, 0 }, { "0x2fb5", 20, 1 },
	{ "0x2fd0", 24, 0 }, { "0x2fd1", 24, 1 }, { "0x2fd4", 23, 0 }, { "0x2fd5", 23, 1 },
	{ "0x2f39", 5, 6 },
	{ "0x2f32", 8, 2 }, { "0x2f33", 9, 2 }, { "0x2f3a", 10, 2 },
	{ "0x2f34", 16, 1 },
	{ "0x2f36", 11, 1 }, { "0x2f37", 11, 2 }, { "0x2f3e", 11, 5 },
	{ NULL, 0, 0 },
};

static const struct kfamily hswep_family = {
	.name = "haswellx", .prefix = "hswep", .model = "Haswell-EP",
	.cpuid1_eax = HSWEP_CPUID1_EAX, .max_boxes = 1,
	/* hswep_cbox_enable_event(): config1's high half in the next MSR. */
	.filter0 = "HSWEP_C0_MSR_PMON_BOX_FILTER0", .filter1_step = 1, .devfn = hswep_devfn,
	/* hswep_uncore_irp_ops: Ivy Bridge-EP's selects, its own counters. */
	.irp_ctls = "ivbep_uncore_irp_ctls", .irp_ctrs = "hswep_uncore_irp_ctrs",
};

/* Model 0x4f (family 6): CPUID.1.EAX of a Broadwell-EP (B0 stepping). */
#define BDX_CPUID1_EAX		0x000406f1u

/*
 * Broadwell-EP's PCI boxes by device ID: Haswell-EP's devices and
 * functions (the v4 uncore guide, 334291, keeps the v3 layout).
 */
static const struct kdevfn bdx_devfn[] = {
	{ "0x6f30", 18, 1 }, { "0x6f38", 18, 5 },
	{ "0x6fb0", 21, 0 }, { "0x6fb1", 21, 1 }, { "0x6fb4", 20, 0 }, { "0x6fb5", 20, 1 },
	{ "0x6fd0", 24, 0 }, { "0x6fd1", 24, 1 }, { "0x6fd4", 23, 0 }, { "0x6fd5", 23, 1 },
	{ "0x6f39", 5, 6 },
	{ "0x6f32", 8, 2 }, { "0x6f33", 9, 2 }, { "0x6f3a", 10, 2 },
	{ "0x6f34", 16, 1 },
	{ "0x6f36", 11, 1 }, { "0x6f37", 11, 2 }, { "0x6f3e", 11, 5 },
	{ NULL, 0, 0 },
};

static const struct kfamily bdx_family = {
	.name = "broadwellx", .prefix = "bdx", .model = "Broadwell-EP",
	.cpuid1_eax = BDX_CPUID1_EAX, .max_boxes = 1,
	.filter0 = "HSWEP_C0_MSR_PMON_BOX_FILTER0", .filter1_step = 1, .devfn = bdx_devfn,
	.irp_ctls = "ivbep_uncore_irp_ctls", .irp_ctrs = "hswep_uncore_irp_ctrs",
	/* bdx_msr_uncores: Haswell-EP's PCU. */
	.also = (const char *const[]){ "hswep_uncore_pcu", NULL },
};

struct unc_enc {
	const struct ktype *t;
	u32 box;
	int ctr;			/* -1: the fixed counter */
	u64 select, filter;		/* the host's select and filter (config1) */
	char pmu[ACP_UNC_PMU_NAME];
	u64 config[3];			/* perf's config, config1, config2 */
};

/* A format's bits in order, as perf's pmu_format_value() fills them: value bit i into the i-th. */
static bool perf_place(const char *spec, u64 val, u64 words[3])
{
	u32 w = !strncmp(spec, "config:", 7) ? 0 : !strncmp(spec, "config1:", 8) ? 1 :
		!strncmp(spec, "config2:", 8) ? 2 : 3;
	const char *p = strchr(spec, ':');
	u32 used = 0;

	if (w == 3 || !p)
		return false;
	for (p++; *p; ) {
		char *end;
		unsigned long lo = strtoul(p, &end, 10), hi = lo;

		if (end == p)
			return false;
		if (*end == '-')
			hi = strtoul(end + 1, &end, 10);
		for (unsigned long b = lo; b <= hi && b < 64; b++, used++)
			if (used < 64 && (val >> used & 1))
				words[w] |= 1ull << b;
		p = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			return false;
	}
	return used >= 64 || !(val >> used);	/* perf refuses a value too big */
}

/* perf's term NAME=VALUE on @t: a format of that name, or a raw config word. */
static bool perf_term(const struct ktype *t, const char *name, u64 val, u64 words[3])
{
	if (!strcmp(name, "config") || !strcmp(name, "config1") || !strcmp(name, "config2")) {
		words[name[6] ? name[6] - '0' : 0] = val;
		return true;
	}
	for (u32 f = 0; f < t->nfmt; f++)
		if (!strcmp(t->fmt_name[f], name))
			return perf_place(t->fmt[f], val, words);
	return false;
}

static const struct ktype *ktype_named(const struct kmap *k, const char *name)
{
	for (u32 i = 0; i < k->ntypes; i++)
		if (!strcasecmp(k->types[i].name, name))
			return &k->types[i];
	return NULL;
}

static u32 kboxes(const struct ktype *t)
{
	return t->nboxes;
}

/*
 * What jevents and perf make of entry @o on box @box, and the select a
 * host writes for it: event 7:0, umask 15:8 (a UPI umask's bits past 8 in
 * 43:32 then 55:45), the IIO's port mask in 43:36 and FC mask in 46:44,
 * enable 22; a CHA filter's low half in FILTER0, high in FILTER1.
 */
static bool unc_encode(const struct kmap *k, const struct jobj *o, u32 ordinal,
		       struct unc_enc *ue)
{
	u64 event, umask, ports, fc, ext, occ = 0;
	bool filtered = false;
	const char *unit = jget(o, "Unit"), *counter = jget(o, "Counter");
	const char *filter = jget(o, "Filter");
	char terms[128];

	memset(ue, 0, sizeof(*ue));
	/* jevents: "UPI LL" is uncore_upi, the rest uncore_<unit lowercased>. */
	ue->t = ktype_named(k, !strcmp(unit, "UPI LL") ? "upi" : unit);
	if (!ue->t || !counter)
		return false;
	if (!jnum(o, "EventCode", 0, &event) || !jnum(o, "UMask", 0, &umask) ||
	    !jnum(o, "PortMask", 0, &ports) || !jnum(o, "FCMask", 0, &fc))
		return false;
	for (const char *const *f = (const char *const[]){ "CounterMask", "Invert",
		"EdgeDetect", "AnyThread", "MSRIndex", "UMaskExt", "ExtSel", NULL }; *f; f++)
		if (jget(o, *f))
			return false;	/* not in these tables; not encoded here */
	ue->box = ordinal % kboxes(ue->t);
	ue->ctr = !strcasecmp(counter, "FIXED") ? -1 : atoi(counter);
	if (ue->ctr < 0 && !ue->t->fixed_ctr)
		return false;
	/* perf: event=,umask=,ch_mask=,fc_mask= (jevents' order), then the filter's terms. */
	if (!perf_term(ue->t, "event", event, ue->config) ||
	    (umask && !perf_term(ue->t, "umask", umask, ue->config)) ||
	    (ports && !perf_term(ue->t, "ch_mask", ports, ue->config)) ||
	    (fc && !perf_term(ue->t, "fc_mask", fc, ue->config)))
		return false;
	snprintf(terms, sizeof(terms), "%s", filter ? filter : "");
	for (char *save = NULL, *term = strtok_r(terms, ",", &save); term;
	     term = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(term, '=');
		u64 v;

		if (!eq)
			return false;
		*eq = 0;
		v = strtoull(eq + 1, NULL, 0);
		if (!perf_term(ue->t, term, v, ue->config))
			return false;
		if (!strcmp(term, "ch_mask"))
			ports = v;	/* a filter's port mask is the select's too */
		else if (!strcmp(term, "config1"))
			ue->filter = v;
		else if (!strcmp(term, "occ_sel"))
			occ = v;
		else if (!strncmp(term, "filter_", 7))
			filtered = true;	/* a CBo filter field: config1, as placed */
		else
			return false;
	}
	if (filtered)
		ue->filter = ue->config[1];
	if (kboxes(ue->t) == 1)
		snprintf(ue->pmu, sizeof(ue->pmu), "uncore_%.16s", ue->t->name);
	else
		snprintf(ue->pmu, sizeof(ue->pmu), "uncore_%.12s_%u", ue->t->name, ue->box % 100);

	/* The host's select. */
	ext = umask >> 8;
	ue->select = (event & 0xff) | (umask & 0xff) << 8 | UNC_EN |
		     (ext & 0xfff) << 32 | (ext >> 12) << 45 | ports << 36 | fc << 44 |
		     occ << UNC_PCU_OCC_SEL_SHIFT;
	if (ext && strcmp(ue->t->name, "upi"))
		return false;
	return true;
}

static void u_slot(u8 *ecb, u32 slot, const struct unc_enc *ue, u64 reg, u64 value,
		   u16 offset)
{
	struct sep_event_reg r = {
		.reg_type = SEP_REG_TYPE_DATA,
		.unit_id = ue->box,
		.event_id_index = UNC_EVENT_INDEX,
		.counter_event_offset = offset,
		.event_reg_id.reg_id = reg,
		.reg_value = value,
		.max_bits = 0xffffffffffffull,
		.reg_prog_type = ue->t->pci ? SEP_REG_PROG_PCI : SEP_REG_PROG_MSR,
	};

	if (ue->t->pci) {
		r.event_reg_id.pci_bus_no = 0x17;	/* a package's; aca names boxes by dev.func */
		r.event_reg_id.pci_dev_no = ue->t->devfn[ue->box][0];
		r.event_reg_id.pci_func_no = ue->t->devfn[ue->box][1];
	}
	memcpy(ecb + sizeof(struct sep_ecb) + slot * sizeof(r), &r, sizeof(r));
}

/* WRITE: select, FILTER0, FILTER1 (slots 0-2); READ: the counter (slot 3). */
#define U_SLOTS		4
#define U_ECB_LEN	(sizeof(struct sep_ecb) + U_SLOTS * sizeof(struct sep_event_reg))

static void host_unc_ecb(const struct kmap *k, u8 *ecb, const struct unc_enc *ue)
{
	struct sep_ecb h = {
		.version = 2,
		.num_entries = U_SLOTS,
		.num_events = 1,
		.size_of_allocation = U_ECB_LEN,
		.device_type = SEP_DEVICE_UNC_IMC,
		.group_offset = UNC_GROUP_OFF,
		.descriptor_id = 1,
	};
	const struct ktype *t = ue->t;
	u64 box_off = t->pci ? 0 : t->msr_offset * ue->box;
	u32 step = 4;
	u64 f0;

	for (const char *const *o = k->fam->ctl_offs8; o && *o; o++)
		if (!strcmp(t->name, *o))
			step = 8;
	memset(ecb, 0, U_ECB_LEN);
	x_section(&h, SEP_OP_WRITE, 0, 3);
	x_section(&h, SEP_OP_READ, 3, 1);
	memcpy(ecb, &h, sizeof(h));
	if (ue->ctr < 0) {
		u_slot(ecb, 3, ue, t->fixed_ctr + box_off, 0, UNC_COUNT_OFF);
		return;
	}
	if (t->nat) {
		u_slot(ecb, 0, ue, t->ctl_at[ue->ctr], ue->select, 0);
		u_slot(ecb, 3, ue, t->ctr_at[ue->ctr], 0, UNC_COUNT_OFF);
	} else {
		u_slot(ecb, 0, ue, t->event_ctl + box_off + ue->ctr * (t->pci ? step : 1),
		       ue->select, 0);
		u_slot(ecb, 3, ue, t->perf_ctr + box_off + ue->ctr * (t->pci ? 8 : 1), 0,
		       UNC_COUNT_OFF);
	}
	if (ue->filter && knum(k, k->fam->filter0, &f0)) {
		u_slot(ecb, 1, ue, f0 + box_off, ue->filter & 0xffffffff, 0);
		if (k->fam->filter1_step)
			u_slot(ecb, 2, ue, f0 + box_off + k->fam->filter1_step, ue->filter >> 32,
			       0);
	}
}

/* ---- through the core ---- */

struct uctx {
	struct __test_metadata *md;
	FIXTURE_DATA(core) *self;
	const struct kmap *k;
	u32 checked, mismatches, not_encodable, absent, ordinal;
	u32 per_unit[16];
};

/* Every box of every type as the target's PMUs, types 100 + 32 * type + box. */
static void add_pmus(struct fake *f, const struct kmap *k)
{
	for (u32 i = 0; i < k->ntypes; i++)
		for (u32 b = 0; b < kboxes(&k->types[i]); b++) {
			char name[ACP_UNC_PMU_NAME];

			if (kboxes(&k->types[i]) == 1)
				snprintf(name, sizeof(name), "uncore_%.16s", k->types[i].name);
			else
				snprintf(name, sizeof(name), "uncore_%.12s_%u",
					 k->types[i].name, b % 100);
			fake_add_pmu(f, name, 100 + 32 * i + b, k->types[i].fmt,
					    k->types[i].nfmt);
		}
}

/* A configured session on a Skylake-SP with its uncore PMUs, its core group and descriptors. */
static void unc_session(struct __test_metadata *_metadata, FIXTURE_DATA(core) *self,
			const struct kmap *k)
{
	struct sep_event_desc d = { .sample_size = 48 };
	struct sep_dev_unc_config uc = { 0 };
	struct sep_event_config ec;

	reinit(_metadata, self, FAKE_NCPUS);
	self->f.cpuid1_eax = k->fam->cpuid1_eax;
	add_pmus(&self->f, k);
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_CONFIGURED);
	ASSERT_EQ(VT_SUCCESS, cmd_u32(_metadata, self, SEP_CMD_NUM_DESCRIPTOR, 2));
	ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_DESC_NEXT, &d, sizeof(d), 0));
	ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_DESC_NEXT, &d, sizeof(d), 0));
	ASSERT_EQ(VT_SUCCESS, em_groups(_metadata, self, 1));
	ASSERT_EQ(VT_SUCCESS, send_ecb(_metadata, self, core_ecb(_metadata, self), 4720, 0));
	ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_INIT_UNC, &uc, sizeof(uc), 0));
	tc_event_config(&ec, false);
	ec.num_groups = 1;
	ASSERT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_EM_GROUPS_UNC, &ec, sizeof(ec), 0));
}

static bool unc_translate(struct uctx *x, const char *name, const struct unc_enc *ue)
{
	struct __test_metadata *_metadata = x->md;
	FIXTURE_DATA(core) *self = x->self;
	static u8 ecb[U_ECB_LEN];
	const struct acp_unc_event *e = &self->f.start_unc[0];
	const char *fam = x->k->fam->name;
	u32 type = 100 + 32 * (ue->t - x->k->types) + ue->box;
	bool ok = true;
	s32 st;

	host_unc_ecb(x->k, ecb, ue);
	unc_session(_metadata, self, x->k);
	st = cmd(_metadata, self, SEP_CMD_EM_CONFIG_NEXT_UNC, ecb, U_ECB_LEN, 0);
	if (st != VT_SUCCESS) {
		ksft_print_msg("%s %s on %s: EM_CONFIG_NEXT_UNC refused (%d): %s\n", fam, name,
			       ue->pmu, st, self->f.nlogs ? self->f.logs[(self->f.nlogs - 1) % FAKE_MAX_LOGS] : "");
		return false;
	}
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
	if (self->f.start_nunc != 1) {
		ksft_print_msg("%s %s: %u uncore events, not 1\n", fam, name, self->f.start_nunc);
		return false;
	}
#define UCHECK(field, want) do { \
	if ((u64)e->field != (u64)(want)) { \
		ksft_print_msg("%s %s on %s: " #field " 0x%llx, perf 0x%llx\n", fam, name, \
			       ue->pmu, (unsigned long long)e->field, (unsigned long long)(want)); \
		ok = false; \
	} } while (0)
	UCHECK(type, type);
	UCHECK(config, ue->config[0]);
	UCHECK(config1, ue->config[1]);
	UCHECK(record_offset, UNC_COUNT_OFF);
	UCHECK(group_offset, UNC_GROUP_OFF);
	UCHECK(event_index, UNC_EVENT_INDEX);
#undef UCHECK
	if (strcmp(e->pmu, ue->pmu)) {
		ksft_print_msg("%s %s: PMU %s, perf's %s\n", fam, name, e->pmu, ue->pmu);
		ok = false;
	}
	if (ue->config[2]) {
		ksft_print_msg("%s %s: perf sets config2, which aca does not\n", fam, name);
		ok = false;
	}
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_STOP, NULL, 0, 0));
	return ok;
}

static void each_unc_entry(const struct jobj *o, void *arg)
{
	struct uctx *x = arg;
	const char *name = jget(o, "EventName");
	struct unc_enc ue;

	if (!name || jget(o, "MetricName") || !jget(o, "Unit"))
		return;
	if (x->k->fam->absent_unit && !strcmp(jget(o, "Unit"), x->k->fam->absent_unit) &&
	    !ktype_named(x->k, jget(o, "Unit"))) {
		x->absent++;
		return;
	}
	if (!unc_encode(x->k, o, x->ordinal++, &ue)) {
		x->not_encodable++;
		ksft_print_msg("%s %s (%s): not encodable\n", x->k->fam->name, name,
			       jget(o, "Unit"));
		return;
	}
	x->checked++;
	x->per_unit[ue.t - x->k->types]++;
	if (!unc_translate(x, name, &ue))
		x->mismatches++;
}

static struct kmap *load_family(struct __test_metadata *_metadata, const struct kfamily *fam)
{
	char path[PATH_MAX + 64];
	struct kmap *k = calloc(1, sizeof(*k));
	char *text;

	if (!k)
		return NULL;
	tc_ksrc_file(path, sizeof(path), "arch/x86/events/intel/uncore_snbep.c");
	text = kload(path);
	if (!text) {
		free(k);
		TH_LOG("cannot read %s: make tests extracts it", path);
		return NULL;
	}
	if (!kparse(k, text, fam)) {
		free(k);
		k = NULL;
		TH_LOG("%s: not the layout this test reads (%s_uncore_*)", path, fam->prefix);
	}
	free(text);
	return k;
}

static struct kmap *load_skx(struct __test_metadata *_metadata)
{
	return load_family(_metadata, &skx_family);
}

/*
 * Every uncore event of @fam's tables through EM_CONFIG_NEXT_UNC:
 * perf's PMU, type, config and config1; at least @types of its uncore
 * types parsed. The counts are printed.
 */
static void check_unc_family(struct __test_metadata *_metadata, FIXTURE_DATA(core) *self,
			     const struct kfamily *fam, u32 types, struct uctx *x)
{
	char dflt[PATH_MAX + 64], dir[PATH_MAX + 128], path[PATH_MAX + 512];
	const char *base = pmu_events_dir(dflt, sizeof(dflt));
	struct kmap *k = load_family(_metadata, fam);
	struct dirent **names;
	int nnames;

	memset(x, 0, sizeof(*x));
	x->md = _metadata;
	x->self = self;
	x->k = k;
	ASSERT_NE(NULL, k);
	ASSERT_NE(NULL, base);
	ASSERT_LE(types, k->ntypes) TH_LOG("%s_uncore_* types found: %u", fam->prefix, k->ntypes);
	for (u32 i = 0; i < k->ntypes; i++) {
		ASSERT_LT(0, k->types[i].nboxes) TH_LOG("%s: no boxes", k->types[i].var);
	}
	snprintf(dir, sizeof(dir), "%s/%s", base, fam->name);
	nnames = scandir(dir, &names, json_file, alphasort);
	ASSERT_LT(0, nnames) TH_LOG("no pmu-events tables in %s", dir);
	for (int i = 0; i < nnames; i++) {
		const char *err;
		bool table;
		size_t len = 0, at;
		char *text = NULL;

		if (!strncmp(names[i]->d_name, "uncore-", 7)) {
			snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
			text = (char *)tc_read_file(path, &len);
			EXPECT_NE(NULL, text) TH_LOG("cannot read %s", path);
		}
		free(names[i]);
		if (!text)
			continue;
		err = jtable(text, len, each_unc_entry, x, &table, &at);
		EXPECT_EQ(NULL, err) TH_LOG("%s: %s at byte %zu", path, err, at);
		free(text);
	}
	free(names);
	ksft_print_msg("checked %u uncore events of %s, mismatches %u, not encodable %u\n",
		       x->checked, fam->name, x->mismatches, x->not_encodable);
	for (u32 i = 0; i < k->ntypes; i++)
		if (x->per_unit[i])
			ksft_print_msg("%s: uncore_%s: %u events over %u boxes\n", fam->name,
				       k->types[i].name, x->per_unit[i], kboxes(&k->types[i]));
	if (fam->absent_unit)
		ksft_print_msg("%s: unit %s: %u events, no PMU in Linux (not counted by aca)\n",
			       fam->name, fam->absent_unit, x->absent);
	free(k);
	x->k = NULL;
}

/* Every uncore event of the server's tables: perf's PMU, type, config and config1. */
TEST_F(core, skylakex_uncore_events_translate_as_perf_encodes_them)
{
	struct uctx x;

	check_unc_family(_metadata, self, &skx_family, 9, &x);
	EXPECT_LT(3000, x.checked);
	EXPECT_EQ(0, x.not_encodable);
	EXPECT_EQ(0, x.mismatches);
}

/* Sandy Bridge-EP (E5-2600, model 0x2d): ubox, cbox, pcu, ha, imc, qpi, r2pcie, r3qpi. */
TEST_F(core, jaketown_uncore_events_translate_as_perf_encodes_them)
{
	struct uctx x;

	check_unc_family(_metadata, self, &snbep_family, 8, &x);
	EXPECT_LT(450, x.checked);
	EXPECT_EQ(0, x.not_encodable);
	EXPECT_EQ(0, x.mismatches);
}

/* Ivy Bridge-EP (E5-2600 v2, model 0x3e): Sandy Bridge-EP's boxes, more of them, and the IRP. */
TEST_F(core, ivytown_uncore_events_translate_as_perf_encodes_them)
{
	struct uctx x;

	check_unc_family(_metadata, self, &ivbep_family, 9, &x);
	EXPECT_LT(1000, x.checked);
	EXPECT_EQ(0, x.not_encodable);
	EXPECT_EQ(0, x.mismatches);
	EXPECT_EQ(0, x.absent);
}

/* Haswell-EP (E5-2600 v3, model 0x3f): ubox, cbox, sbox, pcu, ha, imc, irp, qpi, r2pcie, r3qpi. */
TEST_F(core, haswellx_uncore_events_translate_as_perf_encodes_them)
{
	struct uctx x;

	check_unc_family(_metadata, self, &hswep_family, 10, &x);
	EXPECT_LT(1200, x.checked);
	EXPECT_EQ(0, x.not_encodable);
	EXPECT_EQ(0, x.mismatches);
	EXPECT_EQ(0, x.absent);
}

/* Broadwell-EP (E5-2600 v4, model 0x4f): Haswell-EP's boxes; its PCU Haswell-EP's type. */
TEST_F(core, broadwellx_uncore_events_translate_as_perf_encodes_them)
{
	struct uctx x;

	check_unc_family(_metadata, self, &bdx_family, 10, &x);
	EXPECT_LT(1200, x.checked);
	EXPECT_EQ(0, x.not_encodable);
	EXPECT_EQ(0, x.mismatches);
	EXPECT_EQ(0, x.absent);
}

/* A CHA select and its counter, on box @box of a Skylake-SP whose PMUs are @k's. */
static void cha_ecb(const struct kmap *k, u8 *ecb, u32 box, u64 select, u64 filter)
{
	struct unc_enc ue = { .t = ktype_named(k, "cha"), .box = box, .select = select,
			      .filter = filter };

	host_unc_ecb(k, ecb, &ue);
}

TEST_F(core, uncore_ecb_of_a_box_the_target_lacks_is_refused)
{
	static u8 ecb[U_ECB_LEN];
	struct kmap *k = load_skx(_metadata);

	ASSERT_NE(NULL, k);
	/* Only 4 CHAs: uncore_cha_5 is not there. */
	k->types[ktype_named(k, "cha") - k->types].nboxes = 4;
	unc_session(_metadata, self, k);
	cha_ecb(k, ecb, 5, 0x400134, 0);
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, cmd(_metadata, self, SEP_CMD_EM_CONFIG_NEXT_UNC,
					     ecb, U_ECB_LEN, 0));
	EXPECT_EQ(1, fake_log_count(&self->f, "no perf PMU uncore_cha_5"));
	cha_ecb(k, ecb, 3, 0x400134, 0);
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_EM_CONFIG_NEXT_UNC, ecb, U_ECB_LEN, 0));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
	EXPECT_EQ(1, self->f.start_nunc) TH_LOG("the refused ECB added nothing");
	EXPECT_STREQ("uncore_cha_3", self->f.start_unc[0].pmu);
	EXPECT_EQ(0x134, self->f.start_unc[0].config);
	free(k);
}

static struct sep_event_reg *u_reg(u8 *ecb, u32 slot)
{
	return (struct sep_event_reg *)(ecb + sizeof(struct sep_ecb)) + slot;
}

static s32 send_unc(struct __test_metadata *_metadata, FIXTURE_DATA(core) *self, u8 *ecb)
{
	return cmd(_metadata, self, SEP_CMD_EM_CONFIG_NEXT_UNC, ecb, U_ECB_LEN, 0);
}

/*
 * What the kernel's worker writes must fit: each U64 aligned, after the
 * record's head, inside its descriptor's size, the count apart from the
 * group; one event per counter; a select of event 0xff (perf's fixed
 * counter), a filter wider than its register, a counter without its
 * select, and a box that is not the target's refused. Each refusal leaves
 * the collection as it was.
 */
TEST_F(core, uncore_ecbs_that_do_not_fit_are_refused)
{
	static const struct {
		u16 count, group;
	} offsets[] = { { 36, 32 }, { 24, 32 }, { 48, 32 }, { 40, 40 }, { 40, 44 } };
	static u8 ecb[U_ECB_LEN];
	struct kmap *k = load_skx(_metadata);
	struct unc_enc imc;

	ASSERT_NE(NULL, k);
	/* EM_CONFIG_NEXT_UNC before EM_GROUPS_UNC. */
	reinit(_metadata, self, FAKE_NCPUS);
	self->f.cpuid1_eax = SKX_CPUID1_EAX;
	add_pmus(&self->f, k);
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_CONFIGURED);
	cha_ecb(k, ecb, 0, 0x400134, 0);
	EXPECT_EQ(VT_BAD_PARAMETER, send_unc(_metadata, self, ecb));

	unc_session(_metadata, self, k);
	for (size_t i = 0; i < ARRAY_SIZE(offsets); i++) {
		cha_ecb(k, ecb, 0, 0x400134, 0);
		u_reg(ecb, 3)->counter_event_offset = offsets[i].count;
		((struct sep_ecb *)ecb)->group_offset = offsets[i].group;
		EXPECT_EQ(VT_DRIVER_COMM_FAILED, send_unc(_metadata, self, ecb))
			TH_LOG("count @%u, group @%u", offsets[i].count, offsets[i].group);
	}
	EXPECT_EQ(ARRAY_SIZE(offsets), fake_log_count(&self->f, "not two U64s after the head"));
	/* A descriptor the host did not send. */
	cha_ecb(k, ecb, 0, 0x400134, 0);
	((struct sep_ecb *)ecb)->descriptor_id = 2;
	EXPECT_EQ(VT_BAD_PARAMETER, send_unc(_metadata, self, ecb));
	/* Event 0xff on a general counter. */
	cha_ecb(k, ecb, 0, 0x4000ff, 0);
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, send_unc(_metadata, self, ecb));
	EXPECT_EQ(1, fake_log_count(&self->f, "event 0xff is perf's fixed counter"));
	/* FILTER0 has 32 bits. */
	cha_ecb(k, ecb, 0, 0x400134, 1);
	u_reg(ecb, 1)->reg_value = 1ull << 32;
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, send_unc(_metadata, self, ecb));
	EXPECT_EQ(1, fake_log_count(&self->f, "a filter register has 32 bits"));
	/* An iMC (PCI) counter without its select: the select of another channel. */
	memset(&imc, 0, sizeof(imc));
	imc.t = ktype_named(k, "imc");
	imc.box = 1;
	imc.select = 0x400304;
	host_unc_ecb(k, ecb, &imc);
	u_reg(ecb, 0)->event_reg_id.pci_func_no = 2;	/* 10.2: channel 0's */
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, send_unc(_metadata, self, ecb));
	EXPECT_EQ(1, fake_log_count(&self->f, "uncore_imc_1 counter 0 has no event select"));
	/* A counter no box of the map has. */
	cha_ecb(k, ecb, 0, 0x400134, 0);
	u_reg(ecb, 3)->event_reg_id.reg_id = 0xe0c;
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, send_unc(_metadata, self, ecb));
	EXPECT_EQ(1, fake_log_count(&self->f, "is no Skylake-SP counter aca knows"));
	/* One event per counter, across ECBs. */
	cha_ecb(k, ecb, 2, 0x400134, 0);
	EXPECT_EQ(VT_SUCCESS, send_unc(_metadata, self, ecb));
	cha_ecb(k, ecb, 2, 0x400234, 0);
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, send_unc(_metadata, self, ecb));
	EXPECT_EQ(1, fake_log_count(&self->f, "uncore_cha_2 counter 0 is read twice"));
	/* The PCU's filter (no JSON event has one): config1 as written. */
	memset(&imc, 0, sizeof(imc));
	imc.t = ktype_named(k, "pcu");
	imc.ctr = 1;
	imc.select = 0x40000b;
	host_unc_ecb(k, ecb, &imc);
	u_reg(ecb, 1)->event_reg_id.reg_id = 0x715;
	u_reg(ecb, 1)->reg_prog_type = SEP_REG_PROG_MSR;
	u_reg(ecb, 1)->reg_value = 0x20181410;
	EXPECT_EQ(VT_SUCCESS, send_unc(_metadata, self, ecb));
	/* Only the accepted ones start, with their records' size, in order. */
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
	ASSERT_EQ(2, self->f.start_nunc);
	EXPECT_STREQ("uncore_cha_2", self->f.start_unc[0].pmu);
	EXPECT_EQ(48, self->f.start_unc[0].rec_size);
	EXPECT_EQ(0, self->f.start_unc[0].counter);
	EXPECT_EQ(0, self->f.start_unc[0].device);
	EXPECT_STREQ("uncore_pcu", self->f.start_unc[1].pmu);
	EXPECT_EQ(1, self->f.start_unc[1].counter);
	EXPECT_EQ(1, self->f.start_unc[1].device);
	EXPECT_EQ(0x0b, self->f.start_unc[1].config);
	EXPECT_EQ(0x20181410, self->f.start_unc[1].config1);
	free(k);
}

/*
 * Intel's one uncore vector (spec 6.7) reads two free-running DRAM
 * counters by MMIO at MCHBAR + 0x6868 and + 0x686C: no Linux PMU reads
 * them, so on a target with uncore PMUs it is refused with 228, the log
 * naming the first register and why, and nothing of it counts.
 */
TEST_F(core, shipped_dram_vector_is_refused_naming_its_mmio_register)
{
	struct kmap *k = load_skx(_metadata);
	u8 *ecb;

	ASSERT_NE(NULL, k);
	unc_session(_metadata, self, k);
	ecb = malloc(2680);
	ASSERT_NE(NULL, ecb);
	memcpy(ecb, uncore_ecb(_metadata, self), 2680);
	EXPECT_EQ(VT_INVALID_PROG_INFO, cmd(_metadata, self, SEP_CMD_EM_CONFIG_NEXT_UNC,
					    ecb, 2680, 48));
	EXPECT_EQ(1, fake_log_count(&self->f, "uncore register MMIO 0x6868 (device type 12) refused (228)"));
	EXPECT_EQ(1, fake_log_count(&self->f, "no Linux perf PMU reads this offset"));
	EXPECT_EQ(0, fake_log_count(&self->f, "counter aca knows"));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
	EXPECT_EQ(0, self->f.start_nunc);
	free(ecb);
	free(k);
}

/* An MMIO counter beside one aca translates refuses the whole ECB (all or none). */
TEST_F(core, uncore_ecb_with_an_mmio_counter_is_refused_whole)
{
	static u8 ecb[U_ECB_LEN + sizeof(struct sep_event_reg)];
	struct kmap *k = load_skx(_metadata);
	struct sep_ecb *h = (struct sep_ecb *)ecb;
	struct sep_event_reg *mmio = u_reg(ecb, U_SLOTS);

	ASSERT_NE(NULL, k);
	unc_session(_metadata, self, k);
	cha_ecb(k, ecb, 0, 0x400134, 0);
	/* A fifth slot, READ's second: MMIO offset 0x686C, the CHA counter's copy. */
	ASSERT_EQ(U_SLOTS - 1, h->operations[SEP_OP_READ].register_start);
	*mmio = *u_reg(ecb, U_SLOTS - 1);
	mmio->reg_prog_type = SEP_REG_PROG_MMIO;
	mmio->event_reg_id.reg_id = 0x686c;
	mmio->counter_event_offset = 32;
	h->operations[SEP_OP_READ].register_len = 2;
	h->size_of_allocation = sizeof(ecb);
	EXPECT_EQ(VT_INVALID_PROG_INFO, cmd(_metadata, self, SEP_CMD_EM_CONFIG_NEXT_UNC,
					    ecb, sizeof(ecb), 0));
	EXPECT_EQ(1, fake_log_count(&self->f, "uncore register MMIO 0x686c"));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
	EXPECT_EQ(0, self->f.start_nunc) TH_LOG("the CHA's counter was not kept");
	free(k);
}

/* A format file's text into the bits it names; anything else is not one. */
TEST(uncore_format_files_parse_as_the_kernel_writes_them)
{
	static const struct {
		const char *spec;
		bool ok;
		u64 bits[3];
	} cases[] = {
		{ "config:0-7", true, { 0xff } },
		{ "config:0-7,21\n", true, { 0x2000ff } },
		{ "config:8-15,32-43,45-55", true, { 0xffefff0000ff00ull } },
		{ "config1:0-63", true, { 0, ~0ull } },
		{ "config2:63", true, { 0, 0, 1ull << 63 } },
		{ "config:64", false, { 0 } }, { "config:5-3", false, { 0 } },
		{ "config:", false, { 0 } }, { "config:1,", false, { 0 } },
		{ "config:1 ", false, { 0 } }, { "config3:1", false, { 0 } },
		{ "event:1", false, { 0 } }, { "", false, { 0 } },
		{ "config:1-64", false, { 0 } },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		u64 bits[3] = { 0 };

		EXPECT_EQ(cases[i].ok, acp_pmu_format_bits(cases[i].spec, bits))
			TH_LOG("\"%s\"", cases[i].spec);
		for (int w = 0; cases[i].ok && w < 3; w++) {
			EXPECT_EQ(cases[i].bits[w], bits[w])
				TH_LOG("\"%s\" word %d", cases[i].spec, w);
		}
	}
}

/* A select or filter bit no format names is refused, not dropped. */
TEST_F(core, uncore_bits_no_format_names_are_refused)
{
	static u8 ecb[U_ECB_LEN];
	struct kmap *k = load_skx(_metadata);

	ASSERT_NE(NULL, k);
	unc_session(_metadata, self, k);
	/* Bit 32: no skx CHA format names it. */
	cha_ecb(k, ecb, 0, 0x400134 | 1ull << 32, 0);
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, cmd(_metadata, self, SEP_CMD_EM_CONFIG_NEXT_UNC,
					     ecb, U_ECB_LEN, 0));
	EXPECT_EQ(1, fake_log_count(&self->f, "in none of its formats"));
	/* FILTER1 bit 2 (config1 bit 34): no filter format names it. */
	cha_ecb(k, ecb, 0, 0x400134, 1ull << 34);
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, cmd(_metadata, self, SEP_CMD_EM_CONFIG_NEXT_UNC,
					     ecb, U_ECB_LEN, 0));
	EXPECT_EQ(2, fake_log_count(&self->f, "in none of its formats"));
	/* The enable, overflow and reset bits are perf's. */
	cha_ecb(k, ecb, 0, 0x400134 | 1 << 17 | 1 << 20, 1ull << 33);
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_EM_CONFIG_NEXT_UNC, ecb, U_ECB_LEN, 0));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
	EXPECT_EQ(0x134, self->f.start_unc[0].config);
	EXPECT_EQ(1ull << 33, self->f.start_unc[0].config1);
	free(k);
}

/* The status message's switch bit 5: a Skylake-SP with its uncore PMUs, not one without. */
TEST_F(core, status_message_announces_uncore_where_the_model_has_its_pmus)
{
	struct sep_target_status_msg st;
	struct kmap *k = load_skx(_metadata);

	ASSERT_NE(NULL, k);
	reinit(_metadata, self, FAKE_NCPUS);
	self->f.cpuid1_eax = SKX_CPUID1_EAX;
	self->ctl = new_conn(self);
	EXPECT_EQ(0, hello_on(_metadata, self, self->ctl, 24, &st));
	EXPECT_EQ(0, st.collect_switch.flags);
	acp_conn_hangup(self->ctl);
	add_pmus(&self->f, k);
	self->ctl = new_conn(self);
	EXPECT_EQ(0, hello_on(_metadata, self, self->ctl, 24, &st));
	EXPECT_EQ(SEP_SWITCH_UNCORE_SUPPORTED, st.collect_switch.flags);
	free(k);
}

/*
 * Uncore needs the model's register map and its PMUs (else 183, as in
 * core_state_test), one group per device, and sampling mode.
 */
TEST_F(core, uncore_needs_a_model_aca_maps_and_its_pmus)
{
	struct sep_event_config ec;
	struct kmap *k = load_skx(_metadata);

	ASSERT_NE(NULL, k);
	tc_event_config(&ec, false);
	ec.num_groups = 1;
	/* The PMUs, on a model aca has no map of (the fixture's Coffee Lake). */
	reinit(_metadata, self, FAKE_NCPUS);
	add_pmus(&self->f, k);
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_CONFIGURED);
	EXPECT_EQ(VT_INVALID_DEVICE, cmd(_metadata, self, SEP_CMD_EM_GROUPS_UNC, &ec,
					 sizeof(ec), 0));
	/* Skylake-SP without them. */
	reinit(_metadata, self, FAKE_NCPUS);
	self->f.cpuid1_eax = SKX_CPUID1_EAX;
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_CONFIGURED);
	EXPECT_EQ(VT_INVALID_DEVICE, cmd(_metadata, self, SEP_CMD_EM_GROUPS_UNC, &ec,
					 sizeof(ec), 0));
	/* Both: one group per device. */
	unc_session(_metadata, self, k);
	ec.num_groups = 2;
	EXPECT_EQ(VT_BAD_PARAMETER, cmd(_metadata, self, SEP_CMD_EM_GROUPS_UNC, &ec,
					sizeof(ec), 0));
	/* Uncore counts go into records: not in counting mode. */
	reinit(_metadata, self, FAKE_NCPUS);
	self->f.cpuid1_eax = SKX_CPUID1_EAX;
	add_pmus(&self->f, k);
	open_session(_metadata, self);
	goto_state(_metadata, self, ACP_RESERVED);
	ASSERT_EQ(VT_SUCCESS, init_driver(_metadata, self, SEP_DRV_CFG_COUNTING_MODE));
	ec.num_groups = 1;
	EXPECT_EQ(VT_BAD_PARAMETER, cmd(_metadata, self, SEP_CMD_EM_GROUPS_UNC, &ec,
					sizeof(ec), 0));
	EXPECT_EQ(1, fake_log_count(&self->f, "counting mode reads core counters only"));
	free(k);
}

/*
 * Sandy Bridge-EP: a CBo's one filter register is config1's low half; the
 * QPI packet match and mask (PCI 8.6, 9.6), which perf takes from config1
 * and config2, and the HA's address and opcode match, which Linux does not
 * program there, refuse the ECB when written nonzero; an IRP counter (no
 * Linux PMU) is no counter aca knows.
 */
TEST_F(core, jaketown_filters_aca_cannot_pass_are_refused)
{
	static u8 ecb[U_ECB_LEN];
	struct kmap *k = load_family(_metadata, &snbep_family);
	struct unc_enc ue;

	ASSERT_NE(NULL, k);
	unc_session(_metadata, self, k);
	memset(&ue, 0, sizeof(ue));
	ue.t = ktype_named(k, "cbox");
	ue.box = 3;
	ue.select = 0x400334;
	ue.filter = 0x1f;
	host_unc_ecb(k, ecb, &ue);
	EXPECT_EQ(0xd74, u_reg(ecb, 1)->event_reg_id.reg_id) TH_LOG("FILTER of CBo 3");
	EXPECT_EQ(VT_SUCCESS, send_unc(_metadata, self, ecb));
	/* QPI port 1, event 0x38, its match register written. */
	memset(&ue, 0, sizeof(ue));
	ue.t = ktype_named(k, "qpi");
	ue.box = 1;
	ue.select = 0x400038;
	host_unc_ecb(k, ecb, &ue);
	*u_reg(ecb, 1) = *u_reg(ecb, 0);
	u_reg(ecb, 1)->event_reg_id.reg_id = 0x228;
	u_reg(ecb, 1)->event_reg_id.pci_func_no = 6;
	u_reg(ecb, 1)->reg_value = 0x1;
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, send_unc(_metadata, self, ecb));
	EXPECT_EQ(1, fake_log_count(&self->f, "PCI 9.6 register 0x228 = 0x1"));
	/* Written 0, it filters nothing: the event counts. */
	u_reg(ecb, 1)->reg_value = 0;
	EXPECT_EQ(VT_SUCCESS, send_unc(_metadata, self, ecb));
	/* The HA's opcode match. */
	memset(&ue, 0, sizeof(ue));
	ue.t = ktype_named(k, "ha");
	ue.ctr = 2;
	ue.select = 0x400001;
	host_unc_ecb(k, ecb, &ue);
	*u_reg(ecb, 1) = *u_reg(ecb, 0);
	u_reg(ecb, 1)->event_reg_id.reg_id = 0x48;
	u_reg(ecb, 1)->reg_value = 0x40;
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, send_unc(_metadata, self, ecb));
	EXPECT_EQ(1, fake_log_count(&self->f, "HA address/opcode match"));
	/* A PCI device the map has no box on (5.6): no counter. */
	u_reg(ecb, 1)->reg_value = 0;
	u_reg(ecb, 3)->event_reg_id.pci_dev_no = 5;
	u_reg(ecb, 3)->event_reg_id.pci_func_no = 6;
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, send_unc(_metadata, self, ecb));
	EXPECT_EQ(1, fake_log_count(&self->f, "is no Sandy Bridge-EP counter aca knows"));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
	ASSERT_EQ(2, self->f.start_nunc);
	EXPECT_STREQ("uncore_cbox_3", self->f.start_unc[0].pmu);
	EXPECT_EQ(0x334, self->f.start_unc[0].config);
	EXPECT_EQ(0x1f, self->f.start_unc[0].config1);
	EXPECT_STREQ("uncore_qpi_1", self->f.start_unc[1].pmu);
	EXPECT_EQ(0x38, self->f.start_unc[1].config);
	EXPECT_EQ(0, self->f.start_unc[1].config1);
	free(k);
}

/*
 * No jaketown event names a fixed counter: the ubox's (MSR 0xc09) and an
 * iMC channel's (0xd0 on 16.4, channel 2) are perf's event 0xff on their
 * box; the PCU's filter (0xc34) is config1 as written.
 */
TEST_F(core, jaketown_fixed_counters_and_pcu_filter_translate)
{
	static u8 ecb[U_ECB_LEN];
	struct kmap *k = load_family(_metadata, &snbep_family);
	struct unc_enc ue;

	ASSERT_NE(NULL, k);
	unc_session(_metadata, self, k);
	memset(&ue, 0, sizeof(ue));
	ue.t = ktype_named(k, "ubox");
	ue.ctr = -1;
	host_unc_ecb(k, ecb, &ue);
	EXPECT_EQ(0xc09, u_reg(ecb, 3)->event_reg_id.reg_id);
	EXPECT_EQ(VT_SUCCESS, send_unc(_metadata, self, ecb));
	memset(&ue, 0, sizeof(ue));
	ue.t = ktype_named(k, "imc");
	ue.box = 2;
	ue.ctr = -1;
	host_unc_ecb(k, ecb, &ue);
	EXPECT_EQ(16, u_reg(ecb, 3)->event_reg_id.pci_dev_no);
	EXPECT_EQ(4, u_reg(ecb, 3)->event_reg_id.pci_func_no);
	EXPECT_EQ(VT_SUCCESS, send_unc(_metadata, self, ecb));
	memset(&ue, 0, sizeof(ue));
	ue.t = ktype_named(k, "pcu");
	ue.ctr = 3;
	ue.select = 0x40000d;
	host_unc_ecb(k, ecb, &ue);
	*u_reg(ecb, 1) = *u_reg(ecb, 0);
	u_reg(ecb, 1)->event_reg_id.reg_id = 0xc34;
	u_reg(ecb, 1)->reg_value = 0x20000000;
	EXPECT_EQ(VT_SUCCESS, send_unc(_metadata, self, ecb));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
	ASSERT_EQ(3, self->f.start_nunc);
	EXPECT_STREQ("uncore_ubox", self->f.start_unc[0].pmu);
	EXPECT_EQ(ACP_UNC_FIXED, self->f.start_unc[0].counter);
	EXPECT_EQ(0xff, self->f.start_unc[0].config);
	EXPECT_STREQ("uncore_imc_2", self->f.start_unc[1].pmu);
	EXPECT_EQ(ACP_UNC_FIXED, self->f.start_unc[1].counter);
	EXPECT_EQ(0xff, self->f.start_unc[1].config);
	EXPECT_STREQ("uncore_pcu", self->f.start_unc[2].pmu);
	EXPECT_EQ(3, self->f.start_unc[2].counter);
	EXPECT_EQ(0x0d, self->f.start_unc[2].config);
	EXPECT_EQ(0x20000000, self->f.start_unc[2].config1);
	free(k);
}

/*
 * Ivy Bridge-EP, what no ivytown event names: a CBo filter's two halves
 * (CBo 14: 0xed4 low, 0xeda high) are config1's; the fixed counter of
 * memory controller 1's first channel (30.4) is uncore_imc_4's; an IRP
 * counter is found at its uneven offset (counter 1 at 0xb0); QPI port 2's
 * packet match (24.6) and HA 1's opcode match (28.1) refuse the ECB.
 */
TEST_F(core, ivytown_cbo_filter_fixed_counter_irp_and_refusals)
{
	static u8 ecb[U_ECB_LEN];
	struct kmap *k = load_family(_metadata, &ivbep_family);
	struct unc_enc ue;

	ASSERT_NE(NULL, k);
	unc_session(_metadata, self, k);
	memset(&ue, 0, sizeof(ue));
	ue.t = ktype_named(k, "cbox");
	ue.box = 14;
	ue.select = 0x400135;
	ue.filter = 0x1820000000000003ull;	/* filter_opc 0x182, filter_tid 3 */
	host_unc_ecb(k, ecb, &ue);
	EXPECT_EQ(0xed4, u_reg(ecb, 1)->event_reg_id.reg_id);
	EXPECT_EQ(0xeda, u_reg(ecb, 2)->event_reg_id.reg_id);
	EXPECT_EQ(VT_SUCCESS, send_unc(_metadata, self, ecb));
	memset(&ue, 0, sizeof(ue));
	ue.t = ktype_named(k, "imc");
	ue.box = 4;
	ue.ctr = -1;
	host_unc_ecb(k, ecb, &ue);
	EXPECT_EQ(30, u_reg(ecb, 3)->event_reg_id.pci_dev_no);
	EXPECT_EQ(4, u_reg(ecb, 3)->event_reg_id.pci_func_no);
	EXPECT_EQ(VT_SUCCESS, send_unc(_metadata, self, ecb));
	memset(&ue, 0, sizeof(ue));
	ue.t = ktype_named(k, "irp");
	ue.ctr = 1;
	ue.select = 0x400112;
	host_unc_ecb(k, ecb, &ue);
	EXPECT_EQ(0xdc, u_reg(ecb, 0)->event_reg_id.reg_id);
	EXPECT_EQ(0xb0, u_reg(ecb, 3)->event_reg_id.reg_id);
	EXPECT_EQ(VT_SUCCESS, send_unc(_metadata, self, ecb));
	memset(&ue, 0, sizeof(ue));
	ue.t = ktype_named(k, "qpi");
	ue.box = 2;
	ue.select = 0x400038;
	host_unc_ecb(k, ecb, &ue);
	*u_reg(ecb, 1) = *u_reg(ecb, 0);
	u_reg(ecb, 1)->event_reg_id.reg_id = 0x230;
	u_reg(ecb, 1)->event_reg_id.pci_func_no = 6;
	u_reg(ecb, 1)->reg_value = 0x10;
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, send_unc(_metadata, self, ecb));
	EXPECT_EQ(1, fake_log_count(&self->f, "PCI 24.6 register 0x230 = 0x10"));
	memset(&ue, 0, sizeof(ue));
	ue.t = ktype_named(k, "ha");
	ue.box = 1;
	ue.select = 0x400001;
	host_unc_ecb(k, ecb, &ue);
	*u_reg(ecb, 1) = *u_reg(ecb, 0);
	u_reg(ecb, 1)->event_reg_id.reg_id = 0x40;
	u_reg(ecb, 1)->reg_value = 0x1000;
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, send_unc(_metadata, self, ecb));
	EXPECT_EQ(1, fake_log_count(&self->f, "PCI 28.1 register 0x40"));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
	ASSERT_EQ(3, self->f.start_nunc);
	EXPECT_STREQ("uncore_cbox_14", self->f.start_unc[0].pmu);
	EXPECT_EQ(0x135, self->f.start_unc[0].config);
	EXPECT_EQ(0x1820000000000003ull, self->f.start_unc[0].config1);
	EXPECT_STREQ("uncore_imc_4", self->f.start_unc[1].pmu);
	EXPECT_EQ(ACP_UNC_FIXED, self->f.start_unc[1].counter);
	EXPECT_EQ(0xff, self->f.start_unc[1].config);
	EXPECT_STREQ("uncore_irp", self->f.start_unc[2].pmu);
	EXPECT_EQ(1, self->f.start_unc[2].counter);
	EXPECT_EQ(0x112, self->f.start_unc[2].config);
	free(k);
}

/*
 * Haswell-EP, what no haswellx event names: the ubox's filter (0x707)
 * and the PCU's (0x715) are config1 as written; SBox 3 is at 0x73f/0x744;
 * the fixed counter of memory controller 1's first channel in Linux's
 * order (24.0) is uncore_imc_4's; the IRP's counter 2 is at 0xb0 with its
 * select at 0xe0; QPI port 2's packet match (10.6) and HA 1's address
 * match (18.5) refuse the ECB.
 */
TEST_F(core, haswellx_filters_sbox_fixed_counter_irp_and_refusals)
{
	static u8 ecb[U_ECB_LEN];
	struct kmap *k = load_family(_metadata, &hswep_family);
	struct unc_enc ue;

	ASSERT_NE(NULL, k);
	unc_session(_metadata, self, k);
	memset(&ue, 0, sizeof(ue));
	ue.t = ktype_named(k, "ubox");
	ue.ctr = 1;
	ue.select = 0x400044;
	host_unc_ecb(k, ecb, &ue);
	*u_reg(ecb, 1) = *u_reg(ecb, 0);
	u_reg(ecb, 1)->event_reg_id.reg_id = 0x707;
	u_reg(ecb, 1)->reg_value = 0x21;	/* filter_tid config1:0, filter_cid config1:5 */
	EXPECT_EQ(0x706, u_reg(ecb, 0)->event_reg_id.reg_id);
	EXPECT_EQ(VT_SUCCESS, send_unc(_metadata, self, ecb));
	memset(&ue, 0, sizeof(ue));
	ue.t = ktype_named(k, "pcu");
	ue.ctr = 2;
	ue.select = 0x40000c;
	host_unc_ecb(k, ecb, &ue);
	*u_reg(ecb, 1) = *u_reg(ecb, 0);
	u_reg(ecb, 1)->event_reg_id.reg_id = 0x715;
	u_reg(ecb, 1)->reg_value = 0x10000;
	EXPECT_EQ(VT_SUCCESS, send_unc(_metadata, self, ecb));
	memset(&ue, 0, sizeof(ue));
	ue.t = ktype_named(k, "sbox");
	ue.box = 3;
	ue.select = 0x400102;
	host_unc_ecb(k, ecb, &ue);
	EXPECT_EQ(0x73f, u_reg(ecb, 0)->event_reg_id.reg_id);
	EXPECT_EQ(0x744, u_reg(ecb, 3)->event_reg_id.reg_id);
	EXPECT_EQ(VT_SUCCESS, send_unc(_metadata, self, ecb));
	memset(&ue, 0, sizeof(ue));
	ue.t = ktype_named(k, "imc");
	ue.box = 4;
	ue.ctr = -1;
	host_unc_ecb(k, ecb, &ue);
	EXPECT_EQ(24, u_reg(ecb, 3)->event_reg_id.pci_dev_no);
	EXPECT_EQ(0, u_reg(ecb, 3)->event_reg_id.pci_func_no);
	EXPECT_EQ(VT_SUCCESS, send_unc(_metadata, self, ecb));
	memset(&ue, 0, sizeof(ue));
	ue.t = ktype_named(k, "irp");
	ue.ctr = 2;
	ue.select = 0x400118;
	host_unc_ecb(k, ecb, &ue);
	EXPECT_EQ(0xe0, u_reg(ecb, 0)->event_reg_id.reg_id);
	EXPECT_EQ(0xb0, u_reg(ecb, 3)->event_reg_id.reg_id);
	EXPECT_EQ(VT_SUCCESS, send_unc(_metadata, self, ecb));
	memset(&ue, 0, sizeof(ue));
	ue.t = ktype_named(k, "qpi");
	ue.box = 2;
	ue.select = 0x400038;
	host_unc_ecb(k, ecb, &ue);
	*u_reg(ecb, 1) = *u_reg(ecb, 0);
	u_reg(ecb, 1)->event_reg_id.reg_id = 0x238;
	u_reg(ecb, 1)->event_reg_id.pci_func_no = 6;
	u_reg(ecb, 1)->reg_value = 0x4;
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, send_unc(_metadata, self, ecb));
	EXPECT_EQ(1, fake_log_count(&self->f, "PCI 10.6 register 0x238 = 0x4"));
	memset(&ue, 0, sizeof(ue));
	ue.t = ktype_named(k, "ha");
	ue.box = 1;
	ue.select = 0x400001;
	host_unc_ecb(k, ecb, &ue);
	*u_reg(ecb, 1) = *u_reg(ecb, 0);
	u_reg(ecb, 1)->event_reg_id.reg_id = 0x44;
	u_reg(ecb, 1)->reg_value = 0x1;
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, send_unc(_metadata, self, ecb));
	EXPECT_EQ(1, fake_log_count(&self->f, "PCI 18.5 register 0x44"));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
	ASSERT_EQ(5, self->f.start_nunc);
	EXPECT_STREQ("uncore_ubox", self->f.start_unc[0].pmu);
	EXPECT_EQ(1, self->f.start_unc[0].counter);
	EXPECT_EQ(0x44, self->f.start_unc[0].config);
	EXPECT_EQ(0x21, self->f.start_unc[0].config1);
	EXPECT_STREQ("uncore_pcu", self->f.start_unc[1].pmu);
	EXPECT_EQ(0x0c, self->f.start_unc[1].config);
	EXPECT_EQ(0x10000, self->f.start_unc[1].config1);
	EXPECT_STREQ("uncore_sbox_3", self->f.start_unc[2].pmu);
	EXPECT_EQ(0, self->f.start_unc[2].counter);
	EXPECT_EQ(0x102, self->f.start_unc[2].config);
	EXPECT_STREQ("uncore_imc_4", self->f.start_unc[3].pmu);
	EXPECT_EQ(ACP_UNC_FIXED, self->f.start_unc[3].counter);
	EXPECT_STREQ("uncore_irp", self->f.start_unc[4].pmu);
	EXPECT_EQ(2, self->f.start_unc[4].counter);
	EXPECT_EQ(0x118, self->f.start_unc[4].config);
	free(k);
}

/*
 * Broadwell-EP: CBo 23 (0xf71/0xf78) with both filter halves (0xf75,
 * 0xf76); Linux's Broadwell ubox has no filter, so its 0x707 is no
 * register aca reads. A Broadwell-DE (model 0x56) is translated by the
 * same map, and named so where a register is none of its counters.
 */
TEST_F(core, broadwellx_cbo_23_and_broadwell_de)
{
	static u8 ecb[U_ECB_LEN];
	struct kmap *k = load_family(_metadata, &bdx_family);
	struct unc_enc ue;

	ASSERT_NE(NULL, k);
	unc_session(_metadata, self, k);
	memset(&ue, 0, sizeof(ue));
	ue.t = ktype_named(k, "cbox");
	ue.box = 23;
	ue.ctr = 3;
	ue.select = 0x400134;
	ue.filter = 0x0190000000020000ull;	/* filter_opc 0x19, filter_state 1 */
	host_unc_ecb(k, ecb, &ue);
	EXPECT_EQ(0xf74, u_reg(ecb, 0)->event_reg_id.reg_id);
	EXPECT_EQ(0xf75, u_reg(ecb, 1)->event_reg_id.reg_id);
	EXPECT_EQ(0xf76, u_reg(ecb, 2)->event_reg_id.reg_id);
	EXPECT_EQ(0xf7b, u_reg(ecb, 3)->event_reg_id.reg_id);
	EXPECT_EQ(VT_SUCCESS, send_unc(_metadata, self, ecb));
	memset(&ue, 0, sizeof(ue));
	ue.t = ktype_named(k, "ubox");
	ue.select = 0x400044;
	host_unc_ecb(k, ecb, &ue);
	*u_reg(ecb, 1) = *u_reg(ecb, 0);
	u_reg(ecb, 1)->event_reg_id.reg_id = 0x707;
	u_reg(ecb, 1)->reg_value = 0x1;
	EXPECT_EQ(VT_SUCCESS, send_unc(_metadata, self, ecb));
	/* Broadwell-DE, family 6 model 0x56. */
	self->f.cpuid1_eax = 0x00050663u;
	memset(&ue, 0, sizeof(ue));
	ue.t = ktype_named(k, "cbox");
	ue.box = 1;
	ue.select = 0x400037;
	host_unc_ecb(k, ecb, &ue);
	EXPECT_EQ(VT_SUCCESS, send_unc(_metadata, self, ecb));
	u_reg(ecb, 3)->event_reg_id.reg_id = 0xd16;	/* an Ivy Bridge-EP CBo counter */
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, send_unc(_metadata, self, ecb));
	EXPECT_EQ(1, fake_log_count(&self->f, "is no Broadwell-DE counter aca knows"));
	EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_START, NULL, 0, 0));
	ASSERT_EQ(3, self->f.start_nunc);
	EXPECT_STREQ("uncore_cbox_23", self->f.start_unc[0].pmu);
	EXPECT_EQ(3, self->f.start_unc[0].counter);
	EXPECT_EQ(0x134, self->f.start_unc[0].config);
	EXPECT_EQ(0x0190000000020000ull, self->f.start_unc[0].config1);
	EXPECT_STREQ("uncore_ubox", self->f.start_unc[1].pmu);
	EXPECT_EQ(0, self->f.start_unc[1].config1);
	EXPECT_STREQ("uncore_cbox_1", self->f.start_unc[2].pmu);
	EXPECT_EQ(0x37, self->f.start_unc[2].config);
	free(k);
}

TEST_HARNESS_MAIN
