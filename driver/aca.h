/* SPDX-License-Identifier: GPL-2.0-only */
/* aca.ko internals shared between its files. */
#ifndef ACA_H
#define ACA_H

#include <linux/cache.h>
#include <linux/fs.h>
#include <asm/local.h>
#include <asm/local64.h>

#include "core/core.h"

#define ACA_VERSION	"0.1.0"

/* Module parameters (params.c); the sampler reads the first three at START. */
extern unsigned int aca_ring_pages;
extern bool aca_sw_clock;
extern unsigned int aca_max_sample_rate;
extern unsigned int aca_group;		/* gid of /dev/aca */
extern bool aca_delayed_transfer;	/* read when a session begins */
extern bool aca_group_perfmon;		/* read at each open() */
int aca_params_check(void);

/* The /dev/aca node (node.c). */
int aca_node_add(const struct file_operations *fops);
void aca_node_del(void);

extern const struct acp_ops aca_kernel_ops;

/* The shared protocol target, under the device's lock (device.c). */
struct acp_target *aca_target_lock(void);
void aca_target_unlock(void);
bool aca_file_is_conn(struct file *file);
/* CAP_PERFMON, CAP_SYS_ADMIN or group_perfmon when @file was opened. */
bool aca_file_opener_privileged(struct file *file);

/*
 * The local ioctl API (local.c): ioctls device.c does not know, mmap of a
 * local trace's rings, and cleanup when the file that holds them closes.
 */
long aca_local_ioctl(struct file *file, unsigned int cmd, unsigned long arg);
int aca_local_mmap(struct file *file, struct vm_area_struct *vma);
void aca_local_release(struct file *file);

int aca_device_init(void);
void aca_device_exit(void);
void aca_wake_conn(void *conn_ctx);

/* The one clock of every timestamp aca sends (GET_NORMALIZED_TSC). */
u64 aca_tsc_now(void);

/*
 * Per-CPU sample ring (ring.c, which documents the ordering contract). The
 * header page may one day be mapped to userspace: its layout is fixed.
 */
struct aca_ring_header {
	u64 head;			/* bytes ever written; producer only */
	u64 tail ____cacheline_aligned;	/* bytes ever read; consumer only */
	local64_t lost ____cacheline_aligned;	/* records dropped: ring full */
	local64_t written;		/* records written */
};

struct aca_ring {
	struct aca_ring_header *hdr;	/* then the data pages */
	u8 *data;
	struct page **pages;		/* pages[0] is the header page */
	u32 npages;
	u64 size;			/* data bytes, a power of two */
	local_t busy;			/* a producer is writing */
	local64_t generated;		/* records the handler produced */
	local64_t held;			/* of lost: a page was still held */
};

struct aca_ring *aca_ring_alloc(unsigned int data_pages);
void aca_ring_free(struct aca_ring *r);
bool aca_ring_write(struct aca_ring *r, const void *rec, u32 rec_len, u32 len);
size_t aca_ring_peek(struct aca_ring *r, const void **p);
void aca_ring_consume(struct aca_ring *r, size_t n);
bool aca_ring_pending(struct aca_ring *r);
void aca_ring_counts(struct aca_ring *r, u64 *written, u64 *lost);

/* Unread ring bytes to a pipe by page reference (splice.c). */
struct pipe_inode_info;
ssize_t aca_ring_to_pipe(struct aca_ring *r, struct pipe_inode_info *pipe,
			 size_t len);

/* Sampling (sampler.c): the acp_ops sampling entry points. */
int aca_sampler_init(void);
void aca_sampler_exit(void);
int aca_sampler_configure(void *ctx, const struct acp_config *cfg);
int aca_sampler_start(void *ctx, const struct acp_config *cfg, bool paused);
void aca_sampler_stop(void *ctx);
void aca_sampler_pause(void *ctx, bool pause);
void aca_sampler_counts(void *ctx, u32 cpu, u64 *written, u64 *dropped);
size_t aca_sampler_peek(void *ctx, u32 cpu, const void **p);
void aca_sampler_consume(void *ctx, u32 cpu, size_t n);
void aca_sampler_finish(void *ctx);
bool aca_sampler_fallback(void *ctx);
/* The ring of @cpu in the current collection, or NULL. */
struct aca_ring *aca_sampler_ring(u32 cpu);
/* For the local API (local.c). */
int aca_sampler_alloc(unsigned int data_pages);
int aca_sampler_start_local(const struct acp_config *cfg, bool cpu_clock);
bool aca_sampler_cpu_clock(void);

/* New samples on @cpu: wake its data channel's reader (device.c). */
void aca_data_ready(u32 cpu);

/*
 * The ring behind data channel @chan of the configured session (spec 3.1
 * order: a CPU's sample ring, the module-record ring), or NULL (kops.c).
 * Under the device's lock; see acp_conn_stream() for who may use it.
 */
struct aca_ring *aca_channel_ring(u32 chan);

/*
 * Module records (modrec.c, spec 7.3): one ring, streamed by the module
 * data channel @chan. configure() at INIT_DRIVER writes the kernel image
 * and modules and hooks process exits, execs and munmap(); stop() at STOP
 * writes every live process's mappings and unhooks; finish() at session
 * end frees; exit() at module unload waits for the last wake-up. All but
 * exit() under the device's lock.
 */
int aca_modrec_configure(u32 chan);
void aca_modrec_stop(void);
void aca_modrec_finish(void);
void aca_modrec_exit(void);
struct aca_ring *aca_modrec_ring(void);

#endif /* ACA_H */
