// SPDX-License-Identifier: GPL-2.0-only
/*
 * aca-host: talk to an aca target (or any SEP remote target) the way VTune
 * does, and print what it says.
 *   aca-host hello TARGET[:PORT]   handshake and print the target status
 *   aca-host info TARGET[:PORT]    a whole session: every fact the target gives
 *   aca-host collect TARGET ...     a sampling collection saved to a directory
 *   aca-host report DIR ...         hotspots of a saved collection
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "host.h"
#include "session.h"

static const char *status_name(int s)
{
	switch (s) {
	case VT_SUCCESS: return "OK";
	case VT_COMM_NOT_COMPATIBLE: return "VT_COMM_NOT_COMPATIBLE";
	case VT_COMM_DATA_CHANNEL_UNAVAILABLE: return "VT_COMM_DATA_CHANNEL_UNAVAILABLE (busy)";
	default: return "error";
	}
}

static void print_status(const struct sep_target_status_msg *s)
{
	const struct sep_remote_hardware_info *hw = &s->hardware_info;

	printf("%-18s %d (%s)\n", "status", s->status, status_name(s->status));
	printf("%-18s %u\n", "protocol", s->proto_version);
	printf("%-18s %.64s %.64s\n", "os", s->os_info.sysname, s->os_info.release);
	printf("%-18s %.64s\n", "os version", s->os_info.version);
	printf("%-18s %u\n", "cpus", hw->num_cpus);
	printf("%-18s family %u model 0x%x stepping %u\n", "cpu", hw->family,
	       hw->model, hw->stepping);
	printf("%-18s %.3f MHz\n", "tsc", hw->tsc_freq / 1e6);
	printf("%-18s 0x%08x%s%s\n", "collect switch", s->collect_switch.flags,
	       s->collect_switch.flags & SEP_SWITCH_UNCORE_SUPPORTED ? " uncore" : "",
	       s->collect_switch.flags & SEP_SWITCH_DELAYED_TRANSFER ? " delayed" : "");
}

static int cmd_hello(const char *target)
{
	struct sep_control_first_msg hello = {
		.msg_size = sizeof(hello),
		.proto_version = SEP_PROTO_VERSION,
	};
	struct sep_target_status_msg s;
	int fd = host_connect(target, 30);

	if (fd < 0)
		return 1;
	if (host_send(fd, &hello, sizeof(hello)) ||
	    host_recv(fd, &s, sizeof(s))) {
		fprintf(stderr, "aca-host: %s: no status message (%s)\n", target,
			errno ? strerror(errno) : "connection closed");
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
	if (s.msg_size != sizeof(s)) {
		fprintf(stderr, "aca-host: %s: status message of %u bytes, want %zu\n",
			target, s.msg_size, sizeof(s));
		return 1;
	}
	print_status(&s);
	return s.status == VT_SUCCESS ? 0 : 1;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: aca-host COMMAND TARGET[:PORT]   (default port %d)\n"
		   "  hello   hand-shake with the target and print its status\n"
		   "  info    open a session with all channels, print what the target\n"
		   "          reports (CPUs, TSC, topology, ...), terminate cleanly\n"
		   "  collect TARGET --duration S --out DIR [--event NAME|--ecb FILE]\n"
		   "          sample the target and save every data channel in DIR\n"
		   "  report  DIR [--sysroot PATH] [--top N]\n"
		   "          hotspots of a saved collection by process, module, function\n"
		   "aca-host collect --help and aca-host report --help tell more.\n",
		SEP_TCP_PORT);
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "hello"))
		return cmd_hello(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "info"))
		return cmd_info(argv[2]);
	if (argc >= 2 && !strcmp(argv[1], "collect"))
		return cmd_collect(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "report"))
		return cmd_report(argc - 1, argv + 1);
	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage(stdout);
		return 0;
	}
	usage(stderr);
	return 2;
}
