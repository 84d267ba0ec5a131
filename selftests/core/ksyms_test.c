// SPDX-License-Identifier: GPL-2.0-only
/*
 * Protocol core, KERNEL_SYMBOLS (spec 4.6, an aca extension): U64 kernel
 * addresses in, one fixed ACA_KSYM_SLOT_SIZE-byte slot out per address,
 * "START SIZE NAME[ MODULE]" or zeros; privileged sessions only (213),
 * 1 to ACA_KSYM_MAX_ADDRS addresses (63), the reply asked for all
 * of them (159), 159 on a machine that cannot name kernel addresses;
 * every slot empty, and why logged, for a person /proc/kallsyms would
 * show no kernel address (issue 49: kptr_restrict, CAP_SYSLOG).
 * Its own program, build/tests/core_ksyms_test, on the fixture every core
 * test program shares (core_fixture.h); the fake's symbols are in
 * fake_target.c.
 */
#include "core_fixture.h"

#define SLOT		ACA_KSYM_SLOT_SIZE

/* KERNEL_SYMBOLS of @n addresses, asked exactly @n slots. */
static inline s32 ksyms(struct __test_metadata *_metadata,
			FIXTURE_DATA(core) *self, const u64 *addrs, u32 n)
{
	return cmd(_metadata, self, ACA_CMD_KERNEL_SYMBOLS, addrs, 8ull * n,
		   (u64)n * SLOT);
}

/* Slot @i of the last reply: @want (NUL-terminated), then zeros to its end. */
static inline void expect_slot(struct __test_metadata *_metadata,
			       FIXTURE_DATA(core) *self, u32 i, const char *want)
{
	const u8 *slot = self->r.data + (u64)i * SLOT;
	size_t n = strlen(want);

	ASSERT_LE((u64)(i + 1) * SLOT, self->r.len);
	EXPECT_EQ(0, memcmp(slot, want, n))
		TH_LOG("slot %u: \"%.*s\", want \"%s\"", i, SLOT, slot, want);
	EXPECT_TRUE(tc_all_zero(slot + n, SLOT - n)) TH_LOG("slot %u: bytes after the line", i);
}

TEST_F(core, kernel_symbols_answer_a_slot_per_address_in_order)
{
	const u64 addrs[] = {
		0xffffffff81234570ull,		/* do_syscall_64 + 0x10 */
		0xffffffffc0a012c7ull,		/* ext4_readdir's last byte */
		0xffffffff81000000ull,		/* startup_64 itself */
	};

	open_session(_metadata, self);
	ASSERT_EQ(VT_SUCCESS, ksyms(_metadata, self, addrs, 3));
	EXPECT_EQ(3 * SLOT, self->r.len);
	expect_slot(_metadata, self, 0, "ffffffff81234560 1a0 do_syscall_64");
	expect_slot(_metadata, self, 1, "ffffffffc0a01000 2c8 ext4_readdir ext4");
	expect_slot(_metadata, self, 2, "ffffffff81000000 40 startup_64");
	EXPECT_EQ(3, self->f.nksym);
	EXPECT_EQ(addrs[2], self->f.ksym_last);
	/* The session goes on. */
	EXPECT_EQ(SEP_DRIVER_VERSION, query(_metadata, self, SEP_CMD_VERSION, 4));
}

/* An address no symbol holds: an empty slot, its neighbours answered. */
TEST_F(core, kernel_symbols_give_an_unknown_address_an_empty_slot)
{
	const u64 addrs[] = {
		0xffffffff81234700ull,		/* past do_syscall_64, before its neighbour */
		0xffffffff81234800ull,		/* the neighbour */
		0x401000,			/* user space */
		0,
		~0ull,
		0xffffffffc0a012c8ull,		/* one past ext4_readdir */
	};

	open_session(_metadata, self);
	ASSERT_EQ(VT_SUCCESS, ksyms(_metadata, self, addrs, 6));
	expect_slot(_metadata, self, 0, "");
	expect_slot(_metadata, self, 1, "ffffffff81234800 20 syscall_exit_work");
	for (u32 i = 2; i < 6; i++)
		expect_slot(_metadata, self, i, "");
	EXPECT_EQ(6, self->f.nksym);
}

/* What /proc/kallsyms hides from the session's person: every slot empty. */
TEST_F(core, kernel_symbols_hidden_from_the_person_answer_empty_slots)
{
	const u64 addrs[] = { 0xffffffff81234570ull, 0xffffffff81000000ull };

	self->kernel_addresses_hidden = true;
	open_session(_metadata, self);
	ASSERT_EQ(VT_SUCCESS, ksyms(_metadata, self, addrs, 2));
	EXPECT_EQ(2 * SLOT, self->r.len);
	EXPECT_TRUE(tc_all_zero(self->r.data, 2 * SLOT));
	EXPECT_EQ(0, self->f.nksym) TH_LOG("the machine was asked");
	EXPECT_EQ(1, fake_log_count(&self->f, "KERNEL_SYMBOLS: every slot empty: /proc/kallsyms hides kernel addresses"));
	EXPECT_EQ(SEP_DRIVER_VERSION, query(_metadata, self, SEP_CMD_VERSION, 4));
}

