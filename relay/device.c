// SPDX-License-Identifier: GPL-2.0-only
/*
 * The device: checked once at start, and why it could not be opened, said
 * the same way at start and per connection, with what to do about it.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "relay.h"
#include "../uapi/aca.h"

static bool in_group(gid_t gid)
{
	int n = getgroups(0, NULL);
	gid_t *groups;
	bool found = getegid() == gid;

	if (found || n <= 0)
		return found;
	groups = calloc(n, sizeof(*groups));
	if (groups)
		n = getgroups(n, groups);
	for (int i = 0; groups && i < n; i++)
		found |= groups[i] == gid;
	free(groups);
	return found;
}

/* May this user read and write @st by its owner or group bits? */
static bool may_rw(const struct stat *st)
{
	if (geteuid() == 0)
		return true;
	if (st->st_uid == geteuid())
		return (st->st_mode & 0600) == 0600;
	return in_group(st->st_gid) && (st->st_mode & 0060) == 0060;
}

/* What to do when the mode of @st refuses this user. */
static void access_hint(char *buf, size_t len, const struct stat *st,
			const char *group)
{
	struct passwd *pw = getpwuid(geteuid());
	const char *user = pw ? pw->pw_name : "USER";

	if (may_rw(st))
		snprintf(buf, len, ", so something else refuses it (a device cgroup such as the unit's DeviceAllow=, or a security module)");
	else if (st->st_gid == 0)
		snprintf(buf, len, " and only root may open it; give it a group (udev rule 60-aca.rules, or 'options aca group=GID', see aca(4)) and add this user to it");
	else if (!in_group(st->st_gid))
		snprintf(buf, len, " and this user is not in group '%s'; add it (usermod -aG %s %s, then log in again) or run aca-relay.service",
			 group, group, user);
	else
		snprintf(buf, len, " and group '%s' may not read and write it", group);
}

/* "/dev/aca is root:vtune 0660 and this user is not in group 'vtune'; ..." */
static void explain_access(char *buf, size_t len, const char *path, int err)
{
	struct passwd *pw;
	struct group *gr;
	struct stat st;
	char owner[64], group[64], hint[256];

	if (stat(path, &st)) {
		snprintf(buf, len, "cannot open %s: %s", path, strerror(err));
		return;
	}
	pw = getpwuid(st.st_uid);
	if (pw)
		snprintf(owner, sizeof(owner), "%s", pw->pw_name);
	else
		snprintf(owner, sizeof(owner), "%u", (unsigned int)st.st_uid);
	gr = getgrgid(st.st_gid);
	if (gr)
		snprintf(group, sizeof(group), "%s", gr->gr_name);
	else
		snprintf(group, sizeof(group), "%u", (unsigned int)st.st_gid);
	access_hint(hint, sizeof(hint), &st, group);
	snprintf(buf, len, "cannot open %s: %s: %s is %s:%s %04o%s", path,
		 strerror(err), path, owner, group,
		 (unsigned int)(st.st_mode & 07777), hint);
}

void dev_explain(char *buf, size_t len, const char *path, int err)
{
	const char *fix = strcmp(path, ACA_DEVICE_PATH) ? " (or fix --device)" : "";

	switch (err) {
	case ENOENT:
	case ENODEV:
	case ENXIO:
		snprintf(buf, len, "cannot open %s: %s: the aca module is not loaded; run 'modprobe aca' (as root)%s",
			 path, strerror(err), fix);
		break;
	case EACCES:
	case EPERM:
		explain_access(buf, len, path, err);
		break;
	case ENOTTY:
	case EINVAL:
		snprintf(buf, len, "%s is not an aca device (--device?)", path);
		break;
	default:
		snprintf(buf, len, "cannot open %s: %s", path, strerror(err));
		break;
	}
}

/*
 * Open @path once as a connection would, and ask it ACA_IOC_GET_PROPERTIES,
 * which any aca file answers without becoming a session or a trace.
 */
int dev_check(const char *path)
{
	struct aca_properties props;
	struct stat st;
	char msg[512];
	int fd, err = 0;

	fd = open(path, O_RDWR | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		err = errno;
	else if (fstat(fd, &st) || !S_ISCHR(st.st_mode))
		err = ENOTTY;
	else if (ioctl(fd, ACA_IOC_GET_PROPERTIES, &props))
		err = errno == EINVAL ? ENOTTY : errno;
	if (fd >= 0)
		close(fd);
	if (!err)
		return 0;
	if (fd >= 0 && err != ENOTTY)
		snprintf(msg, sizeof(msg), "%s: ACA_IOC_GET_PROPERTIES: %s (is it an aca device?)",
			 path, strerror(err));
	else
		dev_explain(msg, sizeof(msg), path, err);
	log_err("%s", msg);
	return -1;
}
