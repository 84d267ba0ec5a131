/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The GNU build-id of a mapped file (NT_GNU_BUILD_ID in a PT_NOTE), read
 * from the file's pages in the page cache only, never with I/O (buildid.c),
 * for the module records (struct aca_mr_build_id, sep_cmd.h), and a small
 * per-run cache of them keyed by inode. Process context: it allocates, so
 * no spinlock and no RCU read section may be held.
 */
#ifndef ACA_BUILDID_H
#define ACA_BUILDID_H

#include <linux/types.h>

#include "core/sep_cmd.h"

struct file;

/*
 * The build-id of @file into @id. Returns its size, 1 to
 * ACA_MR_BUILD_ID_MAX, or 0 if it has none (not an ELF file, no such
 * note, a file shorter than its headers say, or something out of bounds),
 * -ENODATA if it may have one in a page that is not in the page cache, or
 * -ENOMEM.
 */
int aca_buildid_read(struct file *file, u8 id[ACA_MR_BUILD_ID_MAX]);

#define ACA_BUILDID_CACHE	64	/* files remembered at once */

struct aca_buildid_entry {
	/*
	 * A file of the inode, referenced (get_file()): the inode and the
	 * mount it is on stay while it is remembered. NULL: unused.
	 */
	struct file *file;
	struct timespec64 ctime;	/* when read: a later change misses */
	u8 size;		/* 0: the file has none */
	u8 id[ACA_MR_BUILD_ID_MAX];
};

/* Zeroed: empty. Entries are replaced in turn once all are used. */
struct aca_buildid_cache {
	struct aca_buildid_entry e[ACA_BUILDID_CACHE];
	u32 next;
};

/*
 * aca_buildid_read() of @file, or what an earlier call found for its
 * inode if that has not changed since (its ctime). An error (-ENODATA,
 * -ENOMEM) is not remembered: another call may find the pages, or memory.
 * Holds a reference on a file of each inode it remembers.
 */
int aca_buildid_get(struct aca_buildid_cache *c, struct file *file,
		    u8 id[ACA_MR_BUILD_ID_MAX]);

/* Forget everything, dropping the file references. */
void aca_buildid_clear(struct aca_buildid_cache *c);

#endif /* ACA_BUILDID_H */