/* A session takes it from its control connection, not its data channels. */
TEST_F(core, kernel_symbols_follow_the_control_connection)
{
	const u64 addr = 0xffffffff81000000ull;

	open_session(_metadata, self);
	self->kernel_addresses_hidden = true;
	new_conn(self);
	ASSERT_EQ(VT_SUCCESS, ksyms(_metadata, self, &addr, 1));
	expect_slot(_metadata, self, 0, "ffffffff81000000 40 startup_64");
}

/* Like INIT_DRIVER and START: refused before any other check, with why. */
TEST_F(core, unprivileged_kernel_symbols_answer_no_admin_privilege)
{
	const u64 addr = 0xffffffff81234570ull;

	self->unprivileged = true;
	open_session(_metadata, self);
	EXPECT_EQ(VT_NO_ADMIN_PRIVILEGE, ksyms(_metadata, self, &addr, 1));
	/* Whatever its sizes. */
	EXPECT_EQ(VT_NO_ADMIN_PRIVILEGE,
		  cmd(_metadata, self, ACA_CMD_KERNEL_SYMBOLS, NULL, 0, 0));
	EXPECT_EQ(0, self->f.nksym);
	EXPECT_EQ(2, fake_log_count(&self->f,
				    "KERNEL_SYMBOLS refused: the connection's user lacks CAP_PERFMON (aca(4) SECURITY)"));
	EXPECT_EQ(SEP_DRIVER_VERSION, query(_metadata, self, SEP_CMD_VERSION, 4));
}

TEST_F(core, kernel_symbols_take_at_most_1024_addresses)
{
	u64 *addrs = calloc(ACA_KSYM_MAX_ADDRS + 1, sizeof(*addrs));

	ASSERT_NE(NULL, addrs);
	ASSERT_EQ(1024, ACA_KSYM_MAX_ADDRS);
	for (u32 i = 0; i <= ACA_KSYM_MAX_ADDRS; i++)
		addrs[i] = 0xffffffff81234560ull + (i % 0x1a0);
	open_session(_metadata, self);
	EXPECT_EQ(VT_BAD_PARAMETER, ksyms(_metadata, self, addrs, ACA_KSYM_MAX_ADDRS + 1));
	EXPECT_EQ(0, self->f.nksym);
	EXPECT_EQ(1, fake_log_count(&self->f, "payload of 8200 bytes, not 1 to 1024 addresses"));
	/* 1024 is fine: 512 KiB of slots. */
	EXPECT_EQ(VT_SUCCESS, ksyms(_metadata, self, addrs, ACA_KSYM_MAX_ADDRS));
	EXPECT_EQ((u64)ACA_KSYM_MAX_ADDRS * SLOT, self->r.len);
	expect_slot(_metadata, self, 0, "ffffffff81234560 1a0 do_syscall_64");
	expect_slot(_metadata, self, ACA_KSYM_MAX_ADDRS - 1,
		    "ffffffff81234560 1a0 do_syscall_64");
	EXPECT_EQ(ACA_KSYM_MAX_ADDRS, self->f.nksym);
	free(addrs);
}

/*
 * The lengths: 8 bytes per address, at least one (else 63); the reply at
 * least a slot per address (else 159; more is zero-padded, spec 4.1). A
 * status and no payload, never a machine call.
 */
