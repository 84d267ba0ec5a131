/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The protocol core is plain C shared by aca.ko, the userspace unit tests and
 * the fuzzer. This header is its only door to the environment: the kernel's
 * fixed-width types (u8 ... s64), size_t, bool and memcpy/memset come from the
 * kernel or from libc.
 */
#ifndef ACA_CORE_ENV_H
#define ACA_CORE_ENV_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/string.h>
#else
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <linux/types.h>

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s32 s32;
typedef __s64 s64;
#endif

#endif /* ACA_CORE_ENV_H */
