// SPDX-License-Identifier: GPL-2.0-only
/*
 * Who is behind a file of /dev/aca: the opener's privilege, decided at
 * open() as perf decides it, and what the relay's socket says of the
 * person it serves (ACA_IOC_SET_CLIENT): a local peer's credentials, or a
 * network peer the operator admitted or not. device.c applies the answers
 * to its files; nothing here keeps state.
 */
#include <linux/bits.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/in.h>
#include <linux/net.h>
#include <linux/string.h>
#include <linux/uidgid.h>
#include <net/addrconf.h>
#include <net/ipv6.h>
#include <net/route.h>
#include <net/sock.h>

#include "client.h"
#include "params.h"
#include "target.h"
#include "../uapi/aca.h"

/*
 * Decided once, at open(), with the opener's credentials (as perf decides
 * at perf_event_open()): CAP_PERFMON or CAP_SYS_ADMIN in the initial user
 * namespace, what perf record -a needs, or group_perfmon=1 (whoever may
 * open the node, i.e. its group, counts as having CAP_PERFMON). Whoever
 * the file is passed to later acts with the opener's privilege, unless
 * the opener lowers it with ACA_IOC_SET_CLIENT (aca_set_client()).
 */
bool aca_file_privileged(struct file *file)
{
	return READ_ONCE(aca_group_perfmon) ||
	       file_ns_capable(file, &init_user_ns, CAP_PERFMON) ||
	       file_ns_capable(file, &init_user_ns, CAP_SYS_ADMIN);
}

/*
 * Persons beside the uids (below 2^32): every network peer the operator
 * admitted (--allow) is one; every other network peer another. A session
 * of the latter is never privileged (aca_client_judge()), so the strangers
 * who may join it as its data channels can read nothing from it: no
 * sampling starts, no module record is written.
 */
#define ACA_PERSON_ADMITTED	BIT_ULL(32)
#define ACA_PERSON_STRANGER	BIT_ULL(33)

/*
 * Could the credentials @peer sample the system with perf? What
 * aca_file_privileged() asks of an opener: CAP_PERFMON or CAP_SYS_ADMIN in
 * the initial user namespace, or group_perfmon=1 and membership of the
 * device's group (the group of @file's inode, what udev or group= gave
 * it). Asked as @peer, through the security modules (ns_capable_noaudit()
 * and in_group_p() judge the current subjective credentials, which
 * override_creds() makes @peer's for the duration; security_capable()
 * itself is not exported). Not audited: the relay asks for a peer, a
 * refusal is no attack by the relay.
 */
static bool aca_cred_privileged(struct file *file, const struct cred *peer)
{
	const struct cred *old = override_creds(peer);
	bool ok;

	ok = ns_capable_noaudit(&init_user_ns, CAP_PERFMON) ||
	     ns_capable_noaudit(&init_user_ns, CAP_SYS_ADMIN) ||
	     (READ_ONCE(aca_group_perfmon) &&
	      in_group_p(file_inode(file)->i_gid));
	revert_creds(old);
	return ok;
}

/*
 * Would /proc/kallsyms show @cred kernel addresses? kallsyms_show_value()
 * decides it there and is not exported, nor are the sysctls it reads, so
 * this asks for no more: kptr_restrict below 2 and CAP_SYSLOG (judged as
 * @cred, as aca_cred_privileged() judges). kptr_restrict is read through
 * "%pK", which prints zeros for 2, and for 1 to a caller (the relay, or
 * the opener) without CAP_SYSLOG: zeros, and no address is shown. Stricter
 * than kallsyms in one case: kptr_restrict 0 with perf_event_paranoid at
 * most 1 shows addresses to anyone there (Debian's paranoid is 3).
 */
bool aca_cred_kernel_addresses(const struct cred *cred)
{
	const struct cred *old;
	char buf[24];
	bool syslog;

	snprintf(buf, sizeof(buf), "%pK", &aca_lock);
	if (!strcmp(buf, "0000000000000000"))
		return false;
	old = override_creds(cred);
	syslog = ns_capable_noaudit(&init_user_ns, CAP_SYSLOG);
	revert_creds(old);
	return syslog;
}

static bool aca_own_ipv4(struct net *net, __be32 addr)
{
	return !ipv4_is_loopback(addr) && inet_addr_type(net, addr) == RTN_LOCAL;
}

/*
 * Whether the TCP peer of @sk is this machine itself, through one of its
 * own addresses other than loopback: a local user, not the network host
 * an --allow of that address's network admits (a user who connects to the
 * target's own 192.0.2.5 comes from 192.0.2.5). Loopback peers are
 * admitted only by an --allow that names loopback itself: the operator's
 * explicit choice (aca-relay(8)).
 */
static bool aca_peer_is_own_address(struct sock *sk)
{
	struct net *net = sock_net(sk);

	if (sk->sk_family == AF_INET)
		return aca_own_ipv4(net, sk->sk_daddr);
#if IS_ENABLED(CONFIG_IPV6)
	if (ipv6_addr_v4mapped(&sk->sk_v6_daddr))
		return aca_own_ipv4(net, sk->sk_v6_daddr.s6_addr32[3]);
	return !ipv6_addr_loopback(&sk->sk_v6_daddr) &&
	       ipv6_chk_addr(net, &sk->sk_v6_daddr, NULL, 0);
#else
	return false;
#endif
}

/*
 * What the relay's socket @sock says of the person behind the connection:
 * may it be privileged and be shown kernel addresses (before the opener's
 * are applied), and which person is it. A local peer is judged by its
 * credentials, taken when it connected (SO_PEERCRED's); a network peer is
 * a stranger unless the operator admitted it, and an admitted one is
 * shown what the opener (the relay) is.
 */
int aca_client_judge(struct file *file, struct socket *sock, u32 flags,
		     bool *priv, bool *kaddr, u64 *person)
{
	struct sock *sk = sock->sk;
	const struct cred *peer;

	if (!sk || sk->sk_type != SOCK_STREAM)
		return -EINVAL;
	switch (sk->sk_family) {
	case AF_INET:
	case AF_INET6:
		*priv = (flags & ACA_CLIENT_ADMITTED) && !aca_peer_is_own_address(sk);
		*kaddr = *priv;
		*person = *priv ? ACA_PERSON_ADMITTED : ACA_PERSON_STRANGER;
		return 0;
	case AF_UNIX:
		if (flags)
			return -EINVAL;
		break;
	default:
		return -EINVAL;
	}
	/* As sock_getsockopt(SO_PEERCRED) takes it. */
	spin_lock(&sk->sk_peer_lock);
	peer = get_cred(sk->sk_peer_cred);
	spin_unlock(&sk->sk_peer_lock);
	if (!peer)
		return -ENOTCONN;
	*priv = aca_cred_privileged(file, peer);
	*kaddr = aca_cred_kernel_addresses(peer);
	*person = from_kuid_munged(&init_user_ns, peer->euid);
	put_cred(peer);
	return 0;
}
