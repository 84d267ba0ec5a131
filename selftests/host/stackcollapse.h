/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * An independent folding of perf script text by the rules of FlameGraph's
 * stackcollapse-perf.pl in its default mode (written from those rules, not
 * a copy of the script): the test's yardstick for `aca-host report
 * --folded`. Rules, per line:
 *  - "#..." is skipped; an empty line ends a sample: its stack, process
 *    name first, is counted with the sample's period;
 *  - /^(\S.+?)\s+(\d+)[/]*(\d+)*\s+/ starts a sample: $1 is the comm
 *    (spaces become '_'); /:\s*(\d+)*\s+(\S+):\s*$/ gives its period
 *    (none or 0: 1) and event (samples of other events than the first
 *    seen are left out);
 *  - /^\s*(\w+)\s*(.+) \((\S*)\)/ is a frame: $2 without a trailing
 *    +0xHEX is the function, $3 the module; a function starting with '('
 *    is skipped; it is split at "->" (empty trailing parts dropped); a
 *    part "[unknown]" becomes "[" basename(module) "]" unless the module
 *    is "[unknown]"; then tidied (';' to ':'; unless it matches
 *    /\.\(.*\)\./: '<' '>' dropped and, unless it starts with
 *    "(anonymous namespace)", cut from its first '('; quotes dropped);
 *    the parts go before the frames seen so far (callers come later);
 *  - anything else is ignored.
 * Output: "stack count" lines sorted bytewise.
 */
#ifndef ACA_HOST_TEST_STACKCOLLAPSE_H
#define ACA_HOST_TEST_STACKCOLLAPSE_H

/* Fold @text; a malloc()ed string, or NULL when out of memory. */
char *stackcollapse_perf(const char *text);

#endif /* ACA_HOST_TEST_STACKCOLLAPSE_H */
