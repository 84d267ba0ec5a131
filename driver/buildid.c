// SPDX-License-Identifier: GPL-2.0-only
/*
 * The GNU build-id of a mapped file (buildid.h). The kernel's own reader,
 * build_id_parse(), is not exported to modules, so the file is read here:
 * the ELF header (ELF64 or ELF32, little-endian), its program headers (at
 * most ACA_BID_MAX_PHDRS), and the first ACA_BID_MAX_NOTES bytes of each
 * PT_NOTE segment, looking for the note named "GNU" of type
 * NT_GNU_BUILD_ID with a descriptor of 1 to ACA_MR_BUILD_ID_MAX bytes.
 *
 * Every byte comes from a file anyone may have written: each length and
 * offset is bounded before use, sums are done in u64 from u32 or smaller
 * parts (or checked against the file's size first), and a short read
 * means no build-id. Only regular files opened for reading, with a
 * ->read_iter, are read, so kernel_read() neither warns nor fails
 * oddly. The reads go through the page cache; the first pages of a
 * mapped binary are usually there, but a read may wait for the disk.
 */
#include <linux/elf.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/limits.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/time64.h>

#include "buildid.h"

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

/* @len bytes at @pos, or false: a failed or short read. */
static bool aca_bid_pread(struct file *file, void *buf, size_t len, u64 pos)
{
	loff_t off = pos;
	ssize_t n;

	if (pos > LLONG_MAX)
		return false;
	n = kernel_read(file, buf, len, &off);
	return n >= 0 && (size_t)n == len;
}

static bool aca_bid_readable(struct file *file)
{
	return S_ISREG(file_inode(file)->i_mode) &&
	       (file->f_mode & FMODE_READ) && (file->f_mode & FMODE_CAN_READ) &&
	       file->f_op->read_iter && !file->f_op->read;
}

/* The ELF header of @file into @e, or false if it is none we read. */
static bool aca_bid_header(struct file *file, struct aca_bid_elf *e)
{
	union {
		unsigned char ident[EI_NIDENT];
		struct elf64_hdr h64;
		struct elf32_hdr h32;
	} h;
	loff_t isize = i_size_read(file_inode(file));
	size_t len;

	if (isize < (loff_t)sizeof(h.h32))
		return false;
	e->size = isize;
	len = min_t(u64, e->size, sizeof(h));
	memset(&h, 0, sizeof(h));
	if (!aca_bid_pread(file, &h, len, 0) ||
	    memcmp(h.ident, ELFMAG, SELFMAG) ||
	    h.ident[EI_DATA] != ELFDATA2LSB ||
	    h.ident[EI_VERSION] != EV_CURRENT)
		return false;
	if (h.ident[EI_CLASS] == ELFCLASS64 && len == sizeof(h.h64)) {
		e->is64 = true;
		e->phoff = le64_to_cpu((__force __le64)h.h64.e_phoff);
		e->phnum = le16_to_cpu((__force __le16)h.h64.e_phnum);
		if (le16_to_cpu((__force __le16)h.h64.e_phentsize) !=
		    sizeof(struct elf64_phdr))
			return false;
	} else if (h.ident[EI_CLASS] == ELFCLASS32) {
		e->is64 = false;
		e->phoff = le32_to_cpu((__force __le32)h.h32.e_phoff);
		e->phnum = le16_to_cpu((__force __le16)h.h32.e_phnum);
		if (le16_to_cpu((__force __le16)h.h32.e_phentsize) !=
		    sizeof(struct elf32_phdr))
			return false;
	} else {
		return false;
	}
	/* PN_XNUM (the count is elsewhere) and absurd counts: not read. */
	return e->phnum && e->phnum <= ACA_BID_MAX_PHDRS;
}

/* Program header @i of @e as a note segment: its offset, size, alignment. */
static bool aca_bid_note_phdr(struct file *file, const struct aca_bid_elf *e,
			      u32 i, u64 *off, u64 *size, u64 *align)
{
	union {
		struct elf64_phdr p64;
		struct elf32_phdr p32;
	} p;
	size_t len = e->is64 ? sizeof(p.p64) : sizeof(p.p32);
	u32 type;

	/* phnum <= 128 and len <= 56: no overflow once phoff is bounded. */
	if (e->phoff > e->size || (u64)(i + 1) * len > e->size - e->phoff ||
	    !aca_bid_pread(file, &p, len, e->phoff + (u64)i * len))
		return false;
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
	return type == PT_NOTE;
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

int aca_buildid_read(struct file *file, u8 id[ACA_MR_BUILD_ID_MAX])
{
	struct aca_bid_elf e;
	int ret = 0;
	u8 *buf;

	if (!aca_bid_readable(file) || !aca_bid_header(file, &e))
		return 0;
	buf = kmalloc(ACA_BID_MAX_NOTES, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	for (u32 i = 0; i < e.phnum && !ret; i++) {
		u64 off, size, align;
		u32 len;

		if (!aca_bid_note_phdr(file, &e, i, &off, &size, &align) ||
		    off > e.size)
			continue;
		len = min3(size, e.size - off, (u64)ACA_BID_MAX_NOTES);
		if (len < sizeof(struct elf32_note) || !aca_bid_pread(file, buf, len, off))
			continue;
		ret = aca_bid_find(buf, len, align == 8 ? 8 : 4, id);
	}
	kfree(buf);
	return ret;
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
		return 0;	/* not remembered: another time may have memory */
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
