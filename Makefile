# SPDX-License-Identifier: GPL-2.0-only
#
# aca: SEP remote-profiling target for Linux (see README.md).
#
#   make                build aca.ko (for the running kernel, as out-of-tree
#                       modules do; else the newest supported headers),
#                       aca-relay, aca-host and the tests
#   make KVER=6.1       ... against Debian's 6.1 headers (or KVER=6.12,
#                       or KDIR=/path/to/headers)
#   make modules        aca.ko for every supported kernel
#   make host           aca-host alone (no kernel headers needed)
#   make deps           install every Debian package the project needs
#   make check          everything CI runs; prints a stage table and
#                       "N passed, N failed" (tools/check; selftests/README.md)
#   make check-fast     every test that needs no VM (about 3 min warm):
#                       the inner loop
#   make bench          aca's cost to a profiled workload beside perf's, in
#                       VMs (figures, never pass/fail; bench/README.md)
# Compiler warnings fail only make check (W=1 on the module, -Werror on
# userspace); builds for use (make, make install, DKMS) show them.

B := build
SUPPORTED_KERNELS := 6.1 6.12

KVER ?=
KDIR ?=

CC ?= gcc
CFLAGS ?= -O2 -g
# make check sets WERROR=-Werror: warnings are fatal there, and only there.
WERROR ?=
WARNINGS := -Wall -Wextra -Wshadow -Wmissing-prototypes -Wstrict-prototypes \
	    -Wno-unused-parameter $(WERROR)
# kselftest_harness.h and checkpatch.pl come from Debian's linux-source.
KSRC := $(B)/ksrc
HARNESS_INC := -I$(KSRC)/tools/testing/selftests -Wno-sign-compare -Wno-missing-prototypes -Wno-clobbered
# One version for the module, aca-relay and aca-host: ACA_VERSION of driver/aca.h.
ACA_VERSION := $(shell sed -n 's/^\#define ACA_VERSION[[:space:]]*"\(.*\)"$$/\1/p' driver/aca.h)
UCFLAGS := -D_GNU_SOURCE -std=gnu11 -DACA_VERSION='"$(ACA_VERSION)"' $(CFLAGS) $(WARNINGS)

