/* SPDX-License-Identifier: GPL-2.0-only */
/* aca-host: a host-side client of the SEP remote protocol. */
#ifndef ACA_HOST_H
#define ACA_HOST_H

#include <stddef.h>

#include "../../uapi/aca_sep.h"

/* net.c */
int host_connect(const char *target, int timeout_s);
int host_send(int fd, const void *buf, size_t len);
int host_recv(int fd, void *buf, size_t len);
void close_quietly(int fd);

/* commands */
int cmd_info(const char *target);
int cmd_collect(int argc, char **argv);		/* collect.c */
int cmd_report(int argc, char **argv);		/* report.c */

#endif /* ACA_HOST_H */
