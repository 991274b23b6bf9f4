/*
 * no-runtime.h - what runtime.c defines, for unit tests of the sampler's
 * files that link without it: no run is being recorded (rt_current is
 * NULL), and notices are printed as TAP diagnostics.  Included by one
 * test file each, which is its own program.
 */
#ifndef CPPERF_NO_RUNTIME_H
#define CPPERF_NO_RUNTIME_H

#include <stdarg.h>
#include <stdio.h>

#include "../../sampler/rt.h"

struct rt_state *rt_current(void)
{
	return NULL;
}

void rt_notice(const struct rt_state *rt, const char *fmt, ...)
{
	va_list ap;

	(void)rt;
	printf("# notice: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

#endif
