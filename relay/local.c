// SPDX-License-Identifier: GPL-2.0-only
/*
 * The local listener: an AF_UNIX stream socket (--unix PATH), mode 0660 and
 * the group of the device, so exactly the users who may open /dev/aca
 * themselves may connect. The module learns who connected from the socket
 * itself (ACA_IOC_SET_CLIENT: the peer's credentials, SO_PEERCRED's), and
 * gives the session the privilege that user has on this machine, never
 * the relay's. ssh -L PORT:PATH forwards a TCP port to it, as the ssh user.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "relay.h"

/* The path to remove at exit, once this relay has bound it. */
static char bound[sizeof(((struct sockaddr_un *)0)->sun_path)];

static void remove_bound(void)
{
	if (bound[0])
		unlink(bound);
}

/* SIGTERM, SIGINT, SIGHUP: remove the socket, then die of the signal. */
static void on_signal(int sig)
{
	remove_bound();
	signal(sig, SIG_DFL);
	raise(sig);
}

static int fill_addr(struct sockaddr_un *sun, const char *path)
{
	memset(sun, 0, sizeof(*sun));
	sun->sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sun->sun_path)) {
		log_err("bad --unix '%s': longer than %zu bytes", path,
			sizeof(sun->sun_path) - 1);
		return -1;
	}
	strcpy(sun->sun_path, path);
	return 0;
}

/*
 * A socket left at @path by a relay that did not exit cleanly (SIGKILL)
 * is removed; one a relay still listens on, or anything not a socket, is
 * an error: never someone else's file.
 */
static int clear_stale(const struct sockaddr_un *sun)
{
	const char *path = sun->sun_path;
	struct stat st;
	int fd, err;

	if (lstat(path, &st)) {
		if (errno == ENOENT)
			return 0;
		log_err("cannot use --unix %s: %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISSOCK(st.st_mode)) {
		log_err("cannot use --unix %s: it exists and is not a socket (not removed)", path);
		return -1;
	}
	/* Non-blocking: a live relay whose backlog is full says EAGAIN, not a hang. */
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0) {
		log_err("cannot use --unix %s: socket: %s", path, strerror(errno));
		return -1;
	}
	err = connect(fd, (const struct sockaddr *)sun, sizeof(*sun)) ? errno : 0;
	close(fd);
	if (!err) {
		log_err("cannot use --unix %s: another relay listens on it", path);
		return -1;
	}
	if (err == EAGAIN) {
		log_err("cannot use --unix %s: another relay listens on it (its backlog is full)", path);
		return -1;
	}
	if (err != ECONNREFUSED) {
		log_err("cannot use --unix %s: %s", path, strerror(err));
		return -1;
	}
	if (unlink(path) && errno != ENOENT) {
		log_err("cannot remove the stale socket %s: %s", path, strerror(errno));
		return -1;
	}
	log_info("removed the stale socket %s (a relay that did not exit cleanly)", path);
	return 0;
}

/* The default path's directory, if missing (systemd's RuntimeDirectory= makes it). */
static int make_dir(const char *path, bool dflt)
{
	char dir[sizeof(bound)];
	char *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!dflt || !slash || slash == dir)
		return 0;
	*slash = 0;
	if (mkdir(dir, 0755) && errno != EEXIST)
		return -1;
	return 0;
}

/*
 * Bind and listen on @path, mode 0660, group @gid (the device's): its fd,
 * or -1 (logged). The mode is 0600 from bind() on (umask), until the group
 * is right; the socket listens only then.
 */
int local_listen(const char *path, gid_t gid, bool dflt)
{
	struct sockaddr_un sun;
	mode_t old;
	int fd, err;

	if (fill_addr(&sun, path))
		return -1;
	if (make_dir(path, dflt)) {
		log_err("cannot use --unix %s: cannot create its directory: %s",
			path, strerror(errno));
		return -1;
	}
	if (clear_stale(&sun))
		return -1;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0) {
		log_err("cannot use --unix %s: socket: %s", path, strerror(errno));
		return -1;
	}
	old = umask(0177);
	err = bind(fd, (struct sockaddr *)&sun, sizeof(sun)) ? errno : 0;
	umask(old);
	if (err) {
		log_err("cannot listen on %s: %s", path, strerror(err));
		close(fd);
		return -1;
	}
	snprintf(bound, sizeof(bound), "%s", path);
	if (chown(path, (uid_t)-1, gid) || chmod(path, 0660)) {
		log_err("cannot give %s the group of the device (gid %u) and mode 0660: %s (run the relay in that group, as aca-relay.service does)",
			path, (unsigned int)gid, strerror(errno));
		goto fail;
	}
	if (listen(fd, SOMAXCONN)) {
		log_err("cannot listen on %s: %s", path, strerror(errno));
		goto fail;
	}
	atexit(remove_bound);
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	signal(SIGHUP, on_signal);
	return fd;
fail:
	close(fd);
	remove_bound();
	bound[0] = 0;
	return -1;
}

/* "uid 1000 pid 4242": who connected, for log lines; *@uid for conn.c. */
void local_peer(int sock, char *buf, size_t len, uid_t *uid)
{
	struct ucred cred;
	socklen_t n = sizeof(cred);

	if (getsockopt(sock, SOL_SOCKET, SO_PEERCRED, &cred, &n)) {
		snprintf(buf, len, "local peer");
		*uid = (uid_t)-1;
		return;
	}
	snprintf(buf, len, "local uid %u pid %d", (unsigned int)cred.uid,
		 (int)cred.pid);
	*uid = cred.uid;
}
