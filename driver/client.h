/* SPDX-License-Identifier: GPL-2.0-only */
/* Who is behind a file of /dev/aca (client.c). */
#ifndef ACA_CLIENT_H
#define ACA_CLIENT_H

#include <linux/types.h>

struct cred;
struct file;
struct socket;

/* The opener's privilege, decided once at open(). */
bool aca_file_privileged(struct file *file);
/* Would /proc/kallsyms show @cred kernel addresses? */
bool aca_cred_kernel_addresses(const struct cred *cred);
/*
 * What @sock, the relay's socket for @file's connection, says of its
 * person: may the file stay privileged, may it still be shown kernel
 * addresses, and which person it is.
 */
int aca_client_judge(struct file *file, struct socket *sock, u32 flags,
		     bool *priv, bool *kaddr, u64 *person);

#endif /* ACA_CLIENT_H */
