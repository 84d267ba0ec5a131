# SPDX-License-Identifier: GPL-2.0-only
#
# aca: SEP remote-profiling target for Linux (see README.md).
#
#   make                build aca.ko (newest installed kernel headers),
#                       aca-relay and the tests
#   make KVER=6.1       ... against Debian's 6.1 headers (or KVER=6.12,
#                       or KDIR=/path/to/headers)
#   make modules        aca.ko for every supported kernel
#   make deps           install every Debian package the project needs
#   make check          everything CI runs; prints "N passed, N failed"

B := build
SUPPORTED_KERNELS := 6.1 6.12

KVER ?=
KDIR ?= $(shell tools/kernel-headers $(or $(KVER),newest) 2>/dev/null)
KSERIES = $(shell tools/kernel-headers --series $(KDIR))

CC ?= gcc
CFLAGS ?= -O2 -g
WARNINGS := -Wall -Wextra -Wshadow -Wmissing-prototypes -Wstrict-prototypes \
	    -Wno-unused-parameter -Werror
# kselftest_harness.h and checkpatch.pl come from Debian's linux-source.
KSRC := $(B)/ksrc
HARNESS_INC := -I$(KSRC)/tools/testing/selftests -Wno-sign-compare -Wno-missing-prototypes
UCFLAGS := -D_GNU_SOURCE -std=gnu11 $(CFLAGS) $(WARNINGS)

CORE_SRC := $(wildcard driver/core/*.c)
CORE_HDR := $(wildcard driver/core/*.h) $(wildcard uapi/*.h)

TESTS := $(B)/tests/core_test $(B)/tests/device_test $(B)/tests/remote_test

.PHONY: all module modules relay host tests demo deps check checkpatch vm-test clean
.DELETE_ON_ERROR:

all: module relay host tests

module:
	@test -n "$(KDIR)" || { echo "no kernel headers found for '$(or $(KVER),newest)'; run 'make deps'" >&2; exit 1; }
	@tools/build-module $(KDIR) $(B)/kernel-$(KSERIES)

modules:
	@for k in $(SUPPORTED_KERNELS); do \
		kdir=$$(tools/kernel-headers $$k) || exit 1; \
		tools/build-module "$$kdir" $(B)/kernel-$$k || exit 1; \
	done

relay: $(B)/aca-relay

$(B)/aca-relay: $(wildcard relay/*.c relay/*.h) $(wildcard uapi/*.h)
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) -o $@ $(filter %.c,$^) -luring

host: $(B)/aca-host

$(B)/aca-host: $(wildcard tools/aca-host/*.c tools/aca-host/*.h) $(wildcard uapi/*.h)
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) -o $@ $(filter %.c,$^)

tests: $(TESTS)

$(KSRC)/.stamp: tools/extract-ksrc
	@tools/extract-ksrc $(KSRC)
	@touch $@

$(B)/tests/core_test: $(wildcard selftests/core/*.c) $(CORE_SRC) $(CORE_HDR) $(KSRC)/.stamp
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) $(HARNESS_INC) -o $@ $(filter %.c,$^)

$(B)/tests/device_test: $(wildcard selftests/device/*.c) $(wildcard uapi/*.h) $(KSRC)/.stamp
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) $(HARNESS_INC) -o $@ $(filter %.c,$^)

$(B)/tests/remote_test: $(wildcard selftests/remote/*.c) $(wildcard uapi/*.h) $(KSRC)/.stamp
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) $(HARNESS_INC) -o $@ $(filter %.c,$^) -lpthread

deps:
	@tools/deps

checkpatch: $(KSRC)/.stamp
	@perl $(KSRC)/scripts/checkpatch.pl --no-tree --strict --terse --show-types \
		-f $(wildcard driver/*.[ch] driver/core/*.[ch] uapi/*.h)

# One kernel's VM selftests: make vm-test KVER=6.1
vm-test: module relay tests
	@tools/vm-selftests $(KSERIES)

# See it work: boot a VM with aca and aca-relay, hand-shake from the host.
demo: deps
	@$(MAKE) --no-print-directory modules relay host
	@tools/demo

check: deps
	@tools/check

clean:
	rm -rf $(B)
