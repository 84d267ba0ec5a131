/* SPDX-License-Identifier: GPL-2.0-only */
/* aca.ko internals shared between its files. */
#ifndef ACA_H
#define ACA_H

#include <linux/fs.h>
#include <linux/module.h>
#include <linux/mutex.h>

#include "core/core.h"
#include "ring.h"

#define ACA_VERSION	"0.1.0"

/*
 * Module parameters (params.c): a session reads ring_pages at INIT_DRIVER
 * (and the local API at ALLOC_TRACE), a collection sw_clock and
 * max_sample_rate at START.
 */
extern unsigned int aca_ring_pages;
extern unsigned int aca_flush_ms;	/* read at INIT_DRIVER */
extern bool aca_sw_clock;
extern unsigned int aca_max_sample_rate;
extern unsigned int aca_group;		/* gid of /dev/aca */
extern bool aca_delayed_transfer;	/* read when a session begins */
extern bool aca_group_perfmon;		/* read at each open() */
extern unsigned int aca_session_idle_s;	/* read when another wants the target */
int aca_params_check(void);

/*
 * Data pages of a sample ring (ring_pages, a local trace's): a power of
 * two, at least two, as a ring page given to a pipe is only rewritten once
 * every byte of it has been read and every reference dropped (ring.c), so
 * a one-page ring could never wrap.
 */
#define ACA_RING_PAGES_MIN	2
#define ACA_RING_PAGES_MAX	4096
bool aca_ring_pages_ok(unsigned int n);

/* The /dev/aca node (node.c). */
int aca_node_add(const struct file_operations *fops);
void aca_node_del(void);

struct aca_collection;
extern const struct acp_ops aca_kernel_ops;

/* The one protocol target and the lock of every call into it (target.c). */
extern struct mutex aca_lock;
extern struct acp_target aca_target;
struct acp_target *aca_target_lock(void);
void aca_target_unlock(void);
/*
 * A /dev/aca file as the local API sees it (device.c): under aca_lock,
 * @file has taken a role in the protocol; CAP_PERFMON, CAP_SYS_ADMIN or
 * group_perfmon when @file was opened.
 */
bool aca_file_is_conn(struct file *file);
bool aca_file_opener_privileged(struct file *file);

/*
 * The local ioctl API (local.c): ioctls device.c does not know, mmap of a
 * local trace's rings, and cleanup when the file that holds them closes.
 */
long aca_local_ioctl(struct file *file, unsigned int cmd, unsigned long arg);
int aca_local_mmap(struct file *file, struct vm_area_struct *vma);
void aca_local_release(struct file *file);

int aca_device_init(struct aca_collection *coll);
void aca_device_exit(void);

/*
 * What aca holds in memory, by kind (memory.c): /sys/module/aca/memory.
 * Not counted: the table of uncore and IBS PMUs (pmus.c: about 1.6 KB a
 * PMU) and a collection's decoded events and uncore counters (bounded by
 * the core).
 */
enum aca_mem {
	ACA_MEM_RINGS,		/* sample, module-record and uncore rings */
	ACA_MEM_FILES,		/* open /dev/aca files */
	ACA_MEM_SCRATCH,	/* per-CPU records of call-stack sampling */
	ACA_MEM_KINDS
};

void aca_memory_add(enum aca_mem kind, long bytes);
int aca_memory_init(void);
void aca_memory_exit(void);

/* The one clock of every timestamp aca sends (tsc.c), and its rate in Hz. */
u64 aca_tsc_now(void);
u64 aca_tsc_hz(void);
u64 aca_tsc_sample(void);

/*
 * A session's collection (collection.c, collection.h): created at load,
 * the ctx of every acp_ops call; the ring behind data channel @chan (spec
 * 3.1 order), or NULL, under aca_lock; and the session's acp_ops entry
 * points that are the collection's.
 */
struct aca_collection;
struct aca_collection *aca_collection_create(void);
void aca_collection_destroy(struct aca_collection *coll);
struct aca_ring *aca_channel_ring(struct aca_collection *coll, u32 chan);
size_t aca_collection_peek(void *ctx, u32 chan, const void **p);
void aca_collection_consume(void *ctx, u32 chan, size_t n);
bool aca_collection_final(void *ctx, u32 chan);
int aca_collection_configure(void *ctx, const struct acp_config *cfg);
int aca_collection_start(void *ctx, const struct acp_config *cfg, bool paused);
void aca_collection_pause(void *ctx, bool pause);
void aca_collection_stop(void *ctx);
void aca_collection_finalize(void *ctx);
int aca_collection_module_snapshot(void *ctx);
void aca_collection_finish(void *ctx);
bool aca_collection_delayed(void *ctx);

