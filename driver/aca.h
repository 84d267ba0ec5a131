/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What is the whole module's, not one subsystem's: its version, which the
 * Makefile (hence aca-relay, aca-host, DKMS) reads from this line with sed.
 * Each subsystem declares what its .c defines in a header of its own.
 */
#ifndef ACA_H
#define ACA_H

#define ACA_VERSION	"0.1.0"

#endif /* ACA_H */
