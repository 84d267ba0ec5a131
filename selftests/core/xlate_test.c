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
	SKIP_UNCORE,		/* Unit other than a hybrid's cpu_core/cpu_atom */
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
		ksft_print_msg("%s: uncore unit %s: %u events, not translated (aca has no uncore translation)\n",
			       m->name, t->units[u].name, t->units[u].events);
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

TEST_HARNESS_MAIN
