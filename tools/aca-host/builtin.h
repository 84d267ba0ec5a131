/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The commands of aca-host, one builtin-NAME.c each, run from aca-host.c's
 * table with the command line after the program's name (argv[0] is NAME):
 * each returns its exit status.
 *
 * They and aca-host.c are the program's own; the rest of this directory
 * is build/libaca-host.a, which the tests link too.
 */
#ifndef ACA_HOST_BUILTIN_H
#define ACA_HOST_BUILTIN_H

int cmd_hello(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_ping(int argc, char **argv);
int cmd_collect(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_script(int argc, char **argv);
int cmd_perf_data(int argc, char **argv);
int cmd_pprof(int argc, char **argv);
int cmd_stat(int argc, char **argv);
int cmd_top(int argc, char **argv);

#endif /* ACA_HOST_BUILTIN_H */
