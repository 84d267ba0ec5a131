// SPDX-License-Identifier: GPL-2.0-only
/* aca-host hello: the handshake alone, and the target status it brings. */
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

#include "args.h"
#include "builtin.h"
#include "host.h"
#include "session.h"
#include "textesc.h"

static void print_status(const struct sep_target_status_msg *s)
{
	const struct sep_remote_hardware_info *hw = &s->hardware_info;

	printf("%-18s %d (%s)\n", "status", s->status, host_status_name(s->status));
	printf("%-18s %u\n", "protocol", s->proto_version);
	/* The target's words, as text a terminal only shows (textesc.h). */
	printf("%-18s ", "os");
	text_put(stdout, s->os_info.sysname, sizeof(s->os_info.sysname));
	putchar(' ');
	text_put(stdout, s->os_info.release, sizeof(s->os_info.release));
	printf("\n%-18s ", "os version");
	text_put(stdout, s->os_info.version, sizeof(s->os_info.version));
	putchar('\n');
	printf("%-18s %u\n", "cpus", hw->num_cpus);
	printf("%-18s family %u model 0x%x stepping %u\n", "cpu", hw->family,
	       hw->model, hw->stepping);
	printf("%-18s %.3f MHz\n", "tsc", hw->tsc_freq / 1e6);
	printf("%-18s 0x%08x%s%s\n", "collect switch", s->collect_switch.flags,
	       s->collect_switch.flags & SEP_SWITCH_UNCORE_SUPPORTED ? " uncore" : "",
	       s->collect_switch.flags & SEP_SWITCH_DELAYED_TRANSFER ? " delayed" : "");
}

static int hello(const char *target, int timeout_s)
{
	struct sep_target_status_msg s;
	int fd = host_connect_timeout(target, host_connect_s(timeout_s),
				      host_answer_s(timeout_s));

	if (fd < 0)
		return 1;
	if (host_hello(fd, target, &s)) {
		close(fd);
		return 1;
	}
	/*
	 * End the session before returning: the target ends it once it sees
	 * our EOF, and closes its side. A host that reconnected before that
	 * would be taken for one of this session's data channels.
	 */
	shutdown(fd, SHUT_WR);
	host_drain(fd);
	close(fd);
	print_status(&s);
	if (s.status == VT_SUCCESS)
		return 0;
	host_explain_status(target, s.status);
	return 1;
}

static void usage(FILE *f)
{
	arg_target_usage(f, "aca-host hello",
			 "Hand-shake with the target and print its status message.");
}

int cmd_hello(int argc, char **argv)
{
	return arg_target_command("aca-host hello", usage, hello, argc, argv);
}
