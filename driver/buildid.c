// SPDX-License-Identifier: GPL-2.0-only
/*
 * The GNU build-id of a mapped file (buildid.h). The kernel's own reader,
 * build_id_parse(), is not exported to modules, so it is read here (from
 * the page cache, below): the ELF header (ELF64 or ELF32, little-endian), its program headers (at
 * most ACA_BID_MAX_PHDRS), and the first ACA_BID_MAX_NOTES bytes of each
 * PT_NOTE segment, looking for the note named "GNU" of type
 * NT_GNU_BUILD_ID with a descriptor of 1 to ACA_MR_BUILD_ID_MAX bytes.
 *
 * Every byte comes from a file anyone may have written: each length and
 * offset is bounded before use, sums are done in u64 from u32 or smaller
 * parts (or checked against the file's size first), and a file shorter
 * than its headers say has no build-id.
 *
 * No I/O: the bytes come only from the file's pages already in the page
 * cache and up to date (found without the flags that would read or lock
 * one, then mapped with kmap_local_folio()), never through ->read_iter,
 * which for a file on a user's own FUSE mount waits for a daemon that may
 * never answer. The same facts 6.12's build_id_parse_nofault() relies on;
 * 6.1 has no such helper, so aca has its own for both. A page that is not
 * there means no build-id this time (-ENODATA: the caller counts it and
 * does not remember it). Only regular files with a ->read_iter (those
 * whose data the page cache holds; not memfd_secret()'s) are looked at.
 * The first pages of a mapped binary are usually there: the loader read
 * its headers through them.
 */
#include <linux/elf.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/highmem.h>
#include <linux/magic.h>
#include <linux/limits.h>
#include <linux/pagemap.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/time64.h>

#include "buildid.h"
#include "core/sep_cmd.h"

#define ACA_BID_MAX_PHDRS	128	/* program headers looked at */
#define ACA_BID_MAX_NOTES	SZ_4K	/* bytes read of one PT_NOTE */
#define ACA_NT_GNU_BUILD_ID	3
#define ACA_NOTE_NAME		"GNU"	/* with its NUL: namesz 4 */

/* What the ELF header says about the program headers. */
struct aca_bid_elf {
	bool is64;
	u64 phoff;
	u32 phnum;
	u64 size;		/* the file's, when looked at */
};

/*
 * @len bytes at @pos of @file's page cache into @buf: 0, -ENODATA if a page
 * is not cached and up to date, or -EINVAL past what a loff_t can say.
 * Never sleeps on I/O: no folio is read, locked or allocated here. A page
 * a writer changes meanwhile gives bytes that are checked like any other.
 */
static int aca_bid_pread(struct file *file, void *to, size_t len, u64 pos)
{
	u8 *buf = to;
	struct address_space *mapping = file->f_mapping;

	if (pos > LLONG_MAX || len > LLONG_MAX - pos)
		return -EINVAL;
	while (len) {
		struct folio *folio;
		size_t off, n;
		void *p;

		folio = filemap_get_folio(mapping, pos >> PAGE_SHIFT);
		/* 6.1: NULL when absent; 6.3 on: ERR_PTR(-ENOENT). */
		if (IS_ERR_OR_NULL(folio))
			return -ENODATA;
		if (!folio_test_uptodate(folio)) {
			folio_put(folio);
			return -ENODATA;
		}
		/* One page at a time: what kmap_local_folio() maps. */
		off = offset_in_folio(folio, pos);
		n = min_t(size_t, len, PAGE_SIZE - offset_in_page(pos));
		p = kmap_local_folio(folio, off);
		memcpy(buf, p, n);
		kunmap_local(p);
		folio_put(folio);
		buf += n;
		pos += n;
		len -= n;
	}
	return 0;
}

/*
 * Not hugetlbfs (SHM_HUGETLB's files are its too): before 6.7 its page
 * cache is indexed in huge pages, not the base pages aca_bid_pread() looks
 * up. (is_file_hugepages() is not exported.)
 */
static bool aca_bid_readable(struct file *file)
{
	return S_ISREG(file_inode(file)->i_mode) &&
	       file_inode(file)->i_sb->s_magic != HUGETLBFS_MAGIC &&
	       (file->f_mode & FMODE_READ) && (file->f_mode & FMODE_CAN_READ) &&
	       file->f_op->read_iter && !file->f_op->read;
}

