/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The module records' hooks, their item pool and what they and the worker
 * (modrec.c) say of a process (modrec_hooks.c).
 */
#ifndef ACA_MODREC_HOOKS_H
#define ACA_MODREC_HOOKS_H

#include <linux/types.h>

struct inode;
struct list_head;
struct mm_struct;
struct task_struct;
struct vm_area_struct;
struct aca_modrec;
struct aca_mr_item;
struct aca_mr_who;

u32 aca_mr_ppid(struct task_struct *p);
void aca_mr_who(struct aca_mr_who *w, struct task_struct *p,
		struct mm_struct *mm, u64 unload);
const struct inode *aca_mr_exe(struct mm_struct *mm);
bool aca_mr_is_vdso(struct vm_area_struct *vma);

struct aca_mr_item *aca_mr_pop(struct aca_modrec *mr,
			       struct list_head *list);
void aca_mr_push(struct aca_modrec *mr, struct aca_mr_item *it,
		 struct list_head *list);
void aca_mr_unref(struct aca_mr_item *it);
void aca_mr_hook(struct aca_modrec *mr, int i);
void aca_mr_unhook(struct aca_modrec *mr);

#endif /* ACA_MODREC_HOOKS_H */