/*
 * Sampling (sampler.c; SWITCH_GROUP and GROUP_TIMES in multiplex.c, the
 * counting reads in emon.c): a collection's sampling, and the acp_ops
 * sampling entry points.
 */
int aca_sampler_init(struct aca_collection *coll);
void aca_sampler_exit(struct aca_collection *coll);
int aca_sampler_configure(struct aca_collection *coll, const struct acp_config *cfg);
int aca_sampler_start(struct aca_collection *coll, const struct acp_config *cfg,
		      bool paused);
void aca_sampler_stop(struct aca_collection *coll);
void aca_sampler_pause(struct aca_collection *coll, bool pause);
int aca_sampler_switch_group(void *ctx);
void aca_sampler_group_times(void *ctx, void *buf, size_t len);
int aca_sampler_read_counts(void *ctx, bool next_group, void *buf, size_t len);
void aca_sampler_counts(void *ctx, u32 cpu, u64 *written, u64 *dropped);
void aca_sampler_finish(struct aca_collection *coll);
/* Sampling will fall back to cpu-clock (the acp_ops sw_clock). */
bool aca_cpu_clock_fallback(void *ctx);
/* The ring of @cpu in the current collection, or NULL. */
struct aca_ring *aca_sampler_ring(struct aca_collection *coll, u32 cpu);
/* For the local API (local.c). */
struct cpumask;
int aca_sampler_alloc(struct aca_collection *coll, unsigned int data_pages,
		      const struct cpumask *cpus);
int aca_sampler_start_local(struct aca_collection *coll,
			    const struct acp_config *cfg, bool cpu_clock);
bool aca_cpu_clock_core(struct aca_collection *coll, u32 cpu);

/* The dynamic perf PMUs aca uses by name (pmus.c): uncore boxes, IBS. */
void aca_pmus_init(void);
void aca_pmus_exit(void);
void aca_pmus_scan(void);
bool aca_pmus_have(const char *prefix);
bool aca_find_pmu(void *ctx, const char *name, u32 *type, char *formats, size_t len);

/*
 * Uncore counting (uncore.c): a collection's counters and ring, in its
 * @unc slot (NULL: none), under aca_lock.
 */
struct aca_uncore;
int aca_uncore_configure(struct aca_uncore **unc, const struct acp_config *cfg);
int aca_uncore_start(struct aca_uncore *u, const struct acp_config *cfg, bool paused);
void aca_uncore_pause(struct aca_uncore *u, bool pause);
void aca_uncore_stop(struct aca_uncore *u);
void aca_uncore_finish(struct aca_uncore **unc);
struct aca_ring *aca_uncore_ring(struct aca_uncore *u);

/*
 * Module records (modrec.c, spec 7.3): one ring, streamed by the module
 * data channel. configure() at INIT_DRIVER writes the kernel image and
 * modules and hooks process exits, execs and munmap(), whose records a
 * worker writes; stop() at STOP asks the worker to write every live
 * process's mappings, unhook and finalize the ring, and returns at once;
 * finish() at session end cancels the worker and frees. All under
 * aca_lock; the worker never takes it. A collection holds them in a
 * struct aca_modrecs, with the last session's counts and the
 * module_records file that shows them.
 */
struct aca_mr_counts {
	u64 written, dropped, missed, nobid;
};

struct aca_modrecs {
	struct aca_modrec *cur;		/* the session's, under aca_lock */
	struct aca_mr_counts last;	/* the last session's, once it ended */
	struct module_attribute attr;	/* /sys/module/aca/module_records */
};

int aca_modrec_configure(struct aca_modrecs *m, struct delayed_work *flush);
int aca_modrec_snapshot(struct aca_modrecs *m);
void aca_modrec_stop(struct aca_modrecs *m);
void aca_modrec_finish(struct aca_modrecs *m);
struct aca_ring *aca_modrec_ring(struct aca_modrecs *m);
int aca_modrec_init(struct aca_modrecs *m);
void aca_modrec_exit(struct aca_modrecs *m);

#endif /* ACA_H */