/*
 * The ELF header of @file into @e: 0, -ENOEXEC if it is none we read, or
 * -ENODATA (aca_bid_pread()).
 */
static int aca_bid_header(struct file *file, struct aca_bid_elf *e)
{
	union {
		unsigned char ident[EI_NIDENT];
		struct elf64_hdr h64;
		struct elf32_hdr h32;
	} h;
	loff_t isize = i_size_read(file_inode(file));
	size_t len;
	int ret;

	if (isize < (loff_t)sizeof(h.h32))
		return -ENOEXEC;
	e->size = isize;
	len = min_t(u64, e->size, sizeof(h));
	memset(&h, 0, sizeof(h));
	ret = aca_bid_pread(file, &h, len, 0);
	if (ret)
		return ret;
	if (memcmp(h.ident, ELFMAG, SELFMAG) ||
	    h.ident[EI_DATA] != ELFDATA2LSB ||
	    h.ident[EI_VERSION] != EV_CURRENT)
		return -ENOEXEC;
	if (h.ident[EI_CLASS] == ELFCLASS64 && len == sizeof(h.h64)) {
		e->is64 = true;
		e->phoff = le64_to_cpu((__force __le64)h.h64.e_phoff);
		e->phnum = le16_to_cpu((__force __le16)h.h64.e_phnum);
		if (le16_to_cpu((__force __le16)h.h64.e_phentsize) !=
		    sizeof(struct elf64_phdr))
			return -ENOEXEC;
	} else if (h.ident[EI_CLASS] == ELFCLASS32) {
		e->is64 = false;
		e->phoff = le32_to_cpu((__force __le32)h.h32.e_phoff);
		e->phnum = le16_to_cpu((__force __le16)h.h32.e_phnum);
		if (le16_to_cpu((__force __le16)h.h32.e_phentsize) !=
		    sizeof(struct elf32_phdr))
			return -ENOEXEC;
	} else {
		return -ENOEXEC;
	}
	/* PN_XNUM (the count is elsewhere) and absurd counts: not read. */
	return e->phnum && e->phnum <= ACA_BID_MAX_PHDRS ? 0 : -ENOEXEC;
}

/*
 * Program header @i of @e as a note segment: its offset, size, alignment.
 * 0, -ENOENT if it is no note segment (or out of bounds), or -ENODATA.
 */
static int aca_bid_note_phdr(struct file *file, const struct aca_bid_elf *e,
			     u32 i, u64 *off, u64 *size, u64 *align)
{
	union {
		struct elf64_phdr p64;
		struct elf32_phdr p32;
	} p;
	size_t len = e->is64 ? sizeof(p.p64) : sizeof(p.p32);
	u32 type;
	int ret;

	/* phnum <= 128 and len <= 56: no overflow once phoff is bounded. */
	if (e->phoff > e->size || (u64)(i + 1) * len > e->size - e->phoff)
		return -ENOENT;
	ret = aca_bid_pread(file, &p, len, e->phoff + (u64)i * len);
	if (ret)
		return ret;
	if (e->is64) {
		type = le32_to_cpu((__force __le32)p.p64.p_type);
		*off = le64_to_cpu((__force __le64)p.p64.p_offset);
		*size = le64_to_cpu((__force __le64)p.p64.p_filesz);
		*align = le64_to_cpu((__force __le64)p.p64.p_align);
	} else {
		type = le32_to_cpu((__force __le32)p.p32.p_type);
		*off = le32_to_cpu((__force __le32)p.p32.p_offset);
		*size = le32_to_cpu((__force __le32)p.p32.p_filesz);
		*align = le32_to_cpu((__force __le32)p.p32.p_align);
	}
	return type == PT_NOTE ? 0 : -ENOENT;
}

/*
 * The build-id among the @len bytes of notes at @buf, a segment's: each
 * name and descriptor ends padded to @align from its start (4, or 8 in a
 * segment aligned so, where a 12-byte header's name ends at 16, not 20).
 * Returns its size, or 0.
 */