TEST_F(core, kernel_symbols_refuse_bad_lengths_with_a_status)
{
	u64 addrs[2] = { 0xffffffff81000010ull, 0xffffffffc0a01010ull };

	open_session(_metadata, self);
	EXPECT_EQ(VT_BAD_PARAMETER,
		  cmd(_metadata, self, ACA_CMD_KERNEL_SYMBOLS, addrs, 12, 2 * SLOT));
	EXPECT_EQ(VT_BAD_PARAMETER,
		  cmd(_metadata, self, ACA_CMD_KERNEL_SYMBOLS, addrs, 7, SLOT));
	EXPECT_EQ(VT_BAD_PARAMETER,
		  cmd(_metadata, self, ACA_CMD_KERNEL_SYMBOLS, NULL, 0, SLOT));
	EXPECT_EQ(VT_DRIVER_COMM_FAILED,
		  cmd(_metadata, self, ACA_CMD_KERNEL_SYMBOLS, addrs, 16, 2 * SLOT - 1));
	EXPECT_EQ(VT_DRIVER_COMM_FAILED,
		  cmd(_metadata, self, ACA_CMD_KERNEL_SYMBOLS, addrs, 16, SLOT));
	EXPECT_EQ(VT_DRIVER_COMM_FAILED,
		  cmd(_metadata, self, ACA_CMD_KERNEL_SYMBOLS, addrs, 16, 0));
	EXPECT_EQ(0, self->f.nksym);
	EXPECT_LE(1, fake_log_count(&self->f, "KERNEL_SYMBOLS: reply of"));
	/* More than the slots: they are answered, the rest is zeros. */
	EXPECT_EQ(VT_SUCCESS,
		  cmd(_metadata, self, ACA_CMD_KERNEL_SYMBOLS, addrs, 16, 3 * SLOT + 5));
	expect_slot(_metadata, self, 0, "ffffffff81000000 40 startup_64");
	expect_slot(_metadata, self, 1, "ffffffffc0a01000 2c8 ext4_readdir ext4");
	EXPECT_TRUE(tc_all_zero(self->r.data + 2 * SLOT, SLOT + 5));
}

/* A name longer than the slot holds is cut; the line still ends with its module. */
TEST_F(core, kernel_symbols_cut_a_long_name_to_the_slot)
{
	const u64 addr = FAKE_KSYM_LONG_START + 0x80;
	const char *line, *mod = " " FAKE_KSYM_LONG_MODULE;
	size_t len;

	open_session(_metadata, self);
	ASSERT_EQ(VT_SUCCESS, ksyms(_metadata, self, &addr, 1));
	line = (const char *)self->r.data;
	len = strnlen(line, SLOT);
	EXPECT_EQ(SLOT - 1, len);
	EXPECT_EQ(0, strncmp(line, "ffffffffc0b00000 100 abcdefghijklmnopqrstuvwxyzabc", 50));
	EXPECT_EQ(0, strcmp(line + len - strlen(mod), mod)) TH_LOG("%s", line);
	/* The name is all letters up to its module. */
	for (size_t i = 21; i < len - strlen(mod); i++) {
		ASSERT_EQ('a' + (i - 21) % 26, line[i]) TH_LOG("offset %zu", i);
	}
}

/* Asked after the collection, before TERMINATE, as aca-host does. */
TEST_F(core, kernel_symbols_answer_in_every_state)
{
	const u64 addr = 0xffffffff81234570ull;
	static const enum acp_state states[] = {
		ACP_RESERVED, ACP_CONFIGURED, ACP_RUNNING, ACP_STOPPED,
	};

	for (size_t i = 0; i < ARRAY_SIZE(states); i++) {
		reinit(_metadata, self, FAKE_NCPUS);
		open_session(_metadata, self);
		goto_state(_metadata, self, states[i]);
		EXPECT_EQ(VT_SUCCESS, ksyms(_metadata, self, &addr, 1)) TH_LOG("state %d", states[i]);
		expect_slot(_metadata, self, 0, "ffffffff81234560 1a0 do_syscall_64");
		EXPECT_EQ(VT_SUCCESS, cmd(_metadata, self, SEP_CMD_TERMINATE, NULL, 0, 0));
	}
}

/* A machine without kernel_symbol(): 159, said once per request. */
TEST_F(core, kernel_symbols_without_the_op_answer_159)
{
	const u64 addr = 0xffffffff81234570ull;

	self->ops.kernel_symbol = NULL;
	open_session(_metadata, self);
	EXPECT_EQ(VT_DRIVER_COMM_FAILED, ksyms(_metadata, self, &addr, 1));
	EXPECT_EQ(1, fake_log_count(&self->f, "KERNEL_SYMBOLS: this target cannot name kernel addresses"));
	EXPECT_EQ(SEP_DRIVER_VERSION, query(_metadata, self, SEP_CMD_VERSION, 4));
}

/* Out of memory for the scratch or the reply: 26, nothing leaked (teardown). */
TEST_F(core, kernel_symbols_without_memory_answer_26)
{
	const u64 addrs[2] = { 0xffffffff81234570ull, 0xffffffff81000000ull };

	open_session(_metadata, self);
	for (u64 nth = 1; nth <= 3; nth++) {
		/* The payload, the scratch names, the reply: in that order. */
		self->f.fail_at = self->f.nalloc + nth;
		EXPECT_EQ(VT_NO_MEMORY, ksyms(_metadata, self, addrs, 2)) TH_LOG("allocation %llu",
										 (unsigned long long)nth);
	}
	self->f.fail_at = 0;
	EXPECT_EQ(VT_SUCCESS, ksyms(_metadata, self, addrs, 2));
	EXPECT_EQ(2, self->f.nksym);
}

TEST_HARNESS_MAIN
