/* SPDX-License-Identifier: GPL-2.0-only */
/* The module records' hooks and their item pool (modrec_hooks.c). */
#ifndef ACA_MODREC_HOOKS_H
#define ACA_MODREC_HOOKS_H

struct list_head;
struct aca_modrec;
struct aca_mr_item;

struct aca_mr_item *aca_mr_pop(struct aca_modrec *mr,
			       struct list_head *list);
void aca_mr_push(struct aca_modrec *mr, struct aca_mr_item *it,
		 struct list_head *list);
void aca_mr_unref(struct aca_mr_item *it);
void aca_mr_hook(struct aca_modrec *mr, int i);
void aca_mr_unhook(struct aca_modrec *mr);

#endif /* ACA_MODREC_HOOKS_H */