static int aca_bid_find(const u8 *buf, u32 len, u32 align,
			u8 id[ACA_MR_BUILD_ID_MAX])
{
	u32 pos = 0;

	while (len - pos >= sizeof(struct elf32_note)) {
		struct elf32_note nh;
		u64 name, desc, next;
		u32 namesz, descsz;

		memcpy(&nh, buf + pos, sizeof(nh));
		namesz = le32_to_cpu((__force __le32)nh.n_namesz);
		descsz = le32_to_cpu((__force __le32)nh.n_descsz);
		/* u32 parts: none of these sums can overflow a u64. */
		name = (u64)pos + sizeof(nh);
		desc = ALIGN(name + namesz, align);
		next = ALIGN(desc + descsz, align);
		if (desc + descsz > len)
			return 0;
		if (le32_to_cpu((__force __le32)nh.n_type) == ACA_NT_GNU_BUILD_ID &&
		    namesz == sizeof(ACA_NOTE_NAME) &&
		    !memcmp(buf + name, ACA_NOTE_NAME, sizeof(ACA_NOTE_NAME)) &&
		    descsz >= 1 && descsz <= ACA_MR_BUILD_ID_MAX) {
			memcpy(id, buf + desc, descsz);
			return descsz;
		}
		if (next >= len)
			return 0;
		pos = next;
	}
	return 0;
}

/*
 * A note segment whose pages are not all cached is skipped, and the others
 * looked at; if none of them has the build-id, the answer is -ENODATA: it
 * may be in the pages that were not there.
 */
int aca_buildid_read(struct file *file, u8 id[ACA_MR_BUILD_ID_MAX])
{
	bool missing = false;
	struct aca_bid_elf e;
	int ret;
	u8 *buf;

	if (!aca_bid_readable(file))
		return 0;
	ret = aca_bid_header(file, &e);
	if (ret)
		return ret == -ENODATA ? ret : 0;
	buf = kmalloc(ACA_BID_MAX_NOTES, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	for (u32 i = 0; i < e.phnum && !ret; i++) {
		u64 off, size, align;
		u32 len;
		int err;

		err = aca_bid_note_phdr(file, &e, i, &off, &size, &align);
		if (!err && off > e.size)
			err = -ENOENT;
		if (!err) {
			len = min3(size, e.size - off, (u64)ACA_BID_MAX_NOTES);
			if (len < sizeof(struct elf32_note))
				continue;
			err = aca_bid_pread(file, buf, len, off);
		}
		if (err) {
			missing |= err == -ENODATA;
			continue;
		}
		ret = aca_bid_find(buf, len, align == 8 ? 8 : 4, id);
	}
	kfree(buf);
	return !ret && missing ? -ENODATA : ret;
}

static bool aca_bid_same_time(struct timespec64 a, struct timespec64 b)
{
	return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
}

int aca_buildid_get(struct aca_buildid_cache *c, struct file *file,
		    u8 id[ACA_MR_BUILD_ID_MAX])
{
	struct inode *inode = file_inode(file);
	struct timespec64 ctime = inode_get_ctime(inode);
	struct aca_buildid_entry *e = NULL;
	int size;

	for (u32 i = 0; i < ACA_BUILDID_CACHE && !e; i++)
		if (c->e[i].file && file_inode(c->e[i].file) == inode)
			e = &c->e[i];
	if (e && aca_bid_same_time(e->ctime, ctime)) {
		memcpy(id, e->id, e->size);
		return e->size;
	}
	size = aca_buildid_read(file, id);
	if (size < 0)
		return size;	/* not remembered: another time may do */
	if (!e) {		/* the oldest entry goes */
		e = &c->e[c->next];
		c->next = (c->next + 1) % ACA_BUILDID_CACHE;
		if (e->file)
			fput(e->file);
		e->file = get_file(file);
	}
	e->ctime = ctime;
	e->size = size;
	memcpy(e->id, id, size);
	return size;
}

void aca_buildid_clear(struct aca_buildid_cache *c)
{
	for (u32 i = 0; i < ACA_BUILDID_CACHE; i++)
		if (c->e[i].file)
			fput(c->e[i].file);
	memset(c, 0, sizeof(*c));
}