CORE_SRC := $(wildcard driver/core/*.c)
CORE_HDR := $(wildcard driver/core/*.h) uapi/aca.h
# The SEP wire format: the protocol core's, spoken by aca-host and the tests too.
SEP_HDR := driver/core/sep.h driver/core/sep_cmd.h

# The protocol core's unit tests: one kselftest program per topic, each
# selftests/core/TOPIC_test.c built as $(B)/tests/core_TOPIC_test.
CORE_TESTS := $(patsubst selftests/core/%.c,$(B)/tests/core_%,$(wildcard selftests/core/*_test.c))

# make bench's workloads, the stream and echo ends (bench/*.c).
BENCH_TOOLS := $(B)/bench/work $(B)/bench/sink $(B)/bench/serve $(B)/bench/rtt \
	$(B)/bench/copyrelay $(B)/bench/sendfile

TESTS := $(CORE_TESTS) $(B)/tests/device_test $(B)/tests/local_test \
	 $(B)/tests/ring_header_test \
	 $(B)/tests/modrec_test \
	 $(B)/tests/remote_test

.PHONY: all module modules relay host tests demo deps check check-fast checkpatch uapi-check vm-test soak bench clean
.DELETE_ON_ERROR:

all: module relay host tests

module:
	@kdir='$(KDIR)'; \
	[ -n "$$kdir" ] || kdir=$$(tools/kernel-headers $(or $(KVER),default)) || exit 1; \
	tools/build-module "$$kdir" $(B)/kernel-$$(tools/kernel-headers --series "$$kdir")

modules:
	@for k in $(SUPPORTED_KERNELS); do \
		kdir=$$(tools/kernel-headers $$k) || exit 1; \
		tools/build-module "$$kdir" $(B)/kernel-$$k || exit 1; \
	done

relay: $(B)/aca-relay

# Userspace rebuilds when the compiler or a flag that changes its output
# changes. -Werror changes none: make check recompiles under it (tools/check).
# The stamps are read with $(file <), empty for a file that is not there.
UFLAGS = $(CC) $(filter-out -Werror,$(UCFLAGS) $(SPIN_CFLAGS))
UFLAGS_STAMP := $(B)/.uflags
UFLAGS_OLD = $(file <$(UFLAGS_STAMP))
$(UFLAGS_STAMP): FORCE | $(B)
	$(if $(filter-out $(UFLAGS_OLD),$(UFLAGS))$(filter-out $(UFLAGS),$(UFLAGS_OLD)),$(file >$@,$(UFLAGS)))
$(B):
	@mkdir -p $@
.PHONY: FORCE

# need HEADER PACKAGE: a missing library says which package and how to get it.
need = @printf '\#include <%s>\n' $(1) | $(CC) -E -x c - >/dev/null 2>&1 || \
	{ echo "$@ needs $(1) from Debian's $(2): run 'make deps' (as root)" >&2; exit 1; }
# need_cmd COMMAND PACKAGE: the same for a program the build runs.
need_cmd = @command -v $(1) >/dev/null 2>&1 || \
	{ echo "$@ needs $(1) from Debian's $(2): run 'make deps' (as root)" >&2; exit 1; }

$(B)/aca-relay: $(wildcard relay/*.c relay/*.h) uapi/aca.h driver/aca.h $(UFLAGS_STAMP)
	$(call need,liburing.h,liburing-dev)
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) -o $@ $(filter %.c,$^) -luring

# The relay's unit tests (selftests/relay/TOPIC_test.c): its sources but
# main.c, without a VM.
RELAY_TESTS := $(patsubst selftests/relay/%.c,$(B)/tests/relay_%,$(wildcard selftests/relay/*_test.c))
tests: $(RELAY_TESTS)
$(RELAY_TESTS): $(B)/tests/relay_%: selftests/relay/%.c $(filter-out relay/main.c,$(wildcard relay/*.c)) \
		$(wildcard relay/*.h) uapi/aca.h driver/aca.h $(KSRC)/.stamp $(UFLAGS_STAMP)
	$(call need,liburing.h,liburing-dev)
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) $(HARNESS_INC) -o $@ $(filter %.c,$^) -luring

host: $(B)/aca-host

# aca-host is aca-host.c (main() and the table of commands) and the
# commands, one tools/aca-host/builtin-NAME.c each, linked with
# build/libaca-host.a: every other source of tools/aca-host, the host side
# of the protocol (connections, sessions, payloads, ECBs), the command
# lines (args.c), the collection (channels, progress, output files), the
# counting session of stat and the report (records, symbols through
# libdwfl, kallsyms, attribution, tables). The tests link that library and
# include its headers; no test compiles a source of tools/aca-host. The
# lists follow the files (HOST_LIST_STAMP notices when they change). Each
# source is one object, rebuilt when it, a header it includes (-MMD) or
# the flags (UFLAGS_STAMP) change. -Werror changes no output, so it is not
# in UFLAGS_STAMP: make check (tools/check) removes the objects to compile
# every source under it, and a later plain make (make install in the
# install test, on a read-only tree) finds them up to date.
HOST_CLI_SRC := tools/aca-host/aca-host.c $(sort $(wildcard tools/aca-host/builtin-*.c))
HOST_LIB_SRC := $(filter-out $(HOST_CLI_SRC),$(sort $(wildcard tools/aca-host/*.c)))
HOST_OBJ := $(B)/obj/aca-host
HOST_CLI_OBJ := $(HOST_CLI_SRC:tools/aca-host/%.c=$(HOST_OBJ)/%.o)
# pprof.c writes profile.proto through C that protoc-c generates at build
# time from tools/aca-host/pprof.proto into $(HOST_GEN) (never committed),
# compiled into the library with the rest.
HOST_GEN := $(B)/gen/aca-host
HOST_LIB_OBJ := $(HOST_LIB_SRC:tools/aca-host/%.c=$(HOST_OBJ)/%.o) $(HOST_OBJ)/pprof.pb-c.o
HOST_LIB := $(B)/libaca-host.a
HOST_LIST_STAMP := $(B)/.aca-host-files
HOST_LIST = cli: $(HOST_CLI_SRC) lib: $(HOST_LIB_SRC)
# Compared and written by the shell, and a tree that cannot be written (make
# install in the install test) keeps its stamp: there, the test VM's 9p
# share may show the stamp's inode with another file's bytes.
$(HOST_LIST_STAMP): FORCE | $(B)
	@printf '%s\n' '$(HOST_LIST)' | cmp -s - $@ 2>/dev/null || \
		{ printf '%s\n' '$(HOST_LIST)' >$@; } 2>/dev/null || :

$(HOST_OBJ)/%.o: tools/aca-host/%.c $(UFLAGS_STAMP)
	$(if $(filter %/symbols.o,$@),$(call need,elfutils/libdwfl.h,libdw-dev))
	$(if $(filter %/pprof.o,$@),$(call need,zlib.h,zlib1g-dev))
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) -I$(HOST_GEN) -MMD -MP -c -o $@ $<

$(HOST_GEN)/pprof.pb-c.c $(HOST_GEN)/pprof.pb-c.h &: tools/aca-host/pprof.proto
	$(call need_cmd,protoc-c,protobuf-c-compiler)
	$(call need,protobuf-c/protobuf-c.h,libprotobuf-c-dev)
	@mkdir -p $(@D)
	protoc-c --proto_path=tools/aca-host --c_out=$(HOST_GEN) $<

$(HOST_OBJ)/pprof.o: $(HOST_GEN)/pprof.pb-c.h
$(HOST_OBJ)/pprof.pb-c.o: $(HOST_GEN)/pprof.pb-c.c $(HOST_GEN)/pprof.pb-c.h $(UFLAGS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) -I$(HOST_GEN) -c -o $@ $<
-include $(HOST_CLI_OBJ:.o=.d) $(HOST_LIB_OBJ:.o=.d)

$(HOST_LIB): $(HOST_LIB_OBJ) $(HOST_LIST_STAMP)
	@rm -f $@
	$(AR) rcs $@ $(filter %.o,$^)

# The report names code through elfutils' libdwfl (libdw-dev); pprof writes
# through libprotobuf-c (libprotobuf-c-dev) and zlib (zlib1g-dev).
HOST_LIBS := -ldw -lelf -lm -lprotobuf-c -lz

$(B)/aca-host: $(HOST_CLI_OBJ) $(HOST_LIB) $(HOST_LIST_STAMP)
	$(CC) $(UCFLAGS) -o $@ $(filter %.o %.a,$^) $(HOST_LIBS)

tests: $(TESTS)

$(KSRC)/.stamp: tools/extract-ksrc
	@tools/extract-ksrc $(KSRC)
	@touch $@

# What every core test program links besides its topic: the core, the fake
# machine (fake_target.c), the wire driver (wire.c) and the table of SEP
# commands (cmd_table.c, the fuzzer's too), one object each under
# build/obj/core-tests, rebuilt when its source, a header it includes
# (-MMD), the flags or WERROR change (CORE_OBJ_STAMP); and libaca-host.a.
CORE_LIB_SRC := $(CORE_SRC) selftests/core/fake_target.c selftests/core/wire.c \
	selftests/core/cmd_table.c selftests/core/ksrc.c
CORE_OBJ := $(B)/obj/core-tests
CORE_LIB_OBJ := $(CORE_LIB_SRC:%.c=$(CORE_OBJ)/%.o)
CORE_OBJ_STAMP := $(B)/.core-test-objs
CORE_OBJ_IS = $(strip werror: $(WERROR))
CORE_OBJ_OLD = $(strip $(file <$(CORE_OBJ_STAMP)))
$(CORE_OBJ_STAMP): FORCE | $(B)
	$(if $(filter-out $(CORE_OBJ_OLD),$(CORE_OBJ_IS))$(filter-out $(CORE_OBJ_IS),$(CORE_OBJ_OLD)),$(file >$@,$(CORE_OBJ_IS)))

$(CORE_LIB_OBJ): $(CORE_OBJ)/%.o: %.c $(UFLAGS_STAMP) $(CORE_OBJ_STAMP)
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) -MMD -MP -c -o $@ $<
-include $(CORE_LIB_OBJ:.o=.d)

$(CORE_TESTS): $(B)/tests/core_%: selftests/core/%.c $(CORE_LIB_OBJ) $(HOST_LIB) \
		$(wildcard selftests/core/*.h selftests/common/*.h) $(CORE_HDR) $(SEP_HDR) \
		$(KSRC)/.stamp $(UFLAGS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) $(HARNESS_INC) -o $@ $< $(CORE_LIB_OBJ) $(HOST_LIB)

$(B)/tests/device_test: selftests/device/device_test.c selftests/device/session.h selftests/device/once.h $(HOST_LIB) $(wildcard tools/aca-host/*.h) $(wildcard selftests/common/*.h) $(UFLAGS_STAMP) \
		uapi/aca.h $(SEP_HDR) $(KSRC)/.stamp
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) $(HARNESS_INC) -o $@ $(filter %.c,$^) $(HOST_LIB)

$(B)/tests/modrec_test: selftests/device/modrec_test.c selftests/device/session.h selftests/device/once.h $(HOST_LIB) $(wildcard tools/aca-host/*.h) $(wildcard selftests/common/*.h) $(UFLAGS_STAMP) \
		uapi/aca.h $(SEP_HDR) $(KSRC)/.stamp
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) $(HARNESS_INC) -o $@ $(filter %.c,$^) $(HOST_LIB)

$(B)/tests/local_test: selftests/device/local_test.c selftests/device/trace.h $(wildcard selftests/common/*.h) $(UFLAGS_STAMP) \
		uapi/aca.h $(SEP_HDR) $(KSRC)/.stamp
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) $(HARNESS_INC) -o $@ $(filter %.c,$^) -pthread

$(B)/tests/ring_header_test: selftests/device/ring_header_test.c selftests/device/trace.h $(UFLAGS_STAMP) \
		uapi/aca.h $(SEP_HDR) $(KSRC)/.stamp
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) $(HARNESS_INC) -o $@ $(filter %.c,$^) -pthread

$(B)/tests/remote_test: $(wildcard selftests/remote/*.c) $(HOST_LIB) $(wildcard tools/aca-host/*.h) $(UFLAGS_STAMP) \
		$(SEP_HDR) $(KSRC)/.stamp
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) $(HARNESS_INC) -o $@ $(filter %.c,$^) $(HOST_LIB)

deps:
	@tools/deps

# A file at a time, as many at once as there are CPUs: checkpatch.pl
# checks each file alone.
checkpatch: $(KSRC)/.stamp
	@printf '%s\n' $(wildcard driver/*.[ch] driver/core/*.[ch] uapi/*.h bench/floor/*.c) | \
		xargs -P "$$(nproc)" -n 8 perl $(KSRC)/scripts/checkpatch.pl --no-tree --strict \
		--terse --show-types -f

# uapi/aca.h is what programs on the target compile against (installed as
# <linux/aca.h>): held to the rules the kernel sets its own uapi headers
# (usr/include/Makefile, headers_install.sh). It compiles alone as C90 with
# -pedantic, includes only <linux/...> headers (no libc: <stdint.h>,
# <assert.h>), names no CONFIG_ option and no kernel-internal type (u32:
# __u32 is the uapi type).
UAPI_HDR := uapi/aca.h
uapi-check:
	@rc=0; \
	if grep -nE '^[[:space:]]*#[[:space:]]*include' $(UAPI_HDR) | \
			grep -vE '#[[:space:]]*include[[:space:]]*<linux/[a-z0-9_/]+\.h>'; then \
		echo "uapi-check: $(UAPI_HDR) includes more than <linux/...> headers" >&2; rc=1; fi; \
	if grep -nE '\bCONFIG_' $(UAPI_HDR); then \
		echo "uapi-check: $(UAPI_HDR) names a kernel config option" >&2; rc=1; fi; \
	if grep -nE '\b[us](8|16|32|64)\b' $(UAPI_HDR); then \
		echo "uapi-check: $(UAPI_HDR) uses kernel-internal types (__u32, not u32)" >&2; rc=1; fi; \
	printf '#include "$(UAPI_HDR)"\nint main(void)\n{\n\treturn 0;\n}\n' | \
		$(CC) -std=c90 -pedantic -Wall -Wextra -Werror -fsyntax-only -x c - || \
		{ echo "uapi-check: $(UAPI_HDR) does not compile as C90 (-std=c90 -pedantic)" >&2; rc=1; }; \
	[ $$rc = 0 ] && echo "uapi-check: $(UAPI_HDR): C90 -pedantic, <linux/...> includes only, no CONFIG_, __u types"; \
	exit $$rc

# One kernel's VM selftests: make vm-test KVER=6.1 (default 6.12), with a
# test build of aca.ko (the tests' hooks: tools/build-module --test-hooks)
# in build/kernel-KVER-test.
vm-test: relay host tests $(B)/spin $(B)/burst
	@tools/build-module --test-hooks "$$(tools/kernel-headers $(or $(KVER),6.12))" \
		$(B)/kernel-$(or $(KVER),6.12)-test
	@tools/vm-selftests $(or $(KVER),6.12)

# The long fault runs (tools/soak): make soak [KVER=6.1|6.12|6.12-rt|debug]
# [ACA_SOAK_SECONDS=3600]. Never part of make check.
soak: relay host tests $(B)/spin
	@if [ "$(or $(KVER),6.12)" = debug ]; then \
		tools/build-module --test-hooks "$$(tools/debug-kernel/build)" $(B)/kernel-6.12-debug; \
	else \
		tools/build-module --test-hooks "$$(tools/kernel-headers $(or $(KVER),6.12))" \
			$(B)/kernel-$(or $(KVER),6.12)-test; \
	fi
	@ACA_SOAK_KERNEL=$(or $(KVER),6.12) tools/soak

# See it work: boot a VM with aca and aca-relay, hand-shake from the host.
demo: deps
	@$(MAKE) --no-print-directory modules relay host $(B)/spin
	@tools/demo

check: deps
	@tools/check

check-fast: deps
	@tools/check --fast

# Figures, never pass/fail, never part of make check: make bench
# [BENCH_ARGS="--kernel 6.1 --kvm ..."] (tools/bench --help).
bench: deps relay host $(BENCH_TOOLS)
	@tools/bench $(BENCH_ARGS)

clean:
	rm -rf $(B)

# ---- fuzz: the fuzz engine of the protocol core (selftests/fuzz/README.md)
#   make fuzz           build, write the seed corpus, fuzz until interrupted
#   make fuzz-smoke     fuzz for FUZZ_SECONDS (60); fails on any crash or leak
#   make fuzz-replay    every seed and corpus input once through the engine,
#                       built with $(CC) and without libFuzzer (TAP; make check)
# fuzz and fuzz-smoke need clang; on Debian also libclang-rt-14-dev
# (libFuzzer, ASan, UBSan). The engine's machine and command table are the
# core tests' (selftests/core/fake_target.c, cmd_table.c): sanitized, but
# not instrumented for coverage, which is the core's alone.
FUZZ := $(B)/fuzz
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_VECTORS ?= selftests/vectors
FUZZ_ARGS ?=
FUZZ_SANITIZE := -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CFLAGS := -g -O1 $(FUZZ_SANITIZE) -D_GNU_SOURCE -std=gnu11 \
	-Wall -Wextra -Wshadow -Wmissing-prototypes -Wstrict-prototypes \
	-Wno-unused-parameter -Werror
FUZZ_HELPERS := selftests/core/fake_target.c selftests/core/cmd_table.c
FUZZ_HELPER_OBJ := $(FUZZ_HELPERS:selftests/core/%.c=$(FUZZ)/obj/%.o)
FUZZ_HDR := selftests/fuzz/core_fuzz.h $(wildcard selftests/core/*.h) $(CORE_HDR) $(SEP_HDR)
FUZZ_RUN = $(FUZZ)/core_fuzz -timeout=10 -artifact_prefix=$(FUZZ)/ $(FUZZ_ARGS) \
	$(FUZZ)/corpus $(FUZZ)/seeds
# What make check replays: the seeds, the garbage sessions and every input
# the fuzzer has kept.
FUZZ_REPLAY := $(B)/tests/core_fuzz_replay

.PHONY: fuzz fuzz-smoke fuzz-replay

need_fuzz_cc = @command -v $(FUZZ_CC) >/dev/null || { echo "fuzz: no $(FUZZ_CC):" \
	"run 'make deps' (as root)" >&2; exit 1; }

$(FUZZ_HELPER_OBJ): $(FUZZ)/obj/%.o: selftests/core/%.c $(FUZZ_HDR)
	$(need_fuzz_cc)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c -o $@ $<

$(FUZZ)/core_fuzz: selftests/fuzz/core_fuzz.c $(CORE_SRC) $(FUZZ_HELPER_OBJ) $(FUZZ_HDR)
	$(need_fuzz_cc)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $(filter %.c %.o,$^)

# The same engine, driven by replay.c instead of libFuzzer, with the core
# tests' objects: built by make tests (so under -Werror in make check).
$(FUZZ_REPLAY): selftests/fuzz/replay.c selftests/fuzz/core_fuzz.c \
		$(filter-out %/wire.o,$(CORE_LIB_OBJ)) $(FUZZ_HDR) $(UFLAGS_STAMP) $(CORE_OBJ_STAMP)
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) -o $@ $(filter %.c %.o,$^)

$(FUZZ)/make_seeds: selftests/fuzz/make_seeds.c $(CORE_OBJ)/selftests/core/cmd_table.o \
		tools/aca-host/payload.h $(HOST_LIB) $(FUZZ_HDR) $(UFLAGS_STAMP) $(CORE_OBJ_STAMP)
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) -o $@ $(filter %.c %.o,$^) $(HOST_LIB)

tests: $(FUZZ_REPLAY) $(FUZZ)/make_seeds

# The seeds, and the garbage sessions only the replay runs (too many and
# too big to start libFuzzer with).
$(FUZZ)/seeds.stamp: $(FUZZ)/make_seeds $(wildcard $(FUZZ_VECTORS)/*)
	@rm -rf $(FUZZ)/seeds $(FUZZ)/garbage
	$(FUZZ)/make_seeds -g $(FUZZ)/garbage $(FUZZ)/seeds $(FUZZ_VECTORS)
	@touch $@

fuzz: $(FUZZ)/core_fuzz $(FUZZ)/seeds.stamp
	@mkdir -p $(FUZZ)/corpus
	$(FUZZ_RUN)

fuzz-smoke: $(FUZZ)/core_fuzz $(FUZZ)/seeds.stamp
	@mkdir -p $(FUZZ)/corpus
	$(FUZZ_RUN) -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1

fuzz-replay: $(FUZZ_REPLAY) $(FUZZ)/seeds.stamp
	@mkdir -p $(FUZZ)/corpus
	@$(FUZZ_REPLAY) $(FUZZ)/seeds $(FUZZ)/garbage $(FUZZ)/corpus
# ---- end of fuzz

# ---- install: install like an out-of-tree driver (Documentation/install.md)
#   make install        the target (the machine to profile): aca.ko for the
#                       running kernel into /lib/modules/KRELEASE/updates/
#                       and depmod; aca-relay, aca-host, <linux/aca.h>, the
#                       man pages, the udev rule, the systemd unit and the
#                       sysusers.d file that creates group vtune (applied)
#   make install-host   the analysis host (where VTune or aca-host runs):
#                       aca-host and aca-host(1) alone; needs no kernel
#                       headers, no linux-source, no liburing
#   make uninstall      remove exactly what make install installs (a group
#                       once created stays, as with any system package)
#   make uninstall-host remove exactly what make install-host installs
#   make dkms-check     dkms add/build/install/remove of this tree for every
#                       supported kernel, in private DKMS trees (TAP)
#   make man-check      man -l, mandoc -T lint and groff -ww: no warnings
#   make version        print ACA_VERSION (driver/aca.h); dkms.conf uses it
# KRELEASE (default: uname -r) picks the kernel. Its aca.ko is
# build/kernel-<major.minor>/aca.ko if that was built for KRELEASE, is
# newer than every source and is no test build (modinfo's test_hooks: the
# tests' hooks are never installed), else it is built first against
# /lib/modules/KRELEASE/build. DESTDIR and PREFIX (default /usr/local) are
# honoured; with a DESTDIR, depmod and the udev/systemd reloads are left to
# whoever installs that tree.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
INCLUDEDIR ?= $(PREFIX)/include
MANDIR ?= $(PREFIX)/share/man
UNITDIR ?= $(PREFIX)/lib/systemd/system
UDEVRULESDIR ?= /etc/udev/rules.d
SYSUSERSDIR ?= $(PREFIX)/lib/sysusers.d
INSTALL_MOD_DIR ?= updates
KRELEASE ?= $(shell uname -r)

MAN_PAGES := man/aca.4 man/aca-relay.8 man/aca-host.1
MODULE_SRC := Kbuild $(wildcard driver/*.[ch] driver/core/*.[ch] uapi/*.h)
IKSERIES = $(word 1,$(subst ., ,$(KRELEASE))).$(word 2,$(subst ., ,$(KRELEASE)))
IKO = $(B)/kernel-$(IKSERIES)/aca.ko
IKDIR = /lib/modules/$(KRELEASE)/build

INSTALLED_HOST = $(DESTDIR)$(BINDIR)/aca-host $(DESTDIR)$(MANDIR)/man1/aca-host.1
INSTALLED = $(DESTDIR)/lib/modules/$(KRELEASE)/$(INSTALL_MOD_DIR)/aca.ko \
	$(DESTDIR)$(BINDIR)/aca-relay \
	$(DESTDIR)$(INCLUDEDIR)/linux/aca.h \
	$(DESTDIR)$(UDEVRULESDIR)/60-aca.rules \
	$(DESTDIR)$(UNITDIR)/aca-relay.service \
	$(DESTDIR)$(SYSUSERSDIR)/aca.conf \
	$(DESTDIR)$(MANDIR)/man4/aca.4 $(DESTDIR)$(MANDIR)/man8/aca-relay.8 \
	$(INSTALLED_HOST)

# Tell a running udev and systemd, and depmod, unless installing elsewhere.
define system_reload
	@if [ -z "$(DESTDIR)" ]; then \
		if [ -d /lib/modules/$(KRELEASE) ]; then depmod -a $(KRELEASE); fi; \
		if [ -S /run/udev/control ]; then udevadm control --reload; \
			udevadm trigger --action=add --subsystem-match=aca; fi; \
		if [ -d /run/systemd/system ]; then systemctl daemon-reload; fi; \
	fi
endef

# The group of /dev/aca and aca-relay.service, from packaging/aca.sysusers:
# systemd-sysusers where systemd is, else groupadd.
define make_group
	@if [ -z "$(DESTDIR)" ] && ! getent group vtune >/dev/null; then \
		if command -v systemd-sysusers >/dev/null; then \
			systemd-sysusers $(SYSUSERSDIR)/aca.conf; \
		else groupadd --system vtune; fi && \
		echo "install: created system group vtune for /dev/aca and aca-relay"; \
	fi
endef

.PHONY: install install-module install-host uninstall uninstall-host dkms-check man-check version

install-module:
	@test -n "$(KRELEASE)" || { echo "install: KRELEASE is empty" >&2; exit 1; }
	@vm=$$(modinfo -F vermagic $(IKO) 2>/dev/null | cut -d' ' -f1); \
	if [ "$$vm" != "$(KRELEASE)" ] || [ -n "$$(find $(MODULE_SRC) -newer $(IKO))" ] || \
			[ -n "$$(modinfo -F test_hooks $(IKO) 2>/dev/null)" ]; then \
		if [ ! -d $(IKDIR) ]; then \
			echo "install: $(IKO) is not for $(KRELEASE) and there are no" \
			     "headers in $(IKDIR) to build it (KRELEASE=...?)" >&2; \
			exit 1; \
		fi; \
		tools/build-module $$(realpath $(IKDIR)) $(B)/kernel-$(IKSERIES); \
	fi

install-host: host
	install -D -m 0755 $(B)/aca-host $(DESTDIR)$(BINDIR)/aca-host
	install -D -m 0644 man/aca-host.1 $(DESTDIR)$(MANDIR)/man1/aca-host.1

uninstall-host:
	rm -f $(INSTALLED_HOST)

install: install-module relay install-host
	install -D -m 0644 $(IKO) $(DESTDIR)/lib/modules/$(KRELEASE)/$(INSTALL_MOD_DIR)/aca.ko
	install -D -m 0755 $(B)/aca-relay $(DESTDIR)$(BINDIR)/aca-relay
	install -D -m 0644 uapi/aca.h $(DESTDIR)$(INCLUDEDIR)/linux/aca.h
	install -D -m 0644 packaging/aca.sysusers $(DESTDIR)$(SYSUSERSDIR)/aca.conf
	$(make_group)
	install -D -m 0644 packaging/60-aca.rules $(DESTDIR)$(UDEVRULESDIR)/60-aca.rules
	install -d $(DESTDIR)$(UNITDIR)
	sed 's|/usr/local/bin/|$(BINDIR)/|' packaging/aca-relay.service \
		>$(DESTDIR)$(UNITDIR)/aca-relay.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/aca-relay.service
	install -D -m 0644 man/aca.4 $(DESTDIR)$(MANDIR)/man4/aca.4
	install -D -m 0644 man/aca-relay.8 $(DESTDIR)$(MANDIR)/man8/aca-relay.8
	$(system_reload)

uninstall:
	@if [ -z "$(DESTDIR)" ] && [ -d /run/systemd/system ]; then \
		systemctl disable --now aca-relay.service 2>/dev/null || true; fi
	rm -f $(INSTALLED)
	$(system_reload)

dkms-check:
	@tools/dkms-check $(SUPPORTED_KERNELS)

man-check:
	@rc=0; for p in $(MAN_PAGES); do \
		out=$$( { LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings=all -l $$p >/dev/null; } 2>&1; \
			mandoc -T lint -W style $$p 2>&1; groff -man -ww -z $$p 2>&1 ); \
		if [ -n "$$out" ]; then echo "$$out"; echo "man-check: $$p: FAILED"; rc=1; \
		else echo "man-check: $$p: man -l, mandoc -T lint, groff -ww clean"; fi; \
	done; exit $$rc

version:
	@echo $(ACA_VERSION)
# ---- end of install

# ---- host tools: the spin workload and the unit tests of aca-host
#   build/spin               a known hotspot: THREADS threads in aca_hot_spin()
#   build/burst              a known count of context switches and page faults
#   build/tests/host_*_test  aca-host without a target VM, one kselftest
#                            program per topic (HOST_TESTS): ECBs, record
#                            decoding, ELF symbols, attribution, collect
#                            against a scripted loopback target, the command
#                            line, the report's views (the flame graph drawn
#                            by headless Chromium, the PNG read with libpng),
#                            aca-host top on a terminal (tmux)
# spin keeps its symbols and frame pointers whatever CFLAGS say: profiles of
# it must be easy to attribute.
SPIN_CFLAGS := -D_GNU_SOURCE -std=gnu11 -O1 -g -fno-omit-frame-pointer $(WARNINGS)

# Each selftests/host/TOPIC_test.c is built as $(B)/tests/host_TOPIC_test,
# linked with the helpers every topic shares (HOST_TEST_LIB_SRC: the dir
# fixture's state, synthetic collections, the scripted target, the
# stackcollapse yardstick), one object each under build/obj/host-tests,
# rebuilt when its source, a header it includes (-MMD), the flags or
# WERROR (CORE_OBJ_STAMP) change; and libaca-host.a. The programs run
# build/aca-host and build/spin, so they are built after them.
HOST_TESTS := $(patsubst selftests/host/%.c,$(B)/tests/host_%,$(wildcard selftests/host/*_test.c))
HOST_TEST_LIB_SRC := $(addprefix selftests/host/,host_dir.c synth.c mock_target.c stackcollapse.c \
	spin_collection.c)
HOST_TEST_OBJ := $(B)/obj/host-tests
HOST_TEST_LIB_OBJ := $(HOST_TEST_LIB_SRC:selftests/host/%.c=$(HOST_TEST_OBJ)/%.o)

tests: $(HOST_TESTS) $(B)/spin $(B)/burst $(B)/tests/sw-ecb

$(B)/spin: selftests/workload/spin.c $(UFLAGS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(SPIN_CFLAGS) -o $@ $< -pthread

$(B)/burst: selftests/workload/burst.c $(UFLAGS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(SPIN_CFLAGS) -o $@ $< -pthread

# A sampling ECB of a software event, for selftests/vm/swevents.
$(B)/tests/sw-ecb: selftests/vm/sw-ecb.c $(HOST_LIB) $(wildcard tools/aca-host/*.h) $(SEP_HDR) $(UFLAGS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) -o $@ $< $(HOST_LIB) $(HOST_LIBS)

$(HOST_TEST_LIB_OBJ): $(HOST_TEST_OBJ)/%.o: selftests/host/%.c $(UFLAGS_STAMP) $(CORE_OBJ_STAMP)
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) -MMD -MP -c -o $@ $<
-include $(HOST_TEST_LIB_OBJ:.o=.d)

$(HOST_TESTS): $(B)/tests/host_%: selftests/host/%.c $(HOST_TEST_LIB_OBJ) $(HOST_LIB) \
		$(wildcard selftests/host/*.h tools/aca-host/*.h) $(SEP_HDR) \
		$(KSRC)/.stamp $(UFLAGS_STAMP) $(B)/spin $(B)/aca-host
	$(if $(filter -lpng,$(HOST_TEST_LDLIBS)),$(call need,png.h,libpng-dev))
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) $(HARNESS_INC) -o $@ $< $(HOST_TEST_LIB_OBJ) $(HOST_LIB) -pthread \
		$(HOST_LIBS) $(HOST_TEST_LDLIBS)

# The flame graph test reads headless Chromium's screenshot with libpng.
$(B)/tests/host_views_test: HOST_TEST_LDLIBS := -lpng
# ---- end of host tools

# ---- bench tools (make bench): the workloads and the host's stream sink.
# make check builds them (-Werror) with the tests, so they do not rot.
tests: $(BENCH_TOOLS)

$(B)/bench/%: bench/%.c $(UFLAGS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) -o $@ $< -pthread
# ---- end of bench tools

# tools/vm/run --nic tap builds its forwarder into its cache when it needs
# it; make check builds it here too (-Werror), so that it does not rot.
tests: $(B)/vm-fwd
$(B)/vm-fwd: tools/vm/fwd.c $(UFLAGS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(UCFLAGS) -o $@ $<
