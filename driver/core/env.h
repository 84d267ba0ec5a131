/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The protocol core is plain C shared by aca.ko, the userspace unit tests and
 * the fuzzer. This header is its only door to the environment: fixed-width
 * types, size_t, bool and memcpy/memset come from the kernel or from libc.
 */
#ifndef ACA_CORE_ENV_H
#define ACA_CORE_ENV_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/string.h>
#else
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#endif

#endif /* ACA_CORE_ENV_H */
